//! `stats()` reports configuration and live gauges.

mod support;

use std::sync::mpsc;

use rt_core::{Priority, Runtime};
use support::{occupy_all_workers, without_hanging, Gate};

#[test]
fn stats_report_the_configuration() {
    without_hanging(|| {
        let rt = Runtime::builder()
            .threads(3)
            .thread_name("svc")
            .queue_capacity(64)
            .build()
            .unwrap();
        let s = rt.stats();
        assert_eq!(
            (s.threads, s.queue_capacity, s.thread_name.as_str()),
            (3, Some(64), "svc")
        );
        assert_eq!(Runtime::new(1).unwrap().stats().queue_capacity, None);
    })
}

#[test]
fn stats_count_queued_tasks_per_priority_and_running_tasks() {
    without_hanging(|| {
        let rt = Runtime::new(2).unwrap();
        let gate = Gate::new();
        let blockers = occupy_all_workers(&rt, &gate);
        let mut handles = Vec::new();
        for (p, n) in [
            (Priority::High, 1),
            (Priority::Normal, 2),
            (Priority::Background, 3),
        ] {
            for _ in 0..n {
                handles.push(rt.spawn_with_priority(p, || ()));
            }
        }
        let s = rt.stats();
        assert_eq!(
            (s.queued.high, s.queued.normal, s.queued.background),
            (1, 2, 3)
        );
        assert_eq!(s.queued_at(Priority::Background), 3);
        assert_eq!(s.queued_total(), 6);
        assert_eq!(s.running, 2);
        assert_eq!(s.idle_workers, 0);
        gate.open();
        handles.into_iter().for_each(|h| h.join().unwrap());
        drop(blockers);
        rt.shutdown();
        let s = rt.stats();
        assert_eq!((s.queued_total(), s.running), (0, 0));
        assert_eq!(s.metrics.completed, 8);
    })
}

#[test]
fn stats_see_idle_workers() {
    without_hanging(|| {
        let rt = Runtime::new(2).unwrap();
        let (tx, rx) = mpsc::channel();
        rt.spawn(move || tx.send(()).unwrap()).join().unwrap();
        rx.recv().unwrap();
        // Both workers go idle once there is nothing to do.
        while rt.stats().idle_workers < 2 {
            std::thread::yield_now();
        }
        assert_eq!(rt.stats().running, 0);
    })
}
