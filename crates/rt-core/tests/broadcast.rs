//! `broadcast` and `spawn_broadcast`: a closure runs once on every core
//! worker of a runtime, with the results in worker order. A worker runs its
//! share when it next looks for work or while it waits inside a join or at
//! a scope's end, so a broadcast from a task, from a join half or from
//! another broadcast never deadlocks; a panic on one worker resumes in the
//! caller after every worker ran its share; a shut-down runtime refuses
//! broadcasts with a panic.

mod support;

use std::collections::HashSet;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::thread;

use rt_core::{JoinError, Runtime};
use rt_handle::raw::payload_message;
use support::{quietly, wait_until, without_hanging, Gate, Latch};

/// The name of the calling thread, for the results of a broadcast.
fn thread_name() -> String {
    thread::current().name().unwrap_or("").to_owned()
}

/// Spawns a task on `rt` that holds its worker until `gate` opens; returns
/// the handle and the index of the worker it holds, once it runs.
fn hold_one_worker(rt: &Runtime, gate: &Gate) -> (rt_core::JoinHandle<()>, usize) {
    let started = Latch::new(1);
    let index = Arc::new(AtomicUsize::new(usize::MAX));
    let handle = {
        let (gate, started, index) = (gate.clone(), started.clone(), index.clone());
        rt.spawn(move || {
            index.store(rt_core::current_thread_index().unwrap(), Ordering::SeqCst);
            started.count_down();
            gate.wait();
        })
    };
    started.wait();
    let held = index.load(Ordering::SeqCst);
    (handle, held)
}

#[test]
fn a_broadcast_runs_once_on_every_worker_and_returns_the_results_in_worker_order() {
    without_hanging(|| {
        for threads in [1, 2, 3] {
            let rt = Runtime::builder()
                .threads(threads)
                .thread_name("bc")
                .build()
                .unwrap();
            let seen = rt.broadcast(|ctx| {
                (
                    ctx.index(),
                    ctx.num_threads(),
                    rt_core::current_thread_index(),
                    thread_name(),
                )
            });
            let expected: Vec<_> = (0..threads)
                .map(|i| (i, threads, Some(i), format!("bc-{i}")))
                .collect();
            assert_eq!(seen, expected, "{threads} workers");
        }
    });
}

#[test]
fn each_broadcast_runs_on_distinct_threads_every_time() {
    without_hanging(|| {
        let rt = Runtime::new(2).unwrap();
        for _ in 0..50 {
            let ids = rt.broadcast(|_| thread::current().id());
            let distinct: HashSet<_> = ids.iter().collect();
            assert_eq!(distinct.len(), 2, "{ids:?}");
            assert!(!ids.contains(&thread::current().id()));
        }
    });
}

#[test]
fn a_broadcast_waits_for_a_busy_worker_which_runs_its_share_after_its_task() {
    without_hanging(|| {
        let rt = Arc::new(Runtime::new(2).unwrap());
        let gate = Gate::new();
        let (blocker, held) = hold_one_worker(&rt, &gate);
        let order = Arc::new(Mutex::new(Vec::new()));
        let broadcaster = {
            let (rt, order) = (rt.clone(), order.clone());
            thread::spawn(move || rt.broadcast(|ctx| order.lock().unwrap().push(ctx.index())))
        };
        wait_until("the free worker ran its share", || {
            order.lock().unwrap().len() == 1
        });
        assert!(
            !broadcaster.is_finished(),
            "the broadcast cannot be done while a worker is held"
        );
        assert!(!order.lock().unwrap().contains(&held));
        gate.open();
        assert_eq!(broadcaster.join().unwrap().len(), 2);
        assert_eq!(blocker.join(), Ok(()));
        assert_eq!(
            order.lock().unwrap().last(),
            Some(&held),
            "the held worker ran its share last"
        );
    });
}

#[test]
fn a_broadcast_from_inside_a_task_returns_every_worker_s_result() {
    without_hanging(|| {
        for threads in [1, 2] {
            let rt = Runtime::new(threads).unwrap();
            let from_task = rt.spawn(|| rt_core::broadcast(|ctx| ctx.index())).join();
            assert_eq!(from_task, Ok((0..threads).collect::<Vec<_>>()));
            let from_install = rt.install(|| rt_core::broadcast(|ctx| ctx.index() * 10));
            assert_eq!(
                from_install,
                (0..threads).map(|i| i * 10).collect::<Vec<_>>()
            );
        }
    });
}

#[test]
fn many_tasks_broadcasting_at_once_all_complete() {
    without_hanging(|| {
        let rt = Runtime::new(2).unwrap();
        let handles: Vec<_> = (0..16)
            .map(|i| rt.spawn(move || rt_core::broadcast(move |ctx| ctx.index() + i)))
            .collect();
        for (i, handle) in handles.into_iter().enumerate() {
            assert_eq!(handle.join(), Ok(vec![i, i + 1]));
        }
    });
}

#[test]
fn a_broadcast_from_a_join_half_completes_while_the_other_half_s_worker_waits_for_it() {
    without_hanging(|| {
        let rt = Runtime::new(2).unwrap();
        for _ in 0..20 {
            let b_started = AtomicBool::new(false);
            let ((), (b_worker, results)) = rt.install(|| {
                rt_core::join(
                    // Holds its worker until the other half has been taken
                    // by the other worker: then this worker waits in the
                    // join for a half that broadcasts.
                    || {
                        wait_until("the second half started", || {
                            b_started.load(Ordering::SeqCst)
                        })
                    },
                    || {
                        b_started.store(true, Ordering::SeqCst);
                        (
                            rt_core::current_thread_index(),
                            rt_core::broadcast(|ctx| ctx.index()),
                        )
                    },
                )
            });
            assert!(b_worker.is_some());
            assert_eq!(results, [0, 1]);
        }
    });
}

#[test]
fn a_broadcast_from_a_scope_task_completes_while_the_scope_s_worker_waits_at_its_end() {
    without_hanging(|| {
        let rt = Runtime::new(2).unwrap();
        for _ in 0..20 {
            let started = AtomicBool::new(false);
            let results = Mutex::new(None);
            rt.scope(|s| {
                s.spawn(|| {
                    started.store(true, Ordering::SeqCst);
                    *results.lock().unwrap() = Some(rt_core::broadcast(|ctx| ctx.index()));
                });
                // The other worker takes the task; this one then waits at
                // the scope's end while the task broadcasts.
                wait_until("the task started", || started.load(Ordering::SeqCst));
            });
            assert_eq!(results.into_inner().unwrap(), Some(vec![0, 1]));
        }
    });
}

#[test]
fn a_broadcast_from_a_task_completes_while_another_worker_joins_that_task_s_handle() {
    without_hanging(|| {
        let rt = Runtime::new(2).unwrap();
        for _ in 0..20 {
            let joined = rt
                .spawn(|| {
                    let started = Arc::new(AtomicBool::new(false));
                    let s = started.clone();
                    let child = rt_core::spawn(move || {
                        s.store(true, Ordering::SeqCst);
                        rt_core::broadcast(|ctx| ctx.index())
                    });
                    // The other worker takes the child; this one then waits
                    // in the join while the child broadcasts.
                    wait_until("the child started", || started.load(Ordering::SeqCst));
                    child.join()
                })
                .join();
            assert_eq!(joined, Ok(Ok(vec![0, 1])));
        }
    });
}

#[test]
fn a_broadcast_from_a_scope_task_on_one_worker_completes() {
    without_hanging(|| {
        let rt = Runtime::new(1).unwrap();
        let results = rt.scope(|s| s.spawn(|| rt_core::broadcast(|ctx| ctx.index())).join());
        assert_eq!(results, Ok(vec![0]));
    });
}

#[test]
fn a_broadcast_closure_may_broadcast_again() {
    without_hanging(|| {
        for threads in [1, 2, 3] {
            let rt = Runtime::new(threads).unwrap();
            let nested = rt.broadcast(|outer| {
                let outer = outer.index(); // the context stays on its thread
                rt_core::broadcast(|inner| (outer, inner.index()))
            });
            let expected: Vec<Vec<_>> = (0..threads)
                .map(|o| (0..threads).map(|i| (o, i)).collect())
                .collect();
            assert_eq!(nested, expected, "{threads} workers");
        }
    });
}

#[test]
fn broadcasts_nest_three_deep_through_the_runtime_handle() {
    without_hanging(|| {
        let rt = Runtime::new(2).unwrap();
        let count = AtomicUsize::new(0);
        let depth3 = rt.broadcast(|_| {
            rt.broadcast(|_| {
                rt.broadcast(|_| {
                    count.fetch_add(1, Ordering::SeqCst);
                })
                .len()
            })
            .into_iter()
            .sum::<usize>()
        });
        assert_eq!(depth3, [4, 4]);
        assert_eq!(count.load(Ordering::SeqCst), 8);
    });
}

#[test]
fn a_broadcast_closure_may_broadcast_on_another_runtime() {
    without_hanging(|| {
        let a = Runtime::builder()
            .threads(2)
            .thread_name("a")
            .build()
            .unwrap();
        let b = Runtime::builder()
            .threads(2)
            .thread_name("b")
            .build()
            .unwrap();
        let seen = a.broadcast(|outer| {
            let names = b.broadcast(|_| thread_name());
            (outer.index(), names)
        });
        let b_names = vec!["b-0".to_owned(), "b-1".to_owned()];
        assert_eq!(seen, [(0, b_names.clone()), (1, b_names)]);
    });
}

#[test]
fn broadcasts_crossing_two_one_worker_runtimes_and_back_complete() {
    without_hanging(|| {
        let a = Runtime::new(1).unwrap();
        let b = Runtime::new(1).unwrap();
        let seen = a.broadcast(|_| b.broadcast(|_| a.broadcast(|ctx| ctx.index())));
        assert_eq!(seen, [[[0]]]);
    });
}

#[test]
fn a_broadcast_reaches_only_the_core_workers_not_a_compensating_thread() {
    without_hanging(|| {
        let a = Runtime::builder()
            .threads(1)
            .thread_name("a")
            .build()
            .unwrap();
        let b = Runtime::new(1).unwrap();
        // a's only worker waits in b: a starts a compensating thread, which
        // takes no share of a broadcast made meanwhile.
        let names = a.install(|| b.install(|| a.broadcast(|ctx| (ctx.index(), thread_name()))));
        assert_eq!(names, [(0, "a-0".to_owned())]);
        assert_eq!(a.threads(), 1);
    });
}

#[test]
fn a_broadcast_from_a_thread_that_is_no_worker_runs_on_the_global_runtime() {
    without_hanging(|| {
        let results = rt_core::broadcast(|ctx| (ctx.index(), ctx.num_threads()));
        let threads = rt_core::current_num_threads();
        assert_eq!(
            results,
            (0..threads).map(|i| (i, threads)).collect::<Vec<_>>()
        );
    });
}

#[test]
fn a_panic_on_one_worker_resumes_in_the_caller_after_every_worker_ran_its_share() {
    without_hanging(|| {
        let rt = Runtime::new(3).unwrap();
        let ran = AtomicUsize::new(0);
        let outcome = quietly(|| {
            catch_unwind(AssertUnwindSafe(|| {
                rt.broadcast(|ctx| {
                    ran.fetch_add(1, Ordering::SeqCst);
                    if ctx.index() == 1 {
                        std::panic::panic_any(77_u8);
                    }
                    ctx.index()
                })
            }))
        });
        let payload = outcome.expect_err("the broadcast panics");
        assert_eq!(payload.downcast_ref::<u8>(), Some(&77));
        assert_eq!(ran.load(Ordering::SeqCst), 3, "every worker ran its share");
        assert_eq!(
            rt.broadcast(|ctx| ctx.index()),
            [0, 1, 2],
            "no worker stopped"
        );
    });
}

#[test]
fn when_every_worker_panics_the_lowest_worker_s_panic_resumes() {
    without_hanging(|| {
        let rt = Runtime::new(2).unwrap();
        let outcome = quietly(|| {
            catch_unwind(AssertUnwindSafe(|| {
                rt.broadcast(|ctx| std::panic::panic_any(ctx.index()))
            }))
        });
        let payload = outcome.expect_err("the broadcast panics");
        assert_eq!(payload.downcast_ref::<usize>(), Some(&0));
    });
}

#[test]
fn a_panicking_broadcast_inside_a_task_makes_that_task_panic() {
    without_hanging(|| {
        let rt = Runtime::new(2).unwrap();
        let outcome = quietly(|| {
            rt.spawn(|| rt_core::broadcast(|_| -> u8 { panic!("share failed") }))
                .join()
        });
        assert_eq!(outcome, Err(JoinError::Panicked("share failed".into())));
        assert_eq!(rt.spawn(|| 1).join(), Ok(1));
    });
}

#[test]
fn a_broadcast_on_a_shut_down_runtime_panics_with_a_message() {
    without_hanging(|| {
        for stop in [false, true] {
            let rt = Runtime::new(2).unwrap();
            if stop {
                rt.stop();
                rt.wait_termination();
            } else {
                rt.shutdown();
            }
            let ran = AtomicBool::new(false);
            let outcome = quietly(|| {
                catch_unwind(AssertUnwindSafe(|| {
                    rt.broadcast(|_| ran.store(true, Ordering::SeqCst))
                }))
            });
            let message = payload_message(&*outcome.expect_err("it panics"));
            assert!(message.contains("shut down"), "{message}");
            assert!(!ran.load(Ordering::SeqCst));
        }
    });
}

#[test]
fn a_broadcast_waiting_for_a_busy_worker_completes_when_shutdown_comes_meanwhile() {
    without_hanging(|| {
        let rt = Arc::new(Runtime::new(2).unwrap());
        let gate = Gate::new();
        let (blocker, _) = hold_one_worker(&rt, &gate);
        let ran = Arc::new(AtomicUsize::new(0));
        let broadcaster = {
            let (rt, ran) = (rt.clone(), ran.clone());
            thread::spawn(move || {
                rt.broadcast(|ctx| {
                    ran.fetch_add(1, Ordering::SeqCst);
                    ctx.index()
                })
            })
        };
        wait_until("the free worker ran its share", || {
            ran.load(Ordering::SeqCst) == 1
        });
        let stopper = {
            let rt = rt.clone();
            thread::spawn(move || rt.shutdown())
        };
        wait_until("the shutdown started", || rt.is_shutdown());
        gate.open();
        assert_eq!(broadcaster.join().unwrap(), [0, 1]);
        stopper.join().unwrap();
        assert_eq!(blocker.join(), Ok(()));
    });
}

#[test]
fn a_broadcast_waiting_for_a_busy_worker_never_hangs_when_stop_comes_meanwhile() {
    without_hanging(|| {
        let rt = Arc::new(Runtime::new(2).unwrap());
        let gate = Gate::new();
        let (_blocker, _) = hold_one_worker(&rt, &gate);
        let ran = Arc::new(AtomicUsize::new(0));
        let broadcaster = {
            let (rt, ran) = (rt.clone(), ran.clone());
            thread::spawn(move || {
                quietly(|| {
                    catch_unwind(AssertUnwindSafe(|| {
                        rt.broadcast(|ctx| {
                            ran.fetch_add(1, Ordering::SeqCst);
                            ctx.index()
                        })
                    }))
                    .map_err(|payload| payload_message(&*payload))
                })
            })
        };
        wait_until("the free worker ran its share", || {
            ran.load(Ordering::SeqCst) == 1
        });
        rt.stop();
        gate.open();
        // Either the held worker runs its share once its task is done, or
        // `stop` gave the share back and the broadcast says so.
        match broadcaster.join().unwrap() {
            Ok(results) => assert_eq!(results, [0, 1]),
            Err(message) => assert!(message.contains("never ran its share"), "{message}"),
        }
        rt.wait_termination();
    });
}

#[test]
fn a_task_running_while_the_runtime_shuts_down_can_still_broadcast() {
    without_hanging(|| {
        let rt = Arc::new(Runtime::new(2).unwrap());
        let (gate, started) = (Gate::new(), Latch::new(1));
        let task = {
            let (gate, started) = (gate.clone(), started.clone());
            rt.spawn(move || {
                started.count_down();
                gate.wait();
                rt_core::broadcast(|ctx| ctx.index())
            })
        };
        started.wait();
        let stopper = {
            let rt = rt.clone();
            thread::spawn(move || rt.shutdown())
        };
        wait_until("the shutdown started", || rt.is_shutdown());
        gate.open();
        assert_eq!(task.join(), Ok(vec![0, 1]));
        stopper.join().unwrap();
    });
}

#[test]
fn a_spawned_broadcast_runs_once_on_every_worker_by_shutdown() {
    without_hanging(|| {
        for threads in [1, 2, 3] {
            let rt = Runtime::new(threads).unwrap();
            let seen = Arc::new(Mutex::new(Vec::new()));
            let s = seen.clone();
            rt.spawn_broadcast(move |ctx| {
                assert_eq!(rt_core::current_thread_index(), Some(ctx.index()));
                s.lock().unwrap().push((ctx.index(), ctx.num_threads()));
            });
            rt.shutdown();
            let mut seen = seen.lock().unwrap().clone();
            seen.sort();
            assert_eq!(seen, (0..threads).map(|i| (i, threads)).collect::<Vec<_>>());
        }
    });
}

#[test]
fn a_spawned_broadcast_s_closure_may_broadcast() {
    without_hanging(|| {
        let rt = Runtime::new(2).unwrap();
        let results = Arc::new(Mutex::new(Vec::new()));
        let r = results.clone();
        rt.spawn_broadcast(move |outer| {
            let outer = outer.index();
            let inner = rt_core::broadcast(|ctx| ctx.index());
            r.lock().unwrap().push((outer, inner));
        });
        rt.shutdown();
        let mut results = results.lock().unwrap().clone();
        results.sort();
        assert_eq!(results, [(0, vec![0, 1]), (1, vec![0, 1])]);
    });
}

#[test]
fn spawn_broadcast_returns_without_waiting_for_a_busy_worker() {
    without_hanging(|| {
        let rt = Runtime::new(2).unwrap();
        let gate = Gate::new();
        let (blocker, held) = hold_one_worker(&rt, &gate);
        let seen = Arc::new(Mutex::new(Vec::new()));
        let s = seen.clone();
        rt.spawn_broadcast(move |ctx| s.lock().unwrap().push(ctx.index()));
        // Returned while a worker is held: that worker's share cannot have
        // run.
        assert!(!seen.lock().unwrap().contains(&held));
        wait_until("the free worker ran its share", || {
            seen.lock().unwrap().len() == 1
        });
        gate.open();
        assert_eq!(blocker.join(), Ok(()));
        rt.shutdown();
        assert_eq!(seen.lock().unwrap().last(), Some(&held));
    });
}

#[test]
fn spawn_broadcast_from_a_task_runs_on_that_task_s_runtime() {
    without_hanging(|| {
        let a = Runtime::builder()
            .threads(2)
            .thread_name("a")
            .build()
            .unwrap();
        let b = Runtime::builder()
            .threads(2)
            .thread_name("b")
            .build()
            .unwrap();
        let names = Arc::new(Mutex::new(Vec::new()));
        let n = names.clone();
        a.spawn(move || {
            rt_core::spawn_broadcast(move |_| n.lock().unwrap().push(thread_name()));
        })
        .join()
        .unwrap();
        a.shutdown();
        b.shutdown();
        let mut names = names.lock().unwrap().clone();
        names.sort();
        assert_eq!(names, ["a-0", "a-1"]);
    });
}

#[test]
fn a_spawned_broadcast_s_panics_go_to_the_panic_handler_and_never_stop_a_worker() {
    without_hanging(|| {
        let reports = Arc::new(Mutex::new(Vec::new()));
        let r = reports.clone();
        let rt = Runtime::builder()
            .threads(2)
            .panic_handler(move |worker, message| {
                r.lock().unwrap().push((worker, message.to_string()));
            })
            .build()
            .unwrap();
        quietly(|| {
            rt.spawn_broadcast(|ctx| panic!("share {} failed", ctx.index()));
            wait_until("both panics were reported", || {
                reports.lock().unwrap().len() == 2
            });
        });
        let mut reports = reports.lock().unwrap().clone();
        reports.sort();
        assert_eq!(
            reports,
            [
                (0, "share 0 failed".to_owned()),
                (1, "share 1 failed".to_owned())
            ]
        );
        assert_eq!(rt.broadcast(|ctx| ctx.index()), [0, 1], "both workers run");
        assert_eq!(rt.spawn(|| 5).join(), Ok(5));
    });
}

#[test]
fn a_spawned_broadcast_that_panics_without_a_panic_handler_stops_no_worker() {
    without_hanging(|| {
        let rt = Runtime::new(2).unwrap();
        quietly(|| {
            rt.spawn_broadcast(|_| panic!("ignored"));
            // A broadcast after it: each worker runs its letters in order.
            assert_eq!(rt.broadcast(|ctx| ctx.index()), [0, 1]);
        });
        rt.shutdown();
        assert_eq!(rt.metrics().hook_panics, 0);
    });
}

#[test]
fn spawn_broadcast_on_a_shut_down_runtime_panics_with_a_message() {
    without_hanging(|| {
        let rt = Runtime::new(2).unwrap();
        rt.shutdown();
        let ran = Arc::new(AtomicBool::new(false));
        let r = ran.clone();
        let outcome = quietly(|| {
            catch_unwind(AssertUnwindSafe(|| {
                rt.spawn_broadcast(move |_| r.store(true, Ordering::SeqCst))
            }))
        });
        let message = payload_message(&*outcome.expect_err("it panics"));
        assert!(message.contains("shut down"), "{message}");
        assert!(!ran.load(Ordering::SeqCst));
    });
}
