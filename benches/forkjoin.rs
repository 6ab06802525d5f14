//! Fork-join workloads (part of `cargo xtask bench`): recursive parallelism
//! where tasks wait for the tasks they fork.
//!
//! Workloads, each result checked (a mismatch panics):
//! * UTS T1 and T3 (the Unbalanced Tree Search benchmark, Olivier et al.,
//!   LCPC 2006), one task per node: SHA-1-defined trees of ~4.1 M nodes,
//!   the node and leaf counts checked against the published ones
//!   (`forkjoin/uts.rs`);
//! * fib(27) with a fork per call and no cutoff (`forkjoin/fib.rs`);
//! * skynet, 1 M leaves under ten children per node, a `join` per split of
//!   a node's children (`forkjoin/skynet.rs`);
//! * nqueens(12), a `join` per split of a row's free columns
//!   (`forkjoin/nqueens.rs`);
//! * quicksort of 2 M pseudo-random `u64` with a sequential cutoff of 2,048
//!   (`forkjoin/quicksort.rs`).
//!
//! Systems: the same recursion on one thread, `rayon::join` in a rayon pool
//! (skynet and nqueens: with chili's and this runtime's `join` only)
//! (and, for UTS and fib, a `rayon::scope` per node with a spawn per child,
//! what `rt::scope` is compared with), chili's
//! `Scope::join`, this runtime's `rt::join` (the same splits as rayon's) and
//! `rt::scope` (a spawn per child), and this runtime with spawn-and-join
//! code (a task spawns its children with `rt.spawn` and joins their
//! handles, which helps instead of blocking the worker). The pools have
//! `--workers` threads (chili's count the thread that opens its scope).
//!
//! Each case (workload × system) runs in its own process (this binary with
//! `--case WORKLOAD:SYSTEM`), which starts its pool, warms up with one
//! untimed round, then runs one round per request of the parent. The parent
//! interleaves the cases round by round in a shuffled order, and gives every
//! round (and every start-up) `--timeout` seconds: a case that takes longer
//! is killed and reported as timed out, so one that deadlocks does not stop
//! the benchmark. Times cover the workload alone (not the input copy or the
//! check). Prints a markdown table of medians in ms with the ratio to rayon
//! join, then every round, and writes it to `target/bench/forkjoin.md`.
//!
//! Options (after `--`): `--rounds N` (default 3: quick mode), `--full`
//! (10 rounds), `--workers N` (default 2), `--filter TEXT` (workloads whose
//! name contains TEXT: uts-t1, uts-t3, fib, skynet, nqueens, quicksort),
//! `--only A,B`
//! (systems: seq, rayon, rayon-scope, chili, rt-join, rt-scope, rt-spawn),
//! `--timeout S`
//! (default 10), `--out DIR`. One case alone, in this process:
//! `--case fib:rayon [--rounds N] [--workers N]`.

#[path = "forkjoin/mod.rs"]
mod forkjoin;

use rt_bench_report::cli;
use std::io::{BufRead, Write};
use std::thread;
use std::time::{Duration, Instant};

use forkjoin::child::{CaseProcess, Stop};

/// A round's time, as a case process prints it (`round I NANOS`).
fn nanos(figures: &str) -> Duration {
    let nanos = figures
        .trim()
        .parse()
        .unwrap_or_else(|_| panic!("malformed round from a case process: `{figures}`"));
    Duration::from_nanos(nanos)
}
use forkjoin::report::{self, Outcome};
use forkjoin::runner::{Runner, STACK};
use forkjoin::systems::{self, System, Workload};

struct Options {
    rounds: usize,
    workers: usize,
    filter: Option<String>,
    only: Option<Vec<String>>,
    timeout: Duration,
    out: std::path::PathBuf,
    /// Run this one case in this process (`WORKLOAD:SYSTEM`).
    case: Option<String>,
    /// With `--case`: wait for a line on stdin before each round.
    step: bool,
}

fn parse_options() -> Options {
    let mut opts = Options {
        rounds: 3,
        workers: 2,
        filter: None,
        only: None,
        timeout: Duration::from_secs(10),
        out: cli::default_out_dir(),
        case: None,
        step: false,
    };
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--rounds" => opts.rounds = cli::value(&mut args, "--rounds N"),
            "--full" => opts.rounds = 10,
            "--workers" => opts.workers = cli::value(&mut args, "--workers N"),
            "--filter" => opts.filter = args.next(),
            "--only" => {
                let names = args.next().expect("--only NAME,NAME");
                opts.only = Some(names.split(',').map(|n| n.trim().to_owned()).collect());
            }
            "--timeout" => {
                let s: f64 = cli::value(&mut args, "--timeout SECONDS");
                opts.timeout = Duration::from_secs_f64(s);
            }
            "--out" => opts.out = args.next().expect("--out DIR").into(),
            "--case" => opts.case = args.next(),
            "--step" => opts.step = true,
            "--bench" | "--quick" => {} // passed by `cargo bench`; quick is the default
            other => panic!("unknown option `{other}`"),
        }
    }
    assert!(opts.workers > 0, "--workers must be at least 1");
    opts
}

fn main() {
    let opts = parse_options();
    match &opts.case {
        Some(case) => run_case(case, &opts),
        None => run_all(&opts),
    }
}

/// One case in this process: start the pool, warm up, say `ready`, then
/// print `round I NANOS` per round (each after a line on stdin with
/// `--step`).
fn run_case(case: &str, opts: &Options) {
    let (workload, system) = systems::parse_case(case)
        .unwrap_or_else(|| panic!("unknown case `{case}` (WORKLOAD:SYSTEM)"));
    if opts.step {
        die_with_parent();
    }
    // chili has no stack-size setting; its threads take this default. Set
    // before this process starts any thread.
    if std::env::var_os("RUST_MIN_STACK").is_none() {
        std::env::set_var("RUST_MIN_STACK", STACK.to_string());
    }
    let (rounds, workers, step) = (opts.rounds, opts.workers, opts.step);
    // The driving thread runs the sequential recursion and chili's share:
    // give it the pools' stack.
    let driver = thread::Builder::new()
        .stack_size(STACK)
        .spawn(move || {
            let mut runner = Runner::new(workload, system, workers);
            runner.round();
            let mut out = std::io::stdout().lock();
            writeln!(out, "ready")
                .and_then(|_| out.flush())
                .expect("stdout");
            let mut requests = std::io::stdin().lock().lines();
            for i in 0..rounds {
                if step && !matches!(requests.next(), Some(Ok(_))) {
                    return; // the parent is gone
                }
                let took = runner.round();
                writeln!(out, "round {i} {}", took.as_nanos())
                    .and_then(|_| out.flush())
                    .expect("stdout");
            }
        })
        .expect("start the driving thread");
    if let Err(panic) = driver.join() {
        std::panic::resume_unwind(panic);
    }
}

/// Asks Linux to kill this case process when the parent benchmark dies, so
/// that a case stuck in a deadlock never outlives an interrupted run (the
/// parent kills it itself after `--timeout` otherwise).
fn die_with_parent() {
    #[cfg(target_os = "linux")]
    // SAFETY: prctl(PR_SET_PDEATHSIG) only sets a flag of this process.
    unsafe {
        libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL);
    }
}

/// Every selected case in its own process, interleaved round by round.
fn run_all(opts: &Options) {
    let started = Instant::now();
    let mut outcomes: Vec<Outcome> = Workload::ALL
        .into_iter()
        .filter(|w| opts.filter.as_deref().is_none_or(|f| w.id().contains(f)))
        .flat_map(|w| System::ALL.into_iter().map(move |s| (w, s)))
        .filter(|&(w, s)| s.runs(w))
        .filter(|(_, s)| {
            opts.only
                .as_ref()
                .is_none_or(|only| only.iter().any(|n| n == s.id()))
        })
        .map(|(workload, system)| Outcome {
            workload,
            system,
            rounds: Vec::new(),
            stop: None,
        })
        .collect();
    assert!(!outcomes.is_empty(), "no case matches --filter and --only");

    // Start the cases one by one, so that each warms up alone.
    let total = outcomes.len();
    let mut processes: Vec<Option<CaseProcess>> = Vec::new();
    for (i, o) in outcomes.iter_mut().enumerate() {
        let case = systems::case_id(o.workload, o.system);
        progress(&format!("[start {}/{total}] {case}", i + 1));
        let args = [
            "--rounds".to_owned(),
            opts.rounds.to_string(),
            "--workers".to_owned(),
            opts.workers.to_string(),
        ];
        let exe = std::env::current_exe().expect("the benchmark's own path");
        match CaseProcess::start(&exe, &case, &args, opts.timeout) {
            Ok((p, _ready)) => processes.push(Some(p)),
            Err(stop) => {
                o.stop = Some(stop);
                processes.push(None);
            }
        }
    }
    let mut order: Vec<usize> = (0..outcomes.len()).collect();
    let mut rng = 0x9E37_79B9_7F4A_7C15u64;
    for round in 0..opts.rounds {
        cli::shuffle(&mut order, &mut rng);
        for &i in &order {
            let Some(process) = processes[i].as_mut() else {
                continue;
            };
            let o = &mut outcomes[i];
            progress(&format!(
                "[round {}/{}] {}",
                round + 1,
                opts.rounds,
                systems::case_id(o.workload, o.system)
            ));
            match process.round(opts.timeout).map(|figures| nanos(&figures)) {
                Ok(took) => o.rounds.push(took),
                Err(stop) => {
                    o.stop = Some(stop);
                    processes[i] = None;
                }
            }
            // Let the finished pool's threads go back to sleep.
            thread::sleep(Duration::from_millis(20));
        }
    }
    drop(processes);
    progress("");

    let md = markdown(opts, &outcomes, started.elapsed());
    println!("{md}");
    std::fs::create_dir_all(&opts.out).expect("create the output directory");
    let path = opts.out.join("forkjoin.md");
    std::fs::write(&path, &md).expect("write forkjoin.md");
    println!("wrote {}", path.display());
    report::summary(&outcomes).write(&opts.out);
    let failed: Vec<String> = outcomes
        .iter()
        .filter(|o| matches!(o.stop, Some(Stop::Failed(_))))
        .map(|o| systems::case_id(o.workload, o.system))
        .collect();
    if !failed.is_empty() {
        eprintln!("forkjoin: cases failed: {}", failed.join(", "));
        std::process::exit(1);
    }
}

fn markdown(opts: &Options, outcomes: &[Outcome], took: Duration) -> String {
    format!(
        "## Fork-join workloads\n\n\
         Machine: {} ({} CPUs). {} worker thread(s) per pool; each case in its own process, \
         one untimed warm-up round, then {} rounds interleaved across cases in a shuffled \
         order; a round or start-up over {:.0} s is killed and reported as timed out. \
         Total time {:.0} s.\n\n\
         Median ms per round (in parentheses: the median ÷ rayon join's on the same workload; \
         below 1: faster than rayon join).\n\n{}\n\
         Checked each round: UTS node, leaf and depth counts against the published ones \
         (T1 4,130,071 / 3,305,118 / 10; T3 4,112,897 / 3,599,034 / 1,572), fib(27) = 196,418, \
         skynet's sum 499,999,500,000, nqueens(12) = 14,200, the sorted output's order and \
         checksum.\n\n\
         ### Every round (ms, in the order run)\n\n{}",
        cli::cpu_model(),
        thread::available_parallelism().map_or(0, |n| n.get()),
        opts.workers,
        opts.rounds,
        opts.timeout.as_secs_f64(),
        took.as_secs_f64(),
        report::table(outcomes, opts.timeout),
        report::rounds(outcomes, opts.timeout),
    )
}

fn progress(text: &str) {
    cli::progress(text);
}
