//! `yield_now` and `yield_local`: code running on a worker lets one piece
//! of queued work run there, then goes on. `yield_now` looks at the
//! worker's mailbox, its own deques, the injectors and the other workers'
//! deques; `yield_local` only at its mailbox and its own deques. Off the
//! pool (or on another runtime's worker, for `Runtime::yield_now`) they
//! return `None`.

mod support;

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{mpsc, Arc, Mutex};
use std::thread;

use rt_core::{JoinError, JoinHandle, Priority, Runtime, Yield};
use rt_handle::raw::payload_message;
use support::{quietly, without_hanging, Latch};

#[test]
fn off_the_pool_yields_do_nothing() {
    without_hanging(|| {
        let rt = Runtime::new(1).unwrap();
        assert_eq!(rt_core::yield_now(), None);
        assert_eq!(rt_core::yield_local(), None);
        assert_eq!(rt.yield_now(), None);
        assert_eq!(rt.yield_local(), None);
    });
}

#[test]
fn a_runtime_s_yield_does_nothing_on_a_worker_of_another_runtime() {
    without_hanging(|| {
        let a = Runtime::new(1).unwrap();
        let b = Runtime::new(1).unwrap();
        let seen = a.install(|| {
            (
                a.yield_now(),
                a.yield_local(),
                b.yield_now(),
                b.yield_local(),
            )
        });
        assert_eq!(seen, (Some(Yield::Idle), Some(Yield::Idle), None, None));
    });
}

#[test]
fn a_yield_runs_a_task_queued_on_the_worker_s_own_deque_then_finds_nothing() {
    without_hanging(|| {
        for local in [false, true] {
            let rt = Runtime::new(1).unwrap();
            let ran = AtomicUsize::new(0);
            let outcome = rt.install(|| {
                rt_core::scope(|s| {
                    s.spawn(|| ran.fetch_add(1, Ordering::SeqCst));
                    let yielded = |r: &Runtime| {
                        if local {
                            r.yield_local()
                        } else {
                            r.yield_now()
                        }
                    };
                    let first = yielded(&rt);
                    let after = ran.load(Ordering::SeqCst);
                    (first, after, yielded(&rt))
                })
            });
            assert_eq!(
                outcome,
                (Some(Yield::Executed), 1, Some(Yield::Idle)),
                "local: {local}"
            );
        }
    });
}

#[test]
fn a_yield_runs_the_yielded_work_on_the_calling_thread() {
    without_hanging(|| {
        let rt = Runtime::new(1).unwrap();
        let ran_here = rt.install(|| {
            let (tx, rx) = mpsc::channel();
            let _queued = rt_core::spawn(move || tx.send(thread::current().id()).unwrap());
            assert_eq!(rt_core::yield_now(), Some(Yield::Executed));
            rx.try_recv() == Ok(thread::current().id())
        });
        assert!(ran_here);
    });
}

#[test]
fn yield_now_takes_work_from_the_injectors_and_yield_local_does_not() {
    without_hanging(|| {
        let rt = Arc::new(Runtime::new(1).unwrap());
        let ran = Arc::new(AtomicBool::new(false));
        let (outer, flag) = (rt.clone(), ran.clone());
        let seen = rt.install(move || {
            // From another thread: onto the injector, not this deque.
            let (inner, queued_flag) = (outer.clone(), flag.clone());
            thread::spawn(move || {
                inner
                    .execute(move || queued_flag.store(true, Ordering::SeqCst))
                    .unwrap()
            })
            .join()
            .unwrap();
            let local = (rt_core::yield_local(), outer.yield_local());
            let pending = rt_core::current_thread_has_pending_tasks();
            let anywhere = rt_core::yield_now();
            (local, pending, anywhere, flag.load(Ordering::SeqCst))
        });
        assert_eq!(
            seen,
            (
                (Some(Yield::Idle), Some(Yield::Idle)),
                Some(false),
                Some(Yield::Executed),
                true
            )
        );
        assert!(ran.load(Ordering::SeqCst));
    });
}

#[test]
fn yield_now_takes_work_from_another_worker_s_deque_and_yield_local_does_not() {
    without_hanging(|| {
        let rt = Runtime::new(2).unwrap();
        let (yielder_started, child_queued) = (Latch::new(1), Latch::new(1));
        let (release_tx, release_rx) = mpsc::channel::<()>();
        let child_ran_on = Arc::new(Mutex::new(None));
        // Holds one worker and, once the other worker is held too (so that
        // no idle worker can steal it), queues a child on its own deque.
        let holder = {
            let (yielder_started, child_queued) = (yielder_started.clone(), child_queued.clone());
            let child_ran_on = child_ran_on.clone();
            rt.spawn(move || {
                yielder_started.wait();
                let ran_on = child_ran_on.clone();
                let child = rt_core::spawn(move || {
                    *ran_on.lock().unwrap() = rt_core::current_thread_index();
                });
                child_queued.count_down();
                release_rx.recv().unwrap(); // no call into the runtime
                child
            })
        };
        // Holds the other worker until the child is queued, then yields.
        let yielder = {
            let (yielder_started, child_queued) = (yielder_started.clone(), child_queued.clone());
            rt.spawn(move || {
                yielder_started.count_down();
                child_queued.wait();
                let local = rt_core::yield_local();
                let anywhere = rt_core::yield_now();
                (rt_core::current_thread_index(), local, anywhere)
            })
        };
        let (yielder_index, local, anywhere) = yielder.join().unwrap();
        release_tx.send(()).unwrap();
        let child = holder.join().unwrap();
        assert_eq!(child.join(), Ok(()));
        assert_eq!(local, Some(Yield::Idle), "the child is on the other deque");
        assert_eq!(anywhere, Some(Yield::Executed));
        assert_eq!(*child_ran_on.lock().unwrap(), yielder_index);
    });
}

#[test]
fn a_yield_runs_queued_work_of_any_priority() {
    without_hanging(|| {
        for priority in Priority::ALL {
            let rt = Runtime::new(1).unwrap();
            let seen = rt.install(|| {
                rt_core::with_priority(Priority::High, || {
                    let (tx, rx) = mpsc::channel();
                    let _queued =
                        rt_core::spawn_with_priority(priority, move || tx.send(()).unwrap());
                    (rt_core::yield_now(), rx.try_recv().is_ok())
                })
            });
            assert_eq!(seen, (Some(Yield::Executed), true), "{priority:?}");
        }
    });
}

#[test]
fn a_task_polling_with_yield_now_lets_a_broadcast_waiting_for_its_worker_complete() {
    without_hanging(|| {
        for local in [false, true] {
            let rt = Arc::new(Runtime::new(1).unwrap());
            let done = Arc::new(AtomicBool::new(false));
            let started = Latch::new(1);
            let poller = {
                let (done, started) = (done.clone(), started.clone());
                rt.spawn(move || {
                    started.count_down();
                    let mut executed = 0;
                    // A loop that polls a flag, yielding meanwhile.
                    while !done.load(Ordering::SeqCst) {
                        let yielded = if local {
                            rt_core::yield_local()
                        } else {
                            rt_core::yield_now()
                        };
                        if yielded == Some(Yield::Executed) {
                            executed += 1;
                        }
                        thread::yield_now();
                    }
                    executed
                })
            };
            started.wait();
            let names = rt.broadcast(|ctx| ctx.index());
            done.store(true, Ordering::SeqCst);
            assert_eq!(names, [0]);
            assert_eq!(poller.join(), Ok(1), "local: {local}");
        }
    });
}

#[test]
fn a_yielded_task_that_panics_is_reported_in_its_handle_and_the_caller_goes_on() {
    without_hanging(|| {
        let rt = Runtime::new(1).unwrap();
        let (outcome, handle) = quietly(|| {
            rt.install(|| {
                let handle = rt_core::spawn(|| -> u8 { panic!("yielded task failed") });
                (rt_core::yield_now(), handle)
            })
        });
        assert_eq!(outcome, Some(Yield::Executed));
        assert_eq!(
            handle.join(),
            Err(JoinError::Panicked("yielded task failed".into()))
        );
        assert_eq!(rt.spawn(|| 1).join(), Ok(1));
    });
}

#[test]
fn what_a_yielded_task_spawns_and_does_not_join_runs_later_on_the_runtime() {
    without_hanging(|| {
        let rt = Runtime::new(1).unwrap();
        let (tx, rx) = mpsc::channel();
        let grandchild_done = Arc::new(AtomicBool::new(false));
        let flag = grandchild_done.clone();
        rt.install(|| {
            let _child = rt_core::spawn(move || {
                let flag = flag.clone();
                tx.send(rt_core::spawn(move || flag.store(true, Ordering::SeqCst)))
                    .unwrap();
            });
            assert_eq!(rt_core::yield_now(), Some(Yield::Executed));
        });
        let grandchild = rx.recv().unwrap();
        assert_eq!(grandchild.join(), Ok(()));
        assert!(grandchild_done.load(Ordering::SeqCst));
    });
}

#[test]
fn a_yielded_task_joining_the_handle_of_the_task_that_yielded_panics_instead_of_hanging() {
    without_hanging(|| {
        let rt = Runtime::new(1).unwrap();
        let (handle_tx, handle_rx) = mpsc::channel::<JoinHandle<&str>>();
        let (result_tx, result_rx) = mpsc::channel();
        let outer = rt.spawn(move || {
            let me = handle_rx.recv().unwrap();
            let inner = rt_core::spawn(move || me.join());
            let yielded = quietly(rt_core::yield_now);
            result_tx.send((yielded, inner)).unwrap();
            "outer done"
        });
        // The outer task's own handle, moved into the task it will yield
        // to; the test keeps no handle of it.
        handle_tx.send(outer).unwrap();
        let (yielded, inner) = result_rx.recv().unwrap();
        assert_eq!(yielded, Some(Yield::Executed));
        let error = inner.join().expect_err("the inner join panics");
        let message = payload_message(&*error.into_panic());
        assert!(message.contains("inside the task it joins"), "{message}");
    });
}
