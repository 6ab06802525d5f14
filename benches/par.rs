//! Parallel iterators (part of `cargo xtask bench`): rt-par against rayon
//! and a sequential `Iterator`, on eight workloads, two workers each.
//!
//! Workloads (`par/workloads.rs`), each result checked against the
//! sequential one (a mismatch panics): sum of squares over `0..50 M`;
//! Mandelbrot 1024×1024 with 256 iterations, rows mapped and collected
//! (uneven rows); word frequencies of 20 MB of generated text (`fold` into
//! a `HashMap`, `reduce` to merge); `par_sort_unstable` of 10 M `u64` and
//! `par_sort_by_key` of 10 M `(u32, u32)`; one step of an n-body
//! simulation of 4,096 bodies (`par_iter_mut`, O(n²)); `map` and
//! `collect` of 10 M items; `find_first` whose match is at 10% of 50 M
//! items. The rayon and rt-par code is the same code under the other
//! prelude.
//!
//! Systems: sequential (this thread), rayon (a 2-thread `ThreadPool`,
//! `pool.install`), rt-par (an `rt::Runtime` of 2 workers, `rt.install`).
//! Each round runs every system once per workload, in a shuffled order,
//! with a pause between runs so the idle pool parks. Times cover the
//! workload alone (not its input, made before, nor the check). Prints a
//! markdown table of medians with rt-par ÷ rayon and each system's speed-up
//! over sequential, then how many rows meet the aims, and writes it to
//! `target/bench/par.md`.
//!
//! The aims are for information (the machine is shared and noisy): every
//! row at or below rayon's median (5% allowed for noise), and, where rayon
//! beats sequential by 1.8× or more, rt-par does too.
//!
//! Options (after `--`): `--quick` (3 rounds, smaller inputs: the table
//! says so), `--rounds N` (default 7), `--filter TEXT` (workloads whose
//! name contains TEXT), `--out DIR`.

#[path = "par/workloads.rs"]
mod workloads;

use rt_bench_report::cli;
use std::fmt::Write as _;
use std::thread;
use std::time::{Duration, Instant};

use rt_bench_report::format::{self, Unit};
use rt_bench_report::summary::{Line, Measured, Section};
use workloads::{Output, Sizes, Workload};

const WORKERS: usize = 2;
const SYSTEMS: [&str; 3] = ["sequential", "rayon", "rt-par"];

struct Options {
    rounds: usize,
    quick: bool,
    filter: Option<String>,
    out: std::path::PathBuf,
}

fn parse_options() -> Options {
    let mut opts = Options {
        rounds: 7,
        quick: false,
        filter: None,
        out: cli::default_out_dir(),
    };
    let mut rounds = None;
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--quick" => opts.quick = true,
            "--rounds" => rounds = Some(cli::value(&mut args, "--rounds N")),
            "--filter" => opts.filter = args.next(),
            "--out" => opts.out = args.next().expect("--out DIR").into(),
            "--bench" => {}
            other => panic!("unknown option `{other}`"),
        }
    }
    opts.rounds = rounds.unwrap_or(if opts.quick { 3 } else { opts.rounds });
    assert!(opts.rounds > 0, "--rounds must be at least 1");
    opts
}

fn main() {
    let opts = parse_options();
    let sizes = if opts.quick {
        Sizes::QUICK
    } else {
        Sizes::FULL
    };
    let workloads: Vec<Workload> = Workload::ALL
        .into_iter()
        .filter(|w| {
            opts.filter
                .as_deref()
                .is_none_or(|f| w.name(&sizes).contains(f))
        })
        .collect();
    assert!(!workloads.is_empty(), "no workload matches --filter");

    let rayon_pool = rayon::ThreadPoolBuilder::new()
        .num_threads(WORKERS)
        .build()
        .expect("start the rayon pool");
    let runtime = rt::Runtime::new(WORKERS).expect("start the runtime");
    let text: &'static [&'static str] =
        Box::leak(workloads::text(sizes.text_bytes).into_boxed_slice());

    // times[workload][system]
    let mut times = vec![vec![Vec::new(); SYSTEMS.len()]; workloads.len()];
    let mut expected: Vec<Option<Output>> = workloads.iter().map(|_| None).collect();
    let mut rng = 0x2545_F491_4F6C_DD1Du64;
    // One untimed warm-up round, then the timed ones.
    for round in 0..=opts.rounds {
        for (w, &workload) in workloads.iter().enumerate() {
            let mut order: Vec<usize> = (0..SYSTEMS.len()).collect();
            cli::shuffle(&mut order, &mut rng);
            for &system in &order {
                cli::progress(&format!(
                    "[round {round}/{}] {} · {}",
                    opts.rounds,
                    workload.name(&sizes),
                    SYSTEMS[system]
                ));
                // The input is dropped after the clock stops: freeing a large
                // one takes milliseconds, the same for every system.
                let mut input = workload.input(&sizes, text);
                let input = &mut input;
                let started = Instant::now();
                let output = match system {
                    0 => workloads::sequential(workload, &sizes, input),
                    1 => rayon_pool.install(|| workloads::with_rayon(workload, &sizes, input)),
                    _ => runtime.install(|| workloads::with_rt_par(workload, &sizes, input)),
                };
                let took = started.elapsed();
                check(&mut expected[w], output, workload, SYSTEMS[system], &sizes);
                if round > 0 {
                    times[w][system].push(took);
                }
                // Let the pool that ran park before the next one starts.
                thread::sleep(Duration::from_millis(30));
            }
        }
    }
    cli::progress("");
    let report = report(&opts, &sizes, &workloads, &times);
    cli::write_report(&opts.out, "par.md", &report);
    summary(&sizes, &workloads, &times).write(&opts.out);
}

/// The summary's section: rt-par against rayon on each workload (the
/// sequential run is the baseline of the full table, not a peer).
fn summary(sizes: &Sizes, workloads: &[Workload], times: &[Vec<Vec<Duration>>]) -> Section {
    let mut section = Section::new("par", "parallel iterators, 2 workers: rt-par vs rayon");
    for (w, workload) in workloads.iter().enumerate() {
        let measured = |system: usize| {
            let ms: Vec<f64> = times[w][system]
                .iter()
                .map(|d| d.as_secs_f64() * 1e3)
                .collect();
            Measured::of_rounds(&ms)
        };
        let name = workload.name(sizes);
        let short = name.split(", ").next().unwrap_or(&name);
        section.push(Line::new(
            short,
            Unit::Millis,
            measured(2),
            [(SYSTEMS[1], measured(1))],
        ));
    }
    section
}

/// Compares with the sequential result (the first one seen: the warm-up
/// round runs the sequential system too).
fn check(
    expected: &mut Option<Output>,
    output: Output,
    workload: Workload,
    system: &str,
    sizes: &Sizes,
) {
    match expected {
        None => *expected = Some(output),
        Some(expected) => assert!(
            *expected == output,
            "{} on {system} gave another result than sequentially",
            workload.name(sizes)
        ),
    }
}

fn median_ms(rounds: &[Duration]) -> f64 {
    let mut ms: Vec<f64> = rounds.iter().map(|d| d.as_secs_f64() * 1e3).collect();
    ms.sort_by(f64::total_cmp);
    let n = ms.len();
    if n % 2 == 1 {
        ms[n / 2]
    } else {
        (ms[n / 2 - 1] + ms[n / 2]) / 2.0
    }
}

fn report(
    opts: &Options,
    sizes: &Sizes,
    workloads: &[Workload],
    times: &[Vec<Vec<Duration>>],
) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "# Parallel iterators: rt-par, rayon, sequential\n");
    let _ = writeln!(
        out,
        "{} workers; {} rounds{}; median ms per system; {}, {} CPUs.\n",
        WORKERS,
        opts.rounds,
        if opts.quick {
            ", quick mode: smaller inputs than the full run (sizes in the workload names)"
        } else {
            ""
        },
        cli::cpu_model(),
        std::thread::available_parallelism().map_or(1, |n| n.get()),
    );
    let _ = writeln!(
        out,
        "Speed-up: sequential's time ÷ the system's (below 1×: slower than sequential). \
         Aims (for information; the machine is shared and noisy): rt-par's median at most \
         1.05× rayon's, and a speed-up of 1.8× or more wherever rayon has one.\n"
    );
    let _ = writeln!(
        out,
        "| workload | sequential | rayon | rt-par | rt-par ÷ rayon | speed-up: rayon | rt-par |"
    );
    let _ = writeln!(out, "|---|---:|---:|---:|---:|---:|---:|");
    let (mut within, mut speedups, mut kept) = (0, 0, 0);
    for (w, workload) in workloads.iter().enumerate() {
        let [seq, rayon, rt_par] = [0, 1, 2].map(|s| median_ms(&times[w][s]));
        let ratio = rt_par / rayon;
        within += usize::from(ratio <= 1.05);
        if seq / rayon >= 1.8 {
            speedups += 1;
            kept += usize::from(seq / rt_par >= 1.8);
        }
        let _ = writeln!(
            out,
            "| {} | {seq:.1} | {rayon:.1} | {rt_par:.1} | {} | {} | {} |",
            workload.name(sizes),
            format::ratio(ratio),
            format::speedup(seq, rayon),
            format::speedup(seq, rt_par),
        );
    }
    let _ = writeln!(
        out,
        "\nrt-par's median at most 1.05× rayon's on {within} of {} workloads. {}\n",
        workloads.len(),
        match speedups {
            0 => "No workload here has rayon 1.8× or more faster than sequential, so the \
                  speed-up aim applies to none."
                .to_owned(),
            n => format!(
                "rayon is 1.8× faster than sequential or more on {n}; rt-par is too on {kept} of them."
            ),
        }
    );
    let _ = writeln!(out, "Every round (ms), sequential / rayon / rt-par:\n");
    for (w, workload) in workloads.iter().enumerate() {
        let rounds: Vec<String> = (0..times[w][0].len())
            .map(|r| {
                let [a, b, c] = [0, 1, 2].map(|s| times[w][s][r].as_secs_f64() * 1e3);
                format!("{a:.1}/{b:.1}/{c:.1}")
            })
            .collect();
        let _ = writeln!(out, "- {}: {}", workload.name(sizes), rounds.join(", "));
    }
    out
}
