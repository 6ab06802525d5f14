//! Wake-up latency of bursts (part of `cargo xtask bench`): the classic
//! burst benchmark.
//!
//! For each K (2 and 10), every system has K workers. Each burst sends K
//! items at once to K workers that have been parked for milliseconds; each
//! handler reads the clock, and latency = handler clock − send clock (read
//! right before the send call). Systems: the physical floor (K threads in
//! `thread::park`, woken by `unpark`), rt-burst's `send_burst`, the
//! runtime's `spawn`, the burst-pool crate, threadpool's `execute`, rayon's
//! `ThreadPool::spawn`, and crossbeam-channel with K receivers.
//!
//! The systems are interleaved burst by burst, in a shuffled order each
//! round, so drift on a shared machine hits all alike. Before each burst the
//! producer sleeps `--gap-ms` (default 2 ms) after the previous one, so every
//! system's workers have been idle for at least that long (on average K
//! systems × the gap) and are parked, not spinning.
//!
//! Prints a markdown table per K (mean, p50, p80, p99, max in µs and the
//! ratios of mean and p99 to the floor) and rt-burst's figures against its
//! aims, and writes it to `target/bench/burst.md`.
//!
//! Options (after `--`): `--bursts N` (default 1,000: quick mode), `--full`
//! (10,000 bursts), `--gap-ms G`, `--workers 2,10`, `--out DIR`.

#[path = "burst/mod.rs"]
mod burst;

use rt_bench_report::cli;
use std::thread;
use std::time::{Duration, Instant};

use burst::report::{self, Summary};
use rt_bench_report::summary::Section;

struct Options {
    bursts: usize,
    gap: Duration,
    workers: Vec<usize>,
    out: std::path::PathBuf,
}

fn parse_options() -> Options {
    let mut opts = Options {
        bursts: 1_000,
        gap: Duration::from_millis(2),
        workers: vec![2, 10],
        out: cli::default_out_dir(),
    };
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--bursts" => opts.bursts = cli::value(&mut args, "--bursts N"),
            "--full" => opts.bursts = 10_000,
            "--gap-ms" => {
                let ms: f64 = cli::value(&mut args, "--gap-ms G");
                opts.gap = Duration::from_secs_f64(ms / 1e3);
            }
            "--workers" => {
                opts.workers = args
                    .next()
                    .map(|v| {
                        v.split(',')
                            .map(|k| k.parse().expect("--workers 2,10"))
                            .collect()
                    })
                    .expect("--workers 2,10")
            }
            "--out" => opts.out = args.next().expect("--out DIR").into(),
            "--bench" | "--quick" => {} // passed by `cargo bench`; quick is the default
            other => panic!("unknown option `{other}`"),
        }
    }
    opts
}

/// Unrecorded bursts per system before measuring (thread start-up, page
/// faults, lazily allocated queues).
const WARM_UP: usize = 20;

/// Runs `bursts` interleaved bursts of `k` on every system.
fn measure(k: usize, opts: &Options, rng: &mut u64) -> Vec<Summary> {
    let mut set = burst::all(k);
    let mut samples: Vec<Vec<u64>> = set
        .iter()
        .map(|_| Vec::with_capacity(opts.bursts * k))
        .collect();
    let mut refused = vec![0usize; set.len()];
    let mut threads = vec![0usize; set.len()];
    let mut order: Vec<usize> = (0..set.len()).collect();
    let mut scratch = Vec::with_capacity(k);
    thread::sleep(Duration::from_millis(50)); // every worker started and parked
    for round in 0..WARM_UP + opts.bursts {
        cli::shuffle(&mut order, rng);
        if round % 100 == 0 {
            cli::progress(&format!(
                "[K = {k}] burst {round}/{}",
                WARM_UP + opts.bursts
            ));
        }
        for &i in &order {
            let system = &mut set[i];
            let expected = system.burst();
            thread::sleep(opts.gap);
            scratch.clear();
            let distinct = system
                .recorder()
                .take(expected, &mut scratch, system.name());
            if round >= WARM_UP {
                samples[i].extend_from_slice(&scratch);
                refused[i] += k - expected;
                threads[i] += distinct;
            }
        }
    }
    cli::progress("");
    let bursts = opts.bursts.max(1) as f64;
    set.iter()
        .zip(samples)
        .zip(refused.into_iter().zip(threads))
        .map(|((s, ns), (refused, threads))| {
            Summary::new(s.name(), ns, refused, threads as f64 / bursts)
        })
        .collect()
}

fn main() {
    let opts = parse_options();
    let started = Instant::now();
    let mut rng = 0x9E37_79B9_7F4A_7C15u64;
    let mut tables = Vec::new();
    let mut summary = Section::new(
        "burst",
        format!(
            "burst wake-up latency: rt-burst vs {}",
            report::PEERS.join(", ")
        ),
    );
    for &k in &opts.workers {
        let rows = measure(k, &opts, &mut rng);
        for line in report::summary_lines(k, &rows) {
            summary.push(line);
        }
        tables.push(report::table(k, opts.bursts, &rows));
    }
    let mut markdown = format!(
        "## Burst wake-up latency\n\nMachine: {} ({} CPUs). Systems interleaved burst by burst in a \
         shuffled order; {:.1} ms sleep before each burst; {} warm-up bursts per system not counted. \
         Total time {:.0} s.\n\n",
        cli::cpu_model(),
        thread::available_parallelism().map_or(0, |n| n.get()),
        opts.gap.as_secs_f64() * 1e3,
        WARM_UP,
        started.elapsed().as_secs_f64()
    );
    markdown.push_str(&tables.join("\n"));
    println!("{markdown}");
    std::fs::create_dir_all(&opts.out).expect("create the output directory");
    let path = opts.out.join("burst.md");
    std::fs::write(&path, &markdown).expect("write burst.md");
    println!("wrote {}", path.display());
    summary.write(&opts.out);
}
