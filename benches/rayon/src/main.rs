//! rayon code on real rayon against the same code on rt (part of
//! `cargo xtask bench`, which builds this program twice and runs it).
//!
//! A real rayon-core and rt's replacement (`crates/rt-rayon-core`, also
//! named `rayon-core` with `links = "rayon-core"`) cannot be in one
//! dependency graph, so this program is built twice: once plain, once with
//! `--features rt` and rt's rayon-core patched in on the command line
//! (`--config 'patch.crates-io.rayon-core.path="…/crates/rt-rayon-core"'`).
//! The plain build is the parent: it runs every case in a child process of
//! the build it belongs to (itself, or `--rt-exe`), so the two rayon-cores
//! run side by side, round by round.
//!
//! Two parts, each printing a markdown table and writing it under
//! `target/bench/`, with its summary lines under `target/bench/summary/`:
//!
//! * **A, rayon code on rt** (`rayon_on_rt.md`, [`on_rt`]): thirteen
//!   fork-join and parallel-iterator workloads, each checked, on rayon's
//!   global pool of 2 workers, real rayon against rayon on rt; median ms and
//!   the ratio rt ÷ real (the target: at most 1.05).
//! * **B, rayon code with priorities** (`rayon_priorities.md`,
//!   [`priorities`]): interactive `par_iter` jobs arriving every 4 ms while
//!   a batch of `par_iter`s runs, on 2 CPUs: the jobs alone; one real rayon
//!   pool; two real rayon pools sized as Lighthouse sizes them; rt with the
//!   batch at `Background` and the jobs at `High`. Interactive latency
//!   percentiles and the batch's throughput.
//!
//! Every case runs in its own process, which warms up once, says `ready`,
//! then runs one round per line it reads and prints its figures; the
//! parent interleaves the cases round by round in a shuffled order (the
//! machine is shared and noisy: only figures of one run are compared) and
//! kills a case that exceeds the time limit.
//!
//! Options: `--quick` (the default: 5 rounds of part A, 3 rounds of 3 s of
//! part B), `--full` (15 rounds; 7 rounds of 5 s), `--rounds N` (both
//! parts), `--seconds S` (a part-B round), `--part a|b`, `--filter TEXT`
//! (part-A workloads whose id contains TEXT), `--timeout S` (a round's
//! limit beyond its expected length, default 30), `--out DIR`,
//! `--rt-exe PATH` (the patched build; without it the rt column reads
//! "not built"). A child: `--case a:WORKLOAD|b:SETUP [--rounds N]
//! [--seconds S]`, which runs alone without `--step`. Exit status: 1 if a
//! case of real rayon failed (a wrong result, a crash) or timed out, 2 if
//! only cases of rt's did.
//!
//! `cargo xtask bench --rayon` builds and runs it; by hand, from the
//! workspace's root (the patch's path must be absolute):
//!
//! ```text
//! cargo build --release --manifest-path benches/rayon/Cargo.toml \
//!     --target-dir target/bench-rayon/rt --features rt \
//!     --config 'patch.crates-io.rayon-core.path="'$PWD'/crates/rt-rayon-core"'
//! cargo build --release --manifest-path benches/rayon/Cargo.toml \
//!     --target-dir target/bench-rayon/real
//! target/bench-rayon/real/release/rt-rayon-bench \
//!     --rt-exe target/bench-rayon/rt/release/rt-rayon-bench
//! ```
//!
//! (in that order: cargo rewrites `Cargo.lock` for each build, and the
//! plain build's is the one kept).

mod backend;
mod case;
mod interleave;
mod on_rt;
mod options;
mod priorities;
#[path = "../../forkjoin/child.rs"]
mod process;
mod serve;

use options::Part;

fn main() {
    let opts = options::parse();
    if let Some(case) = &opts.case {
        return serve::case(case, &opts);
    }
    let mut failed = interleave::Failures::default();
    if opts.part != Part::B {
        failed.add(on_rt::run(&opts));
    }
    if opts.part != Part::A {
        failed.add(priorities::run(&opts));
    }
    failed.exit();
}
