//! `scope`: tasks that borrow from the caller, all finished before the
//! scope returns; panics reported as `std::thread::scope` reports them.

mod support;

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::thread;
use std::time::Duration;

use rt_core::{current_thread_index, JoinError, Priority, Runtime};
use support::{occupy_all_workers, quietly, wait_until, without_hanging, Gate};

#[test]
fn a_scope_borrows_and_mutates_a_local_vec() {
    without_hanging(|| {
        let rt = Runtime::new(2).unwrap();
        let mut values = vec![1u64; 1_000];
        rt.scope(|s| {
            for chunk in values.chunks_mut(100) {
                s.spawn(move || chunk.iter_mut().for_each(|v| *v *= 3));
            }
        });
        assert!(values.iter().all(|&v| v == 3));
    });
}

#[test]
fn scope_returns_only_after_every_task_finished() {
    without_hanging(|| {
        let rt = Runtime::new(2).unwrap();
        let finished = AtomicUsize::new(0);
        rt.scope(|s| {
            for _ in 0..4 {
                s.spawn(|| {
                    thread::sleep(Duration::from_millis(5));
                    finished.fetch_add(1, Ordering::SeqCst);
                });
            }
        });
        assert_eq!(finished.load(Ordering::SeqCst), 4);
    });
}

#[test]
fn tasks_spawn_further_tasks_through_the_scope() {
    without_hanging(|| {
        let rt = Runtime::new(2).unwrap();
        let count = AtomicUsize::new(0);
        rt.scope(|s| {
            for _ in 0..3 {
                s.spawn(|| {
                    for _ in 0..3 {
                        s.spawn(|| count.fetch_add(1, Ordering::SeqCst));
                    }
                });
            }
        });
        assert_eq!(count.load(Ordering::SeqCst), 9);
    });
}

#[test]
fn a_scoped_handle_joins_with_the_tasks_value() {
    without_hanging(|| {
        let rt = Runtime::new(2).unwrap();
        let text = String::from("borrowed");
        let len = rt.scope(|s| {
            let h = s.spawn(|| text.len());
            h.join().unwrap()
        });
        assert_eq!(len, 8);
    });
}

#[test]
fn a_scope_on_a_one_worker_runtime_completes() {
    without_hanging(|| {
        let rt = Runtime::new(1).unwrap();
        let mut parts = [0u32; 8];
        rt.scope(|s| {
            for (i, p) in parts.iter_mut().enumerate() {
                s.spawn(move || *p = i as u32);
            }
        });
        assert_eq!(parts, [0, 1, 2, 3, 4, 5, 6, 7]);
    });
}

#[test]
fn a_scope_inside_a_task_of_a_one_worker_runtime_completes() {
    without_hanging(|| {
        let rt = Arc::new(Runtime::new(1).unwrap());
        let total = rt
            .spawn(|| {
                let data: Vec<u64> = (1..=100).collect();
                rt_core::scope(|s| {
                    let (left, right) = data.split_at(50);
                    let l = s.spawn(|| left.iter().sum::<u64>());
                    let r = s.spawn(|| right.iter().sum::<u64>());
                    l.join().unwrap() + r.join().unwrap()
                })
            })
            .join();
        assert_eq!(total, Ok(5050));
    });
}

#[test]
fn a_task_that_panicked_unjoined_makes_the_scope_panic_after_every_task_finished() {
    without_hanging(|| {
        let rt = Runtime::new(2).unwrap();
        let finished = AtomicUsize::new(0);
        let outcome = quietly(|| {
            catch_unwind(AssertUnwindSafe(|| {
                rt.scope(|s| {
                    s.spawn(|| panic!("a task failed"));
                    s.spawn(|| {
                        thread::sleep(Duration::from_millis(10));
                        finished.fetch_add(1, Ordering::SeqCst);
                    });
                })
            }))
        });
        assert!(outcome.is_err(), "the scope panics");
        assert_eq!(
            finished.load(Ordering::SeqCst),
            1,
            "after the other task finished"
        );
        assert_eq!(rt.spawn(|| 1).join(), Ok(1), "the pool keeps working");
    });
}

#[test]
fn a_scope_resumes_an_unjoined_task_panic_with_that_task_s_own_payload() {
    without_hanging(|| {
        let rt = Runtime::new(2).unwrap();
        let outcome = quietly(|| {
            catch_unwind(AssertUnwindSafe(|| {
                rt.scope(|s| {
                    s.spawn(|| std::panic::panic_any(413_u16));
                })
            }))
        });
        let payload = outcome.expect_err("the scope panics");
        assert_eq!(payload.downcast_ref::<u16>(), Some(&413));
    });
}

#[test]
fn a_scope_resumes_the_payload_of_a_panic_whose_handle_was_dropped_after_it_finished() {
    without_hanging(|| {
        let rt = Runtime::new(2).unwrap();
        let outcome = quietly(|| {
            catch_unwind(AssertUnwindSafe(|| {
                rt.scope(|s| {
                    let handle = s.spawn(|| std::panic::panic_any(7_i64));
                    wait_until("the task panicked", || handle.is_finished());
                    drop(handle);
                })
            }))
        });
        let payload = outcome.expect_err("the scope panics");
        assert_eq!(payload.downcast_ref::<i64>(), Some(&7));
    });
}

#[test]
fn a_panic_that_was_joined_does_not_make_the_scope_panic() {
    without_hanging(|| {
        let rt = Runtime::new(2).unwrap();
        let outcome = quietly(|| {
            rt.scope(|s| {
                let h = s.spawn(|| -> u8 { panic!("handled") });
                h.join()
            })
        });
        assert_eq!(outcome, Err(JoinError::Panicked("handled".into())));
    });
}

#[test]
fn a_panic_in_the_scope_body_resumes_after_its_tasks_finished() {
    without_hanging(|| {
        let rt = Runtime::new(2).unwrap();
        let finished = AtomicUsize::new(0);
        let outcome = quietly(|| {
            catch_unwind(AssertUnwindSafe(|| {
                rt.scope(|s| {
                    s.spawn(|| {
                        thread::sleep(Duration::from_millis(10));
                        finished.fetch_add(1, Ordering::SeqCst);
                    });
                    panic!("the body failed");
                })
            }))
        });
        let payload = outcome.unwrap_err();
        assert_eq!(payload.downcast_ref::<&str>(), Some(&"the body failed"));
        assert_eq!(finished.load(Ordering::SeqCst), 1);
    });
}

#[test]
fn outside_any_runtime_the_scope_body_runs_here_and_its_tasks_on_the_global_runtime() {
    without_hanging(|| {
        let here = thread::current().id();
        let mut order = Vec::new();
        rt_core::scope(|s| {
            let a = s.spawn(|| (thread::current().id(), rt_core::current_thread_index()));
            let (ran_on, worker) = a.join().unwrap();
            assert_ne!(ran_on, here);
            assert!(worker.is_some());
            assert_eq!(thread::current().id(), here);
            order.push(1);
        });
        order.push(2);
        assert_eq!(order, [1, 2]);
    });
}

#[test]
fn a_scope_on_a_runtime_already_shut_down_runs_each_task_when_it_is_spawned() {
    without_hanging(|| {
        let rt = Runtime::new(1).unwrap();
        rt.shutdown();
        let here = thread::current().id();
        rt.scope(|s| {
            let a = s.spawn(|| thread::current().id());
            assert!(a.is_finished(), "ran at once");
            assert_eq!(a.join(), Ok(here));
        });
    });
}

#[test]
fn scoped_tasks_run_at_the_priority_of_the_task_that_opened_the_scope_unless_told_otherwise() {
    without_hanging(|| {
        let rt = Arc::new(Runtime::new(2).unwrap());
        let gate = Gate::new();
        // Hold the other worker so the spawned tasks stay queued.
        let (inner, g) = (rt.clone(), gate.clone());
        let observed = rt.spawn_with_priority(Priority::High, move || {
            let blocker_gate = Gate::new();
            let blocker = {
                let b = blocker_gate.clone();
                // Occupy the other worker from outside this task.
                let rt = inner.clone();
                thread::spawn(move || rt.spawn_with_priority(Priority::High, move || b.wait()))
                    .join()
                    .unwrap()
            };
            while inner.stats().running < 2 {
                thread::yield_now();
            }
            let queued = rt_core::scope(|s| {
                s.spawn(|| ());
                s.spawn_with_priority(Priority::Background, || ());
                let queued = inner.stats().queued;
                blocker_gate.open();
                queued
            });
            blocker.join().unwrap();
            g.wait();
            queued
        });
        gate.open();
        let queued = observed.join().unwrap();
        assert_eq!(queued[Priority::High], 1);
        assert_eq!(queued[Priority::Background], 1);
    });
}

#[test]
fn scoped_tasks_are_counted_in_the_metrics_once_each() {
    without_hanging(|| {
        let rt = Runtime::new(2).unwrap();
        rt.scope(|s| {
            for i in 0..10 {
                s.spawn(move || i);
            }
        });
        rt.shutdown();
        let m = rt.metrics();
        assert_eq!((m.submitted, m.completed), (10, 10), "{m:?}");
    });
}

#[test]
fn scopes_nest() {
    without_hanging(|| {
        let rt = Runtime::new(2).unwrap();
        let count = AtomicUsize::new(0);
        rt.scope(|outer| {
            outer.spawn(|| {
                rt_core::scope(|inner| {
                    for _ in 0..4 {
                        inner.spawn(|| count.fetch_add(1, Ordering::SeqCst));
                    }
                });
                count.fetch_add(10, Ordering::SeqCst);
            });
        });
        assert_eq!(count.load(Ordering::SeqCst), 14);
    });
}

#[test]
fn a_scope_waiting_on_a_busy_pool_still_completes() {
    without_hanging(|| {
        let rt = Runtime::new(2).unwrap();
        let gate = Gate::new();
        let blockers = occupy_all_workers(&rt, &gate);
        let opener = {
            let gate = gate.clone();
            thread::spawn(move || {
                thread::sleep(Duration::from_millis(20));
                gate.open();
            })
        };
        let ran = rt.scope(|s| s.spawn(current_thread_index).join().unwrap());
        assert!(ran.is_some());
        opener.join().unwrap();
        drop(blockers);
    });
}
