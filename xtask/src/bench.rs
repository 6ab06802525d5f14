//! `cargo xtask bench [--full] [--rounds N] [--filter TEXT]`: the quick
//! interleaved comparison and the benchmarks with their own tables by
//! default, the criterion suite with `--full`.
//!
//! Every benchmark binary (package `rt-benches`) is built once, in one
//! cargo command, before the first one runs: the runs that follow start at
//! once instead of each waiting for a link of its own (the bench profile
//! links with fat LTO). Each benchmark writes its full tables under
//! `target/bench/` and its headline figures to `target/bench/summary/`;
//! what it prints goes to `target/bench/logs/`, so that the terminal shows
//! progress, then the summary ([`crate::bench_summary`]), then where the
//! rest was written. Last comes rayon code on real rayon and on rt, a
//! package of its own built twice ([`crate::bench_rayon`]).

use std::fs;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use crate::{bench_rayon, bench_summary, cargo, steps, verify};

/// The package that holds the benchmarks and their peers.
const PACKAGE: &str = "rt-benches";

/// One benchmark target that `cargo xtask bench` runs, in this order.
struct Bench {
    /// The `[[bench]]` target's name.
    target: &'static str,
    /// What it measures, as the step's heading.
    title: &'static str,
    /// The files it writes under `target/bench/`.
    writes: &'static [&'static str],
}

/// The benchmarks of the quick run. `compare` takes the command's options;
/// the others run with `--quick`.
const QUICK: &[Bench] = &[
    // Every workload on every strategy, interleaved round by round.
    Bench {
        target: "compare",
        title: "tasks on a pool",
        writes: &["results.md", "ratios.svg"],
    },
    // Wake-up latency of bursts (rt-burst, the park/unpark floor and the
    // peers).
    Bench {
        target: "burst",
        title: "burst wake-up latency",
        writes: &["burst.md"],
    },
    // Foreground latency under background load on one thread (rt-fair,
    // tokio, clockworker).
    Bench {
        target: "fair",
        title: "rt-fair under background load",
        writes: &["fair.md"],
    },
    // Fork-join workloads (UTS, fib, quicksort) on one thread, rayon, chili
    // and the runtime, each case in its own process with a time limit.
    Bench {
        target: "forkjoin",
        title: "fork-join",
        writes: &["forkjoin.md"],
    },
    // CPU work awaited from a tokio current-thread runtime (the runtime's
    // JoinHandle as a future, spawn_blocking, rayon with a oneshot, tokio
    // tasks).
    Bench {
        target: "offload",
        title: "async offload",
        writes: &["offload.md"],
    },
    // High latency under a saturating Background load and the CPU shares of
    // saturated classes.
    Bench {
        target: "priorities",
        title: "priority classes under load",
        writes: &["priorities.md"],
    },
    // Parallel iterators (rt-par, rayon, sequential) on the same
    // workloads.
    Bench {
        target: "par",
        title: "parallel iterators",
        writes: &["par.md"],
    },
    // Task graphs and pipelines (rt-dag against rt-dag before release
    // where the work finished, hand-written rt code, spawn+join), and the
    // makespan of critical path first: graph.md.
    Bench {
        target: "graph",
        title: "task graphs",
        writes: &["graph.md"],
    },
];

/// The width the summary is laid out for.
const TERMINAL_WIDTH: usize = 100;

/// Runs the quick benchmarks (or, with `--full`, the criterion suite),
/// after building them all, then prints the summary.
pub fn bench(args: &[String]) -> Result<(), String> {
    if args.iter().any(|a| a == "--rayon") {
        return bench_rayon::standalone(args);
    }
    if args.iter().any(|a| a == "--full") {
        let rest = args.iter().filter(|a| *a != "--full");
        steps::run(
            "build the criterion suite",
            cargo(&["bench", "-p", PACKAGE, "--no-run", "--bench", "suite"]),
        )?;
        let mut cmd = cargo(&["bench", "-p", PACKAGE, "--bench", "suite", "--"]);
        cmd.args(rest);
        return steps::run("criterion suite", cmd);
    }
    let started = Instant::now();
    let mut build = cargo(&["bench", "-p", PACKAGE, "--no-run"]);
    for bench in QUICK {
        build.args(["--bench", bench.target]);
    }
    steps::run_described(
        "build every benchmark",
        &format!("cargo bench -p {PACKAGE} --no-run, {} targets", QUICK.len()),
        build,
    )?;
    // rayon code on real rayon and on rt: one program, built twice.
    let rayon = bench_rayon::build()?;
    let built = started.elapsed();

    let out = verify::target_dir().join("bench");
    let summaries = out.join("summary");
    let logs = out.join("logs");
    if summaries.exists() {
        fs::remove_dir_all(&summaries)
            .map_err(|e| format!("could not empty {}: {e}", summaries.display()))?;
    }
    fs::create_dir_all(&logs).map_err(|e| format!("could not create {}: {e}", logs.display()))?;
    for bench in QUICK {
        let mut cmd = cargo(&["bench", "-p", PACKAGE, "--bench", bench.target, "--"]);
        if bench.target == "compare" {
            cmd.args(args);
        } else {
            cmd.arg("--quick");
        }
        let log = logs.join(format!("{}.txt", bench.target));
        let file = fs::File::create(&log)
            .map_err(|e| format!("could not create {}: {e}", log.display()))?;
        cmd.stdout(file);
        steps::run(bench.title, cmd).map_err(|e| format!("{e}; its output: {}", log.display()))?;
    }
    bench_rayon::run(&rayon, &out, &logs, &[])?;

    let mut sections = Vec::new();
    let targets = QUICK.iter().map(|b| b.target);
    for target in targets.chain(bench_rayon::SUMMARIES.iter().copied()) {
        let path = summaries.join(format!("{target}.tsv"));
        match fs::read_to_string(&path) {
            Ok(text) => sections.push(bench_summary::parse(&text)?),
            Err(e) => println!("(no summary from {target}: {e})"),
        }
    }
    println!("\n{}", bench_summary::render(&sections, TERMINAL_WIDTH));
    println!("{}", written(&out, &logs));
    println!(
        "cargo xtask bench took {} ({} of it building).",
        minutes(started.elapsed()),
        minutes(built)
    );
    Ok(())
}

/// Where the full tables, the charts and the benchmarks' output are.
fn written(out: &Path, logs: &Path) -> String {
    let existing = |extension: &str| -> Vec<&str> {
        QUICK
            .iter()
            .flat_map(|b| b.writes.iter().copied())
            .chain(bench_rayon::WRITES.iter().copied())
            .filter(|f| f.ends_with(extension) && out.join(f).exists())
            .collect()
    };
    let shown = display(out);
    let mut text = format!("Full tables in {shown}/:\n{}", listed(&existing(".md")));
    let charts = existing(".svg");
    if !charts.is_empty() {
        text.push_str(&format!("Chart: {shown}/{}\n", charts.join(", ")));
    }
    text.push_str(&format!("What each benchmark printed: {}/", display(logs)));
    text
}

/// `names`, comma-separated, on lines indented by two that fit
/// [`TERMINAL_WIDTH`], each ending in a newline.
fn listed(names: &[&str]) -> String {
    let mut lines = vec![String::from(" ")];
    for (i, name) in names.iter().enumerate() {
        let item = if i + 1 < names.len() {
            format!(" {name},")
        } else {
            format!(" {name}")
        };
        let line = lines.last_mut().expect("one line at least");
        if line.len() > 1 && line.chars().count() + item.chars().count() > TERMINAL_WIDTH {
            lines.push(format!(" {item}"));
        } else {
            line.push_str(&item);
        }
    }
    lines.iter().map(|l| format!("{l}\n")).collect()
}

/// A path relative to the working directory when it is below it.
fn display(path: &Path) -> String {
    let relative = std::env::current_dir()
        .ok()
        .and_then(|cwd| path.strip_prefix(cwd).ok().map(PathBuf::from));
    relative
        .unwrap_or_else(|| path.to_path_buf())
        .display()
        .to_string()
}

/// `9 min 41 s`, or `48 s` under a minute.
fn minutes(d: Duration) -> String {
    let s = d.as_secs();
    if s < 60 {
        format!("{s} s")
    } else {
        format!("{} min {} s", s / 60, s % 60)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn where_the_files_went_fits_a_hundred_columns() {
        let out = std::env::temp_dir().join(format!("xtask-bench-{}", std::process::id()));
        fs::create_dir_all(&out).unwrap();
        let rayon = bench_rayon::WRITES.iter();
        for file in QUICK.iter().flat_map(|b| b.writes.iter()).chain(rayon) {
            fs::write(out.join(file), "").unwrap();
        }
        let text = written(&out, &out.join("logs"));
        fs::remove_dir_all(&out).unwrap();
        assert!(
            text.contains("results.md") && text.contains("par.md") && text.contains("ratios.svg")
        );
        assert!(text.contains("rayon_priorities.md"));
        for line in text.lines() {
            // The temporary folder's path is longer than target/bench.
            let line = line.replace(&out.display().to_string(), "target/bench");
            assert!(line.chars().count() <= TERMINAL_WIDTH, "{line}");
        }
    }

    #[test]
    fn durations_read_in_minutes_and_seconds() {
        assert_eq!(minutes(Duration::from_secs(48)), "48 s");
        assert_eq!(minutes(Duration::from_secs(581)), "9 min 41 s");
    }
}
