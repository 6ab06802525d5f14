//! Parallel iterators nest: inside `join`, `scope`, spawned tasks, other
//! parallel iterators, and on the runtime that calls them.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

use rt_core::Runtime;
use rt_par::prelude::*;
use rt_testkit::without_hanging;

#[test]
fn iterators_run_inside_both_halves_of_a_join() {
    without_hanging(|| {
        let rt = Runtime::new(2).unwrap();
        let (a, b) = rt.install(|| {
            rt_core::join(
                || (0..100_000u64).into_par_iter().sum::<u64>(),
                || (0..100_000u64).into_par_iter().map(|x| x * 2).sum::<u64>(),
            )
        });
        assert_eq!((a, b), (4_999_950_000, 9_999_900_000));
    });
}

#[test]
fn iterators_run_inside_scope_tasks() {
    without_hanging(|| {
        let rt = Runtime::new(2).unwrap();
        let mut results = [0u64; 8];
        rt.scope(|s| {
            for (i, slot) in results.iter_mut().enumerate() {
                s.spawn(move || {
                    *slot = (0..10_000u64).into_par_iter().map(|x| x * i as u64).sum();
                });
            }
        });
        for (i, r) in results.iter().enumerate() {
            assert_eq!(*r, 49_995_000 * i as u64);
        }
    });
}

#[test]
fn iterators_nest_three_deep() {
    without_hanging(|| {
        let rt = Runtime::new(2).unwrap();
        let total: usize = rt.install(|| {
            (0..40usize)
                .into_par_iter()
                .map(|i| {
                    (0..i)
                        .into_par_iter()
                        .map(|j| (0..j).into_par_iter().filter(|k| k % 2 == 0).count())
                        .sum::<usize>()
                })
                .sum()
        });
        let expected: usize = (0..40usize)
            .map(|i| {
                (0..i)
                    .map(|j| (0..j).filter(|k| k % 2 == 0).count())
                    .sum::<usize>()
            })
            .sum();
        assert_eq!(total, expected);
    });
}

#[test]
fn an_iterator_runs_on_the_runtime_that_calls_it() {
    without_hanging(|| {
        let rt = Runtime::new(2).unwrap();
        let off_pool = AtomicUsize::new(0);
        rt.install(|| {
            (0..100_000).into_par_iter().for_each(|_| {
                if rt_core::current_thread_index().is_none() {
                    off_pool.fetch_add(1, Ordering::Relaxed);
                }
            })
        });
        assert_eq!(off_pool.into_inner(), 0);
    });
}

#[test]
fn an_iterator_called_off_any_runtime_runs_on_the_global_one() {
    without_hanging(|| {
        let on_a_worker = AtomicUsize::new(0);
        (0..1000).into_par_iter().for_each(|_| {
            if rt_core::current_thread_index().is_some() {
                on_a_worker.fetch_add(1, Ordering::Relaxed);
            }
        });
        assert_eq!(on_a_worker.into_inner(), 1000);
    });
}

#[test]
fn a_spawned_task_can_run_an_iterator_and_be_joined() {
    without_hanging(|| {
        let rt = Runtime::new(2).unwrap();
        let data = Arc::new((0..50_000u32).collect::<Vec<_>>());
        let handles: Vec<_> = (0..4)
            .map(|k| {
                let data = Arc::clone(&data);
                rt.spawn(move || data.par_iter().filter(|&&x| x % 4 == k).count())
            })
            .collect();
        let counts: Vec<usize> = handles.into_iter().map(|h| h.join().unwrap()).collect();
        assert_eq!(counts, vec![12_500; 4]);
    });
}

#[test]
fn a_one_worker_runtime_runs_iterators_sequentially() {
    without_hanging(|| {
        let rt = Runtime::new(1).unwrap();
        let v: Vec<u32> = rt.install(|| {
            (0..10_000u32)
                .into_par_iter()
                .rev()
                .filter(|x| x % 3 == 0)
                .collect()
        });
        assert_eq!(
            v,
            (0..10_000u32)
                .rev()
                .filter(|x| x % 3 == 0)
                .collect::<Vec<_>>()
        );
        let mut s: Vec<u32> = (0..100_000u32).rev().collect();
        rt.install(|| s.par_sort_unstable());
        assert!(s.windows(2).all(|w| w[0] <= w[1]));
    });
}
