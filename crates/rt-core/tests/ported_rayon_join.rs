//! rayon-core's own `join` tests (`rayon-core/src/join/test.rs`,
//! `rayon-core/tests/simple_panic.rs`), ported: `rayon::join` is
//! `rt_core::join` inside `rt.install`, `ThreadPoolBuilder::num_threads` is
//! `Runtime::builder().threads`, `join_context`'s `migrated()` is "ran on
//! another worker than the caller" (`current_thread_index`).

mod support;

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Barrier;

use rt_core::{current_thread_index, Runtime};
use support::{pseudo_random, quietly, without_hanging, Gate, Latch};

fn quick_sort<T: PartialOrd + Send>(v: &mut [T]) {
    if v.len() <= 1 {
        return;
    }
    let mid = partition(v);
    let (lo, hi) = v.split_at_mut(mid);
    rt_core::join(|| quick_sort(lo), || quick_sort(hi));
}

fn partition<T: PartialOrd + Send>(v: &mut [T]) -> usize {
    let pivot = v.len() - 1;
    let mut i = 0;
    for j in 0..pivot {
        if v[j] <= v[pivot] {
            v.swap(i, j);
            i += 1;
        }
    }
    v.swap(i, pivot);
    i
}

#[test]
fn quick_sort_with_join_outside_any_runtime_sorts() {
    without_hanging(|| {
        let mut data = pseudo_random(6 * 1024, 7);
        let mut sorted = data.clone();
        sorted.sort();
        quick_sort(&mut data);
        assert_eq!(data, sorted);
    });
}

#[test]
fn quick_sort_installed_in_a_default_runtime_sorts() {
    without_hanging(|| {
        let mut data = pseudo_random(12 * 1024, 11);
        let rt = Runtime::builder().build().unwrap();
        let mut sorted = data.clone();
        sorted.sort();
        rt.install(|| quick_sort(&mut data));
        assert_eq!(data, sorted);
    });
}

#[test]
fn quick_sort_installed_in_a_one_worker_runtime_sorts() {
    without_hanging(|| {
        let mut data = pseudo_random(12 * 1024, 13);
        let rt = Runtime::new(1).unwrap();
        let mut sorted = data.clone();
        sorted.sort();
        rt.install(|| quick_sort(&mut data));
        assert_eq!(data, sorted);
    });
}

#[test]
#[should_panic(expected = "Hello, world!")]
fn a_panic_in_the_first_half_propagates_outside_any_runtime() {
    without_hanging(|| {
        quietly(|| rt_core::join(|| panic!("Hello, world!"), || ()));
    });
}

#[test]
#[should_panic(expected = "Hello, world!")]
fn a_panic_in_the_second_half_propagates_outside_any_runtime() {
    without_hanging(|| {
        quietly(|| rt_core::join(|| (), || panic!("Hello, world!")));
    });
}

#[test]
#[should_panic(expected = "Hello, world!")]
fn when_both_halves_panic_the_first_halfs_panic_propagates_outside_any_runtime() {
    without_hanging(|| {
        quietly(|| {
            rt_core::join(|| panic!("Hello, world!"), || panic!("Goodbye, world!"));
        });
    });
}

#[test]
#[should_panic(expected = "Hello, world!")]
fn a_panic_in_the_first_half_propagates_out_of_install() {
    without_hanging(|| {
        let rt = Runtime::new(2).unwrap();
        quietly(|| rt.install(|| rt_core::join(|| panic!("Hello, world!"), || ())));
    });
}

#[test]
#[should_panic(expected = "Hello, world!")]
fn a_panic_in_the_second_half_propagates_out_of_install() {
    without_hanging(|| {
        let rt = Runtime::new(2).unwrap();
        quietly(|| rt.install(|| rt_core::join(|| (), || panic!("Hello, world!"))));
    });
}

#[test]
#[should_panic(expected = "Hello, world!")]
fn when_both_halves_panic_inside_install_the_first_halfs_panic_propagates() {
    without_hanging(|| {
        let rt = Runtime::new(2).unwrap();
        quietly(|| {
            rt.install(|| {
                rt_core::join(|| panic!("Hello, world!"), || panic!("Goodbye, world!"));
            })
        });
    });
}

#[test]
#[should_panic(expected = "should panic")]
fn a_simple_panic_in_the_second_half_propagates() {
    without_hanging(|| {
        quietly(|| rt_core::join(|| {}, || panic!("should panic")));
    });
}

#[test]
fn the_second_half_still_runs_when_the_first_panics() {
    without_hanging(|| {
        let rt = Runtime::new(2).unwrap();
        for inside in [false, true] {
            let mut x = false;
            let result = quietly(|| {
                catch_unwind(AssertUnwindSafe(|| {
                    let mut work = || rt_core::join(|| panic!("Hello, world!"), || x = true);
                    if inside {
                        rt.install(work)
                    } else {
                        work()
                    }
                }))
            });
            assert!(result.is_err(), "the first half's panic must propagate");
            assert!(x, "the second half must still run (inside: {inside})");
        }
    });
}

#[test]
fn on_a_one_worker_runtime_both_halves_run_on_the_callers_worker() {
    without_hanging(|| {
        let rt = Runtime::new(1).unwrap();
        let (caller, (a, b)) = rt.install(|| {
            (
                current_thread_index(),
                rt_core::join(current_thread_index, current_thread_index),
            )
        });
        assert_eq!(caller, Some(0));
        assert_eq!((a, b), (Some(0), Some(0)));
    });
}

#[test]
fn on_two_workers_the_second_half_is_stolen_while_the_first_waits_for_it() {
    without_hanging(|| {
        let barrier = Barrier::new(2);
        let rt = Runtime::new(2).unwrap();
        let (caller, a, b) = rt.install(|| {
            let caller = current_thread_index();
            let (a, b) = rt_core::join(
                || {
                    barrier.wait();
                    current_thread_index()
                },
                || {
                    barrier.wait();
                    current_thread_index()
                },
            );
            (caller, a, b)
        });
        assert_eq!(a, caller, "the first half runs on the caller");
        assert_ne!(b, caller, "the second half was stolen by the other worker");
    });
}

/// rayon pushes every second half onto the caller's deque at once; this
/// runtime keeps the oldest pending half of each unit where thieves can
/// take it (see `join`'s docs). Here the other worker is busy when `join`
/// starts and frees up only afterwards, while the first half spins without
/// forking: the freed worker must still find the second half, or the first
/// half would spin for ever.
#[test]
fn the_second_half_reaches_a_worker_that_frees_up_after_the_join_started() {
    without_hanging(|| {
        let rt = Runtime::new(2).unwrap();
        let gate = Gate::new();
        let started = Latch::new(1);
        let busy = {
            let (gate, started) = (gate.clone(), started.clone());
            rt.spawn(move || {
                started.count_down();
                gate.wait();
            })
        };
        started.wait();
        let b_started = AtomicBool::new(false);
        let (caller, ((), b_worker)) = rt.install(|| {
            let caller = current_thread_index();
            let halves = rt_core::join(
                || {
                    gate.open();
                    while !b_started.load(Ordering::SeqCst) {
                        std::hint::spin_loop();
                    }
                },
                || {
                    b_started.store(true, Ordering::SeqCst);
                    current_thread_index()
                },
            );
            (caller, halves)
        });
        assert_ne!(b_worker, caller, "the second half ran on the freed worker");
        busy.join().unwrap();
    });
}

#[test]
fn half_a_million_joins_from_outside_the_pool_count_correctly() {
    without_hanging(|| {
        // A tenth under ThreadSanitizer, whose installs are many times
        // slower.
        let max = support::scaled(500_000) as u32;
        let (mut i, mut j) = (0, 0);
        let rt = Runtime::new(2).unwrap();
        for _ in 0..max {
            rt.join(|| i += 1, || j += 1);
        }
        assert_eq!((i, j), (max, max));
    });
}
