//! Offloading CPU work from async code (part of `cargo xtask bench`): a
//! tokio current-thread runtime keeps 64 requests in flight, 20,000 in all,
//! each handing ~20 µs of CPU work to a 2-thread pool and awaiting it in
//! the async task.
//!
//! Systems, each with 2 threads for the work:
//! * `rt await`: `rt.spawn(work)` on this runtime, its `JoinHandle` awaited;
//! * `spawn_blocking`: `tokio::task::spawn_blocking` (at most 2 blocking
//!   threads);
//! * `rayon+oneshot`: `rayon::spawn` sending the result through a
//!   `tokio::sync::oneshot` (the tokio-rayon pattern);
//! * `tokio spawn`: the work as a task of a 2-worker tokio multi-thread
//!   runtime, its `JoinHandle` awaited.
//!
//! Measured per round: throughput (requests per second over the round) and
//! the submit-to-resume latency of every request (from just before the
//! submission to the moment the awaiting task runs again), as p50 and p99.
//! Rounds interleave the systems in a shuffled order; the report gives
//! medians over rounds and ratios to the oneshot pattern.
//!
//! Options (after `--`): `--rounds N` (default 3), `--quick` (3 rounds),
//! `--full` (10 rounds), `--requests N` (default 20,000), `--out DIR`.

use rt_bench_report::cli;
use std::fmt::Write as _;
use std::hint::black_box;
use std::sync::Arc;
use std::time::{Duration, Instant};

use futures::stream::{FuturesUnordered, StreamExt};
use rt_bench_report::format::{self, Unit};
use rt_bench_report::summary::{Line, Measured, Section};

/// Requests in flight at any time.
const IN_FLIGHT: usize = 64;
/// Threads of every pool that runs the work.
const WORKERS: usize = 2;
/// CPU work per request.
const WORK: Duration = Duration::from_micros(20);

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum System {
    RtAwait,
    SpawnBlocking,
    RayonOneshot,
    TokioSpawn,
}

impl System {
    const ALL: [System; 4] = [
        System::RtAwait,
        System::SpawnBlocking,
        System::RayonOneshot,
        System::TokioSpawn,
    ];

    fn name(self) -> &'static str {
        match self {
            System::RtAwait => "rt await",
            System::SpawnBlocking => "spawn_blocking",
            System::RayonOneshot => "rayon+oneshot",
            System::TokioSpawn => "tokio spawn",
        }
    }
}

/// One round's numbers.
#[derive(Clone, Copy)]
struct Round {
    per_second: f64,
    p50: Duration,
    p99: Duration,
}

/// A fixed amount of CPU work: `iterations` rounds of a hash, calibrated to
/// take [`WORK`] on this machine (a count, not a deadline, so a preempted
/// request does not finish early).
#[derive(Clone, Copy)]
struct Work {
    iterations: u64,
}

impl Work {
    fn calibrate() -> Work {
        let probe = Work {
            iterations: 200_000,
        };
        let mut best = Duration::MAX;
        for _ in 0..5 {
            let started = Instant::now();
            black_box(probe.run(1));
            best = best.min(started.elapsed());
        }
        let per_iteration = best.as_secs_f64() / probe.iterations as f64;
        Work {
            iterations: ((WORK.as_secs_f64() / per_iteration) as u64).max(1),
        }
    }

    fn run(self, seed: u64) -> u64 {
        let mut hash = seed;
        for _ in 0..self.iterations {
            hash = black_box(hash.rotate_left(5) ^ hash.wrapping_mul(0x9E37_79B9_7F4A_7C15));
        }
        hash
    }
}

/// The pools, started once and reused by every round.
struct Pools {
    rt: Arc<rt::Runtime>,
    rayon: Arc<rayon::ThreadPool>,
    tokio_workers: tokio::runtime::Runtime,
    /// The async thread that drives the requests (its blocking pool serves
    /// `spawn_blocking`).
    driver: tokio::runtime::Runtime,
}

impl Pools {
    fn start() -> Pools {
        Pools {
            rt: Arc::new(rt::Runtime::new(WORKERS).expect("start the runtime")),
            rayon: Arc::new(
                rayon::ThreadPoolBuilder::new()
                    .num_threads(WORKERS)
                    .build()
                    .expect("start rayon"),
            ),
            tokio_workers: tokio::runtime::Builder::new_multi_thread()
                .worker_threads(WORKERS)
                .build()
                .expect("start tokio workers"),
            driver: tokio::runtime::Builder::new_current_thread()
                .max_blocking_threads(WORKERS)
                .build()
                .expect("start the driver"),
        }
    }

    /// Submits one request's work and awaits its result.
    async fn request(&self, system: System, work: Work, seed: u64) -> u64 {
        match system {
            System::RtAwait => self
                .rt
                .spawn(move || work.run(seed))
                .await
                .expect("the task ran"),
            System::SpawnBlocking => tokio::task::spawn_blocking(move || work.run(seed))
                .await
                .expect("the blocking task ran"),
            System::RayonOneshot => {
                let (tx, rx) = tokio::sync::oneshot::channel();
                self.rayon.spawn(move || {
                    let _ = tx.send(work.run(seed));
                });
                rx.await.expect("rayon sent the result")
            }
            System::TokioSpawn => self
                .tokio_workers
                .spawn(async move { work.run(seed) })
                .await
                .expect("the tokio task ran"),
        }
    }

    fn round(&self, system: System, work: Work, requests: usize) -> Round {
        let mut latencies = Vec::with_capacity(requests);
        let started = Instant::now();
        self.driver.block_on(async {
            let mut in_flight = FuturesUnordered::new();
            let mut next = 0;
            while next < requests || !in_flight.is_empty() {
                while next < requests && in_flight.len() < IN_FLIGHT {
                    let seed = next as u64;
                    in_flight.push(async move {
                        let submitted = Instant::now();
                        let result = self.request(system, work, seed).await;
                        (submitted.elapsed(), result)
                    });
                    next += 1;
                }
                if let Some((latency, result)) = in_flight.next().await {
                    black_box(result);
                    latencies.push(latency);
                }
            }
        });
        let took = started.elapsed();
        latencies.sort_unstable();
        Round {
            per_second: requests as f64 / took.as_secs_f64(),
            p50: percentile(&latencies, 0.50),
            p99: percentile(&latencies, 0.99),
        }
    }
}

fn percentile(sorted: &[Duration], p: f64) -> Duration {
    sorted[((sorted.len() - 1) as f64 * p).round() as usize]
}

fn median(mut values: Vec<f64>) -> f64 {
    values.sort_by(f64::total_cmp);
    values[values.len() / 2]
}

fn main() {
    let mut rounds = 3;
    let mut requests = 20_000;
    let mut out = cli::default_out_dir();
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--rounds" => rounds = cli::value(&mut args, "--rounds N"),
            "--quick" => rounds = 3,
            "--full" => rounds = 10,
            "--requests" => requests = cli::value(&mut args, "--requests N"),
            "--out" => out = cli::value(&mut args, "--out DIR"),
            "--bench" => {}
            other => panic!("unknown option {other}"),
        }
    }
    assert!(
        rounds > 0 && requests > 0,
        "--rounds and --requests must be positive"
    );

    let work = Work::calibrate();
    let pools = Pools::start();
    // Warm-up: every pool's threads started, caches and allocators warm.
    for system in System::ALL {
        pools.round(system, work, requests / 10);
    }
    let mut results: Vec<Vec<Round>> = vec![Vec::new(); System::ALL.len()];
    let mut order: Vec<usize> = (0..System::ALL.len()).collect();
    let mut seed = 0x2545_F491_4F6C_DD1D;
    for _ in 0..rounds {
        cli::shuffle(&mut order, &mut seed);
        for &i in &order {
            results[i].push(pools.round(System::ALL[i], work, requests));
        }
    }

    let summary: Vec<(System, f64, f64, f64)> = System::ALL
        .iter()
        .zip(&results)
        .map(|(&system, rounds)| {
            let per_second = median(rounds.iter().map(|r| r.per_second).collect());
            let p50 = median(rounds.iter().map(|r| r.p50.as_secs_f64() * 1e6).collect());
            let p99 = median(rounds.iter().map(|r| r.p99.as_secs_f64() * 1e6).collect());
            (system, per_second, p50, p99)
        })
        .collect();
    let oneshot = summary
        .iter()
        .find(|s| s.0 == System::RayonOneshot)
        .expect("the oneshot pattern is measured");

    let mut report = String::new();
    let _ = writeln!(
        report,
        "## Awaiting pool work from async code\n\n\
         A tokio current-thread runtime keeps {IN_FLIGHT} requests in flight, {requests} in \
         all, each ~{} µs of CPU work ({} hash rounds) on a {WORKERS}-thread pool, awaited in \
         the async task. Medians of {rounds} interleaved rounds. In parentheses, every ratio \
         reads one way, the system's cost ÷ rayon+oneshot's, so below 1 is better: time per \
         request (rayon+oneshot's requests/s ÷ the system's) and latency.\n",
        WORK.as_micros(),
        work.iterations
    );
    let _ = writeln!(
        report,
        "| system | requests/s | p50 submit→resume (µs) | p99 submit→resume (µs) |"
    );
    let _ = writeln!(report, "|---|---:|---:|---:|");
    for (system, per_second, p50, p99) in &summary {
        // rayon+oneshot's own ratios would always read 1.00.
        if *system == System::RayonOneshot {
            let _ = writeln!(
                report,
                "| {} | {per_second:.0} | {p50:.0} | {p99:.0} |",
                system.name()
            );
            continue;
        }
        let _ = writeln!(
            report,
            "| {} | {:.0} ({}) | {:.0} ({}) | {:.0} ({}) |",
            system.name(),
            per_second,
            format::ratio(oneshot.1 / per_second),
            p50,
            format::ratio(p50 / oneshot.2),
            p99,
            format::ratio(p99 / oneshot.3)
        );
    }
    let _ = writeln!(
        report,
        "\n### Every round\n\n| system | requests/s | p50 (µs) | p99 (µs) |\n|---|---|---|---|"
    );
    for (system, rounds) in System::ALL.iter().zip(&results) {
        let list = |f: &dyn Fn(&Round) -> f64| {
            rounds
                .iter()
                .map(|r| format!("{:.0}", f(r)))
                .collect::<Vec<_>>()
                .join(", ")
        };
        let _ = writeln!(
            report,
            "| {} | {} | {} | {} |",
            system.name(),
            list(&|r| r.per_second),
            list(&|r| r.p50.as_secs_f64() * 1e6),
            list(&|r| r.p99.as_secs_f64() * 1e6)
        );
    }
    cli::write_report(&out, "offload.md", &report);
    summary_section(&results).write(&out);
}

/// The summary's section: `rt await` against the other ways of handing
/// the work to a pool, on time per request (the inverse of throughput) and
/// on p99 latency.
fn summary_section(results: &[Vec<Round>]) -> Section {
    let peers = [
        System::SpawnBlocking,
        System::RayonOneshot,
        System::TokioSpawn,
    ];
    let mut section = Section::new(
        "offload",
        format!(
            "CPU work awaited from async code: rt await vs {}",
            peers.map(System::name).join(", ")
        ),
    );
    let at = |s: System| System::ALL.iter().position(|x| *x == s).unwrap();
    for (what, figure) in [
        (
            "time per request",
            (|r: &Round| 1e6 / r.per_second) as fn(&Round) -> f64,
        ),
        ("p99 submit to resume", |r| r.p99.as_secs_f64() * 1e6),
    ] {
        let measured = |s: System| {
            let values: Vec<f64> = results[at(s)].iter().map(figure).collect();
            Measured::of_rounds(&values)
        };
        section.push(Line::new(
            what,
            Unit::Micros,
            measured(System::RtAwait),
            peers.map(|s| (s.name(), measured(s))),
        ));
    }
    section
}
