//! The project's task runner: `cargo xtask <command>`.
//!
//! * `ci`: every check CI runs (fmt, clippy with `-D warnings`, all tests
//!   including doc tests, building every example and bench).
//! * `bench`: the benchmark suite (see `cargo xtask help`).
//! * `loom`, `miri`, `tsan`: the model checker and the sanitizers (also run
//!   by `ci`, after the tests); `soak`: the long-running soak test;
//!   `trace`: one workload's execution trace as JSON and SVG.

use std::process::{Command, ExitCode};
use std::time::Instant;

mod soak;
mod steps;
mod verify;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let command = args.first().map(String::as_str).unwrap_or("help");
    let rest = &args[args.len().min(1)..];
    let result = match command {
        "ci" => ci(),
        "bench" => bench(rest),
        "loom" => verify::loom(),
        "miri" => verify::miri(),
        "tsan" => verify::tsan(),
        "soak" => soak::soak(rest),
        "trace" => trace(rest),
        "help" | "-h" | "--help" => {
            print_help();
            Ok(())
        }
        other => Err(format!("unknown command `{other}`; see `cargo xtask help`")),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("xtask: {message}");
            ExitCode::FAILURE
        }
    }
}

fn print_help() {
    println!(
        "cargo xtask <command>\n\n\
         commands:\n  \
         ci      fmt, clippy -D warnings, every test and doc test, build examples and benches,\n          then loom, miri and tsan (below)\n  \
         bench   run every workload on every strategy (quick mode, ~2 min) and print the tables,\n          then the burst and rt-fair latency benchmarks, the fork-join\n          workloads, the async offload, the priority\n          classes under load and the parallel iterators (own tables);\n          \
         options: --rounds N, --filter TEXT, --full (the criterion suite instead)\n  \
         loom    model-check the doorbell, shutdown, fork-join, join-state, cancellation,\n          burst wake-up and elastic grow/retire protocols
  \
         miri    unit tests of rt-queue, rt-handle, rt-core and small integration tests under miri
  \
         tsan    rt-handle, rt-core, rt-elastic, rt-timer and rt-dag tests built with\n          ThreadSanitizer (nightly, -Zbuild-std)
  \
         soak    spawn, cancel, panic and shut down under load; options: --seconds N (default 60)
  \
         trace   record one workload's execution trace: target/bench/trace.json (Perfetto)\n          and target/bench/timeline.svg; workload: quicksort (default),\n          nested_fan_out, priorities
  \
         help    this text"
    );
}

fn ci() -> Result<(), String> {
    let started = Instant::now();
    steps::run("format", cargo(&["fmt", "--all", "--check"]))?;
    steps::run(
        "clippy",
        cargo(&[
            "clippy",
            "--workspace",
            "--all-targets",
            "--",
            "-D",
            "warnings",
        ]),
    )?;
    steps::run("tests", cargo(&["test", "--workspace"]))?;
    // The optional features, which the workspace build leaves off:
    // `tracing` (task spans) and `svg` (the trace's timeline picture).
    steps::run(
        "clippy of rt-core with its features",
        cargo(&[
            "clippy",
            "-p",
            "rt-core",
            "--all-targets",
            "--features",
            "tracing svg",
            "--",
            "-D",
            "warnings",
        ]),
    )?;
    steps::run(
        "tests of rt-core with its features",
        cargo(&["test", "-p", "rt-core", "--features", "tracing svg"]),
    )?;
    steps::run(
        "examples and benches",
        cargo(&["build", "--workspace", "--examples", "--benches"]),
    )?;
    verify::loom()?;
    verify::miri()?;
    verify::tsan()?;
    println!("xtask ci: all checks passed in {:.0?}", started.elapsed());
    Ok(())
}

/// `cargo xtask bench [--full] [--rounds N] [--filter TEXT]`: the quick
/// interleaved comparison by default, the criterion suite with `--full`.
fn bench(args: &[String]) -> Result<(), String> {
    if args.iter().any(|a| a == "--full") {
        let rest: Vec<&str> = args
            .iter()
            .map(String::as_str)
            .filter(|a| *a != "--full")
            .collect();
        let mut cmd = cargo(&["bench", "--bench", "suite", "--"]);
        cmd.args(rest);
        return steps::run("criterion suite", cmd);
    }
    let mut cmd = cargo(&["bench", "--bench", "compare", "--"]);
    cmd.args(args);
    steps::run("benchmark comparison (quick mode)", cmd)?;
    // Its own table: wake-up latency of bursts (rt-burst, the park/unpark
    // floor and the peers); writes target/bench/burst.md.
    steps::run(
        "burst wake-up latency (quick mode)",
        cargo(&["bench", "--bench", "burst", "--", "--quick"]),
    )?;
    // Its own table: foreground latency under background load on one thread
    // (rt-fair, tokio, clockworker); writes target/bench/fair.md.
    steps::run(
        "rt-fair foreground latency under background load (quick mode)",
        cargo(&["bench", "--bench", "fair", "--", "--quick"]),
    )?;
    // Its own table: fork-join workloads (UTS, fib, quicksort) on one
    // thread, rayon, chili and the runtime's spawn-and-join, each case in its
    // own process with a time limit; writes target/bench/forkjoin.md.
    steps::run(
        "fork-join workloads (quick mode)",
        cargo(&["bench", "--bench", "forkjoin", "--", "--quick"]),
    )?;
    // Its own table: CPU work awaited from a tokio current-thread runtime
    // (the runtime's JoinHandle as a future, spawn_blocking, rayon with a
    // oneshot, tokio tasks); writes target/bench/offload.md.
    steps::run(
        "async offload (quick mode)",
        cargo(&["bench", "--bench", "offload", "--", "--quick"]),
    )?;
    // Its own tables: High latency under a saturating Background load
    // (Strict, Weighted, tokio, rayon with two pools, the global queue) and
    // the CPU shares of saturated classes; writes target/bench/priorities.md.
    steps::run(
        "priority classes under load (quick mode)",
        cargo(&["bench", "--bench", "priorities", "--", "--quick"]),
    )?;
    // Its own table: parallel iterators (rt-par, rayon, sequential) on the
    // seven workloads of issue 32, each result checked; writes
    // target/bench/par.md.
    steps::run(
        "parallel iterators (quick mode)",
        cargo(&["bench", "--bench", "par", "--", "--quick"]),
    )
}

/// `cargo xtask trace [workload]`: the trace example, which writes
/// `target/bench/trace.json` and `target/bench/timeline.svg`.
fn trace(args: &[String]) -> Result<(), String> {
    let mut cmd = cargo(&["run", "--release", "--example", "trace_timeline", "--"]);
    cmd.args(args.iter().take(1));
    steps::run("execution trace", cmd)
}

fn cargo(args: &[&str]) -> Command {
    let mut cmd = Command::new(std::env::var("CARGO").unwrap_or_else(|_| "cargo".into()));
    cmd.args(args);
    cmd
}
