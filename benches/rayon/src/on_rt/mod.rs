//! Part A, rayon code on rt: the same rayon code on real rayon and on rt's
//! rayon-core, rayon's global pool of 2 workers in both, each result
//! checked.
//!
//! The fork-join workloads of `benches/forkjoin/` (UTS T1 and T3, fib(27),
//! quicksort of 2 M `u64`, nqueens(12); skynet in its `rayon::scope` form)
//! and the parallel-iterator workloads of `benches/par/workloads.rs`
//! (Mandelbrot, word counts, `par_sort_unstable`, n-body, map + collect,
//! `find_first`) are included as they are (their rayon versions run); the
//! stable `par_sort` is here. Each case (workload × build) runs in its own
//! process.

mod case;
mod find_first;
mod report;
mod stable_sort;

// The other benchmarks' workloads. Beside their rayon versions they hold
// rt's and chili's, which do not run here.
#[allow(dead_code)]
#[path = "../../../forkjoin/fib.rs"]
mod fib;
#[allow(dead_code)]
#[path = "../../../forkjoin/nqueens.rs"]
mod nqueens;
#[allow(dead_code)]
#[path = "../../../forkjoin/quicksort.rs"]
mod quicksort;
#[allow(dead_code)]
#[path = "../../../forkjoin/skynet.rs"]
mod skynet;
#[allow(dead_code)]
#[path = "../../../forkjoin/uts.rs"]
mod uts;
#[allow(dead_code)]
#[path = "../../../par/workloads.rs"]
mod workloads;

use std::time::Duration;

use crate::interleave::{self, Failures, Plan, Spec};
use crate::options::Options;

pub use case::case;

/// A workload of part A.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Workload {
    UtsT1,
    UtsT3,
    Fib,
    Quicksort,
    Skynet,
    Nqueens,
    Mandelbrot,
    WordCounts,
    ParSort,
    ParSortUnstable,
    NBody,
    Collect,
    FindFirst,
}

impl Workload {
    pub const ALL: [Workload; 13] = [
        Workload::UtsT1,
        Workload::UtsT3,
        Workload::Fib,
        Workload::Quicksort,
        Workload::Skynet,
        Workload::Nqueens,
        Workload::Mandelbrot,
        Workload::WordCounts,
        Workload::ParSort,
        Workload::ParSortUnstable,
        Workload::NBody,
        Workload::Collect,
        Workload::FindFirst,
    ];

    /// The name in a case id (`a:ID`) and for `--filter`.
    pub fn id(self) -> &'static str {
        match self {
            Workload::UtsT1 => "uts-t1",
            Workload::UtsT3 => "uts-t3",
            Workload::Fib => "fib",
            Workload::Quicksort => "quicksort",
            Workload::Skynet => "skynet",
            Workload::Nqueens => "nqueens",
            Workload::Mandelbrot => "mandelbrot",
            Workload::WordCounts => "word-counts",
            Workload::ParSort => "par-sort",
            Workload::ParSortUnstable => "par-sort-unstable",
            Workload::NBody => "n-body",
            Workload::Collect => "collect",
            Workload::FindFirst => "find-first",
        }
    }

    /// The row title in the report.
    pub fn title(self) -> &'static str {
        match self {
            Workload::UtsT1 => "UTS T1 (geometric, 4.1 M nodes; join)",
            Workload::UtsT3 => "UTS T3 (binomial, 4.1 M nodes; join)",
            Workload::Fib => "fib(27), a join per call",
            Workload::Quicksort => "quicksort 2 M u64, cutoff 2,048 (join)",
            Workload::Skynet => "skynet, 1 M leaves (scope, 10 spawns a node)",
            Workload::Nqueens => "nqueens(12), a join per branch",
            Workload::Mandelbrot => "Mandelbrot 1024×1024, rows collected",
            Workload::WordCounts => "word counts, 8 MB of text (fold + reduce)",
            Workload::ParSort => "par_sort, 4 M u64",
            Workload::ParSortUnstable => "par_sort_unstable, 4 M u64",
            Workload::NBody => "n-body step, 4,096 bodies (par_iter_mut)",
            Workload::Collect => "map + collect into Vec, 10 M items",
            Workload::FindFirst => "find_first, match at 10% of 50 M",
        }
    }

    /// The name in the summary, which has about 35 columns for it.
    pub fn short(self) -> &'static str {
        match self {
            Workload::UtsT1 => "UTS T1, 4.1 M nodes (join)",
            Workload::UtsT3 => "UTS T3, 4.1 M nodes (join)",
            Workload::Fib => "fib(27) (join)",
            Workload::Quicksort => "quicksort 2 M (join)",
            Workload::Skynet => "skynet 1 M (scope)",
            Workload::Nqueens => "nqueens(12) (join)",
            Workload::Mandelbrot => "Mandelbrot 1024×1024",
            Workload::WordCounts => "word counts, 8 MB (fold)",
            Workload::ParSort => "par_sort 4 M u64",
            Workload::ParSortUnstable => "par_sort_unstable 4 M u64",
            Workload::NBody => "n-body 4,096 bodies",
            Workload::Collect => "map + collect 10 M",
            Workload::FindFirst => "find_first at 10% of 50 M",
        }
    }

    /// The same workload in `par/workloads.rs`, if it is one of those.
    fn shared(self) -> Option<workloads::Workload> {
        match self {
            Workload::Mandelbrot => Some(workloads::Workload::Mandelbrot),
            Workload::WordCounts => Some(workloads::Workload::WordFrequencies),
            Workload::ParSortUnstable => Some(workloads::Workload::SortUnstable),
            Workload::NBody => Some(workloads::Workload::NBody),
            Workload::Collect => Some(workloads::Workload::MapCollect),
            // Its input is shared, its search is not (`find_first.rs`).
            _ => None,
        }
    }
}

/// The sizes of the shared parallel-iterator workloads (those of its
/// full run, except the sorts' 4 M and the text's 8 MB).
const SIZES: workloads::Sizes = workloads::Sizes {
    squares: 0, // the sum of squares is not run here
    mandelbrot: 1024,
    text_bytes: 8 << 20,
    sort: 4_000_000,
    bodies: 4096,
    map_collect: 10_000_000,
    haystack: 50_000_000,
};

/// Runs part A: every selected workload in both builds, interleaved;
/// prints the report and writes it with its summary.
pub fn run(opts: &Options) -> Failures {
    let started = std::time::Instant::now();
    let selected: Vec<Workload> = Workload::ALL
        .into_iter()
        .filter(|w| opts.filter.as_deref().is_none_or(|f| w.id().contains(f)))
        .collect();
    assert!(!selected.is_empty(), "no part-A workload matches --filter");
    let rounds = opts.rounds_a.to_string();
    let own = std::env::current_exe().expect("this program's path");
    let specs: Vec<Spec> = selected
        .iter()
        .flat_map(|w| {
            [("rayon", Some(own.clone())), ("rt", opts.rt_exe.clone())].map(|(backend, exe)| Spec {
                case: format!("a:{}", w.id()),
                backend,
                exe,
                args: vec!["--rounds".into(), rounds.clone()],
            })
        })
        .collect();
    let plan = Plan {
        rounds: opts.rounds_a,
        start_limit: opts.timeout * 4,
        round_limit: opts.timeout,
        pause: Duration::from_millis(20),
    };
    let outcomes = interleave::run(&specs, &plan);
    let report = report::Report {
        workloads: &selected,
        outcomes: &outcomes,
        rounds: opts.rounds_a,
        limit: opts.timeout,
        took: started.elapsed(),
    };
    rt_bench_report::cli::write_report(&opts.out, "rayon_on_rt.md", &report.markdown());
    report.summary().write(&opts.out);
    Failures::of(&specs, &outcomes)
}

/// Parses a workload id.
fn parse(id: &str) -> Option<Workload> {
    Workload::ALL.into_iter().find(|w| w.id() == id)
}

/// Runs `work` inside rayon's global pool (its `install`: the calling
/// thread waits while a worker runs it), as the other benchmarks run their
/// rounds inside their pools.
fn in_pool<R: Send>(work: impl FnOnce() -> R + Send) -> R {
    rayon::scope(|_| work())
}

/// What a case gives per round: its time in nanoseconds.
fn figures(took: Duration) -> String {
    took.as_nanos().to_string()
}
