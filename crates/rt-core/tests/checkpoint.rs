//! `checkpoint()` runs one queued task more urgent than the running code,
//! on the calling worker, and nothing else: not work of the same or a
//! lower class, not off the pool, not under a weighted policy; what that
//! task leaves queued goes back to the runtime's queues.

mod support;

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

use rt_core::{checkpoint, with_priority, Priority, PriorityPolicy, Runtime};
use support::{without_hanging, Gate};

#[test]
fn off_the_pool_a_checkpoint_does_nothing() {
    without_hanging(|| {
        assert!(!checkpoint());
    })
}

#[test]
fn a_checkpoint_runs_one_more_urgent_task_queued_from_outside() {
    without_hanging(|| {
        let rt = Arc::new(Runtime::new(1).unwrap());
        let ran = Arc::new(AtomicUsize::new(0));
        let (inner, seen) = (rt.clone(), ran.clone());
        let ran_at_checkpoints = rt.install(move || {
            with_priority(Priority::Background, || {
                for _ in 0..2 {
                    let seen = seen.clone();
                    // From another thread: on the High injector.
                    let inner = inner.clone();
                    std::thread::spawn(move || {
                        drop(inner.spawn_with_priority(Priority::High, move || {
                            seen.fetch_add(1, Ordering::SeqCst);
                        }))
                    })
                    .join()
                    .unwrap();
                }
                let first = checkpoint();
                let after_one = seen.load(Ordering::SeqCst);
                let second = checkpoint();
                let third = checkpoint();
                (first, after_one, second, third)
            })
        });
        assert_eq!(
            ran_at_checkpoints,
            (true, 1, true, false),
            "one task per checkpoint"
        );
        assert_eq!(ran.load(Ordering::SeqCst), 2);
    })
}

#[test]
fn a_checkpoint_leaves_work_of_its_own_class_and_lower_queued() {
    without_hanging(|| {
        let rt = Runtime::new(1).unwrap();
        let ran = rt.install(|| {
            rt_core::scope(|s| {
                s.spawn_with_priority(Priority::Normal, || ());
                s.spawn_with_priority(Priority::Background, || ());
                checkpoint() // the running code is Normal
            })
        });
        assert!(!ran);
    })
}

#[test]
fn under_a_weighted_policy_a_checkpoint_runs_nothing() {
    without_hanging(|| {
        let rt = Runtime::builder()
            .threads(1)
            .priority_policy(PriorityPolicy::Weighted {
                high: 4,
                normal: 2,
                background: 1,
            })
            .build()
            .unwrap();
        let ran = rt.install(|| {
            with_priority(Priority::Background, || {
                rt_core::scope(|s| {
                    s.spawn_with_priority(Priority::High, || ());
                    checkpoint()
                })
            })
        });
        assert!(!ran);
    })
}

#[test]
fn tasks_left_by_the_urgent_task_go_back_to_the_runtime_even_with_a_full_bounded_queue() {
    without_hanging(|| {
        let rt = Arc::new(
            Runtime::builder()
                .threads(1)
                .queue_capacity(1)
                .build()
                .unwrap(),
        );
        let children = Arc::new(AtomicUsize::new(0));
        let queued = Gate::new();
        let (outer, count, gate) = (rt.clone(), children.clone(), queued.clone());
        let here = rt.clone();
        let (ran, on_the_injector) = rt.install(move || {
            with_priority(Priority::Background, || {
                // From another thread, so that it waits on the injector: a
                // High task that spawns three children and does not join
                // them.
                let (inner, count) = (outer.clone(), count.clone());
                std::thread::spawn(move || {
                    drop(outer.spawn_with_priority(Priority::High, move || {
                        for _ in 0..3 {
                            let count = count.clone();
                            drop(inner.spawn(move || {
                                count.fetch_add(1, Ordering::SeqCst);
                            }));
                        }
                    }));
                    gate.open();
                });
                queued.wait();
                let ran = checkpoint();
                // The children are not this computation's work: they wait
                // on the injector, not on this worker's deque.
                let stats = here.stats();
                (ran, (stats.queued.normal, stats.workers[0].queued))
            })
        });
        assert!(ran);
        assert_eq!(
            on_the_injector,
            (3, 0),
            "the children were moved to the injector"
        );
        // The bounded queue's count of places is still right: a task from
        // outside is accepted and runs (it would wait for ever otherwise).
        assert_eq!(rt.spawn(|| 7).join(), Ok(7));
        rt.shutdown();
        assert_eq!(children.load(Ordering::SeqCst), 3);
        let m = rt.metrics();
        assert_eq!(m.submitted, m.completed + m.panicked + m.cancelled, "{m:?}");
    })
}
