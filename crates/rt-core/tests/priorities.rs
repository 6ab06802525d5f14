//! Queued High tasks start before Normal ones, Normal before Background.

mod support;

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{mpsc, Arc, Mutex};

use rt_core::{Priority, Runtime};
use support::{occupy_all_workers, without_hanging, Gate};

#[test]
fn with_every_worker_busy_queued_tasks_start_high_then_normal_then_background() {
    without_hanging(|| {
        let rt = Runtime::new(1).unwrap();
        let gate = Gate::new();
        let blockers = occupy_all_workers(&rt, &gate);
        let order = Arc::new(Mutex::new(Vec::new()));
        // Interleave submissions so that arrival order differs from priority.
        for i in 0..60 {
            let p = [Priority::Background, Priority::Normal, Priority::High][i % 3];
            let order = order.clone();
            drop(rt.spawn_with_priority(p, move || order.lock().unwrap().push(p)));
        }
        gate.open();
        drop(blockers);
        rt.shutdown();
        let order = order.lock().unwrap();
        let mut sorted = order.clone();
        sorted.sort();
        assert_eq!(*order, sorted, "start order must be by priority");
        assert_eq!(order.len(), 60);
    })
}

#[test]
fn with_two_busy_workers_no_lower_task_starts_while_a_high_one_is_queued() {
    without_hanging(|| {
        let rt = Arc::new(Runtime::new(2).unwrap());
        let gate = Gate::new();
        let blockers = occupy_all_workers(&rt, &gate);
        // What each lower task sees queued at High as it starts. A worker
        // takes a lower task only once the High queue is empty, and no High
        // task arrives later, so each must see none. (Comparing start order
        // instead failed when the OS paused a worker between taking the
        // last High task and starting it, while the other ran the rest.)
        let seen = Arc::new(Mutex::new(Vec::new()));
        let high_runs = Arc::new(AtomicUsize::new(0));
        for i in 0..90 {
            let p = [Priority::Background, Priority::Normal, Priority::High][i % 3];
            let (pool, seen, high_runs) = (rt.clone(), seen.clone(), high_runs.clone());
            drop(rt.spawn_with_priority(p, move || {
                if p == Priority::High {
                    high_runs.fetch_add(1, Ordering::Relaxed);
                } else {
                    let queued_high = pool.stats().queued_at(Priority::High);
                    seen.lock().unwrap().push(queued_high);
                }
            }));
        }
        gate.open();
        drop(blockers);
        rt.shutdown();
        let seen = seen.lock().unwrap();
        assert_eq!(seen.len(), 60);
        assert!(
            seen.iter().all(|&queued| queued == 0),
            "lower tasks started while High ones were queued: {seen:?}"
        );
        assert_eq!(high_runs.load(Ordering::Relaxed), 30);
    })
}

#[test]
fn a_high_task_starts_right_after_the_task_in_progress_not_behind_queued_normal_work() {
    without_hanging(|| {
        let rt = Runtime::new(1).unwrap();
        let order = Arc::new(Mutex::new(Vec::new()));
        let gate = Gate::new();
        let (tx, rx) = mpsc::channel();
        for i in 0..500 {
            let (order, gate, tx) = (order.clone(), gate.clone(), tx.clone());
            drop(rt.spawn(move || {
                order.lock().unwrap().push(format!("normal-{i}"));
                if i == 10 {
                    // The worker is working through the Normal tasks (a batch of
                    // them already moved to its own deque): submit High now.
                    tx.send(()).unwrap();
                    gate.wait();
                }
            }));
        }
        rx.recv().unwrap();
        let o = order.clone();
        drop(rt.spawn_with_priority(Priority::High, move || {
            o.lock().unwrap().push("high".to_owned())
        }));
        gate.open();
        rt.shutdown();
        let order = order.lock().unwrap();
        assert_eq!(order[10], "normal-10");
        assert_eq!(order[11], "high", "{:?}", &order[..15]);
        assert_eq!(order.len(), 501);
    })
}
