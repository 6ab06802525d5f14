//! `cargo xtask bench [--full] [--rounds N] [--filter TEXT]`: the quick
//! interleaved comparison and the benchmarks with their own tables by
//! default, the criterion suite with `--full`.
//!
//! Every benchmark binary is built once, in one cargo command, before the
//! first one runs: the runs that follow start at once instead of each
//! waiting for a link of its own (the bench profile links with fat LTO).

use crate::{cargo, steps};

/// One benchmark target that `cargo xtask bench` runs, in this order.
struct Bench {
    /// The `[[bench]]` target's name.
    target: &'static str,
    /// What it measures, as the step's heading.
    title: &'static str,
}

/// The benchmarks of the quick run. `compare` takes the command's options;
/// the others run with `--quick`, and each writes its own tables under
/// `target/bench/`.
const QUICK: &[Bench] = &[
    // Every workload on every strategy, interleaved round by round:
    // results.md and ratios.svg.
    Bench {
        target: "compare",
        title: "benchmark comparison (quick mode)",
    },
    // Wake-up latency of bursts (rt-burst, the park/unpark floor and the
    // peers): burst.md.
    Bench {
        target: "burst",
        title: "burst wake-up latency (quick mode)",
    },
    // Foreground latency under background load on one thread (rt-fair,
    // tokio, clockworker): fair.md.
    Bench {
        target: "fair",
        title: "rt-fair foreground latency under background load (quick mode)",
    },
    // Fork-join workloads (UTS, fib, quicksort) on one thread, rayon, chili
    // and the runtime, each case in its own process with a time limit:
    // forkjoin.md.
    Bench {
        target: "forkjoin",
        title: "fork-join workloads (quick mode)",
    },
    // CPU work awaited from a tokio current-thread runtime (the runtime's
    // JoinHandle as a future, spawn_blocking, rayon with a oneshot, tokio
    // tasks): offload.md.
    Bench {
        target: "offload",
        title: "async offload (quick mode)",
    },
    // High latency under a saturating Background load and the CPU shares of
    // saturated classes: priorities.md.
    Bench {
        target: "priorities",
        title: "priority classes under load (quick mode)",
    },
    // Parallel iterators (rt-par, rayon, sequential) on the same
    // workloads: par.md.
    Bench {
        target: "par",
        title: "parallel iterators (quick mode)",
    },
    // Task graphs and pipelines (rt-dag against rt-dag before release
    // where the work finished, hand-written rt code, spawn+join), and the
    // makespan of critical path first: graph.md.
    Bench {
        target: "graph",
        title: "task graphs (quick mode)",
    },
];

/// Runs the quick benchmarks (or, with `--full`, the criterion suite),
/// after building them all.
pub fn bench(args: &[String]) -> Result<(), String> {
    if args.iter().any(|a| a == "--full") {
        let rest = args.iter().filter(|a| *a != "--full");
        steps::run(
            "build the criterion suite",
            cargo(&["bench", "--no-run", "--bench", "suite"]),
        )?;
        let mut cmd = cargo(&["bench", "--bench", "suite", "--"]);
        cmd.args(rest);
        return steps::run("criterion suite", cmd);
    }
    let mut build = cargo(&["bench", "--no-run"]);
    for bench in QUICK {
        build.args(["--bench", bench.target]);
    }
    steps::run("build every benchmark", build)?;
    for bench in QUICK {
        let mut cmd = cargo(&["bench", "--bench", bench.target, "--"]);
        if bench.target == "compare" {
            cmd.args(args);
        } else {
            cmd.arg("--quick");
        }
        steps::run(bench.title, cmd)?;
    }
    Ok(())
}
