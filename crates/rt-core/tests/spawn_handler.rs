//! `Builder::build_with`: a spawn handler starts each worker's thread and
//! calls `WorkerThread::run` on it. The runtime runs on those threads; its
//! shutdown waits until every one has returned from `run`; an error from
//! the handler is `BuildError::Spawn` and a panic resumes out of
//! `build_with`, after the workers already started exited; a
//! `WorkerThread` dropped without running leaves the runtime to go on
//! without it, and a broadcast that would need it panics instead of
//! hanging.

mod support;

use std::io;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::{self, JoinHandle as ThreadHandle};

use rt_core::{BuildError, Runtime, WorkerThread, DEFAULT_STACK_SIZE, MIN_STACK_SIZE};
use rt_handle::raw::payload_message;
use support::{quietly, wait_until, without_hanging, Gate, Latch};

/// Starts `worker` on a thread named `custom-{index}`, whose handle goes
/// into `threads`.
fn start(worker: WorkerThread, threads: &mut Vec<ThreadHandle<()>>) -> io::Result<()> {
    let thread = thread::Builder::new()
        .name(format!("custom-{}", worker.index()))
        .spawn(move || worker.run())?;
    threads.push(thread);
    Ok(())
}

/// The name of the calling thread.
fn thread_name() -> String {
    thread::current().name().unwrap_or("").to_owned()
}

/// A counter of the workers whose `after_worker_stop` hook ran.
fn stop_counter() -> (Arc<AtomicUsize>, impl Fn(usize) + Send + Sync + 'static) {
    let stopped = Arc::new(AtomicUsize::new(0));
    let s = stopped.clone();
    (stopped, move |_| {
        s.fetch_add(1, Ordering::SeqCst);
    })
}

#[test]
fn the_handler_gets_every_worker_in_index_order_on_the_building_thread() {
    without_hanging(|| {
        let builder_thread = thread::current().id();
        let mut calls = Vec::new();
        let mut threads = Vec::new();
        let rt = Runtime::builder()
            .threads(3)
            .thread_name("pool")
            .stack_size(1 << 20)
            .build_with(|worker| {
                calls.push((
                    worker.index(),
                    worker.name(),
                    worker.stack_size(),
                    thread::current().id() == builder_thread,
                ));
                start(worker, &mut threads)
            })
            .unwrap();
        let expected: Vec<_> = (0..3)
            .map(|i| (i, format!("pool-{i}"), 1 << 20, true))
            .collect();
        assert_eq!(calls, expected);
        drop(rt);
        for thread in threads {
            thread.join().unwrap();
        }
    });
}

/// The stack sizes a handler is told for each worker of a runtime built
/// with `stack_size(asked)` (the builder's default for `None`).
fn stack_sizes_told(asked: Option<usize>) -> Vec<usize> {
    let mut builder = Runtime::builder().threads(2);
    if let Some(bytes) = asked {
        builder = builder.stack_size(bytes);
    }
    let mut sizes = Vec::new();
    let rt = builder
        .build_with(|worker| {
            sizes.push(worker.stack_size());
            worker.spawn()
        })
        .unwrap();
    drop(rt);
    sizes
}

#[test]
fn a_worker_thread_reports_the_stack_size_the_builder_gives_its_workers() {
    without_hanging(|| {
        assert_eq!(stack_sizes_told(None), [DEFAULT_STACK_SIZE; 2]);
        assert_eq!(stack_sizes_told(Some(4 << 20)), [4 << 20; 2]);
    });
}

#[test]
fn a_worker_thread_reports_a_tiny_stack_size_raised_to_the_minimum() {
    without_hanging(|| {
        // `Builder::stack_size`: "a size below MIN_STACK_SIZE, even 0, is
        // raised to it: a worker's own frames need that much", and
        // `WorkerThread::spawn` does raise it; a handler that starts its
        // thread with `worker.stack_size()` must get that size too.
        assert_eq!(stack_sizes_told(Some(0)), [MIN_STACK_SIZE; 2]);
        assert_eq!(stack_sizes_told(Some(1)), [MIN_STACK_SIZE; 2]);
    });
}

#[test]
fn a_worker_thread_s_debug_shows_its_index_and_name() {
    without_hanging(|| {
        let mut shown = Vec::new();
        let rt = Runtime::builder()
            .threads(1)
            .thread_name("dbg")
            .build_with(|worker| {
                shown.push(format!("{worker:?}"));
                worker.spawn()
            })
            .unwrap();
        drop(rt);
        assert!(shown[0].contains("index: 0"), "{}", shown[0]);
        assert!(shown[0].contains("\"dbg-0\""), "{}", shown[0]);
    });
}

#[test]
fn the_runtime_runs_its_tasks_and_broadcasts_on_the_handler_s_threads() {
    without_hanging(|| {
        let mut threads = Vec::new();
        let rt = Runtime::builder()
            .threads(2)
            .build_with(|worker| start(worker, &mut threads))
            .unwrap();
        let names = rt.broadcast(|_| thread_name());
        assert_eq!(names, ["custom-0", "custom-1"]);
        let name = rt.spawn(thread_name).join().unwrap();
        assert!(name.starts_with("custom-"), "{name}");
        let (a, b) = rt.join(rt_core::current_thread_index, rt_core::current_thread_index);
        assert!(a.is_some() && b.is_some());
        drop(rt);
        for thread in threads {
            thread.join().unwrap();
        }
    });
}

#[test]
fn worker_thread_spawn_as_the_handler_builds_the_same_runtime_as_build() {
    without_hanging(|| {
        let rt = Runtime::builder()
            .threads(2)
            .build_with(WorkerThread::spawn)
            .unwrap();
        assert_eq!(
            rt.broadcast(|_| thread_name()),
            ["rt-worker-0", "rt-worker-1"]
        );
        assert_eq!(rt.spawn(|| 6 * 7).join(), Ok(42));
        rt.shutdown();
        assert_eq!(rt.metrics().completed, 1);
    });
}

#[test]
fn shutdown_waits_until_every_handler_started_worker_has_left_run() {
    without_hanging(|| {
        let (stopped, on_stop) = stop_counter();
        let mut threads = Vec::new();
        let rt = Arc::new(
            Runtime::builder()
                .threads(2)
                .after_worker_stop(on_stop)
                .build_with(|worker| start(worker, &mut threads))
                .unwrap(),
        );
        let (gate, started) = (Gate::new(), Latch::new(1));
        let task = {
            let (gate, started) = (gate.clone(), started.clone());
            rt.spawn(move || {
                started.count_down();
                gate.wait();
                "finished"
            })
        };
        started.wait();
        let stopper = {
            let rt = rt.clone();
            thread::spawn(move || rt.shutdown())
        };
        wait_until("the shutdown started", || rt.is_shutdown());
        assert!(
            !stopper.is_finished(),
            "shutdown cannot return while a worker runs a task"
        );
        gate.open();
        stopper.join().unwrap();
        assert_eq!(
            stopped.load(Ordering::SeqCst),
            2,
            "every worker had stopped when shutdown returned"
        );
        assert_eq!(task.join(), Ok("finished"));
        for thread in threads {
            thread.join().unwrap();
        }
    });
}

#[test]
fn workers_may_be_started_after_build_with_has_returned() {
    without_hanging(|| {
        let mut parked = Vec::new();
        let rt = Runtime::builder()
            .threads(2)
            .build_with(|worker| {
                parked.push(worker);
                Ok(())
            })
            .unwrap();
        let early = rt.spawn(|| 5);
        let threads: Vec<_> = parked
            .into_iter()
            .map(|worker| thread::spawn(move || worker.run()))
            .collect();
        assert_eq!(early.join(), Ok(5));
        assert_eq!(rt.broadcast(|ctx| ctx.index()), [0, 1]);
        drop(rt);
        for thread in threads {
            thread.join().unwrap();
        }
    });
}

#[test]
fn an_error_from_the_handler_is_a_spawn_error_and_the_workers_already_started_exit() {
    without_hanging(|| {
        let (stopped, on_stop) = stop_counter();
        let mut threads = Vec::new();
        let mut calls = 0;
        let outcome = Runtime::builder()
            .threads(3)
            .after_worker_stop(on_stop)
            .build_with(|worker| {
                calls += 1;
                if worker.index() == 1 {
                    return Err(io::Error::other("no thread for worker 1"));
                }
                start(worker, &mut threads)
            });
        match outcome {
            Err(BuildError::Spawn { index, source }) => {
                assert_eq!(index, 1);
                assert_eq!(source.to_string(), "no thread for worker 1");
            }
            other => panic!("expected a spawn error, got {other:?}"),
        }
        assert_eq!(calls, 2, "no call after the failure");
        assert_eq!(
            stopped.load(Ordering::SeqCst),
            1,
            "worker 0 had exited when build_with returned"
        );
        assert_eq!(threads.len(), 1);
        for thread in threads {
            thread.join().unwrap(); // its `run` returned
        }
    });
}

#[test]
fn a_worker_whose_thread_the_handler_started_before_failing_exits_too() {
    without_hanging(|| {
        let mut threads = Vec::new();
        let outcome = Runtime::builder().threads(2).build_with(|worker| {
            let index = worker.index();
            start(worker, &mut threads)?;
            if index == 1 {
                return Err(io::Error::other("failed after starting worker 1"));
            }
            Ok(())
        });
        assert!(
            matches!(outcome, Err(BuildError::Spawn { index: 1, .. })),
            "{outcome:?}"
        );
        assert_eq!(threads.len(), 2);
        for thread in threads {
            thread.join().unwrap(); // both `run`s returned
        }
    });
}

#[test]
fn an_error_for_the_first_worker_is_a_spawn_error_for_index_zero() {
    without_hanging(|| {
        let outcome = Runtime::builder()
            .threads(2)
            .build_with(|_worker| Err(io::Error::other("refused")));
        assert!(
            matches!(outcome, Err(BuildError::Spawn { index: 0, .. })),
            "{outcome:?}"
        );
    });
}

#[test]
fn a_bad_configuration_is_refused_before_the_handler_is_called() {
    without_hanging(|| {
        let mut calls = 0;
        let outcome = Runtime::builder().threads(0).build_with(|worker| {
            calls += 1;
            worker.spawn()
        });
        assert!(
            matches!(outcome, Err(BuildError::ZeroThreads)),
            "{outcome:?}"
        );
        assert_eq!(calls, 0);
    });
}

#[test]
fn a_panic_in_the_handler_resumes_out_of_build_with_after_the_started_workers_exited() {
    without_hanging(|| {
        let (stopped, on_stop) = stop_counter();
        let mut threads = Vec::new();
        let outcome = quietly(|| {
            catch_unwind(AssertUnwindSafe(|| {
                Runtime::builder()
                    .threads(3)
                    .after_worker_stop(on_stop)
                    .build_with(|worker| {
                        if worker.index() == 2 {
                            panic!("handler gave up at worker 2");
                        }
                        start(worker, &mut threads)
                    })
            }))
        });
        let payload = outcome.expect_err("build_with panics");
        assert_eq!(payload_message(&*payload), "handler gave up at worker 2");
        assert_eq!(
            stopped.load(Ordering::SeqCst),
            2,
            "workers 0 and 1 had exited when the panic resumed"
        );
        for thread in threads {
            thread.join().unwrap();
        }
    });
}

/// A runtime of `threads` workers whose handler runs every worker but those
/// in `dropped`, which it drops unrun; and the threads it started.
fn runtime_without(threads: usize, dropped: &[usize]) -> (Runtime, Vec<ThreadHandle<()>>) {
    let mut started = Vec::new();
    let rt = Runtime::builder()
        .threads(threads)
        .build_with(|worker| {
            if dropped.contains(&worker.index()) {
                drop(worker);
                Ok(())
            } else {
                start(worker, &mut started)
            }
        })
        .unwrap();
    (rt, started)
}

#[test]
fn a_runtime_goes_on_without_a_worker_dropped_unrun() {
    without_hanging(|| {
        let (rt, threads) = runtime_without(2, &[1]);
        assert_eq!(rt.threads(), 2);
        let handles: Vec<_> = (0..20)
            .map(|i| rt.spawn(move || (i, rt_core::current_thread_index())))
            .collect();
        for (i, handle) in handles.into_iter().enumerate() {
            assert_eq!(handle.join(), Ok((i, Some(0))));
        }
        let (a, b) = rt.join(|| 1, || 2);
        assert_eq!((a, b), (1, 2));
        let mut values = [0; 8];
        rt.scope(|s| {
            for (i, v) in values.iter_mut().enumerate() {
                s.spawn(move || *v = i);
            }
        });
        assert_eq!(values, [0, 1, 2, 3, 4, 5, 6, 7]);
        rt.shutdown();
        for thread in threads {
            thread.join().unwrap();
        }
    });
}

#[test]
fn a_broadcast_needing_a_worker_dropped_unrun_panics_instead_of_hanging() {
    without_hanging(|| {
        let (rt, threads) = runtime_without(2, &[1]);
        let ran = AtomicUsize::new(0);
        let from_outside = quietly(|| {
            catch_unwind(AssertUnwindSafe(|| {
                rt.broadcast(|ctx| {
                    ran.fetch_add(1, Ordering::SeqCst);
                    ctx.index()
                })
            }))
        });
        let message = payload_message(&*from_outside.expect_err("the broadcast panics"));
        assert!(
            message.contains("worker 1 never ran its share"),
            "{message}"
        );
        assert_eq!(ran.load(Ordering::SeqCst), 1, "worker 0 ran its share");

        let from_task = quietly(|| rt.spawn(|| rt_core::broadcast(|ctx| ctx.index())).join());
        let error = from_task.expect_err("the broadcast panics in the task");
        assert!(error.to_string().contains("never ran its share"), "{error}");
        assert_eq!(rt.spawn(|| 3).join(), Ok(3), "worker 0 keeps working");
        drop(rt);
        for thread in threads {
            thread.join().unwrap();
        }
    });
}

#[test]
fn a_spawned_broadcast_skips_a_worker_dropped_unrun() {
    without_hanging(|| {
        let (rt, threads) = runtime_without(3, &[1]);
        let seen = Arc::new(Mutex::new(Vec::new()));
        let s = seen.clone();
        rt.spawn_broadcast(move |ctx| s.lock().unwrap().push(ctx.index()));
        rt.shutdown();
        let mut seen = seen.lock().unwrap().clone();
        seen.sort();
        assert_eq!(seen, [0, 2]);
        for thread in threads {
            thread.join().unwrap();
        }
    });
}

#[test]
fn a_runtime_with_a_worker_dropped_unrun_shuts_down_stops_and_drops_without_hanging() {
    without_hanging(|| {
        for ending in ["shutdown", "stop", "drop"] {
            let (rt, threads) = runtime_without(3, &[0, 2]);
            let handles: Vec<_> = (0..10).map(|i| rt.spawn(move || i)).collect();
            match ending {
                "shutdown" => rt.shutdown(),
                "stop" => {
                    rt.stop();
                    rt.wait_termination();
                }
                _ => drop(rt),
            }
            for (i, handle) in handles.into_iter().enumerate() {
                match handle.join() {
                    Ok(value) => assert_eq!(value, i),
                    Err(error) => assert!(ending == "stop" && error.is_cancelled(), "{error}"),
                }
            }
            for thread in threads {
                thread.join().unwrap();
            }
        }
    });
}

#[test]
fn a_runtime_whose_every_worker_was_dropped_unrun_refuses_broadcasts_and_shuts_down() {
    without_hanging(|| {
        let (rt, threads) = runtime_without(2, &[0, 1]);
        assert!(threads.is_empty());
        let outcome = quietly(|| catch_unwind(AssertUnwindSafe(|| rt.broadcast(|_| ()))));
        assert!(outcome.is_err(), "the broadcast panics");
        rt.spawn_broadcast(|_| unreachable!("no worker runs it"));
        rt.shutdown();
        assert!(rt.is_shutdown());
    });
}

#[test]
fn on_a_runtime_whose_every_worker_was_dropped_unrun_stop_cancels_the_queued_tasks() {
    without_hanging(|| {
        let (rt, _) = runtime_without(2, &[0, 1]);
        let queued: Vec<_> = (0..5).map(|i| rt.spawn(move || i)).collect();
        assert_eq!(rt.stop(), 5);
        rt.wait_termination();
        for handle in queued {
            assert_eq!(handle.join(), Err(rt_core::JoinError::Cancelled));
        }
        let m = rt.metrics();
        assert_eq!((m.submitted, m.cancelled), (5, 5));
    });
}

#[test]
fn a_handler_may_build_its_runtime_from_inside_a_task_of_another_runtime() {
    without_hanging(|| {
        let outer = Runtime::new(1).unwrap();
        let names = outer.install(|| {
            let mut threads = Vec::new();
            let inner = Runtime::builder()
                .threads(2)
                .build_with(|worker| start(worker, &mut threads))
                .unwrap();
            let names = inner.broadcast(|_| thread_name());
            drop(inner);
            for thread in threads {
                thread.join().unwrap();
            }
            names
        });
        assert_eq!(names, ["custom-0", "custom-1"]);
    });
}

#[test]
fn with_use_current_thread_the_handler_gets_every_worker_but_worker_zero() {
    without_hanging(|| {
        let mut indexes = Vec::new();
        let mut threads = Vec::new();
        let rt = Runtime::builder()
            .threads(3)
            .use_current_thread()
            .build_with(|worker| {
                indexes.push(worker.index());
                start(worker, &mut threads)
            })
            .unwrap();
        assert_eq!(indexes, [1, 2]);
        assert_eq!(rt_core::current_thread_index(), Some(0));
        drop(rt);
        assert_eq!(rt_core::current_thread_index(), None);
        for thread in threads {
            thread.join().unwrap();
        }
    });
}
