//! Shutdown runs everything accepted, then stops; nothing hangs.

mod support;

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::thread;

use rt_core::{JoinError, Runtime};
use support::{occupy_all_workers, without_hanging, Gate};

/// Scales a test's size down under miri, which runs every instruction in an
/// interpreter: the interleavings that matter appear with small counts too.
const fn sized(normal: usize, under_miri: usize) -> usize {
    if cfg!(miri) {
        under_miri
    } else {
        normal
    }
}

fn counter() -> Arc<AtomicUsize> {
    Arc::new(AtomicUsize::new(0))
}

/// Starts `shutdown` on another thread and returns once it has begun.
fn shutdown_in_background(rt: &Arc<Runtime>) -> thread::JoinHandle<()> {
    let rt2 = rt.clone();
    let t = thread::spawn(move || rt2.shutdown());
    while !rt.is_shutdown() {
        thread::yield_now();
    }
    t
}

#[test]
fn shutdown_runs_every_task_already_queued() {
    without_hanging(|| {
        let rt = Arc::new(Runtime::new(2).unwrap());
        let gate = Gate::new();
        let blockers = occupy_all_workers(&rt, &gate);
        let ran = counter();
        let tasks = sized(1_000, 20);
        let handles: Vec<_> = (0..tasks)
            .map(|_| {
                let ran = ran.clone();
                rt.spawn(move || ran.fetch_add(1, Ordering::Relaxed))
            })
            .collect();
        let stopper = shutdown_in_background(&rt);
        gate.open();
        stopper.join().unwrap();
        assert_eq!(ran.load(Ordering::Relaxed), tasks);
        assert!(handles.into_iter().all(|h| h.join().is_ok()));
        assert!(blockers.into_iter().all(|h| h.join().is_ok()));
    })
}

#[test]
fn tasks_spawned_by_tasks_during_shutdown_still_run() {
    without_hanging(|| {
        let rt = Arc::new(Runtime::new(2).unwrap());
        let gate = Gate::new();
        let blockers = occupy_all_workers(&rt, &gate);
        let ran = counter();
        let (parent_count, children_each) = (sized(50, 4), sized(10, 3));
        let parents: Vec<_> = (0..parent_count)
            .map(|_| {
                let (rt2, ran) = (rt.clone(), ran.clone());
                rt.spawn(move || {
                    // Runs after shutdown began: these children must be accepted.
                    (0..children_each)
                        .map(|_| {
                            let ran = ran.clone();
                            rt2.spawn(move || ran.fetch_add(1, Ordering::Relaxed))
                        })
                        .collect::<Vec<_>>()
                })
            })
            .collect();
        let stopper = shutdown_in_background(&rt);
        gate.open();
        stopper.join().unwrap();
        assert_eq!(ran.load(Ordering::Relaxed), parent_count * children_each);
        for parent in parents {
            for child in parent.join().unwrap() {
                assert!(child.join().is_ok());
            }
        }
        drop(blockers);
        let m = rt.metrics();
        assert_eq!(m.submitted, m.completed + m.panicked + m.cancelled);
    })
}

#[test]
fn shutdown_is_idempotent_and_safe_to_call_from_two_threads_at_once() {
    without_hanging(|| {
        let rt = Arc::new(Runtime::new(2).unwrap());
        let gate = Gate::new();
        let _blockers = occupy_all_workers(&rt, &gate);
        let ran = counter();
        let tasks = sized(100, 10);
        for _ in 0..tasks {
            let ran = ran.clone();
            drop(rt.spawn(move || ran.fetch_add(1, Ordering::Relaxed)));
        }
        let a = shutdown_in_background(&rt);
        let b = shutdown_in_background(&rt);
        gate.open();
        a.join().unwrap();
        b.join().unwrap();
        // Whichever returned, the workers had drained everything by then.
        assert_eq!(ran.load(Ordering::Relaxed), tasks);
        rt.shutdown();
        assert!(rt.is_shutdown());
    })
}

#[test]
fn repeated_create_and_shutdown_cycles_lose_nothing() {
    without_hanging(|| {
        for cycle in 0..sized(200, 6) {
            let rt = Runtime::new(1 + cycle % 3).unwrap();
            let ran = counter();
            for _ in 0..20 {
                let ran = ran.clone();
                drop(rt.spawn(move || ran.fetch_add(1, Ordering::Relaxed)));
            }
            rt.shutdown();
            assert_eq!(ran.load(Ordering::Relaxed), 20, "cycle {cycle}");
        }
    })
}

#[test]
fn dropping_a_runtime_without_shutdown_runs_its_tasks() {
    without_hanging(|| {
        let ran = counter();
        {
            let rt = Runtime::new(2).unwrap();
            for _ in 0..sized(500, 20) {
                let ran = ran.clone();
                drop(rt.spawn(move || ran.fetch_add(1, Ordering::Relaxed)));
            }
        }
        assert_eq!(ran.load(Ordering::Relaxed), sized(500, 20));
    })
}

#[test]
fn spawn_after_shutdown_is_rejected_at_once() {
    without_hanging(|| {
        let rt = Runtime::new(2).unwrap();
        rt.shutdown();
        let ran = counter();
        let r = ran.clone();
        let handle = rt.spawn(move || r.fetch_add(1, Ordering::Relaxed));
        assert!(handle.is_finished());
        assert_eq!(handle.join(), Err(JoinError::Rejected));
        assert_eq!(ran.load(Ordering::Relaxed), 0);
        assert_eq!(rt.metrics().submitted, 0);
    })
}

#[test]
fn shutdown_called_from_inside_a_task_does_not_deadlock() {
    without_hanging(|| {
        let rt = Arc::new(Runtime::new(2).unwrap());
        let inner = rt.clone();
        let handle = rt.spawn(move || {
            inner.shutdown();
            // Shutdown has begun: new outside-style work is refused, but this
            // task's own children are still accepted and run.
            inner.spawn(|| 7).join()
        });
        assert_eq!(handle.join(), Ok(Ok(7)));
        rt.shutdown(); // joins the workers from outside
        assert_eq!(rt.spawn(|| 1).join(), Err(JoinError::Rejected));
    })
}

#[test]
fn the_last_handle_dropped_inside_a_task_does_not_deadlock() {
    without_hanging(|| {
        let ran = counter();
        let rt = Arc::new(Runtime::new(2).unwrap());
        let (r, inner) = (ran.clone(), rt.clone());
        let h = rt.spawn(move || {
            r.fetch_add(1, Ordering::Relaxed);
            drop(inner); // may be the last reference: Drop runs shutdown on a worker
        });
        drop(rt);
        h.join().unwrap();
        assert_eq!(ran.load(Ordering::Relaxed), 1);
    })
}
