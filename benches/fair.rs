//! Foreground latency under background load on one thread (part of
//! `cargo xtask bench`).
//!
//! Foreground requests arrive from another thread at 1,000 per second
//! (Poisson); each does 1-3 steps of 100-500 µs of CPU work, each followed by
//! a 100-500 µs `tokio::time::sleep`. In the "fg+bg" configurations 8
//! background loops do 100-500 µs of CPU work and yield, saturating the
//! core. Every configuration runs on tokio current-thread runtimes on a
//! "shard" thread (two for the two-runtime configuration), pinned each round
//! to the CPU that was idlest just before. Configurations are interleaved
//! round by round (the order shuffled each round), so drift on a shared
//! machine hits all alike; each gets `--rounds` x `--seconds` of arrivals
//! (default 10 x 0.5 s = 5 s), and the table shows medians over rounds.
//!
//! Reported per configuration: p50/p90/p99 queue delay (arrival to the
//! request's first poll) and total latency (arrival to completion) in µs,
//! and background steps per second; for the slowest 1% of requests, which
//! foreground and background steps ran while they waited. Then the figures
//! against rt-fair's aims:
//! rt-fair 8:1 at or below clockworker 8:1 on every percentile of queue delay
//! and of total latency, p99 total latency at most 1.1x tokio's
//! foreground-only run, and the CPU shares of two saturated rt-fair queues
//! weighted 8:1 within 5%. Writes the markdown to `target/bench/fair.md`.
//!
//! Options (after `--`): `--rounds N`, `--seconds S`, `--out DIR`,
//! `--no-pin`, `--only A,B` (only the configurations whose name contains A or B),
//! `--verbose` (print every round's figures), `--fair-slice-us N` and
//! `--fair-host-us N` and `--fair-rejoin-credit-us N` (rt-fair's time slice,
//! host interval and rejoin credit, for tuning),
//! `--fair-accept-weight N` (rt-fair's accept loop on a queue of its own of
//! weight N instead of the foreground queue), `--fair-weight N` (rt-fair's
//! foreground weight against the background's 1; 8 by default; the rows
//! keep their "8:1" names).

#[path = "fair/mod.rs"]
mod fair;

use rt_bench_report::cli;
use std::time::{Duration, Instant};

use fair::report::{self, RoundStats, Row};
use fair::systems::{self, Outcome, Round, System};
use rt_bench_report::format::{self, Unit};
use rt_bench_report::summary::{Line, Measured, Section};

struct Options {
    rounds: usize,
    seconds: f64,
    out: std::path::PathBuf,
    pin: bool,
    only: Option<String>,
    verbose: bool,
    fair_slice: Option<Duration>,
    fair_rejoin_credit: Option<Duration>,
    fair_host_interval: Option<Duration>,
    fair_accept_weight: Option<u32>,
    fair_weight: u32,
}

fn parse_options() -> Options {
    let mut opts = Options {
        rounds: 10,
        seconds: 0.5,
        out: cli::default_out_dir(),
        pin: true,
        only: None,
        verbose: false,
        fair_slice: None,
        fair_rejoin_credit: None,
        fair_host_interval: None,
        fair_accept_weight: None,
        fair_weight: 8,
    };
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--rounds" => opts.rounds = cli::value(&mut args, "--rounds N"),
            "--seconds" => opts.seconds = cli::value(&mut args, "--seconds S"),
            "--out" => opts.out = args.next().expect("--out DIR").into(),
            "--no-pin" => opts.pin = false,
            "--only" => opts.only = args.next(),
            "--verbose" => opts.verbose = true,
            "--fair-slice-us" => {
                let us = cli::value(&mut args, "--fair-slice-us MICROSECONDS");
                opts.fair_slice = Some(Duration::from_micros(us))
            }
            "--fair-rejoin-credit-us" => {
                let us = cli::value(&mut args, "--fair-rejoin-credit-us MICROSECONDS");
                opts.fair_rejoin_credit = Some(Duration::from_micros(us))
            }
            "--fair-host-us" => {
                let us = cli::value(&mut args, "--fair-host-us MICROSECONDS");
                opts.fair_host_interval = Some(Duration::from_micros(us))
            }
            "--fair-accept-weight" => {
                opts.fair_accept_weight = Some(cli::value(&mut args, "--fair-accept-weight N"))
            }
            "--fair-weight" => opts.fair_weight = cli::value(&mut args, "--fair-weight N"),
            "--bench" | "--quick" => {} // passed by `cargo bench`; quick is the default
            other => panic!("unknown option `{other}`"),
        }
    }
    opts
}

fn main() {
    let opts = parse_options();
    let started = Instant::now();
    let cpus = if opts.pin {
        systems::allowed_cpus()
    } else {
        Vec::new()
    };
    let duration = Duration::from_secs_f64(opts.seconds);
    let mut rounds: Vec<Vec<RoundStats>> = System::ALL.iter().map(|_| Vec::new()).collect();
    let mut pinned_to = Vec::new();
    let mut order: Vec<usize> = (0..System::ALL.len()).collect();
    let mut rng = 0x9E37_79B9_7F4A_7C15u64;
    for round in 0..opts.rounds {
        cli::shuffle(&mut order, &mut rng);
        let shard_cpu = systems::idlest_cpu(&cpus);
        pinned_to.extend(shard_cpu);
        for &i in &order {
            let system = System::ALL[i];
            if opts
                .only
                .as_deref()
                .is_some_and(|o| !o.split(',').any(|o| system.name().contains(o)))
            {
                continue;
            }
            cli::progress(&format!(
                "[round {}/{}] {}",
                round + 1,
                opts.rounds,
                system.name()
            ));
            let outcome: Outcome = system.run(Round {
                seed: 1 + round as u64,
                duration,
                shard_cpu,
                fair_slice: opts.fair_slice,
                fair_rejoin_credit: opts.fair_rejoin_credit,
                fair_host_interval: opts.fair_host_interval,
                fair_accept_weight: opts.fair_accept_weight,
                fair_weight: opts.fair_weight,
            });
            let mut accept = outcome.accept_delay;
            accept.sort_unstable();
            let accept = [0.5, 0.9, 0.99].map(|q| report::percentile_us(&accept, q));
            let stats = RoundStats::new(
                outcome.queue_delay,
                outcome.total,
                outcome.background_steps as f64 / opts.seconds,
                outcome.tail,
            );
            if opts.verbose {
                eprintln!(
                    "\r[round {}/{}] {:<28} queue delay p50/p90/p99 {:.0?} µs (to the accept \
                     loop {accept:.0?}), total {:.0?} µs, background {:.0}/s, CPU {shard_cpu:?}",
                    round + 1,
                    opts.rounds,
                    system.name(),
                    stats.queue_delay,
                    stats.total,
                    stats.background_per_sec
                );
            }
            rounds[i].push(stats);
        }
    }
    cli::progress("[shares] rt-fair 8:1, both queues saturated");
    let (cpu_ratio, steps_ratio) =
        systems::fair_shares(Duration::from_secs(1), systems::idlest_cpu(&cpus));
    cli::progress("");

    let rows: Vec<Row> = System::ALL
        .iter()
        .zip(&rounds)
        .map(|(s, r)| Row::new(s.name(), r, s.has_background()))
        .collect();
    let at = |s: System| System::ALL.iter().position(|x| *x == s).unwrap();
    let (tokio_fg, fair_both, cw) = (
        at(System::TokioFgOnly),
        at(System::FairBoth),
        at(System::ClockworkerBoth),
    );
    let total_ratio = rows[fair_both].total[2] / rows[tokio_fg].total[2];
    let paired = |f: &dyn Fn(&RoundStats, &RoundStats) -> f64, a: usize, b: usize| {
        report::median(
            rounds[a]
                .iter()
                .zip(&rounds[b])
                .map(|(x, y)| f(x, y))
                .collect(),
        )
    };
    let total_paired = paired(&|f, t| f.total[2] / t.total[2], fair_both, tokio_fg);
    // rt-fair against clockworker, percentile by percentile: which of the six
    // (queue delay and total latency at p50, p90, p99) are at or below it.
    let (fair_row, cw_row) = (&rows[fair_both], &rows[cw]);
    let mut behind = Vec::new();
    for (what, f, c) in [
        ("queue delay", &fair_row.queue_delay, &cw_row.queue_delay),
        ("total latency", &fair_row.total, &cw_row.total),
    ] {
        for (i, p) in ["p50", "p90", "p99"].iter().enumerate() {
            if f[i] > c[i] {
                behind.push(format!("{what} {p} {:.0} vs {:.0} µs", f[i], c[i]));
            }
        }
    }
    let bg_ratio = rows[fair_both].background_per_sec.unwrap_or(f64::NAN)
        / rows[cw].background_per_sec.unwrap_or(f64::NAN);
    pinned_to.sort_unstable();
    pinned_to.dedup();

    let mut md = String::new();
    md.push_str(&format!(
        "Foreground latency under background load on one thread: {} rounds x {:.1} s of \
         1,000 requests/s per configuration, interleaved; each figure is the median over \
         the rounds (latencies in µs; background steps per second). Shard thread(s) \
         pinned per round to the idlest CPU ({}).\n\n",
        opts.rounds,
        opts.seconds,
        if pinned_to.is_empty() {
            "not pinned".to_string()
        } else {
            format!("used: {pinned_to:?}")
        },
    ));
    md.push_str(&report::table(&rows));
    // The design's aims, stated as figures.
    md.push_str(&format!(
        "\n- rt-fair 8:1 fg+bg against clockworker 8:1 fg+bg on the six percentiles of queue \
         delay and total latency (aim: at or below clockworker on all six): {}\n",
        if behind.is_empty() {
            "at or below on all six".to_string()
        } else {
            format!(
                "at or below on {} of 6; above on {}",
                6 - behind.len(),
                behind.join("; ")
            )
        }
    ));
    md.push_str(&format!(
        "- rt-fair fg+bg p99 total latency ÷ tokio fg-only p99 total latency: \
         {}× (median of per-round ratios {}×; aim: at most 1.10×)\n",
        format::ratio(total_ratio),
        format::ratio(total_paired)
    ));
    md.push_str(&format!(
        "- rt-fair ÷ clockworker background steps: {}× (for information: both \
         give the background what the foreground leaves)\n",
        format::ratio(bg_ratio)
    ));
    md.push_str(&format!(
        "- rt-fair, two saturated queues weighted 8:1 for 1 s: CPU time {cpu_ratio:.2} : 1, \
         steps done {steps_ratio:.2} : 1 (aim: 8 : 1 within 5%)\n"
    ));
    md.push_str(
        "\nWhere the slowest 1% of requests (by queue delay) waited, as the mean per \
         request in µs (mean over rounds): the foreground steps of other requests that ran \
         between the request's arrival and its first poll (and of those, the steps that \
         became due after it arrived: continuations whose sleep ended later, which a \
         first-come-first-served order would have run after it), the background steps, \
         and the rest (waking the accept loop, executor and host turns, idle time; \
         negative for the two-runtime configuration, whose threads share one CPU so their \
         steps' wall times overlap).\n\n",
    );
    md.push_str(&report::tail_table(&rows));
    md.push_str(&format!(
        "\nRun time {:.0?}. Tokio's timers have 1 ms resolution: every 100-500 µs sleep \
         lasts about 1-2 ms, on every configuration alike.\n",
        started.elapsed()
    ));
    println!("{md}");
    std::fs::create_dir_all(&opts.out).expect("create the output directory");
    let file = opts.out.join("fair.md");
    std::fs::write(&file, &md).expect("write fair.md");
    println!("wrote {}", file.display());
    summary(&rounds).write(&opts.out);
}

/// The summary's section: rt-fair 8:1 under background load against the
/// other configurations that run the same load.
fn summary(rounds: &[Vec<RoundStats>]) -> Section {
    let peers = [
        (System::ClockworkerBoth, "clockworker 8:1"),
        (System::TokioBoth, "tokio"),
        (System::TwoRuntimes, "2 tokio runtimes"),
    ];
    let mut section = Section::new(
        "fair",
        "one async thread under background load: rt-fair 8:1 vs clockworker 8:1, tokio",
    );
    let at = |s: System| System::ALL.iter().position(|x| *x == s).unwrap();
    for (what, figure) in [
        (
            "queue delay p50",
            (|r: &RoundStats| r.queue_delay[0]) as fn(&RoundStats) -> f64,
        ),
        ("queue delay p99", |r| r.queue_delay[2]),
        ("total latency p99", |r| r.total[2]),
    ] {
        let measured = |s: System| {
            let values: Vec<f64> = rounds[at(s)].iter().map(figure).collect();
            Measured::of_rounds(&values)
        };
        section.push(Line::new(
            format!("foreground {what}"),
            Unit::Micros,
            measured(System::FairBoth),
            peers.iter().map(|&(s, name)| (name, measured(s))),
        ));
    }
    section
}
