//! Queued High tasks start before Normal ones, Normal before Background.

mod support;

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{mpsc, Arc, Mutex};

use rt_core::{Priority, Runtime};
use rt_testkit::without_hanging;
use support::{occupy_all_workers, Gate};

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
fn with_two_busy_workers_no_lower_task_overtakes_queued_high_ones() {
    without_hanging(|| {
        let rt = Runtime::new(2).unwrap();
        let gate = Gate::new();
        let blockers = occupy_all_workers(&rt, &gate);
        // A task takes a ticket as its first action: an uncontended atomic, so
        // the tickets give the start order. (Pushing to a shared Vec under its
        // mutex instead let one worker starve on the lock while the other ran
        // dozens of tasks, under TSan.)
        let tickets = Arc::new(AtomicUsize::new(0));
        let started = Arc::new(Mutex::new(Vec::new()));
        for i in 0..90 {
            let p = [Priority::Background, Priority::Normal, Priority::High][i % 3];
            let (tickets, started) = (tickets.clone(), started.clone());
            drop(rt.spawn_with_priority(p, move || {
                let ticket = tickets.fetch_add(1, Ordering::Relaxed);
                started.lock().unwrap().push((ticket, p));
            }));
        }
        gate.open();
        drop(blockers);
        rt.shutdown();
        let mut started = started.lock().unwrap().clone();
        started.sort_unstable();
        let order: Vec<Priority> = started.into_iter().map(|(_, p)| p).collect();
        // Two workers start tasks concurrently, so when the last High task starts
        // the other worker may already have started one lower task: no more.
        let last_high = order.iter().rposition(|&p| p == Priority::High).unwrap();
        let lower_before = order[..last_high]
            .iter()
            .filter(|&&p| p != Priority::High)
            .count();
        assert!(
            lower_before <= 1,
            "{lower_before} lower tasks overtook High: {order:?}"
        );
        assert_eq!(order.iter().filter(|&&p| p == Priority::High).count(), 30);
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
