//! `cargo xtask bench`: every workload on every strategy, interleaved round
//! by round so that drift on a shared machine hits all strategies alike.
//! Prints a table of medians and a table of ratios against the runtime, and
//! writes both (markdown) and a bar chart of the ratios (SVG) under
//! `target/bench/`.
//!
//! Options (after `--`): `--rounds N` (default 7), `--filter TEXT` (only
//! workloads whose name contains TEXT), `--only A,B` (build and run only the
//! strategies named, e.g. `--only rt,rayon`), `--out DIR`.

mod common;

use rt_bench_report::cli;
use std::collections::BTreeMap;
use std::time::{Duration, Instant};

use common::report;
use common::strategies::{self, Strategy};
use common::workloads::{self, Shape, Workload};

/// A strategy whose first run takes longer than this gets fewer rounds, so
/// that thread-per-task on 100,000 tasks does not dominate the run time.
const SLOW_RUN: Duration = Duration::from_millis(400);
const SLOW_ROUNDS: usize = 3;

struct Options {
    rounds: usize,
    filter: Option<String>,
    only: Option<Vec<String>>,
    out: std::path::PathBuf,
}

fn parse_options() -> Options {
    let mut opts = Options {
        rounds: 7,
        filter: None,
        only: None,
        out: cli::default_out_dir(),
    };
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--rounds" => opts.rounds = cli::value(&mut args, "--rounds N"),
            "--filter" => opts.filter = args.next(),
            "--only" => {
                let names = args.next().expect("--only NAME,NAME");
                opts.only = Some(names.split(',').map(|n| n.trim().to_string()).collect());
            }
            "--out" => opts.out = args.next().expect("--out DIR").into(),
            "--bench" | "--quick" => {} // passed by `cargo bench`; quick is the default
            other => panic!("unknown option `{other}`"),
        }
    }
    opts
}

/// Runs the workload once on the strategy; `None` if it does not apply.
fn run_once(strategy: &dyn Strategy, w: &Workload) -> Option<Duration> {
    let start = Instant::now();
    match w.shape {
        Shape::Detached { n } => strategy.detached(0..n, w.task),
        Shape::Joined { n } => strategy.joined(n, w.task),
        Shape::Nested { outer, inner } => strategy.nested(outer, inner, w.task),
        Shape::FanOutJoin { width } => strategy.fan_out_join(width, w.task),
        Shape::Graph { width } => {
            if !strategy.graph(width, w.task) {
                return None;
            }
        }
        Shape::Chain { links } => {
            if !strategy.chain(links, w.task) {
                return None;
            }
        }
    }
    Some(start.elapsed())
}

fn main() {
    let opts = parse_options();
    let started = Instant::now();
    let list: Vec<Workload> = workloads::all()
        .into_iter()
        .filter(|w| opts.filter.as_deref().is_none_or(|f| w.name.contains(f)))
        .collect();
    let mut pools: BTreeMap<usize, Vec<Box<dyn Strategy>>> = BTreeMap::new();
    for w in &list {
        pools.entry(w.workers).or_insert_with(|| {
            strategies::all(w.workers, &|name| {
                opts.only
                    .as_ref()
                    .is_none_or(|only| only.iter().any(|n| n == name))
            })
        });
    }
    let names: Vec<&'static str> = pools
        .values()
        .next()
        .map_or(vec![], |s| s.iter().map(|s| s.name()).collect());

    let mut rows = Vec::new();
    let mut rng = 0x9E37_79B9_7F4A_7C15u64;
    for (k, w) in list.iter().enumerate() {
        let set = &pools[&w.workers];
        let mut samples: Vec<Option<Vec<Duration>>> = vec![Some(Vec::new()); set.len()];
        let mut rounds = vec![opts.rounds; set.len()];
        // Warm-up: one unrecorded run each (thread start-up, caches, JIT-free
        // but page faults), which also finds strategies that need fewer rounds.
        for (i, s) in set.iter().enumerate() {
            progress(k, list.len(), w.name, s.name(), "warm-up");
            match run_once(s.as_ref(), w) {
                None => samples[i] = None,
                Some(t) if t > SLOW_RUN => rounds[i] = SLOW_ROUNDS.min(opts.rounds),
                Some(_) => {}
            }
        }
        let mut order: Vec<usize> = (0..set.len()).collect();
        for round in 0..opts.rounds {
            cli::shuffle(&mut order, &mut rng);
            for &i in &order {
                if round >= rounds[i] {
                    continue;
                }
                if let Some(times) = samples[i].as_mut() {
                    progress(
                        k,
                        list.len(),
                        w.name,
                        set[i].name(),
                        &format!("round {}/{}", round + 1, rounds[i]),
                    );
                    times.push(run_once(set[i].as_ref(), w).expect("applied in warm-up"));
                }
            }
        }
        rows.push(report::Row::new(w, samples));
    }
    cli::progress("");
    let report = report::Report::new(names, rows, started.elapsed(), opts.rounds);
    let markdown = report.markdown();
    println!("{markdown}");
    std::fs::create_dir_all(&opts.out).expect("create the output directory");
    std::fs::write(opts.out.join("results.md"), &markdown).expect("write results.md");
    report.summary().write(&opts.out);
    let svg = opts.out.join("ratios.svg");
    report.chart(&svg).expect("draw the ratio chart");
    println!(
        "wrote {} and {}",
        opts.out.join("results.md").display(),
        svg.display()
    );
}

fn progress(k: usize, total: usize, workload: &str, strategy: &str, what: &str) {
    cli::progress(&format!(
        "[{}/{total}] {workload}: {strategy} {what}",
        k + 1
    ));
}
