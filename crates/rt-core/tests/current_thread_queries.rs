//! What code can ask about the worker it runs on: `current_thread_index`
//! and `current_thread_has_pending_tasks` (free, and per runtime: `None`
//! off that runtime), and `current_priority` (the class its forks queue
//! at; Normal off the pool).

mod support;

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

use rt_core::{Priority, Runtime, Yield};
use support::{without_hanging, Gate, Latch};

#[test]
fn off_the_pool_there_is_no_index_no_pending_tasks_and_normal_priority() {
    without_hanging(|| {
        let rt = Runtime::new(2).unwrap();
        assert_eq!(rt_core::current_thread_index(), None);
        assert_eq!(rt.current_thread_index(), None);
        assert_eq!(rt_core::current_thread_has_pending_tasks(), None);
        assert_eq!(rt.current_thread_has_pending_tasks(), None);
        assert_eq!(rt_core::current_priority(), Priority::Normal);
    });
}

#[test]
fn on_a_worker_the_index_is_that_worker_s_and_each_worker_has_its_own() {
    without_hanging(|| {
        let rt = Runtime::new(3).unwrap();
        let seen = rt.broadcast(|ctx| {
            (
                ctx.index(),
                rt_core::current_thread_index(),
                rt.current_thread_index(),
            )
        });
        assert_eq!(
            seen,
            [
                (0, Some(0), Some(0)),
                (1, Some(1), Some(1)),
                (2, Some(2), Some(2))
            ]
        );
    });
}

#[test]
fn a_runtime_s_queries_answer_none_on_a_worker_of_another_runtime() {
    without_hanging(|| {
        let a = Runtime::new(1).unwrap();
        let b = Runtime::new(1).unwrap();
        let seen = a.install(|| {
            (
                a.current_thread_index(),
                b.current_thread_index(),
                a.current_thread_has_pending_tasks(),
                b.current_thread_has_pending_tasks(),
                rt_core::current_thread_index(),
            )
        });
        assert_eq!(seen, (Some(0), None, Some(false), None, Some(0)));
    });
}

#[test]
fn pending_tasks_are_those_on_the_worker_s_own_deques() {
    without_hanging(|| {
        let rt = Runtime::new(1).unwrap();
        let seen = rt.install(|| {
            let before = rt_core::current_thread_has_pending_tasks();
            let queued = rt_core::spawn(|| ());
            let after = (
                rt_core::current_thread_has_pending_tasks(),
                rt.current_thread_has_pending_tasks(),
            );
            queued.join().unwrap(); // runs it here
            let drained = rt_core::current_thread_has_pending_tasks();
            (before, after, drained)
        });
        assert_eq!(seen, (Some(false), (Some(true), Some(true)), Some(false)));
    });
}

#[test]
fn tasks_waiting_on_an_injector_are_not_the_worker_s_pending_tasks() {
    without_hanging(|| {
        let rt = Arc::new(Runtime::new(1).unwrap());
        let inner = rt.clone();
        let pending = rt.install(move || {
            let outside = inner.clone();
            let queued = std::thread::spawn(move || outside.spawn(|| ()))
                .join()
                .unwrap();
            let pending = rt_core::current_thread_has_pending_tasks();
            drop(queued);
            pending
        });
        assert_eq!(pending, Some(false));
    });
}

#[test]
fn a_broadcast_share_waiting_for_the_worker_counts_as_pending() {
    without_hanging(|| {
        let rt = Runtime::new(1).unwrap();
        let (gate, started) = (Gate::new(), Latch::new(1));
        let (g, s) = (gate.clone(), started.clone());
        let seen = rt.spawn(move || {
            s.count_down();
            g.wait();
            let pending = rt_core::current_thread_has_pending_tasks();
            let yielded = rt_core::yield_now();
            (
                pending,
                yielded,
                rt_core::current_thread_has_pending_tasks(),
            )
        });
        started.wait();
        let ran = Arc::new(AtomicBool::new(false));
        let r = ran.clone();
        // Returns once the share is posted to the held worker.
        rt.spawn_broadcast(move |_| r.store(true, Ordering::SeqCst));
        gate.open();
        let seen = seen.join().unwrap();
        assert_eq!(seen, (Some(true), Some(Yield::Executed), Some(false)));
        assert!(ran.load(Ordering::SeqCst));
    });
}

#[test]
fn the_current_priority_is_the_class_of_the_running_code() {
    without_hanging(|| {
        let rt = Runtime::new(2).unwrap();
        for priority in Priority::ALL {
            let in_task = rt
                .spawn_with_priority(priority, rt_core::current_priority)
                .join()
                .unwrap();
            assert_eq!(in_task, priority);
            let nested = rt.install(|| {
                rt_core::with_priority(priority, || {
                    let (a, b) =
                        rt_core::join(rt_core::current_priority, rt_core::current_priority);
                    let scoped =
                        rt_core::scope(|s| s.spawn(rt_core::current_priority).join().unwrap());
                    (rt_core::current_priority(), a, b, scoped)
                })
            });
            assert_eq!(nested, (priority, priority, priority, priority));
        }
        assert_eq!(rt.install(rt_core::current_priority), Priority::Normal);
    });
}
