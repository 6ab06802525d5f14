//! The project's task runner: `cargo xtask <command>`.
//!
//! * `ci`: every check CI runs (fmt, clippy with `-D warnings` over every
//!   target, benchmarks included, all tests including doc tests, building
//!   every example, packaging every crate, the documentation without
//!   warnings or broken links).
//! * `docs`: the documentation check alone (the links and anchors of the
//!   README and the other Markdown files, rustdoc warnings denied, then
//!   every generated page scanned for links that did not resolve).
//! * `bench`: the benchmark suite (see `cargo xtask help`).
//! * `loom`, `miri`, `tsan`: the model checker and the sanitizers (also run
//!   by `ci`, after the tests); `soak`: the long-running soak test;
//!   `trace`: one workload's execution trace as JSON and SVG.

use std::process::{Command, ExitCode};
use std::time::Instant;

mod bench;
mod bench_rayon;
mod bench_summary;
mod doc_links;
mod docs;
mod md_links;
mod outside;
mod rayon_compat;
mod soak;
mod steps;
mod verify;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let command = args.first().map(String::as_str).unwrap_or("help");
    let rest = &args[args.len().min(1)..];
    let result = match command {
        "ci" => ci(),
        "docs" => docs::docs(),
        "bench" => bench::bench(rest),
        "loom" => verify::loom(),
        "miri" => verify::miri(),
        "tsan" => verify::tsan(),
        "soak" => soak::soak(rest),
        "trace" => trace(rest),
        "rayon-compat" => rayon_compat::rayon_compat(rest),
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
         ci      fmt, clippy -D warnings (benches too), every test and doc test, build examples,\n          \
         package every crate, docs (below), then loom and tsan beside miri (below;\n          \
         their output in target/ci-logs, printed at the end); about 15 min and\n          \
         8.5 GB of target/ on 2 cores from a fresh clone, and the pinned nightly\n  \
         bench   build every benchmark (package rt-benches) once, then run, in quick mode, every\n          \
         workload on every strategy, the burst and rt-fair latency benchmarks, the\n          \
         fork-join workloads, the async offload, the priority classes under load, the\n          \
         parallel iterators, the task graphs, and rayon code on real rayon and on rt\n          \
         (benches/rayon, built twice); then print a summary (rt against the best\n          \
         peer on each workload) and where the full tables (target/bench/*.md) and the chart\n          \
         went; about 7 min on 2 cores from a fresh clone, 2 1/2 of them building;\n          \
         options: --rounds N, --filter TEXT (the comparison), --full (the criterion suite),\n          \
         --rayon (the rayon section alone; with --full, its long run)\n  \
         docs    links and anchors of README.md, docs/*.md and the crates' READMEs; rustdoc\n          \
         with warnings denied, then every generated page checked for links that did not\n          \
         resolve (each package also documented alone)\n  \
         loom    model-check the doorbell, shutdown, fork-join, join-state, cancellation,\n          burst wake-up and elastic grow/retire and inline-join protocols
  \
         miri    unit tests of rt-queue, rt-handle, rt-core, rt-par; small integration tests of\n          rt-core and rt-par's panic-safety tests, under miri
  \
         tsan    rt-handle, rt-core, rt-elastic, rt-timer and rt-dag tests built with\n          ThreadSanitizer (the pinned nightly, -Zbuild-std)
  \
         soak    spawn, cancel, panic and shut down under load; options: --seconds N (default 60)
  \
         trace   record one workload's execution trace: target/bench/trace.json (Perfetto)\n          and target/bench/timeline.svg; workload: quicksort (default),\n          nested_fan_out, priorities
  \
         rayon-compat  the tests of rayon 1.12.0, rayon-core 1.13.0's tests/, indexmap, hashbrown\n          and ndarray on crates/rt-rayon-core patched in; --real: on the published\n          rayon-core instead; --only CRATE: one suite
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
    // The path of a spawned task that rt-core's ARCHITECTURE.md lists, file
    // by file, against the files the code runs: the test records them with
    // the test-only feature `path-trace` (which the workspace build leaves
    // off, so `path_step!()` is nothing there).
    steps::run(
        "the path of a spawned task (rt-core/ARCHITECTURE.md)",
        cargo(&[
            "test",
            "-p",
            "rt-core",
            "--features",
            "path-trace",
            "--test",
            "architecture_path",
        ]),
    )?;
    // The packages outside the workspace: rt's rayon-core and the
    // benchmark of rayon code on it.
    steps::run_all(outside::steps())?;
    // The optional features, which the workspace build leaves off:
    // `tracing` (task spans), `svg` (the trace's timeline picture) and
    // `chrome-trace` (the trace as Perfetto's JSON); and, for clippy,
    // `path-trace` (the path test above).
    steps::run(
        "clippy of rt-core with its features",
        cargo(&[
            "clippy",
            "-p",
            "rt-core",
            "--all-targets",
            "--features",
            "tracing svg chrome-trace path-trace",
            "--",
            "-D",
            "warnings",
        ]),
    )?;
    // With them on: the unit and doc tests, the tests of the features
    // themselves, and the fork-join and panic tests, whose tasks run nested
    // and unwind inside the spans `tracing` wraps around every task (the
    // other integration tests run without the features above).
    steps::run(
        "tests of rt-core with its features",
        cargo(&[
            "test",
            "-p",
            "rt-core",
            "--features",
            "tracing svg chrome-trace",
            "--lib",
            "--test",
            "trace",
            "--test",
            "tracing_spans",
            "--test",
            "tracing_spans_inline",
            "--test",
            "fork_join",
            "--test",
            "scope",
            "--test",
            "careless_panics",
        ]),
    )?;
    steps::run(
        "doc tests of rt-core with its features",
        cargo(&[
            "test",
            "-p",
            "rt-core",
            "--doc",
            "--features",
            "tracing svg chrome-trace",
        ]),
    )?;
    // The facade with `chrome-trace` and `svg`: the trace example needs
    // them, and the README's trace snippet writes the JSON only with the
    // first.
    steps::run(
        "clippy of the facade with chrome-trace and svg",
        cargo(&[
            "clippy",
            "-p",
            "rt-cpu",
            "--all-targets",
            "--features",
            "chrome-trace svg",
            "--",
            "-D",
            "warnings",
        ]),
    )?;
    steps::run(
        "doc tests of the facade with chrome-trace",
        cargo(&[
            "test",
            "-p",
            "rt-cpu",
            "--doc",
            "--features",
            "chrome-trace",
        ]),
    )?;
    // Every example links, the facade's with its features (the others
    // were built by the tests above). The benchmarks and `rt-top` are
    // checked by clippy (`--all-targets`) but not linked here: that would
    // build every peer the benchmarks compare against, for `cargo xtask
    // bench` to build again in its own profile.
    steps::run(
        "examples",
        cargo(&[
            "build",
            "--workspace",
            "--examples",
            "--features",
            "rt-cpu/chrome-trace rt-cpu/svg",
        ]),
    )?;
    // Every crate packages as it would be published (the test kit and
    // xtask too, though `publish = false` keeps them off the registry).
    steps::run(
        "packages",
        cargo(&["package", "--workspace", "--no-verify", "--allow-dirty"]),
    )?;
    docs::docs()?;
    verify::models_and_sanitizers()?;
    println!("xtask ci: all checks passed in {:.0?}", started.elapsed());
    Ok(())
}

/// `cargo xtask trace [workload]`: the trace example, which writes
/// `target/bench/trace.json` and `target/bench/timeline.svg`.
fn trace(args: &[String]) -> Result<(), String> {
    let mut cmd = cargo(&[
        "run",
        "--release",
        "--example",
        "trace_timeline",
        "--features",
        "chrome-trace svg",
        "--",
    ]);
    cmd.args(args.iter().take(1));
    steps::run("execution trace", cmd)
}

fn cargo(args: &[&str]) -> Command {
    let mut cmd = Command::new(std::env::var("CARGO").unwrap_or_else(|_| "cargo".into()));
    cmd.args(args);
    cmd
}
