//! `with_priority` keeps results and indexing. (`with_cancellation`:
//! `a_cancelled_iterator_says_so.rs`.)

use rt_core::{Priority, Runtime};
use rt_par::prelude::*;
use rt_testkit::without_hanging;

#[test]
fn a_background_iterator_gives_the_same_results() {
    without_hanging(|| {
        let rt = Runtime::new(2).unwrap();
        for priority in [Priority::High, Priority::Normal, Priority::Background] {
            let v: Vec<u64> = rt.install(|| {
                (0..100_000u64)
                    .into_par_iter()
                    .with_priority(priority)
                    .map(|x| x * x)
                    .collect()
            });
            assert_eq!(v, (0..100_000u64).map(|x| x * x).collect::<Vec<_>>());
            let sum: u64 = (0..1000u64)
                .into_par_iter()
                .filter(|x| x % 3 == 0)
                .with_priority(priority)
                .sum();
            assert_eq!(sum, (0..1000u64).filter(|x| x % 3 == 0).sum::<u64>());
        }
    });
}

/// The pieces of a prioritised iterator run as work of that priority, on
/// the calling worker and on the workers that take pieces from it: tasks a
/// piece forks into a scope inherit the piece's priority, which the trace
/// records.
#[test]
fn every_piece_of_a_background_iterator_runs_at_background_priority() {
    without_hanging(|| {
        let rt = Runtime::new(2).unwrap();
        assert!(rt.start_trace(10_000));
        rt.install(|| {
            (0..64u32)
                .into_par_iter()
                .with_priority(Priority::Background)
                .with_max_len(1)
                .for_each(|_| {
                    rt_core::scope(|s| {
                        s.spawn(|| std::hint::black_box(0u64));
                    });
                });
        });
        let trace = rt.stop_trace();
        assert_eq!(trace.tasks.len(), 64, "one scope task per item");
        assert!(trace
            .tasks
            .iter()
            .all(|t| t.priority == Priority::Background));
    });
}

#[test]
fn a_prioritised_indexed_iterator_stays_indexed() {
    without_hanging(|| {
        let it = (0..10u32)
            .into_par_iter()
            .with_priority(Priority::Background);
        assert_eq!(it.len(), 10);
        let pairs: Vec<(usize, u32)> = it.rev().enumerate().zip(0..5).map(|(p, _)| p).collect();
        assert_eq!(pairs, vec![(0, 9), (1, 8), (2, 7), (3, 6), (4, 5)]);
        let mut out = vec![0u32; 10];
        out.par_iter_mut()
            .with_priority(Priority::Background)
            .zip((0..10u32).into_par_iter().with_priority(Priority::High))
            .for_each(|(o, i)| *o = i);
        assert_eq!(out, (0..10).collect::<Vec<_>>());
    });
}

#[test]
fn a_prioritised_sort_and_nested_iterators_run_to_completion() {
    without_hanging(|| {
        let rt = Runtime::new(2).unwrap();
        let total: u64 = rt.install(|| {
            (0..100u64)
                .into_par_iter()
                .with_priority(Priority::Background)
                .map(|i| {
                    (0..i)
                        .into_par_iter()
                        .with_priority(Priority::High)
                        .sum::<u64>()
                })
                .sum()
        });
        assert_eq!(total, (0..100u64).map(|i| (0..i).sum::<u64>()).sum::<u64>());
    });
}
