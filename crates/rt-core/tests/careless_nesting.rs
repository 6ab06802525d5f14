//! `install`, `scope` and `join` nested in every way a user may write them
//! by accident: inside tasks of the same runtime, scopes in scopes, handles
//! joined out of order or from other tasks, spawns from other threads.

mod support;

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{mpsc, Arc, Mutex};

use rt_core::{current_thread_index, Runtime};
use support::without_hanging;

fn fib(n: u64) -> u64 {
    if n < 2 {
        return n;
    }
    let (a, b) = rt_core::join(|| fib(n - 1), || fib(n - 2));
    a + b
}

#[test]
fn install_from_inside_a_task_of_the_same_runtime_runs_inline_on_that_worker() {
    without_hanging(|| {
        for threads in [1, 2] {
            let rt = Arc::new(Runtime::new(threads).unwrap());
            let inner = rt.clone();
            let (outer, nested) = rt
                .spawn(move || (current_thread_index(), inner.install(current_thread_index)))
                .join()
                .unwrap();
            assert_eq!(outer, nested);
        }
    });
}

#[test]
fn installs_nested_three_deep_on_one_worker_complete() {
    without_hanging(|| {
        let rt = Runtime::new(1).unwrap();
        let v = rt.install(|| rt.install(|| rt.install(|| fib(15))));
        assert_eq!(v, 610);
    });
}

#[test]
fn runtime_scope_and_join_called_from_a_task_of_the_same_one_worker_runtime_complete() {
    without_hanging(|| {
        let rt = Arc::new(Runtime::new(1).unwrap());
        let inner = rt.clone();
        let v = rt
            .spawn(move || {
                let mut data = vec![1u64; 64];
                inner.scope(|s| {
                    for chunk in data.chunks_mut(8) {
                        s.spawn(move || chunk.iter_mut().for_each(|x| *x += 1));
                    }
                });
                let (a, b) = inner.join(
                    || data[..32].iter().sum::<u64>(),
                    || data[32..].iter().sum::<u64>(),
                );
                a + b
            })
            .join()
            .unwrap();
        assert_eq!(v, 128);
    });
}

#[test]
fn a_scope_inside_a_scope_task_borrows_from_both_and_spawns_into_the_outer_one() {
    without_hanging(|| {
        let rt = Runtime::new(2).unwrap();
        let outer_hits = AtomicUsize::new(0);
        let inner_hits = AtomicUsize::new(0);
        rt.scope(|outer| {
            for _ in 0..4 {
                outer.spawn(|| {
                    let local = vec![1usize; 10];
                    rt_core::scope(|inner| {
                        for x in &local {
                            let inner_hits = &inner_hits;
                            inner.spawn(move || inner_hits.fetch_add(*x, Ordering::SeqCst));
                            outer.spawn(|| outer_hits.fetch_add(1, Ordering::SeqCst));
                        }
                    });
                });
            }
        });
        assert_eq!(inner_hits.load(Ordering::SeqCst), 40);
        assert_eq!(outer_hits.load(Ordering::SeqCst), 40);
    });
}

#[test]
fn scopes_nested_two_thousand_deep_on_one_worker_complete() {
    without_hanging(|| {
        fn nest(depth: usize, hits: &AtomicUsize) {
            if depth == 0 {
                return;
            }
            rt_core::scope(|s| {
                s.spawn(|| {
                    hits.fetch_add(1, Ordering::Relaxed);
                    nest(depth - 1, hits);
                });
            });
        }
        let rt = Runtime::new(1).unwrap();
        let hits = AtomicUsize::new(0);
        rt.install(|| nest(2_000, &hits));
        assert_eq!(hits.into_inner(), 2_000);
    });
}

#[test]
fn join_deep_inside_scope_tasks_computes_fib() {
    without_hanging(|| {
        for threads in [1, 2] {
            let rt = Runtime::new(threads).unwrap();
            let results = Mutex::new(vec![]);
            rt.scope(|s| {
                for n in 10..18u64 {
                    let results = &results;
                    s.spawn(move || {
                        let v = rt_core::scope(|s2| s2.spawn(move || fib(n)).join().unwrap());
                        results.lock().unwrap().push((n, v));
                    });
                }
            });
            let mut results = results.into_inner().unwrap();
            results.sort();
            let expected: Vec<(u64, u64)> = (10..18u64)
                .map(|n| (n, (0..n).fold((0, 1), |(a, b), _| (b, a + b)).0))
                .collect();
            assert_eq!(results, expected);
        }
    });
}

#[test]
fn scoped_handles_joined_in_reverse_order_each_give_their_value() {
    without_hanging(|| {
        for threads in [1, 2] {
            let rt = Runtime::new(threads).unwrap();
            let values = rt.scope(|s| {
                let handles: Vec<_> = (0..50).map(|i| s.spawn(move || i * 2)).collect();
                handles
                    .into_iter()
                    .rev()
                    .map(|h| h.join().unwrap())
                    .collect::<Vec<_>>()
            });
            assert_eq!(values, (0..50).rev().map(|i| i * 2).collect::<Vec<_>>());
        }
    });
}

#[test]
fn a_scope_task_joins_the_handle_of_a_task_spawned_after_it() {
    without_hanging(|| {
        for threads in [1, 2] {
            let rt = Runtime::new(threads).unwrap();
            let got = rt.scope(|s| {
                let (tx, rx) = mpsc::channel();
                let first = s.spawn(move || {
                    let later: rt_core::ScopedJoinHandle<'_, i32> = rx.recv().unwrap();
                    later.join().unwrap() + 1
                });
                let later = s.spawn(|| 41);
                tx.send(later).unwrap();
                first.join().unwrap()
            });
            assert_eq!(got, 42);
        }
    });
}

#[test]
fn a_scope_task_joins_a_sibling_that_is_still_queued_on_one_worker() {
    without_hanging(|| {
        let rt = Runtime::new(1).unwrap();
        let got = rt.scope(|s| {
            let (tx, rx) = mpsc::channel();
            let a = s.spawn(move || {
                let b: rt_core::ScopedJoinHandle<'_, u64> = rx.recv().unwrap();
                b.join().unwrap() * 2
            });
            let b = s.spawn(|| fib(12));
            tx.send(b).unwrap();
            a.join().unwrap()
        });
        assert_eq!(got, 288);
    });
}

#[test]
fn a_scope_task_may_start_std_threads_that_spawn_more_scope_tasks() {
    without_hanging(|| {
        for threads in [1, 2] {
            let rt = Runtime::new(threads).unwrap();
            let hits = AtomicUsize::new(0);
            rt.scope(|s| {
                s.spawn(|| {
                    std::thread::scope(|ts| {
                        for _ in 0..4 {
                            ts.spawn(|| {
                                for _ in 0..25 {
                                    s.spawn(|| hits.fetch_add(1, Ordering::SeqCst));
                                }
                            });
                        }
                    });
                });
            });
            assert_eq!(hits.load(Ordering::SeqCst), 100, "threads: {threads}");
        }
    });
}

#[test]
fn a_std_thread_joins_a_scope_task_it_spawned_while_a_scope_task_waits_for_the_thread() {
    without_hanging(|| {
        let rt = Runtime::new(2).unwrap();
        let got = rt.scope(|s| {
            s.spawn(|| {
                std::thread::scope(|ts| {
                    ts.spawn(|| s.spawn(|| fib(10)).join().unwrap())
                        .join()
                        .unwrap()
                })
            })
            .join()
            .unwrap()
        });
        assert_eq!(got, 55);
    });
}

#[test]
fn a_scope_body_joining_a_task_whose_thread_waits_for_a_scope_task_completes() {
    // The body waits until its task runs on the other worker, so the join
    // finds it running there; that worker blocks in `std::thread::scope`,
    // whose thread waits for a task it spawned into the scope from outside
    // the pool. Only the joining body's worker is left to run that task.
    without_hanging(|| {
        let rt = Runtime::new(2).unwrap();
        let started = AtomicBool::new(false);
        let got = rt.scope(|s| {
            let task = s.spawn(|| {
                started.store(true, Ordering::SeqCst);
                std::thread::scope(|ts| {
                    ts.spawn(|| s.spawn(|| fib(10)).join().unwrap())
                        .join()
                        .unwrap()
                })
            });
            while !started.load(Ordering::SeqCst) {
                std::hint::spin_loop();
            }
            task.join().unwrap()
        });
        assert_eq!(got, 55);
    });
}

#[test]
fn a_task_spawning_and_joining_tasks_that_open_scopes_on_one_worker_completes() {
    without_hanging(|| {
        let rt = Arc::new(Runtime::new(1).unwrap());
        let inner = rt.clone();
        let total = rt
            .spawn(move || {
                let handles: Vec<_> = (0..10u64)
                    .map(|i| {
                        inner.spawn(move || {
                            let mut parts = [0u64; 4];
                            rt_core::scope(|s| {
                                for (k, p) in parts.iter_mut().enumerate() {
                                    s.spawn(move || *p = i * 4 + k as u64);
                                }
                            });
                            parts.iter().sum::<u64>()
                        })
                    })
                    .collect();
                handles.into_iter().map(|h| h.join().unwrap()).sum::<u64>()
            })
            .join()
            .unwrap();
        assert_eq!(total, (0..40).sum::<u64>());
    });
}

#[test]
fn the_scope_body_joins_a_task_that_spawned_more_tasks_into_the_scope() {
    without_hanging(|| {
        for threads in [1, 2] {
            let rt = Runtime::new(threads).unwrap();
            let hits = AtomicUsize::new(0);
            rt.scope(|s| {
                let h = s.spawn(|| {
                    for _ in 0..10 {
                        s.spawn(|| hits.fetch_add(1, Ordering::SeqCst));
                    }
                    7
                });
                assert_eq!(h.join(), Ok(7));
            });
            assert_eq!(hits.load(Ordering::SeqCst), 10);
        }
    });
}

#[test]
fn a_scope_opened_from_a_plain_thread_inside_an_install_runs_sequentially() {
    without_hanging(|| {
        let rt = Runtime::new(2).unwrap();
        let v = rt.install(|| {
            std::thread::scope(|ts| {
                ts.spawn(|| {
                    assert_eq!(current_thread_index(), None);
                    rt_core::scope(|s| s.spawn(|| fib(10)).join().unwrap())
                })
                .join()
                .unwrap()
            })
        });
        assert_eq!(v, 55);
    });
}

#[test]
fn a_scope_task_cancelled_through_its_handle_never_runs_and_the_scope_still_returns() {
    without_hanging(|| {
        let rt = Runtime::new(1).unwrap();
        let ran = AtomicUsize::new(0);
        let (cancelled, result) = rt.scope(|s| {
            let h = s.spawn(|| ran.fetch_add(1, Ordering::SeqCst));
            let cancelled = h.cancel();
            (cancelled, h.join())
        });
        assert!(cancelled, "on one busy worker the task has not started");
        assert_eq!(result, Err(rt_core::JoinError::Cancelled));
        assert_eq!(ran.load(Ordering::SeqCst), 0);
        rt.shutdown();
        let m = rt.metrics();
        assert_eq!(m.submitted, m.finished());
    });
}

#[test]
fn a_cancelled_scope_task_whose_handle_is_dropped_does_not_make_the_scope_panic() {
    without_hanging(|| {
        let rt = Runtime::new(1).unwrap();
        rt.scope(|s| {
            for _ in 0..10 {
                let h = s.spawn(|| ());
                h.cancel();
            }
        });
        assert_eq!(rt.spawn(|| 1).join(), Ok(1));
    });
}

#[test]
fn scope_tasks_spawned_at_every_priority_all_run() {
    without_hanging(|| {
        for threads in [1, 2] {
            let rt = Runtime::new(threads).unwrap();
            let hits = AtomicUsize::new(0);
            rt.scope(|s| {
                for p in rt_core::Priority::ALL {
                    for _ in 0..10 {
                        s.spawn_with_priority(p, || hits.fetch_add(1, Ordering::SeqCst));
                    }
                }
            });
            assert_eq!(hits.load(Ordering::SeqCst), 30);
            rt_core::scope(|s| {
                s.spawn_with_priority(rt_core::Priority::Background, || {
                    hits.fetch_add(1, Ordering::SeqCst)
                });
            });
            assert_eq!(hits.load(Ordering::SeqCst), 31);
        }
    });
}

#[test]
fn a_scoped_handle_of_runtime_a_joined_from_a_task_of_runtime_b_gives_the_value() {
    without_hanging(|| {
        let a = Runtime::new(1).unwrap();
        let b = Runtime::new(1).unwrap();
        let v = a.scope(|s| {
            let h = s.spawn(|| fib(12));
            b.install(move || h.join().unwrap())
        });
        assert_eq!(v, 144);
    });
}
