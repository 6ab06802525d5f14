//! `Builder::use_current_thread`: the building thread becomes worker 0. It
//! never runs the worker loop: it runs the runtime's work only inside its
//! own calls (a join, a scope, an install, a yield, waiting for a
//! broadcast), and what it spawns waits on its own deque for the other
//! workers to steal. The adoption ends when the runtime is shut down or
//! dropped on that thread (outside its calls) or when the thread exits; a
//! shutdown from another thread terminates without it.

mod support;

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{mpsc, Arc, Mutex};
use std::thread;

use rt_core::{BuildError, JoinError, Runtime, Yield};
use rt_handle::raw::payload_message;
use support::{quietly, wait_until, without_hanging, Gate, Latch};

/// A runtime of `threads` workers whose worker 0 is the calling thread.
fn adopting(threads: usize) -> Runtime {
    Runtime::builder()
        .threads(threads)
        .use_current_thread()
        .build()
        .unwrap()
}

#[test]
fn the_building_thread_becomes_worker_zero() {
    without_hanging(|| {
        assert_eq!(rt_core::current_thread_index(), None);
        let rt = adopting(2);
        assert_eq!(rt_core::current_thread_index(), Some(0));
        assert_eq!(rt.current_thread_index(), Some(0));
        assert_eq!(rt_core::current_thread_index(), Some(0));
        assert_eq!(
            rt_core::current_num_threads(),
            2,
            "its runtime's, not the global one's"
        );
        assert_eq!(rt.threads(), 2);
    });
}

#[test]
fn dropping_the_runtime_on_the_adopted_thread_ends_the_adoption() {
    without_hanging(|| {
        let rt = adopting(2);
        assert_eq!(rt_core::current_thread_index(), Some(0));
        drop(rt);
        assert_eq!(rt_core::current_thread_index(), None);
        // A thread no longer adopted may be adopted again.
        let again = adopting(2);
        assert_eq!(again.current_thread_index(), Some(0));
    });
}

#[test]
fn a_shutdown_on_the_adopted_thread_ends_the_adoption() {
    without_hanging(|| {
        let rt = adopting(2);
        rt.shutdown();
        assert_eq!(rt_core::current_thread_index(), None);
        assert_eq!(rt.current_thread_index(), None);
        assert!(rt.spawn(|| ()).join().unwrap_err().is_rejected());
    });
}

#[test]
fn shutdown_background_on_the_adopted_thread_ends_the_adoption() {
    without_hanging(|| {
        let rt = adopting(2);
        rt.shutdown_background();
        assert_eq!(rt_core::current_thread_index(), None);
    });
}

#[test]
fn a_shutdown_inside_the_adopted_thread_s_own_call_leaves_it_adopted_until_the_runtime_is_dropped()
{
    without_hanging(|| {
        let rt = adopting(2);
        rt.install(|| rt.shutdown());
        assert!(rt.is_shutdown());
        assert_eq!(
            rt_core::current_thread_index(),
            Some(0),
            "shut down inside a call: still worker 0"
        );
        drop(rt);
        assert_eq!(rt_core::current_thread_index(), None);
    });
}

#[test]
fn building_an_adopting_runtime_on_a_worker_is_refused() {
    without_hanging(|| {
        let rt = Runtime::new(1).unwrap();
        let inside = rt.install(|| {
            Runtime::builder()
                .threads(2)
                .use_current_thread()
                .build()
                .map(drop)
        });
        assert!(
            matches!(inside, Err(BuildError::AlreadyAWorker)),
            "{inside:?}"
        );
    });
}

#[test]
fn a_second_adoption_of_an_adopted_thread_is_refused_and_the_first_goes_on() {
    without_hanging(|| {
        let first = adopting(2);
        let second = Runtime::builder().threads(2).use_current_thread().build();
        assert!(
            matches!(second, Err(BuildError::AlreadyAWorker)),
            "{second:?}"
        );
        assert_eq!(first.current_thread_index(), Some(0));
        // A runtime that does not adopt may still be built here.
        let other = Runtime::new(1).unwrap();
        assert_eq!(other.current_thread_index(), None);
        assert_eq!(other.spawn(|| 7).join(), Ok(7));
        assert_eq!(first.broadcast(|ctx| ctx.index()), [0, 1]);
    });
}

#[test]
fn the_worker_hooks_run_only_on_the_workers_the_runtime_started() {
    without_hanging(|| {
        let started = Arc::new(Mutex::new(Vec::new()));
        let stopped = Arc::new(Mutex::new(Vec::new()));
        let (s, t) = (started.clone(), stopped.clone());
        let rt = Runtime::builder()
            .threads(3)
            .use_current_thread()
            .before_worker_start(move |i| s.lock().unwrap().push(i))
            .after_worker_stop(move |i| t.lock().unwrap().push(i))
            .build()
            .unwrap();
        wait_until("the started workers ran their start hook", || {
            started.lock().unwrap().len() == 2
        });
        rt.shutdown();
        let mut started = started.lock().unwrap().clone();
        let mut stopped = stopped.lock().unwrap().clone();
        started.sort();
        stopped.sort();
        assert_eq!((started, stopped), (vec![1, 2], vec![1, 2]));
    });
}

#[test]
fn a_join_on_the_adopted_thread_runs_its_first_half_there() {
    without_hanging(|| {
        // Each runtime is dropped before the next adopts the thread.
        for threads in [1, 2] {
            let me = thread::current().id();
            let _rt = adopting(threads);
            let (a, b) = rt_core::join(
                || (rt_core::current_thread_index(), thread::current().id()),
                rt_core::current_thread_index,
            );
            assert_eq!(a, (Some(0), me), "{threads} workers");
            assert!(b.is_some_and(|i| i < threads), "{b:?}");
        }
    });
}

#[test]
fn the_second_half_of_a_join_on_the_adopted_thread_can_run_on_another_worker() {
    without_hanging(|| {
        let _rt = adopting(2);
        let b_started = AtomicBool::new(false);
        let (_, b) = rt_core::join(
            // Held until the other worker took the second half.
            || {
                wait_until("the second half started", || {
                    b_started.load(Ordering::SeqCst)
                })
            },
            || {
                b_started.store(true, Ordering::SeqCst);
                rt_core::current_thread_index()
            },
        );
        assert_eq!(b, Some(1));
    });
}

#[test]
fn tasks_the_adopted_thread_spawns_are_stolen_by_the_other_workers() {
    without_hanging(|| {
        let _rt = adopting(2);
        let ran_on = Arc::new(Mutex::new(Vec::new()));
        let handles: Vec<_> = (0..8)
            .map(|_| {
                let ran_on = ran_on.clone();
                rt_core::spawn(move || ran_on.lock().unwrap().push(rt_core::current_thread_index()))
            })
            .collect();
        // Waiting without calling into the runtime: the adopted thread runs
        // none of them, worker 1 runs them all.
        wait_until("every task ran", || ran_on.lock().unwrap().len() == 8);
        assert!(ran_on.lock().unwrap().iter().all(|&i| i == Some(1)));
        for handle in handles {
            assert_eq!(handle.join(), Ok(()));
        }
    });
}

#[test]
fn on_one_worker_what_the_adopted_thread_spawns_waits_until_it_yields() {
    without_hanging(|| {
        let rt = adopting(1);
        let task = rt_core::spawn(|| (rt_core::current_thread_index(), thread::current().id()));
        assert_eq!(rt_core::current_thread_has_pending_tasks(), Some(true));
        assert_eq!(rt.current_thread_has_pending_tasks(), Some(true));
        assert!(!task.is_finished(), "nothing else runs it");
        assert_eq!(rt_core::yield_local(), Some(Yield::Executed));
        assert!(task.is_finished());
        assert_eq!(rt_core::current_thread_has_pending_tasks(), Some(false));
        assert_eq!(rt_core::yield_now(), Some(Yield::Idle));
        assert_eq!(task.join(), Ok((Some(0), thread::current().id())));
        drop(rt);
    });
}

#[test]
fn a_one_worker_adopting_runtime_dropped_on_its_thread_terminates() {
    without_hanging(|| {
        let rt = adopting(1);
        drop(rt);
        assert_eq!(rt_core::current_thread_index(), None);
    });
}

#[test]
fn a_one_worker_adopting_runtime_shut_down_on_its_thread_terminates() {
    without_hanging(|| {
        let rt = adopting(1);
        rt.shutdown();
        assert_eq!(rt_core::current_thread_index(), None);
    });
}

#[test]
fn a_one_worker_adopting_runtime_shut_down_from_another_thread_terminates() {
    without_hanging(|| {
        let rt = Arc::new(adopting(1));
        let other = rt.clone();
        thread::spawn(move || other.shutdown()).join().unwrap();
        assert!(rt.is_shutdown());
        let other = rt.clone();
        thread::spawn(move || other.wait_termination())
            .join()
            .unwrap();
    });
}

#[test]
fn on_one_worker_joining_a_task_the_adopted_thread_spawned_does_not_hang() {
    without_hanging(|| {
        let rt = adopting(1);
        let task = rt_core::spawn(|| 5);
        // Nobody but this thread can run the task: the join runs it here,
        // as a worker's join does.
        assert_eq!(task.join(), Ok(5));
        drop(rt);
    });
}

#[test]
fn on_one_worker_a_scope_on_the_adopted_thread_can_join_its_tasks_handles() {
    without_hanging(|| {
        let rt = adopting(1);
        // The same scope on a one-worker runtime's own worker completes
        // (tests/scope.rs): the join runs the task it waits for.
        let joined = rt_core::scope(|s| s.spawn(|| 3).join());
        assert_eq!(joined, Ok(3));
        drop(rt);
    });
}

#[test]
fn on_two_workers_a_scope_on_the_adopted_thread_can_join_its_tasks_handles() {
    without_hanging(|| {
        let _rt = adopting(2);
        let joined = rt_core::scope(|s| {
            let handles: Vec<_> = (0..8).map(|i| s.spawn(move || i * 3)).collect();
            handles.into_iter().map(|h| h.join().unwrap()).sum::<i32>()
        });
        assert_eq!(joined, (0..8).map(|i| i * 3).sum::<i32>());
    });
}

#[test]
fn a_scope_on_the_adopted_thread_runs_its_body_there_and_every_task() {
    without_hanging(|| {
        // Each runtime is dropped before the next adopts the thread.
        for threads in [1, 2] {
            let me = thread::current().id();
            let rt = adopting(threads);
            let mut values = [0usize; 16];
            let body_thread = rt_core::scope(|s| {
                for (i, v) in values.iter_mut().enumerate() {
                    s.spawn(move || *v = i * 2);
                }
                thread::current().id()
            });
            assert_eq!(body_thread, me);
            assert_eq!(values.to_vec(), (0..16).map(|i| i * 2).collect::<Vec<_>>());
            let mut in_place = 0;
            rt.in_place_scope(|s| {
                s.spawn(|| in_place = 3);
            });
            assert_eq!(in_place, 3);
        }
    });
}

#[test]
fn install_on_the_adopted_thread_runs_the_closure_right_there() {
    without_hanging(|| {
        let me = thread::current().id();
        let rt = adopting(2);
        let (id, index) = rt.install(|| (thread::current().id(), rt_core::current_thread_index()));
        assert_eq!((id, index), (me, Some(0)));
    });
}

#[test]
fn a_broadcast_from_the_adopted_thread_runs_its_own_share_there() {
    without_hanging(|| {
        let me = thread::current().id();
        let rt = adopting(2);
        let ids = rt.broadcast(|ctx| (ctx.index(), thread::current().id()));
        assert_eq!(ids[0], (0, me));
        assert_eq!(ids[1].0, 1);
        assert_ne!(ids[1].1, me);
    });
}

#[test]
fn a_broadcast_from_another_thread_waits_for_the_adopted_thread_s_next_call_into_the_runtime() {
    without_hanging(|| {
        let me = thread::current().id();
        let rt = Arc::new(adopting(2));
        let ran = Arc::new(AtomicUsize::new(0));
        let broadcaster = {
            let (rt, ran) = (rt.clone(), ran.clone());
            thread::spawn(move || {
                rt.broadcast(|ctx| {
                    ran.fetch_add(1, Ordering::SeqCst);
                    (ctx.index(), thread::current().id())
                })
            })
        };
        wait_until("worker 1 ran its share", || ran.load(Ordering::SeqCst) == 1);
        assert!(
            !broadcaster.is_finished(),
            "the adopted thread has not called into the runtime"
        );
        let mut yields = Vec::new();
        while !broadcaster.is_finished() {
            yields.push(rt_core::yield_now());
            thread::yield_now();
        }
        assert!(yields.contains(&Some(Yield::Executed)), "{yields:?}");
        let ids = broadcaster.join().unwrap();
        assert_eq!(ids[0], (0, me));
    });
}

#[test]
fn the_adopted_thread_runs_its_broadcast_share_while_it_waits_at_a_scope_s_end() {
    without_hanging(|| {
        let me = thread::current().id();
        let _rt = adopting(2);
        let started = AtomicBool::new(false);
        let ids = Mutex::new(None);
        rt_core::scope(|s| {
            s.spawn(|| {
                started.store(true, Ordering::SeqCst);
                *ids.lock().unwrap() = Some(rt_core::broadcast(|_| thread::current().id()));
            });
            // Worker 1 takes the task; the adopted thread then waits at the
            // scope's end while the task broadcasts.
            wait_until("worker 1 took the task", || started.load(Ordering::SeqCst));
        });
        let ids = ids.into_inner().unwrap().unwrap();
        assert_eq!(ids[0], me);
    });
}

#[test]
fn a_shutdown_from_another_thread_terminates_without_the_adopted_thread() {
    without_hanging(|| {
        let rt = Arc::new(adopting(2));
        let queued = rt_core::spawn(|| 5); // on the adopted thread's deque
        let other = rt.clone();
        thread::spawn(move || other.shutdown()).join().unwrap();
        assert!(rt.is_shutdown());
        assert_eq!(queued.join(), Ok(5), "worker 1 ran it before exiting");
        // Still worker 0 until the runtime is dropped here.
        assert_eq!(rt_core::current_thread_index(), Some(0));
        drop(rt);
        assert_eq!(rt_core::current_thread_index(), None);
    });
}

#[test]
fn a_stop_from_another_thread_terminates_without_the_adopted_thread() {
    without_hanging(|| {
        let rt = Arc::new(adopting(2));
        let other = rt.clone();
        thread::spawn(move || {
            other.stop();
            other.wait_termination();
        })
        .join()
        .unwrap();
        assert!(rt.is_shutdown());
    });
}

#[test]
fn a_shutdown_from_another_thread_while_the_adopted_thread_waits_in_a_scope_terminates() {
    without_hanging(|| {
        let rt = Arc::new(adopting(2));
        let (gate, started) = (Gate::new(), Latch::new(1));
        let stopper = {
            let (rt, started, gate) = (rt.clone(), started.clone(), gate.clone());
            thread::spawn(move || {
                started.wait();
                let stopping = {
                    let rt = rt.clone();
                    thread::spawn(move || rt.shutdown())
                };
                wait_until("the shutdown started", || rt.is_shutdown());
                gate.open();
                stopping.join().unwrap();
            })
        };
        let ran = AtomicUsize::new(0);
        rt_core::scope(|s| {
            s.spawn(|| {
                started.count_down();
                gate.wait();
                ran.fetch_add(1, Ordering::SeqCst);
            });
            s.spawn(|| ran.fetch_add(1, Ordering::SeqCst));
        });
        assert_eq!(ran.load(Ordering::SeqCst), 2);
        stopper.join().unwrap();
    });
}

#[test]
fn when_the_adopted_thread_exits_its_queued_tasks_run_on_the_other_workers() {
    without_hanging(|| {
        let (rt_tx, rt_rx) = mpsc::channel();
        let (go_tx, go_rx) = mpsc::channel::<()>();
        let (handles_tx, handles_rx) = mpsc::channel();
        let adopted = thread::spawn(move || {
            let rt = Arc::new(adopting(2));
            rt_tx.send(rt.clone()).unwrap();
            go_rx.recv().unwrap();
            // Worker 1 is held: these stay on this thread's deque.
            let handles: Vec<_> = (0..5)
                .map(|i| rt_core::spawn(move || (i, rt_core::current_thread_index())))
                .collect();
            handles_tx.send(handles).unwrap();
            drop(rt); // not the last clone: the runtime lives on
        });
        let rt: Arc<Runtime> = rt_rx.recv().unwrap();
        let (gate, started) = (Gate::new(), Latch::new(1));
        let blocker = {
            let (gate, started) = (gate.clone(), started.clone());
            rt.spawn(move || {
                started.count_down();
                gate.wait();
            })
        };
        started.wait();
        go_tx.send(()).unwrap();
        let handles = handles_rx.recv().unwrap();
        adopted.join().unwrap();
        gate.open();
        for (i, handle) in handles.into_iter().enumerate() {
            assert_eq!(handle.join(), Ok((i, Some(1))));
        }
        assert_eq!(blocker.join(), Ok(()));
        assert!(!rt.is_shutdown());
        assert_eq!(rt.spawn(|| 9).join(), Ok(9));
    });
}

#[test]
fn a_broadcast_after_the_adopted_thread_exited_does_not_hang() {
    without_hanging(|| {
        let rt = thread::spawn(|| Arc::new(adopting(2))).join().unwrap();
        // Worker 0 will never run a share again: the broadcast must panic
        // (as for a worker dropped unrun), not wait for ever.
        let outcome = quietly(|| {
            std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| rt.broadcast(|c| c.index())))
        });
        if let Err(payload) = outcome {
            let message = payload_message(&*payload);
            assert!(message.contains("never ran its share"), "{message}");
        }
    });
}

#[test]
fn a_broadcast_waiting_for_the_adopted_thread_does_not_hang_when_that_thread_exits() {
    without_hanging(|| {
        let (rt_tx, rt_rx) = mpsc::channel();
        let exit = Gate::new();
        let adopted = {
            let exit = exit.clone();
            thread::spawn(move || {
                rt_tx.send(Arc::new(adopting(2))).unwrap();
                exit.wait(); // exits without a call into the runtime
            })
        };
        let rt: Arc<Runtime> = rt_rx.recv().unwrap();
        let ran = Arc::new(AtomicUsize::new(0));
        let broadcaster = {
            let (rt, ran) = (rt.clone(), ran.clone());
            thread::spawn(move || {
                quietly(|| {
                    std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                        rt.broadcast(|ctx| {
                            ran.fetch_add(1, Ordering::SeqCst);
                            ctx.index()
                        })
                    }))
                    .map_err(|payload| payload_message(&*payload))
                })
            })
        };
        wait_until("worker 1 ran its share", || ran.load(Ordering::SeqCst) == 1);
        exit.open();
        adopted.join().unwrap();
        match broadcaster.join().unwrap() {
            Ok(results) => assert_eq!(results, [0, 1]),
            Err(message) => assert!(message.contains("never ran its share"), "{message}"),
        }
    });
}

#[test]
fn a_task_joining_a_task_spawned_from_the_adopted_thread_completes() {
    without_hanging(|| {
        let rt = adopting(2);
        let child = rt_core::spawn(|| 20);
        let parent = rt.spawn(move || child.join().map(|v| v + 1));
        // `parent` came from the adopted thread too; worker 1 runs both.
        assert_eq!(parent.join(), Ok(Ok(21)));
        let panicking = quietly(|| rt_core::spawn(|| -> u8 { panic!("boom") }).join());
        assert_eq!(panicking, Err(JoinError::Panicked("boom".into())));
    });
}
