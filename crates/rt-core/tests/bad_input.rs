//! What a careless user does, and what the runtime does about it: a clear
//! error or a documented behaviour, never a hang, never a lost task.
//!
//! Every test runs under a watchdog, so a regression that hangs fails the
//! test instead of stalling the suite.

mod support;

use std::any::Any;
use std::panic::{catch_unwind, panic_any, AssertUnwindSafe};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::thread;
use std::time::{Duration, Instant};

use rt_core::{
    BuildError, CancellationToken, JoinError, Priority, Runtime, TaskStatus, MAX_THREADS,
};
use rt_handle::NON_STRING_PAYLOAD;
use support::{occupy_all_workers, quietly, without_hanging, Gate};

fn counter() -> Arc<AtomicUsize> {
    Arc::new(AtomicUsize::new(0))
}

/// Shuts `rt` down and checks that every accepted task was accounted for.
fn assert_nothing_lost(rt: &Runtime) {
    rt.shutdown();
    let m = rt.metrics();
    assert_eq!(m.submitted, m.completed + m.panicked + m.cancelled, "{m:?}");
}

/// Every worker of `rt` still runs tasks: one task per worker, each waiting
/// until all of them have started, so each must land on a different worker.
fn assert_every_worker_still_runs_tasks(rt: &Runtime) {
    let started = support::Latch::new(rt.threads());
    let handles: Vec<_> = (0..rt.threads())
        .map(|_| {
            let started = started.clone();
            rt.spawn_with_priority(Priority::High, move || {
                started.count_down();
                started.wait();
            })
        })
        .collect();
    for h in handles {
        assert_eq!(h.join(), Ok(()));
    }
}

/// A value whose destructor panics.
struct PanicsOnDrop(u32);

impl Drop for PanicsOnDrop {
    fn drop(&mut self) {
        panic!("dropping {} panicked", self.0);
    }
}

#[test]
fn zero_threads_is_refused_with_a_clear_error() {
    without_hanging(|| {
        let err = Runtime::new(0).unwrap_err();
        assert!(matches!(err, BuildError::ZeroThreads), "{err:?}");
        assert!(
            err.to_string().contains("at least one worker thread"),
            "{err}"
        );
        let err = Runtime::builder().threads(0).build().unwrap_err();
        assert!(matches!(err, BuildError::ZeroThreads), "{err:?}");
    });
}

#[test]
fn a_million_threads_is_refused_at_once_before_anything_is_allocated() {
    without_hanging(|| {
        let err = Runtime::builder().threads(1_000_000).build().unwrap_err();
        match err {
            BuildError::TooManyThreads { requested, max } => {
                assert_eq!((requested, max), (1_000_000, MAX_THREADS));
            }
            other => panic!("expected TooManyThreads, got {other:?}"),
        }
        let err = Runtime::new(usize::MAX).unwrap_err();
        assert!(matches!(err, BuildError::TooManyThreads { .. }), "{err:?}");
    });
}

#[test]
#[cfg_attr(miri, ignore = "miri does not model the OS refusing a thread")]
fn the_largest_thread_count_with_a_stack_the_os_refuses_is_a_spawn_error() {
    without_hanging(|| {
        // No OS maps a stack of a quarter of the address space, so the very
        // first worker fails and nothing is left running.
        let err = Runtime::builder()
            .threads(MAX_THREADS)
            .stack_size(1 << 62)
            .build()
            .unwrap_err();
        match err {
            BuildError::Spawn {
                index: 0,
                ref source,
            } => {
                assert!(
                    err.to_string().contains("worker thread 0"),
                    "{err}: {source}"
                );
            }
            other => panic!("expected a spawn error for worker 0, got {other:?}"),
        }
    });
}

#[test]
fn spawning_after_shutdown_is_rejected_at_once_at_every_priority() {
    without_hanging(|| {
        let rt = Runtime::new(2).unwrap();
        rt.shutdown();
        let ran = counter();
        let token = CancellationToken::new();
        let handles = [
            {
                let ran = ran.clone();
                rt.spawn(move || ran.fetch_add(1, Ordering::SeqCst))
            },
            {
                let ran = ran.clone();
                rt.spawn_with_priority(Priority::High, move || ran.fetch_add(1, Ordering::SeqCst))
            },
            {
                let ran = ran.clone();
                rt.spawn_cancellable(Priority::Background, &token, move |_| {
                    ran.fetch_add(1, Ordering::SeqCst)
                })
            },
        ];
        for handle in handles {
            assert_eq!(handle.status(), TaskStatus::Rejected);
            assert_eq!(handle.join(), Err(JoinError::Rejected));
        }
        assert_eq!(ran.load(Ordering::SeqCst), 0);
        assert_eq!(rt.metrics().submitted, 0, "refused tasks are not counted");
    });
}

#[test]
fn shutdown_from_inside_a_task_starts_the_shutdown_and_returns() {
    without_hanging(|| {
        let rt = Arc::new(Runtime::new(2).unwrap());
        let gate = Gate::new();
        let blockers = occupy_all_workers(&rt, &gate);
        let ran = counter();
        let queued: Vec<_> = (0..20)
            .map(|_| {
                let ran = ran.clone();
                rt.spawn(move || ran.fetch_add(1, Ordering::SeqCst))
            })
            .collect();
        let inner = rt.clone();
        let stopper = rt.spawn(move || {
            inner.shutdown();
            // It returned without waiting for its own worker: the runtime is
            // shutting down, but this task's own children are still accepted.
            (inner.is_shutdown(), inner.spawn(|| 7).join())
        });
        gate.open();
        assert_eq!(stopper.join(), Ok((true, Ok(7))));
        // Outside spawns are refused from now on; everything accepted ran.
        assert_eq!(rt.spawn(|| 1).join(), Err(JoinError::Rejected));
        for h in queued {
            assert!(h.join().is_ok());
        }
        for b in blockers {
            assert_eq!(b.join(), Ok(()));
        }
        rt.shutdown(); // from outside: joins the workers
        assert_eq!(ran.load(Ordering::SeqCst), 20);
        assert_nothing_lost(&rt);
    });
}

#[test]
fn shutdown_from_inside_the_only_worker_does_not_deadlock() {
    without_hanging(|| {
        let rt = Arc::new(Runtime::new(1).unwrap());
        let inner = rt.clone();
        let after = counter();
        let a = after.clone();
        let stopper = rt.spawn(move || {
            inner.shutdown();
            a.fetch_add(1, Ordering::SeqCst);
        });
        assert_eq!(stopper.join(), Ok(()));
        assert_eq!(after.load(Ordering::SeqCst), 1);
        assert_nothing_lost(&rt);
    });
}

#[test]
fn joining_from_inside_the_pool_a_task_queued_behind_completes_when_another_worker_is_free() {
    without_hanging(|| {
        let rt = Arc::new(Runtime::new(2).unwrap());
        let inner = rt.clone();
        let parent = rt.spawn(move || {
            // The child goes to this worker's own deque, behind nothing but
            // this very task; the other, idle worker steals and runs it.
            let child = inner.spawn(|| 21);
            child.join().map(|v| v * 2)
        });
        assert_eq!(parent.join(), Ok(Ok(42)));
        assert_nothing_lost(&rt);
    });
}

/// On a one-worker runtime nothing else can run a task queued behind the
/// running one; joining it from the running task runs it right there.
#[test]
fn on_a_single_worker_a_task_queued_behind_its_parent_runs_when_the_parent_joins_it() {
    without_hanging(|| {
        let rt = Arc::new(Runtime::new(1).unwrap());
        let inner = rt.clone();
        let parent = rt.spawn(move || {
            let child = inner.spawn(|| 21);
            let deadline = Instant::now() + Duration::from_millis(if cfg!(miri) { 5 } else { 50 });
            while Instant::now() < deadline {
                assert!(!child.is_finished(), "nothing else can run the child");
                thread::yield_now();
            }
            assert_eq!(child.status(), TaskStatus::Queued);
            child.join().map(|v| v * 2)
        });
        assert_eq!(parent.join(), Ok(Ok(42)));
        assert_nothing_lost(&rt);
    });
}

#[test]
fn a_panic_with_a_non_string_payload_is_reported_with_a_clear_message() {
    without_hanging(|| {
        let rt = Runtime::new(2).unwrap();
        let payloads: Vec<Box<dyn FnOnce() -> u8 + Send>> = vec![
            Box::new(|| panic_any(42_u32)),
            Box::new(|| panic_any(vec![1, 2, 3])),
            Box::new(|| panic_any(Box::new(()) as Box<dyn Any + Send>)),
        ];
        for body in payloads {
            let err = quietly(|| rt.spawn(body).join()).unwrap_err();
            assert_eq!(err, JoinError::Panicked(NON_STRING_PAYLOAD.into()));
            assert_eq!(
                err.to_string(),
                "task panicked: task panicked with a non-string payload"
            );
        }
        assert_every_worker_still_runs_tasks(&rt);
        assert_nothing_lost(&rt);
    });
}

#[test]
fn a_panic_payload_whose_own_drop_panics_is_contained() {
    without_hanging(|| {
        let rt = Runtime::new(1).unwrap();
        let err = quietly(|| rt.spawn(|| -> u8 { panic_any(PanicsOnDrop(1)) }).join());
        assert_eq!(err, Err(JoinError::Panicked(NON_STRING_PAYLOAD.into())));
        assert_every_worker_still_runs_tasks(&rt);
        assert_nothing_lost(&rt);
    });
}

/// A joined result is handed to the joiner; its destructor runs (and
/// panics) on the joiner's thread when the joiner drops it, as with any
/// value. The worker never sees that panic.
#[test]
fn a_panic_in_drop_of_a_joined_result_happens_in_the_joiner_not_the_worker() {
    without_hanging(|| {
        let rt = Runtime::new(1).unwrap();
        let value = rt
            .spawn(|| PanicsOnDrop(2))
            .join()
            .expect("the body returned");
        assert_eq!(value.0, 2);
        let dropped = quietly(|| catch_unwind(AssertUnwindSafe(move || drop(value))));
        assert!(dropped.is_err(), "the destructor ran, on this thread");
        assert_every_worker_still_runs_tasks(&rt);
        assert_nothing_lost(&rt);
    });
}

/// A detached task's result is dropped by the worker that ran it; a panic
/// in that destructor is caught there and the worker carries on.
#[test]
fn a_panic_in_drop_of_a_detached_result_is_contained_and_the_worker_survives() {
    without_hanging(|| {
        let rt = Runtime::new(1).unwrap();
        let gate = Gate::new();
        let blockers = occupy_all_workers(&rt, &gate);
        // Detached while still queued, so the worker drops the result.
        drop(rt.spawn(|| PanicsOnDrop(3)));
        quietly(|| {
            gate.open();
            for b in blockers {
                b.join().unwrap();
            }
            assert_eq!(rt.spawn(|| "after").join(), Ok("after"));
        });
        assert_every_worker_still_runs_tasks(&rt);
        rt.shutdown();
        let m = rt.metrics();
        assert_eq!((m.completed, m.panicked), (m.submitted, 0), "{m:?}");
    });
}

/// A task cancelled while queued never runs; its captures are dropped by
/// the canceller, and a panic in their destructor is caught there.
#[test]
fn a_panic_in_drop_of_a_cancelled_tasks_captures_is_contained() {
    without_hanging(|| {
        let rt = Runtime::new(1).unwrap();
        let gate = Gate::new();
        let blockers = occupy_all_workers(&rt, &gate);
        let captured = PanicsOnDrop(4);
        let handle = rt.spawn(move || {
            let owned = captured;
            owned.0
        });
        let cancelled = quietly(|| handle.cancel());
        assert!(cancelled);
        gate.open();
        assert_eq!(handle.join(), Err(JoinError::Cancelled));
        for b in blockers {
            b.join().unwrap();
        }
        assert_every_worker_still_runs_tasks(&rt);
        assert_nothing_lost(&rt);
    });
}
