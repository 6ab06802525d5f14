//! Where the time of `cpu_light (1w)` goes: the suite's 2,000 light tasks
//! on one worker, from the runtime's `execute` on the main thread, from
//! the runtime's `execute` in a task (so on the worker: its cells and queue
//! entries never leave its core), and from a rayon `scope` (whose body
//! runs on rayon's worker), taken apart with timestamps. Not part of `cargo xtask bench`: it explains one of its rows
//! (`docs/BENCHMARKS.md`, "What limits `cpu_light (1w)`").
//!
//! Each round runs both systems in a shuffled order, each after the main
//! thread has been busy for `--gap-us` (default 1,000 µs), as it is in the
//! suite, where rounds follow each other: the worker has parked meanwhile.
//! Per system, medians over `--rounds` (default 201) of:
//! - the whole round, from the first submission to the caller's return;
//! - when the first task starts;
//! - the worker's time per task, from the first task's start to the last
//!   one's end, against the same tasks run inline;
//! - for the runtime from the main thread, that thread's time per
//!   `execute`.
//!
//! The two runtime rows run the same path on the worker; what separates
//! their time per task is the traffic between the submitter's core and the
//! worker's: the cells and queue entries the worker reads were written on
//! the other core.
//!
//! Then the machine alone: how long a thread parked in `thread::park`
//! takes to run after `unpark`, when the waker was busy for the gap before
//! (as the runtime's submitter is) and when it slept through it.
//!
//! `cargo bench -p rt-benches --bench anatomy [-- --rounds N --gap-us G]`

mod common;

use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::{self, Thread};
use std::time::{Duration, Instant};

use rt::runtime::Runtime;
use rt_bench_report::cli;

use common::busy;
use common::workloads::cpu_light_costs;

const TASKS: usize = 2_000;

/// Nanoseconds since the process's epoch: what tasks stamp.
fn stamp(epoch: Instant) -> u64 {
    epoch.elapsed().as_nanos() as u64
}

/// What the tasks of one round record: the first one's start, the last
/// one's end. Only one worker runs them, so the count needs no RMW.
struct Marks {
    epoch: Instant,
    ran: AtomicUsize,
    first: AtomicU64,
    last: AtomicU64,
}

impl Marks {
    fn task(&self, costs: &[u32], i: usize) {
        let ran = self.ran.load(Ordering::Relaxed);
        if ran == 0 {
            self.first.store(stamp(self.epoch), Ordering::Relaxed);
        }
        busy(costs[i % costs.len()], i);
        self.ran.store(ran + 1, Ordering::Relaxed);
        if ran + 1 == TASKS {
            self.last.store(stamp(self.epoch), Ordering::Relaxed);
        }
    }
}

/// The medians of one system's rounds.
#[derive(Default)]
struct Samples {
    total_us: Vec<f64>,
    first_us: Vec<f64>,
    worker_ns: Vec<f64>,
    submit_ns: Vec<f64>,
}

fn median(v: &mut [f64]) -> f64 {
    if v.is_empty() {
        return f64::NAN;
    }
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

fn spin_for(gap: Duration) {
    let start = Instant::now();
    while start.elapsed() < gap {
        std::hint::spin_loop();
    }
}

/// Counts the runtime's tasks down and wakes the main thread at zero.
struct Done {
    left: AtomicUsize,
    waiter: Mutex<Option<Thread>>,
}

impl Done {
    /// Arms the count for a round that the calling thread waits for.
    fn arm(&self) {
        *self.waiter.lock().unwrap() = Some(thread::current());
        self.left.store(TASKS, Ordering::Release);
    }

    fn count_down(&self) {
        if self.left.fetch_sub(1, Ordering::AcqRel) == 1 {
            if let Some(waiter) = self.waiter.lock().unwrap().as_ref() {
                waiter.unpark();
            }
        }
    }

    fn wait(&self) {
        while self.left.load(Ordering::Acquire) != 0 {
            thread::park();
        }
    }
}

/// What a runtime round's tasks share.
#[derive(Clone, Copy)]
struct RtRound {
    rt: &'static Runtime,
    marks: &'static Marks,
    done: &'static Done,
    costs: &'static [u32],
}

impl RtRound {
    /// Task `i`: its body, then the count-down that wakes the main thread.
    fn task(self, i: usize) -> impl FnOnce() + Send + 'static {
        move || {
            self.marks.task(self.costs, i);
            self.done.count_down();
        }
    }

    /// The tasks submitted from the main thread.
    fn submitted_by_main_thread(self, s: &mut Samples) {
        self.marks.ran.store(0, Ordering::Relaxed);
        self.done.arm();
        let start = stamp(self.marks.epoch);
        for i in 0..TASKS {
            self.rt
                .execute(self.task(i))
                .expect("the runtime is running");
        }
        let submitted = stamp(self.marks.epoch);
        self.done.wait();
        record(s, self.marks, start, stamp(self.marks.epoch));
        s.submit_ns.push((submitted - start) as f64 / TASKS as f64);
    }

    /// The tasks submitted by a task, onto its worker's own deque.
    fn submitted_by_a_task(self, s: &mut Samples) {
        self.marks.ran.store(0, Ordering::Relaxed);
        self.done.arm();
        let start = stamp(self.marks.epoch);
        let spawner = move || {
            for i in 0..TASKS {
                self.rt
                    .execute(self.task(i))
                    .expect("a task's spawn is accepted");
            }
        };
        self.rt.execute(spawner).expect("the runtime is running");
        self.done.wait();
        record(s, self.marks, start, stamp(self.marks.epoch));
    }
}

fn round_rayon(
    pool: &rayon::ThreadPool,
    marks: &'static Marks,
    costs: &'static [u32],
    s: &mut Samples,
) {
    marks.ran.store(0, Ordering::Relaxed);
    let start = stamp(marks.epoch);
    pool.scope(|scope| {
        for i in 0..TASKS {
            scope.spawn(move |_| marks.task(costs, i));
        }
    });
    let end = stamp(marks.epoch);
    record(s, marks, start, end);
}

fn record(s: &mut Samples, marks: &Marks, start: u64, end: u64) {
    let first = marks.first.load(Ordering::Relaxed);
    let last = marks.last.load(Ordering::Relaxed);
    s.total_us.push((end - start) as f64 / 1e3);
    s.first_us.push(first.saturating_sub(start) as f64 / 1e3);
    s.worker_ns
        .push(last.saturating_sub(first) as f64 / TASKS as f64);
}

/// Median µs from `unpark` to the parked thread running, over `rounds`
/// wake-ups, the waker spinning (`busy`) or sleeping through `gap` before.
fn wake_latency(rounds: usize, gap: Duration, busy_waker: bool) -> f64 {
    let epoch = Instant::now();
    let woke = Arc::new(AtomicU64::new(0));
    let stop = Arc::new(AtomicBool::new(false));
    let sleeper = {
        let (woke, stop) = (Arc::clone(&woke), Arc::clone(&stop));
        thread::spawn(move || {
            while !stop.load(Ordering::Acquire) {
                thread::park();
                woke.store(stamp(epoch), Ordering::Release);
            }
        })
    };
    let mut latency = Vec::with_capacity(rounds);
    for _ in 0..rounds {
        if busy_waker {
            spin_for(gap);
        } else {
            thread::sleep(gap);
        }
        woke.store(0, Ordering::Relaxed);
        let sent = stamp(epoch);
        sleeper.thread().unpark();
        let woken = loop {
            match woke.load(Ordering::Acquire) {
                0 => std::hint::spin_loop(),
                t => break t,
            }
        };
        latency.push(woken.saturating_sub(sent) as f64 / 1e3);
    }
    stop.store(true, Ordering::Release);
    sleeper.thread().unpark();
    sleeper.join().expect("the sleeper does not panic");
    median(&mut latency)
}

fn main() {
    let mut rounds = 201;
    let mut gap_us = 1_000u64;
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--rounds" => rounds = cli::value(&mut args, "--rounds N"),
            "--gap-us" => gap_us = cli::value(&mut args, "--gap-us G"),
            "--bench" => {}
            other => panic!("unknown option {other}"),
        }
    }
    let gap = Duration::from_micros(gap_us);
    let costs = cpu_light_costs();
    let marks: &'static Marks = Box::leak(Box::new(Marks {
        epoch: Instant::now(),
        ran: AtomicUsize::new(0),
        first: AtomicU64::new(0),
        last: AtomicU64::new(0),
    }));
    let done: &'static Done = Box::leak(Box::new(Done {
        left: AtomicUsize::new(0),
        waiter: Mutex::new(None),
    }));
    let rt: &'static Runtime = Box::leak(Box::new(Runtime::new(1).expect("one worker starts")));
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(1)
        .build()
        .expect("one worker starts");

    let runtime = RtRound {
        rt,
        marks,
        done,
        costs,
    };
    let mut inline = Vec::with_capacity(rounds);
    let (mut rt_s, mut inside_s, mut rayon_s) =
        (Samples::default(), Samples::default(), Samples::default());
    let mut order = [0, 1, 2];
    let mut rng = 0x9E37_79B9_7F4A_7C15u64;
    for round in 0..rounds {
        cli::progress(&format!("round {}/{rounds}", round + 1));
        let start = Instant::now();
        for i in 0..TASKS {
            std::hint::black_box(busy(costs[i % costs.len()], i));
        }
        inline.push(start.elapsed().as_nanos() as f64 / TASKS as f64);
        cli::shuffle(&mut order, &mut rng);
        for &system in &order {
            spin_for(gap);
            match system {
                0 => runtime.submitted_by_main_thread(&mut rt_s),
                1 => runtime.submitted_by_a_task(&mut inside_s),
                _ => round_rayon(&pool, marks, costs, &mut rayon_s),
            }
        }
    }
    cli::progress("");
    rt.shutdown();

    let wake_busy = wake_latency(rounds, gap, true);
    let wake_asleep = wake_latency(rounds, gap, false);

    let inline = median(&mut inline);
    println!("## Where the time of `cpu_light (1w)` goes\n");
    println!(
        "{TASKS} light tasks on one worker; medians of {rounds} rounds, each system after {gap_us} µs of the main thread busy. Inline: {inline:.0} ns per task.\n"
    );
    println!("| system | round (µs) | first task starts (µs) | worker, per task (ns) | over inline (ns) | main thread per `execute` (ns) |");
    println!("|---|---:|---:|---:|---:|---:|");
    for (name, s) in [
        ("rt `execute` from the main thread", &mut rt_s),
        ("rt `execute` from a task", &mut inside_s),
        ("rayon `scope`", &mut rayon_s),
    ] {
        let worker = median(&mut s.worker_ns);
        let submit = median(&mut s.submit_ns);
        let submit = if submit.is_nan() {
            "—".to_owned()
        } else {
            format!("{submit:.0}")
        };
        println!(
            "| {name} | {:.0} | {:.1} | {worker:.0} | {:.0} | {submit} |",
            median(&mut s.total_us),
            median(&mut s.first_us),
            worker - inline,
        );
    }
    println!(
        "\nThe machine: a thread parked in `thread::park` runs {wake_busy:.1} µs after `unpark` when the waker spun for {gap_us} µs before, {wake_asleep:.1} µs when it slept (medians of {rounds})."
    );
}
