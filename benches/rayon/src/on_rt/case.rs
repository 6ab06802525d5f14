//! A part-A case in its process: rayon's global pool of 2 workers, the
//! workload's input and reference result made once, then per round the
//! workload timed inside the pool and its result checked (a mismatch
//! panics). A round's time covers the workload alone: not the copy of its
//! input nor the check.

use std::hint::black_box;
use std::time::{Duration, Instant};

use super::find_first::Haystack;
use super::{fib, in_pool, nqueens, quicksort, skynet, stable_sort, uts, workloads};
use super::{Workload, SIZES};
use crate::backend;
use crate::case::Case;

/// Prepares the case of workload `id` in this process.
pub fn case(id: &str) -> Box<dyn Case> {
    let workload = super::parse(id).unwrap_or_else(|| panic!("unknown part-A workload `{id}`"));
    backend::global_pool();
    Box::new(Prepared::new(workload))
}

/// A workload with what its rounds need.
enum Prepared {
    Uts(&'static uts::Tree),
    Fib,
    /// The input, and the buffer each round sorts a copy of it in.
    Quicksort {
        input: Vec<u64>,
        buffer: Vec<u64>,
    },
    Skynet,
    Nqueens,
    /// The sorted input.
    ParSort {
        expected: Vec<u64>,
    },
    FindFirst(Haystack),
    /// One of `par/workloads.rs`'s: its text (word counts) and the
    /// sequential result.
    Shared {
        workload: workloads::Workload,
        text: &'static [&'static str],
        expected: workloads::Output,
    },
}

impl Prepared {
    fn new(workload: Workload) -> Prepared {
        if let Some(shared) = workload.shared() {
            let text: &'static [&'static str] = if workload == Workload::WordCounts {
                Box::leak(workloads::text(SIZES.text_bytes).into_boxed_slice())
            } else {
                &[]
            };
            let expected = workloads::sequential(shared, &SIZES, &mut shared.input(&SIZES, text));
            return Prepared::Shared {
                workload: shared,
                text,
                expected,
            };
        }
        match workload {
            Workload::UtsT1 => Prepared::Uts(&uts::T1),
            Workload::UtsT3 => Prepared::Uts(&uts::T3),
            Workload::Fib => Prepared::Fib,
            Workload::Quicksort => {
                let input = quicksort::input();
                Prepared::Quicksort {
                    buffer: input.clone(),
                    input,
                }
            }
            Workload::Skynet => Prepared::Skynet,
            Workload::Nqueens => Prepared::Nqueens,
            Workload::ParSort => Prepared::ParSort {
                expected: stable_sort::expected(SIZES.sort),
            },
            Workload::FindFirst => Prepared::FindFirst(Haystack::new()),
            _ => unreachable!("{workload:?} is one of the shared workloads"),
        }
    }
}

impl Case for Prepared {
    fn round(&mut self) -> String {
        super::figures(match self {
            Prepared::Uts(tree) => {
                let tree: &'static uts::Tree = tree;
                let root = uts::Node::root(tree);
                let (counts, took) = timed(|| in_pool(|| uts::rayon_join(tree, root)));
                uts::check(tree, counts);
                took
            }
            Prepared::Fib => {
                // Not a constant: the call cannot be folded at compile time.
                let n = black_box(fib::N);
                let (result, took) = timed(|| in_pool(|| fib::rayon_join(n)));
                fib::check(result);
                took
            }
            Prepared::Quicksort { input, buffer } => {
                buffer.copy_from_slice(input);
                let ((), took) = timed(|| in_pool(|| quicksort::rayon_join(buffer)));
                quicksort::check(buffer);
                took
            }
            Prepared::Skynet => {
                let (sum, took) = timed(|| in_pool(|| skynet::rayon_scope(0, skynet::LEAVES)));
                skynet::check(sum);
                took
            }
            Prepared::Nqueens => {
                let board = nqueens::Board::empty(black_box(nqueens::N));
                let (solutions, took) = timed(|| in_pool(|| nqueens::rayon_join(board)));
                nqueens::check(solutions);
                took
            }
            Prepared::ParSort { expected } => {
                let mut v = stable_sort::input(SIZES.sort);
                let ((), took) = timed(|| in_pool(|| stable_sort::rayon_sort(&mut v)));
                assert!(v == *expected, "par_sort's output is not the sorted input");
                took
            }
            Prepared::FindFirst(haystack) => {
                let (found, took) = timed(|| in_pool(|| haystack.rayon_find_first()));
                haystack.check(found);
                took
            }
            Prepared::Shared {
                workload,
                text,
                expected,
            } => {
                let (workload, mut input) = (*workload, workload.input(&SIZES, text));
                let input = &mut input;
                let (output, took) =
                    timed(|| in_pool(|| workloads::with_rayon(workload, &SIZES, input)));
                // Not `assert_eq!`: the outputs are millions of items long.
                assert!(
                    output == *expected,
                    "{workload:?}: rayon's result differs from the sequential one"
                );
                took
            }
        })
    }
}

/// `work`'s result and how long it took.
fn timed<R>(work: impl FnOnce() -> R) -> (R, Duration) {
    let started = Instant::now();
    let result = work();
    (result, started.elapsed())
}
