//! The soak test behind `cargo xtask soak [--seconds N]` (default 60).
//!
//! Runs create/shutdown cycles until the time is up. In each cycle a runtime
//! of 1 to 4 workers is built and 8 producer threads spawn a mix of tasks at
//! all three priorities: tiny ones, heavy ones, ones that spawn children,
//! about 1% that panic, ones whose token is cancelled at random and ones
//! cancelled through their handle; about a third of the handles are dropped
//! unjoined. One cycle in four is shut down while the producers are still
//! spawning, so refusals race acceptance.
//!
//! After every cycle it checks that the runtime's metrics match what the
//! tasks themselves counted (`submitted == completed + panicked + cancelled`,
//! and each term equal to the bodies that returned, panicked or never ran),
//! that every joined handle returned the right value or the right error, and
//! that peak memory stays flat. Any mismatch ends the run with a non-zero
//! exit. The last line is a one-line summary with tasks per second.
//!
//! Run: `cargo run --release -p rt-core --example soak -- --seconds 60`.

use std::process::ExitCode;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::{Duration, Instant};

use rt_core::{CancellationToken, JoinError, JoinHandle, Priority, Runtime};

const PRODUCERS: usize = 8;
/// Tasks each producer spawns per cycle (children not counted).
const TASKS_PER_PRODUCER: u64 = 2_000;
/// A producer joins its kept handles once it holds this many, which bounds
/// the work in flight and so the memory a healthy run needs.
const JOIN_BATCH: usize = 64;
/// Growth of peak memory from the first cycle to the last that still counts
/// as flat: a leak of even one small allocation per task over a minute of
/// soaking is far above it.
const FLAT_MEMORY_SLACK: u64 = 64 << 20;
/// Every deliberate panic message starts with this, so the panic hook can
/// keep them quiet.
const PANIC_PREFIX: &str = "soak: deliberate panic of task";

fn main() -> ExitCode {
    let seconds = match parse_seconds() {
        Ok(s) => s,
        Err(message) => {
            eprintln!("soak: {message}");
            return ExitCode::FAILURE;
        }
    };
    silence_deliberate_panics();
    let report = soak(Duration::from_secs(seconds));
    println!("{}", report.summary());
    if report.passed() {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}

fn parse_seconds() -> Result<u64, String> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args.as_slice() {
        [] => Ok(60),
        [flag, n] if flag == "--seconds" => n
            .parse()
            .map_err(|_| format!("`--seconds` takes a whole number, not `{n}`")),
        _ => Err("usage: soak [--seconds N]".to_owned()),
    }
}

/// What the whole run saw.
#[derive(Default)]
struct Report {
    elapsed: Duration,
    cycles: u64,
    tasks: u64,
    lost: u64,
    wrong: u64,
    peak_rss_start: Option<u64>,
    peak_rss_end: Option<u64>,
}

impl Report {
    fn memory_is_flat(&self) -> bool {
        match (self.peak_rss_start, self.peak_rss_end) {
            (Some(start), Some(end)) => end <= start + FLAT_MEMORY_SLACK,
            _ => true,
        }
    }

    fn passed(&self) -> bool {
        self.lost == 0 && self.wrong == 0 && self.memory_is_flat() && self.cycles > 0
    }

    fn summary(&self) -> String {
        let secs = self.elapsed.as_secs_f64();
        let mib = |b: Option<u64>| {
            b.map_or("n/a".to_owned(), |b| {
                format!("{:.1} MiB", b as f64 / 1048576.0)
            })
        };
        format!(
            "soak: {:.0} s, {} cycles, {} tasks ({}/s), {} lost, {} wrong results, \
             peak RSS start {} end {}{}",
            secs,
            thousands(self.cycles),
            thousands(self.tasks),
            thousands((self.tasks as f64 / secs.max(1e-9)) as u64),
            self.lost,
            self.wrong,
            mib(self.peak_rss_start),
            mib(self.peak_rss_end),
            if self.memory_is_flat() {
                ""
            } else {
                " (GREW: FAIL)"
            },
        )
    }
}

fn soak(duration: Duration) -> Report {
    let started = Instant::now();
    let mut report = Report::default();
    while report.cycles == 0 || started.elapsed() < duration {
        let cycle = run_cycle(report.cycles);
        report.cycles += 1;
        report.tasks += cycle.accepted;
        report.lost += cycle.lost;
        report.wrong += cycle.wrong;
        if report.cycles == 1 {
            report.peak_rss_start = peak_rss_bytes();
        }
        if cycle.lost + cycle.wrong > 0 {
            eprintln!("soak: cycle {} failed: {cycle:?}", report.cycles);
            break;
        }
    }
    report.peak_rss_end = peak_rss_bytes();
    report.elapsed = started.elapsed();
    report
}

/// What the tasks of one cycle counted themselves.
#[derive(Default)]
struct Counts {
    accepted: AtomicU64,
    returned: AtomicU64,
    panicked: AtomicU64,
    wrong: AtomicU64,
    /// The first few mismatches, for the report.
    complaints: Mutex<Vec<String>>,
}

impl Counts {
    fn complain(&self, what: String) {
        self.wrong.fetch_add(1, Ordering::Relaxed);
        let mut complaints = self.complaints.lock().unwrap();
        if complaints.len() < 10 {
            complaints.push(what);
        }
    }
}

#[derive(Debug)]
struct CycleResult {
    accepted: u64,
    lost: u64,
    wrong: u64,
}

fn run_cycle(cycle: u64) -> CycleResult {
    let workers = 1 + (cycle % 4) as usize;
    let rt = Arc::new(
        Runtime::builder()
            .threads(workers)
            .thread_name("soak")
            .build()
            .expect("a runtime of at most 4 workers starts"),
    );
    let counts = Arc::new(Counts::default());
    let shutdown_early = cycle % 4 == 3;
    thread::scope(|scope| {
        for producer in 0..PRODUCERS {
            let (rt, counts) = (rt.clone(), counts.clone());
            let seed = cycle * PRODUCERS as u64 + producer as u64;
            scope.spawn(move || produce(&rt, &counts, Rng::new(seed)));
        }
        if shutdown_early {
            // Shut down while the producers are still spawning: later spawns
            // are refused, everything accepted still runs.
            thread::sleep(Duration::from_millis(1 + cycle % 5));
            rt.shutdown();
        }
    });
    rt.shutdown();

    let m = rt.metrics();
    let accepted = counts.accepted.load(Ordering::Relaxed);
    let returned = counts.returned.load(Ordering::Relaxed);
    let panicked = counts.panicked.load(Ordering::Relaxed);
    let check = |ok: bool, what: String| {
        if !ok {
            counts.complain(what);
        }
    };
    check(
        m.submitted == accepted,
        format!(
            "submitted {} but tasks counted {accepted} accepted",
            m.submitted
        ),
    );
    check(
        m.completed == returned,
        format!("completed {} but {returned} bodies returned", m.completed),
    );
    check(
        m.panicked == panicked,
        format!("panicked {} but {panicked} bodies panicked", m.panicked),
    );
    check(
        m.cancelled == accepted.saturating_sub(returned + panicked),
        format!(
            "cancelled {} but {} accepted tasks never ran",
            m.cancelled,
            accepted.saturating_sub(returned + panicked)
        ),
    );
    let finished = m.completed + m.panicked + m.cancelled;
    let lost = m.submitted.saturating_sub(finished) + finished.saturating_sub(m.submitted);
    for complaint in counts.complaints.lock().unwrap().iter() {
        eprintln!("soak: cycle {cycle}: {complaint}");
    }
    CycleResult {
        accepted,
        lost,
        wrong: counts.wrong.load(Ordering::Relaxed),
    }
}

/// What a kept handle must return when joined.
enum Expect {
    Value(u64),
    /// Its token may have been cancelled before it started.
    ValueOrCancelled(u64),
    /// `JoinHandle::cancel` returned true.
    Cancelled,
    Panic(String),
    /// Spawned after shutdown began.
    Rejected,
}

enum Kept {
    Task(JoinHandle<u64>, Expect, u64),
    /// A task that spawns children and returns the handles it kept; true
    /// if the runtime refused the parent itself.
    Parent(JoinHandle<Vec<(JoinHandle<u64>, u64)>>, bool, u64),
}

fn produce(rt: &Arc<Runtime>, counts: &Arc<Counts>, mut rng: Rng) {
    let mut kept = Vec::with_capacity(JOIN_BATCH);
    let mut token = CancellationToken::new();
    for n in 0..TASKS_PER_PRODUCER {
        let id = rng.next() >> 16;
        let priority =
            [Priority::High, Priority::Normal, Priority::Background][rng.below(3) as usize];
        let keep = rng.below(3) != 0;
        let roll = rng.below(1000);
        let item = if roll < 10 {
            spawn_panicking(rt, counts, priority, id)
        } else if roll < 100 {
            spawn_parent(rt, counts, priority, id, 1 + rng.below(4))
        } else if roll < 250 {
            spawn_heavy(rt, counts, priority, id, 2_000 + rng.below(20_000))
        } else if roll < 350 {
            spawn_with_token(rt, counts, priority, id, &token)
        } else if roll < 450 {
            spawn_then_cancel(rt, counts, priority, id)
        } else {
            spawn_tiny(rt, counts, priority, id)
        };
        if rng.below(200) == 0 {
            token.cancel();
            token = CancellationToken::new();
        }
        if keep {
            kept.push(item);
        }
        if kept.len() >= JOIN_BATCH || n + 1 == TASKS_PER_PRODUCER {
            for item in kept.drain(..) {
                check_joined(rt, counts, item);
            }
        }
    }
}

/// Counts the task as accepted unless the runtime refused it, and says what
/// to expect if it was refused.
fn accept<T>(counts: &Counts, handle: &JoinHandle<T>) -> Option<Expect> {
    if handle.status() == rt_core::TaskStatus::Rejected {
        Some(Expect::Rejected)
    } else {
        counts.accepted.fetch_add(1, Ordering::Relaxed);
        None
    }
}

fn value_of(id: u64) -> u64 {
    id.wrapping_mul(3).wrapping_add(1)
}

fn spawn_tiny(rt: &Runtime, counts: &Arc<Counts>, priority: Priority, id: u64) -> Kept {
    let c = counts.clone();
    let handle = rt.spawn_with_priority(priority, move || {
        c.returned.fetch_add(1, Ordering::Relaxed);
        value_of(id)
    });
    let expect = accept(counts, &handle).unwrap_or(Expect::Value(value_of(id)));
    Kept::Task(handle, expect, id)
}

fn spawn_heavy(
    rt: &Runtime,
    counts: &Arc<Counts>,
    priority: Priority,
    id: u64,
    rounds: u64,
) -> Kept {
    let c = counts.clone();
    let handle = rt.spawn_with_priority(priority, move || {
        let mut acc = id;
        for i in 0..rounds {
            acc = std::hint::black_box(acc.rotate_left(5) ^ i);
        }
        std::hint::black_box(acc);
        c.returned.fetch_add(1, Ordering::Relaxed);
        value_of(id)
    });
    let expect = accept(counts, &handle).unwrap_or(Expect::Value(value_of(id)));
    Kept::Task(handle, expect, id)
}

fn spawn_panicking(rt: &Runtime, counts: &Arc<Counts>, priority: Priority, id: u64) -> Kept {
    let c = counts.clone();
    let message = format!("{PANIC_PREFIX} {id}");
    let thrown = message.clone();
    let handle = rt.spawn_with_priority(priority, move || -> u64 {
        c.panicked.fetch_add(1, Ordering::Relaxed);
        panic!("{thrown}");
    });
    let expect = accept(counts, &handle).unwrap_or(Expect::Panic(message));
    Kept::Task(handle, expect, id)
}

fn spawn_with_token(
    rt: &Runtime,
    counts: &Arc<Counts>,
    priority: Priority,
    id: u64,
    token: &CancellationToken,
) -> Kept {
    let c = counts.clone();
    let handle = rt.spawn_cancellable(priority, token, move |_ctx| {
        c.returned.fetch_add(1, Ordering::Relaxed);
        value_of(id)
    });
    let expect = accept(counts, &handle).unwrap_or(Expect::ValueOrCancelled(value_of(id)));
    Kept::Task(handle, expect, id)
}

fn spawn_then_cancel(rt: &Runtime, counts: &Arc<Counts>, priority: Priority, id: u64) -> Kept {
    let c = counts.clone();
    let handle = rt.spawn_with_priority(priority, move || {
        c.returned.fetch_add(1, Ordering::Relaxed);
        value_of(id)
    });
    let expect = match accept(counts, &handle) {
        Some(rejected) => rejected,
        None if handle.cancel() => Expect::Cancelled,
        None => Expect::Value(value_of(id)),
    };
    Kept::Task(handle, expect, id)
}

/// A task that spawns `children` tiny tasks from inside the pool (they go to
/// its worker's own deque), keeps the handles of some and drops the rest.
fn spawn_parent(
    rt: &Arc<Runtime>,
    counts: &Arc<Counts>,
    priority: Priority,
    id: u64,
    children: u64,
) -> Kept {
    let (c, inner) = (counts.clone(), rt.clone());
    let handle = rt.spawn_with_priority(priority, move || {
        let mut kept = Vec::new();
        for k in 0..children {
            let child_id = id.wrapping_add(k + 1);
            let cc = c.clone();
            let child = inner.spawn_with_priority(priority, move || {
                cc.returned.fetch_add(1, Ordering::Relaxed);
                value_of(child_id)
            });
            // Spawned from a worker of this runtime: always accepted.
            c.accepted.fetch_add(1, Ordering::Relaxed);
            if k % 2 == 0 {
                kept.push((child, value_of(child_id)));
            }
        }
        c.returned.fetch_add(1, Ordering::Relaxed);
        kept
    });
    let refused = accept(counts, &handle).is_some();
    Kept::Parent(handle, refused, id)
}

fn check_joined(rt: &Runtime, counts: &Counts, item: Kept) {
    match item {
        Kept::Task(handle, expect, id) => check_task(rt, counts, handle.join(), expect, id),
        Kept::Parent(handle, refused, id) => match (handle.join(), refused) {
            (Ok(children), false) => {
                for (child, value) in children {
                    check_task(rt, counts, child.join(), Expect::Value(value), id);
                }
            }
            (Err(JoinError::Rejected), true) if rt.is_shutdown() => {}
            (other, _) => counts.complain(format!(
                "parent {id} (refused: {refused}): got {:?}",
                other.map(|c| c.len())
            )),
        },
    }
}

fn check_task(rt: &Runtime, counts: &Counts, got: Result<u64, JoinError>, expect: Expect, id: u64) {
    let ok = match (&expect, &got) {
        (Expect::Value(v) | Expect::ValueOrCancelled(v), Ok(g)) => v == g,
        (Expect::ValueOrCancelled(_), Err(JoinError::Cancelled)) => true,
        (Expect::Cancelled, Err(JoinError::Cancelled)) => true,
        (Expect::Panic(message), Err(JoinError::Panicked(g))) => message == g,
        (Expect::Rejected, Err(JoinError::Rejected)) => rt.is_shutdown(),
        _ => false,
    };
    if !ok {
        let expected = match expect {
            Expect::Value(v) => format!("Ok({v})"),
            Expect::ValueOrCancelled(v) => format!("Ok({v}) or Cancelled"),
            Expect::Cancelled => "Cancelled".to_owned(),
            Expect::Panic(m) => format!("Panicked({m:?})"),
            Expect::Rejected => "Rejected".to_owned(),
        };
        counts.complain(format!("task {id}: expected {expected}, got {got:?}"));
    }
}

/// splitmix64: a small, good-enough generator with no dependency.
struct Rng(u64);

impl Rng {
    fn new(seed: u64) -> Self {
        Self(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ 0xD1B5_4A32_D192_ED03)
    }

    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

/// The process's peak resident set size (`VmHWM`), on Linux.
fn peak_rss_bytes() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    let kib: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kib * 1024)
}

/// Keeps the deliberate panics (about 1% of the tasks) off stderr; any other
/// panic is reported as usual.
fn silence_deliberate_panics() {
    let default = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        let payload = info.payload();
        let message = payload
            .downcast_ref::<String>()
            .map(String::as_str)
            .or_else(|| payload.downcast_ref::<&str>().copied());
        if !message.is_some_and(|m| m.starts_with(PANIC_PREFIX)) {
            default(info);
        }
    }));
}

/// `12345678` as `12,345,678`.
fn thousands(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(c);
    }
    out
}
