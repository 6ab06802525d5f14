//! Priority classes under load (part of `cargo xtask bench`).
//!
//! **Latency.** 1,000 High tasks per second (~50 µs each) arrive from one
//! thread while 2 Background producers keep the pool saturated with
//! ~200 µs tasks: the High tasks' queue delay (submit to start) p50/p99,
//! and the Background throughput. Systems (2 threads of work each, except
//! rayon's two pools): this runtime `Strict`, this runtime
//! `Weighted {16, 4, 1}`, tokio multi-thread (no priorities), rayon with a
//! High pool and a Background pool of 2 threads each (the usual
//! workaround), and the global-queue baseline (strict priorities).
//!
//! **Long Background tasks.** The same High arrivals while the
//! Background tasks run 2 ms each, on this runtime only: what a High task
//! waits for when no worker finishes a task for milliseconds, without and
//! with `rt::checkpoint()` called every ~20 µs inside the Background tasks,
//! under `Strict` and `Weighted`.
//!
//! **Shares.** All three classes saturated (~100 µs tasks) with
//! `Weighted {16, 4, 1}`: the CPU time per class (`Runtime::stats`)
//! against the weights; the same run under `Strict` shows the starvation.
//!
//! Options (after `--`): `--quick` (2 rounds of 2 s runs, the default),
//! `--full` (3 rounds of 5 s), `--rounds N`, `--seconds S`, `--out DIR`.
//! Each round runs every system in turn, in a shuffled order; the latency
//! table gives medians over rounds. A report goes to
//! `target/bench/priorities.md`.

use rt_bench_report::cli;
use std::fmt::Write as _;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::{Duration, Instant};

use rt::baselines::GlobalQueuePool;
use rt::{Executor, Job, Priority, PriorityPolicy, Runtime};
use rt_bench_report::format::Unit;
use rt_bench_report::summary::{Line, Measured, Section};

const WORKERS: usize = 2;
const WEIGHTS: PriorityPolicy = PriorityPolicy::Weighted {
    high: 16,
    normal: 4,
    background: 1,
};
/// Background tasks each producer keeps queued or running.
const OUTSTANDING: usize = 16;

type Task = Box<dyn FnOnce() + Send>;

/// A pool the benchmark can hand a task at a priority.
trait Pool: Send + Sync {
    fn submit(&self, priority: Priority, task: Task);
}

impl Pool for Runtime {
    fn submit(&self, priority: Priority, task: Task) {
        drop(self.spawn_with_priority(priority, task));
    }
}

impl Pool for GlobalQueuePool {
    fn submit(&self, priority: Priority, task: Task) {
        let (job, handle) = Job::new(task);
        drop(handle);
        Executor::submit(self, priority, job).expect("the pool is running");
    }
}

struct Tokio(tokio::runtime::Runtime);

impl Pool for Tokio {
    fn submit(&self, _priority: Priority, task: Task) {
        drop(self.0.spawn(async move { task() }));
    }
}

/// rayon has no priorities: the usual workaround is one pool per class.
struct RayonTwoPools {
    high: rayon::ThreadPool,
    background: rayon::ThreadPool,
}

impl Pool for RayonTwoPools {
    fn submit(&self, priority: Priority, task: Task) {
        match priority {
            Priority::High => self.high.spawn(task),
            _ => self.background.spawn(task),
        }
    }
}

fn spin(d: Duration) {
    let started = Instant::now();
    while started.elapsed() < d {
        std::hint::spin_loop();
    }
}

/// What a Background task does.
#[derive(Clone, Copy, Debug)]
enum Work {
    /// Busy for this long.
    Spin(Duration),
    /// Busy for `total`, calling `rt::checkpoint()` every `every`.
    SpinWithCheckpoints { total: Duration, every: Duration },
}

impl Work {
    fn run(self) {
        match self {
            Work::Spin(d) => spin(d),
            Work::SpinWithCheckpoints { total, every } => {
                let started = Instant::now();
                while started.elapsed() < total {
                    spin(every);
                    rt::checkpoint();
                }
            }
        }
    }
}

fn rt_pool(policy: PriorityPolicy) -> Runtime {
    Runtime::builder()
        .threads(WORKERS)
        .priority_policy(policy)
        .measure_cpu_time(true)
        .build()
        .expect("start the runtime")
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum System {
    RtStrict,
    RtWeighted,
    Tokio,
    RayonTwoPools,
    GlobalQueue,
}

impl System {
    const ALL: [System; 5] = [
        System::RtStrict,
        System::RtWeighted,
        System::Tokio,
        System::RayonTwoPools,
        System::GlobalQueue,
    ];

    fn name(self) -> &'static str {
        match self {
            System::RtStrict => "rt Strict",
            System::RtWeighted => "rt Weighted {16, 4, 1}",
            System::Tokio => "tokio multi-thread (no priorities)",
            System::RayonTwoPools => "rayon, two pools (2 + 2 threads)",
            System::GlobalQueue => "global-queue baseline (strict)",
        }
    }

    fn start(self) -> Arc<dyn Pool> {
        match self {
            System::RtStrict => Arc::new(rt_pool(PriorityPolicy::Strict)),
            System::RtWeighted => Arc::new(rt_pool(WEIGHTS)),
            System::Tokio => Arc::new(Tokio(
                tokio::runtime::Builder::new_multi_thread()
                    .worker_threads(WORKERS)
                    .build()
                    .expect("start tokio"),
            )),
            System::RayonTwoPools => {
                let pool = || {
                    rayon::ThreadPoolBuilder::new()
                        .num_threads(WORKERS)
                        .build()
                        .expect("start rayon")
                };
                Arc::new(RayonTwoPools {
                    high: pool(),
                    background: pool(),
                })
            }
            System::GlobalQueue => {
                Arc::new(GlobalQueuePool::new(WORKERS).expect("start the baseline"))
            }
        }
    }
}

/// How long each Background task runs in the long-task runs.
const LONG_TASK: Duration = Duration::from_millis(2);
/// How often those tasks call `rt::checkpoint()`, where they do.
const CHECKPOINT_EVERY: Duration = Duration::from_micros(20);

/// One case of the long-task runs: the runtime's policy, and whether its
/// Background tasks call `rt::checkpoint()`.
struct LongCase {
    name: &'static str,
    policy: PriorityPolicy,
    work: Work,
}

fn long_cases() -> [LongCase; 4] {
    let plain = Work::Spin(LONG_TASK);
    let checkpoints = Work::SpinWithCheckpoints {
        total: LONG_TASK,
        every: CHECKPOINT_EVERY,
    };
    [
        LongCase {
            name: "rt Strict",
            policy: PriorityPolicy::Strict,
            work: plain,
        },
        LongCase {
            name: "rt Strict, `checkpoint()` every 20 µs",
            policy: PriorityPolicy::Strict,
            work: checkpoints,
        },
        LongCase {
            name: "rt Weighted {16, 4, 1}",
            policy: WEIGHTS,
            work: plain,
        },
        LongCase {
            name: "rt Weighted {16, 4, 1}, `checkpoint()` every 20 µs",
            policy: WEIGHTS,
            work: checkpoints,
        },
    ]
}

/// One latency run's numbers.
struct Latency {
    high_p50: Duration,
    high_p99: Duration,
    high_done: usize,
    background_per_second: f64,
}

/// Keeps `OUTSTANDING` tasks of `priority` (each `work` long) queued or
/// running on `pool` until `stop`; counts the ones that ran.
fn producer(
    pool: Arc<dyn Pool>,
    priority: Priority,
    work: Work,
    stop: Arc<AtomicBool>,
    done: Arc<AtomicUsize>,
) -> thread::JoinHandle<()> {
    thread::spawn(move || {
        let outstanding = Arc::new(AtomicUsize::new(0));
        while !stop.load(Ordering::Relaxed) {
            if outstanding.load(Ordering::Relaxed) >= OUTSTANDING {
                thread::sleep(Duration::from_micros(50));
                continue;
            }
            outstanding.fetch_add(1, Ordering::Relaxed);
            let (outstanding, stop, done) = (outstanding.clone(), stop.clone(), done.clone());
            pool.submit(
                priority,
                Box::new(move || {
                    if !stop.load(Ordering::Relaxed) {
                        work.run();
                        done.fetch_add(1, Ordering::Relaxed);
                    }
                    outstanding.fetch_sub(1, Ordering::Relaxed);
                }),
            );
        }
    })
}

fn latency_run(system: System, seconds: f64) -> Latency {
    latency_run_on(
        system.start(),
        Work::Spin(Duration::from_micros(200)),
        seconds,
    )
}

/// High arrivals on `pool` while two producers keep it saturated with
/// Background tasks doing `background`.
fn latency_run_on(pool: Arc<dyn Pool>, background: Work, seconds: f64) -> Latency {
    let stop = Arc::new(AtomicBool::new(false));
    let background_done = Arc::new(AtomicUsize::new(0));
    let producers: Vec<_> = (0..2)
        .map(|_| {
            producer(
                pool.clone(),
                Priority::Background,
                background,
                stop.clone(),
                background_done.clone(),
            )
        })
        .collect();
    // Let the Background load fill the pool first.
    thread::sleep(Duration::from_millis(100));
    let delays = Arc::new(Mutex::new(Vec::new()));
    let started = Instant::now();
    let background_before = background_done.load(Ordering::Relaxed);
    let run = Duration::from_secs_f64(seconds);
    let mut next = Instant::now();
    while started.elapsed() < run {
        next += Duration::from_millis(1);
        if let Some(wait) = next.checked_duration_since(Instant::now()) {
            thread::sleep(wait);
        }
        let submitted = Instant::now();
        let delays = delays.clone();
        pool.submit(
            Priority::High,
            Box::new(move || {
                let delay = submitted.elapsed();
                spin(Duration::from_micros(50));
                delays.lock().unwrap().push(delay);
            }),
        );
    }
    let took = started.elapsed().as_secs_f64();
    let background = background_done.load(Ordering::Relaxed) - background_before;
    // Let the last High tasks finish before reading their delays.
    thread::sleep(Duration::from_millis(100));
    stop.store(true, Ordering::Relaxed);
    for p in producers {
        p.join().expect("a producer panicked");
    }
    let mut delays = std::mem::take(&mut *delays.lock().unwrap());
    delays.sort_unstable();
    let at = |q: f64| delays[((delays.len() - 1) as f64 * q).round() as usize];
    Latency {
        high_p50: at(0.50),
        high_p99: at(0.99),
        high_done: delays.len(),
        background_per_second: background as f64 / took,
    }
}

/// CPU time per class, as fractions, with all three classes saturated.
fn shares_run(policy: PriorityPolicy, seconds: f64) -> [f64; 3] {
    let rt: Arc<Runtime> = Arc::new(rt_pool(policy));
    let pool: Arc<dyn Pool> = rt.clone();
    let stop = Arc::new(AtomicBool::new(false));
    let done = Arc::new(AtomicUsize::new(0));
    let producers: Vec<_> = Priority::ALL
        .into_iter()
        .map(|p| {
            producer(
                pool.clone(),
                p,
                Work::Spin(Duration::from_micros(100)),
                stop.clone(),
                done.clone(),
            )
        })
        .collect();
    thread::sleep(Duration::from_millis(100));
    let before = rt.stats().cpu_time.expect("measured");
    thread::sleep(Duration::from_secs_f64(seconds));
    let after = rt.stats().cpu_time.expect("measured");
    stop.store(true, Ordering::Relaxed);
    for p in producers {
        p.join().expect("a producer panicked");
    }
    let used: Vec<f64> = rt::Priority::ALL
        .iter()
        .map(|&p| (after[p] - before[p]).as_secs_f64())
        .collect();
    let total: f64 = used.iter().sum();
    [used[0] / total, used[1] / total, used[2] / total]
}

fn main() {
    let mut seconds = 2.0;
    let mut rounds = 2;
    let mut out = cli::default_out_dir();
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--quick" => (seconds, rounds) = (2.0, 2),
            "--full" => (seconds, rounds) = (5.0, 3),
            "--rounds" => rounds = cli::value(&mut args, "--rounds N"),
            "--seconds" => seconds = cli::value(&mut args, "--seconds S"),
            "--out" => out = cli::value(&mut args, "--out DIR"),
            "--bench" => {}
            other => panic!("unknown option {other}"),
        }
    }
    assert!(
        seconds > 0.0 && rounds > 0,
        "--seconds and --rounds must be positive"
    );

    let mut order: Vec<usize> = (0..System::ALL.len()).collect();
    let mut seed = 0x9E37_79B9_7F4A_7C15;
    let mut latencies: Vec<Vec<Latency>> = (0..System::ALL.len()).map(|_| Vec::new()).collect();
    for round in 0..rounds {
        cli::shuffle(&mut order, &mut seed);
        for &i in &order {
            cli::progress(&format!(
                "[round {}/{rounds}] High latency: {}",
                round + 1,
                System::ALL[i].name()
            ));
            latencies[i].push(latency_run(System::ALL[i], seconds));
        }
    }
    let cases = long_cases();
    let mut long: Vec<Vec<Latency>> = (0..cases.len()).map(|_| Vec::new()).collect();
    let mut long_order: Vec<usize> = (0..cases.len()).collect();
    for round in 0..rounds {
        cli::shuffle(&mut long_order, &mut seed);
        for &i in &long_order {
            cli::progress(&format!(
                "[round {}/{rounds}] High behind 2 ms tasks: {}",
                round + 1,
                cases[i].name
            ));
            let pool: Arc<dyn Pool> = Arc::new(rt_pool(cases[i].policy));
            long[i].push(latency_run_on(pool, cases[i].work, seconds));
        }
    }
    cli::progress("[shares] weighted, then strict");
    let weighted = shares_run(WEIGHTS, seconds);
    let strict = shares_run(PriorityPolicy::Strict, seconds);
    cli::progress("");

    let mut report = String::new();
    let _ = writeln!(
        report,
        "## Priority classes under load\n\n\
         ### High latency under a saturating Background load\n\n\
         1,000 High tasks/s (~50 µs each) from one thread for {seconds} s, while 2 \
         Background producers keep {OUTSTANDING} tasks each (~200 µs) queued; {WORKERS} \
         threads of work per pool (rayon: {WORKERS} per class). Queue delay is submit to \
         start. Medians of {rounds} rounds (systems interleaved, shuffled).\n\n\
         | system | High p50 (µs) | High p99 (µs) | High tasks run | Background tasks/s |\n\
         |---|---:|---:|---:|---:|"
    );
    for (system, runs) in System::ALL.iter().zip(&latencies) {
        latency_row(&mut report, system.name(), runs);
    }
    let _ = writeln!(
        report,
        "\n### High behind long Background tasks\n\n\
         The same High arrivals while 2 producers keep {OUTSTANDING} Background tasks \
         each of {} ms queued, on this runtime with {WORKERS} workers: without, then \
         with `rt::checkpoint()` called every {} µs inside the Background tasks. \
         Medians of {rounds} rounds.\n\n\
         | system | High p50 (µs) | High p99 (µs) | High tasks run | Background tasks/s |\n\
         |---|---:|---:|---:|---:|",
        LONG_TASK.as_millis(),
        CHECKPOINT_EVERY.as_micros()
    );
    for (case, runs) in cases.iter().zip(&long) {
        latency_row(&mut report, case.name, runs);
    }
    let _ = writeln!(
        report,
        "\n### CPU shares with every class saturated\n\n\
         Three producers keep {OUTSTANDING} tasks (~100 µs) of each class queued for \
         {seconds} s; CPU time per class from `Runtime::stats`.\n\n\
         | policy | High | Normal | Background |\n|---|---:|---:|---:|\n\
         | weights 16 : 4 : 1 (target) | {:.1}% | {:.1}% | {:.1}% |",
        1600.0 / 21.0,
        400.0 / 21.0,
        100.0 / 21.0
    );
    for (name, shares) in [("rt Weighted {16, 4, 1}", weighted), ("rt Strict", strict)] {
        let _ = writeln!(
            report,
            "| {name} | {:.1}% | {:.1}% | {:.1}% |",
            shares[0] * 100.0,
            shares[1] * 100.0,
            shares[2] * 100.0
        );
    }
    cli::write_report(&out, "priorities.md", &report);
    summary(&latencies, &long).write(&out);
}

/// A row of a latency table: medians over the rounds.
fn latency_row(report: &mut String, name: &str, runs: &[Latency]) {
    let median = |f: &dyn Fn(&Latency) -> f64| {
        let mut values: Vec<f64> = runs.iter().map(f).collect();
        values.sort_by(f64::total_cmp);
        values[values.len() / 2]
    };
    let _ = writeln!(
        report,
        "| {name} | {:.0} | {:.0} | {:.0} | {:.0} |",
        median(&|l| l.high_p50.as_secs_f64() * 1e6),
        median(&|l| l.high_p99.as_secs_f64() * 1e6),
        median(&|l| l.high_done as f64),
        median(&|l| l.background_per_second)
    );
}

/// The summary's section: the High tasks' queue delay on the runtime
/// (strict, then weighted) against the pools without priority classes or
/// with the usual workarounds; then, behind long Background tasks, the
/// runtime with `checkpoint` against itself without.
fn summary(latencies: &[Vec<Latency>], long: &[Vec<Latency>]) -> Section {
    let peers = [
        (System::Tokio, "tokio"),
        (System::RayonTwoPools, "rayon, 2 pools"),
        (System::GlobalQueue, "global queue"),
    ];
    let mut section = Section::new(
        "priorities",
        "High tasks beside a saturating Background load: rt vs tokio, rayon (2 pools), global queue",
    );
    let at = |s: System| System::ALL.iter().position(|x| *x == s).unwrap();
    let measured = |s: System, figure: fn(&Latency) -> Duration| {
        let values: Vec<f64> = latencies[at(s)]
            .iter()
            .map(|l| figure(l).as_secs_f64() * 1e6)
            .collect();
        Measured::of_rounds(&values)
    };
    for (what, rt, figure) in [
        (
            "High p50 queue delay, Strict",
            System::RtStrict,
            (|l: &Latency| l.high_p50) as fn(&Latency) -> Duration,
        ),
        ("High p99 queue delay, Strict", System::RtStrict, |l| {
            l.high_p99
        }),
        ("High p99 queue delay, Weighted", System::RtWeighted, |l| {
            l.high_p99
        }),
    ] {
        section.push(Line::new(
            what,
            Unit::Micros,
            measured(rt, figure),
            peers.iter().map(|&(s, name)| (name, measured(s, figure))),
        ));
    }
    let p50 = |runs: &Vec<Latency>| {
        let values: Vec<f64> = runs
            .iter()
            .map(|l| l.high_p50.as_secs_f64() * 1e6)
            .collect();
        Measured::of_rounds(&values)
    };
    section.push(Line::new(
        "High p50 behind 2 ms Background tasks, Strict, with `checkpoint()`",
        Unit::Micros,
        p50(&long[1]),
        [("rt without checkpoint", p50(&long[0]))],
    ));
    section
}
