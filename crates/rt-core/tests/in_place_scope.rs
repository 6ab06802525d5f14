//! `Runtime::in_place_scope`: the body runs on the calling thread and the
//! tasks on the runtime, so the body may block on its tasks' progress (a
//! channel, a barrier) even on a one-worker runtime; every task has
//! finished when it returns, and panics come back as `scope`'s do.

mod support;

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{mpsc, Barrier};
use std::thread;

use rt_core::{JoinError, Runtime};
use support::{quietly, wait_until, without_hanging, Gate, Latch};

#[test]
fn on_one_worker_the_body_may_block_until_a_task_sends_to_it() {
    without_hanging(|| {
        let rt = Runtime::new(1).unwrap();
        let (tx, rx) = mpsc::channel();
        let received = rt.in_place_scope(|s| {
            s.spawn(move || tx.send(42).unwrap());
            rx.recv().unwrap()
        });
        assert_eq!(received, 42);
    });
}

#[test]
fn on_two_workers_the_body_may_wait_at_a_barrier_with_two_tasks() {
    without_hanging(|| {
        let rt = Runtime::new(2).unwrap();
        let barrier = Barrier::new(3);
        let passed = AtomicUsize::new(0);
        rt.in_place_scope(|s| {
            for _ in 0..2 {
                s.spawn(|| {
                    barrier.wait();
                    passed.fetch_add(1, Ordering::SeqCst);
                });
            }
            barrier.wait();
        });
        assert_eq!(passed.load(Ordering::SeqCst), 2);
    });
}

#[test]
fn the_body_runs_on_the_calling_thread_and_the_tasks_on_the_runtime_s_workers() {
    without_hanging(|| {
        let rt = Runtime::builder()
            .threads(2)
            .thread_name("ips")
            .build()
            .unwrap();
        let me = thread::current().id();
        let (body, tasks) = rt.in_place_scope(|s| {
            let tasks: Vec<_> = (0..4)
                .map(|_| {
                    s.spawn(|| {
                        (
                            rt.current_thread_index(),
                            thread::current().name().map(str::to_owned),
                        )
                    })
                })
                .collect();
            let body = (thread::current().id(), rt_core::current_thread_index());
            let tasks: Vec<_> = tasks.into_iter().map(|h| h.join().unwrap()).collect();
            (body, tasks)
        });
        assert_eq!(body, (me, None));
        for (index, name) in tasks {
            assert!(index.is_some_and(|i| i < 2));
            assert!(name.is_some_and(|n| n.starts_with("ips-")));
        }
    });
}

#[test]
fn tasks_borrow_and_mutate_the_caller_s_data() {
    without_hanging(|| {
        let rt = Runtime::new(2).unwrap();
        let mut values = vec![1u64; 1_000];
        let total = AtomicUsize::new(0);
        rt.in_place_scope(|s| {
            for chunk in values.chunks_mut(100) {
                let total = &total;
                s.spawn(move || {
                    chunk.iter_mut().for_each(|v| *v *= 5);
                    total.fetch_add(chunk.len(), Ordering::SeqCst);
                });
            }
        });
        assert!(values.iter().all(|&v| v == 5));
        assert_eq!(total.load(Ordering::SeqCst), 1_000);
    });
}

#[test]
fn it_returns_only_after_every_task_finished() {
    without_hanging(|| {
        let rt = Runtime::new(1).unwrap();
        let finished = AtomicUsize::new(0);
        rt.in_place_scope(|s| {
            for _ in 0..8 {
                s.spawn(|| {
                    s.spawn(|| finished.fetch_add(1, Ordering::SeqCst));
                    finished.fetch_add(1, Ordering::SeqCst);
                });
            }
        });
        assert_eq!(finished.load(Ordering::SeqCst), 16);
    });
}

#[test]
fn threads_the_body_starts_may_spawn_into_the_scope() {
    without_hanging(|| {
        let rt = Runtime::new(1).unwrap();
        let ran = AtomicUsize::new(0);
        rt.in_place_scope(|s| {
            thread::scope(|threads| {
                for _ in 0..3 {
                    threads.spawn(|| s.spawn(|| ran.fetch_add(1, Ordering::SeqCst)));
                }
            });
        });
        assert_eq!(ran.load(Ordering::SeqCst), 3);
    });
}

#[test]
fn an_unjoined_task_panic_resumes_after_every_task_finished() {
    without_hanging(|| {
        let rt = Runtime::new(2).unwrap();
        let finished = AtomicUsize::new(0);
        let gate = Gate::new();
        let outcome = quietly(|| {
            catch_unwind(AssertUnwindSafe(|| {
                rt.in_place_scope(|s| {
                    s.spawn(|| std::panic::panic_any(31_u32));
                    s.spawn(|| {
                        gate.wait();
                        finished.fetch_add(1, Ordering::SeqCst);
                    });
                    gate.open();
                })
            }))
        });
        let payload = outcome.expect_err("the scope panics");
        assert_eq!(payload.downcast_ref::<u32>(), Some(&31));
        assert_eq!(finished.load(Ordering::SeqCst), 1);
        assert_eq!(rt.spawn(|| 2).join(), Ok(2), "the runtime keeps working");
    });
}

#[test]
fn a_joined_task_panic_is_the_handle_s_and_not_the_scope_s() {
    without_hanging(|| {
        let rt = Runtime::new(1).unwrap();
        let joined =
            quietly(|| rt.in_place_scope(|s| s.spawn(|| -> u8 { panic!("joined panic") }).join()));
        assert_eq!(joined, Err(JoinError::Panicked("joined panic".into())));
    });
}

#[test]
fn a_body_panic_resumes_after_every_task_finished() {
    without_hanging(|| {
        let rt = Runtime::new(1).unwrap();
        let finished = AtomicUsize::new(0);
        let outcome = quietly(|| {
            catch_unwind(AssertUnwindSafe(|| {
                rt.in_place_scope(|s| {
                    for _ in 0..4 {
                        s.spawn(|| finished.fetch_add(1, Ordering::SeqCst));
                    }
                    panic!("body failed");
                })
            }))
        });
        let payload = outcome.expect_err("the body's panic resumes");
        assert_eq!(payload.downcast_ref::<&str>(), Some(&"body failed"));
        assert_eq!(finished.load(Ordering::SeqCst), 4);
    });
}

#[test]
fn on_a_worker_of_the_same_runtime_it_is_a_scope_there() {
    without_hanging(|| {
        let rt = Runtime::new(2).unwrap();
        let (body_index, sum) = rt.install(|| {
            let index = rt_core::current_thread_index();
            let sum = rt.in_place_scope(|s| {
                let handles: Vec<_> = (1..=10u64).map(|i| s.spawn(move || i)).collect();
                (
                    rt_core::current_thread_index(),
                    handles.into_iter().map(|h| h.join().unwrap()).sum::<u64>(),
                )
            });
            (index, sum)
        });
        assert!(body_index.is_some());
        assert_eq!(sum, (body_index, 55));
    });
}

#[test]
fn on_a_one_worker_runtime_s_task_an_in_place_scope_of_another_one_worker_runtime_may_block_on_its_tasks(
) {
    without_hanging(|| {
        let a = Runtime::new(1).unwrap();
        let b = Runtime::new(1).unwrap();
        let received = a.install(|| {
            let (tx, rx) = mpsc::channel();
            b.in_place_scope(|s| {
                s.spawn(move || tx.send(7).unwrap());
                rx.recv().unwrap()
            })
        });
        assert_eq!(received, 7);
    });
}

#[test]
fn a_task_installing_back_into_the_waiting_runtime_completes() {
    without_hanging(|| {
        let a = Runtime::new(1).unwrap();
        let b = Runtime::new(1).unwrap();
        // a's only worker waits at the end of b's scope for a task that
        // needs a: a keeps a worker free meanwhile.
        let value = a.install(|| b.in_place_scope(|s| s.spawn(|| a.install(|| 5)).join()));
        assert_eq!(value, Ok(5));
    });
}

#[test]
fn tasks_spawned_after_stop_still_run_before_it_returns() {
    without_hanging(|| {
        for threads in [1, 2] {
            let rt = Runtime::new(threads).unwrap();
            let ran = AtomicUsize::new(0);
            rt.in_place_scope(|s| {
                for _ in 0..4 {
                    s.spawn(|| ran.fetch_add(1, Ordering::SeqCst));
                }
                rt.stop();
                for _ in 0..4 {
                    s.spawn(|| ran.fetch_add(1, Ordering::SeqCst));
                }
            });
            assert_eq!(ran.load(Ordering::SeqCst), 8, "{threads} workers");
            rt.wait_termination();
        }
    });
}

#[test]
fn a_shutdown_from_another_thread_in_the_middle_loses_no_task() {
    without_hanging(|| {
        let rt = Runtime::new(2).unwrap();
        let ran = AtomicUsize::new(0);
        let (gate, started) = (Gate::new(), Latch::new(1));
        thread::scope(|threads| {
            rt.in_place_scope(|s| {
                s.spawn(|| {
                    started.count_down();
                    gate.wait();
                    ran.fetch_add(1, Ordering::SeqCst);
                });
                started.wait();
                let stopper = threads.spawn(|| rt.shutdown());
                wait_until("the shutdown started", || rt.is_shutdown());
                for _ in 0..4 {
                    s.spawn(|| ran.fetch_add(1, Ordering::SeqCst));
                }
                gate.open();
                stopper
            })
            .join()
            .unwrap();
        });
        assert_eq!(ran.load(Ordering::SeqCst), 5);
    });
}

#[test]
fn on_a_shut_down_runtime_each_task_runs_at_once_on_the_spawning_thread() {
    without_hanging(|| {
        let rt = Runtime::new(2).unwrap();
        rt.shutdown();
        let me = thread::current().id();
        let mut seen = Vec::new();
        rt.in_place_scope(|s| {
            s.spawn(|| seen.push(thread::current().id()));
        });
        assert_eq!(seen, [me]);
    });
}

#[test]
fn many_in_place_scopes_from_several_threads_at_once_all_complete() {
    without_hanging(|| {
        let rt = Runtime::new(2).unwrap();
        let total = AtomicUsize::new(0);
        thread::scope(|threads| {
            for _ in 0..4 {
                threads.spawn(|| {
                    for _ in 0..25 {
                        let (tx, rx) = mpsc::channel();
                        rt.in_place_scope(|s| {
                            s.spawn(move || tx.send(1).unwrap());
                            total.fetch_add(rx.recv().unwrap(), Ordering::SeqCst);
                        });
                    }
                });
            }
        });
        assert_eq!(total.load(Ordering::SeqCst), 100);
    });
}
