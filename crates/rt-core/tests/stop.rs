//! `stop` cancels what is queued and lets running tasks finish; every
//! accepted task is either run or reported cancelled.

mod support;

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{mpsc, Arc};
use std::thread;
use std::time::Duration;

use rt_core::{JoinError, Priority, Runtime, TaskStatus};
use support::{occupy_all_workers, without_hanging, Gate};

#[test]
fn stop_cancels_queued_tasks_and_returns_how_many() {
    without_hanging(|| {
        let rt = Runtime::new(1).unwrap();
        let gate = Gate::new();
        let blockers = occupy_all_workers(&rt, &gate);
        let ran = Arc::new(AtomicUsize::new(0));
        let handles: Vec<_> = (0..50)
            .map(|_| {
                let ran = ran.clone();
                rt.spawn_with_priority(Priority::Normal, move || ran.fetch_add(1, Ordering::SeqCst))
            })
            .collect();
        assert_eq!(rt.stop(), 50);
        gate.open();
        rt.wait_termination();
        assert_eq!(ran.load(Ordering::SeqCst), 0);
        for h in handles {
            assert_eq!(h.status(), TaskStatus::Cancelled);
            assert_eq!(h.join(), Err(JoinError::Cancelled));
        }
        assert!(
            blockers.into_iter().all(|h| h.join().is_ok()),
            "running tasks finish"
        );
        let m = rt.metrics();
        assert_eq!((m.cancelled, m.completed), (50, 1));
        assert_eq!(m.submitted, m.completed + m.panicked + m.cancelled);
    })
}

#[test]
fn stop_under_load_accounts_for_every_task() {
    without_hanging(|| {
        let rt = Arc::new(Runtime::new(2).unwrap());
        let ran = Arc::new(AtomicUsize::new(0));
        let mut producers = Vec::new();
        for _ in 0..4 {
            let (rt, ran) = (rt.clone(), ran.clone());
            producers.push(thread::spawn(move || {
                let mut handles = Vec::new();
                for i in 0..5_000u64 {
                    let (ran, inner) = (ran.clone(), rt.clone());
                    handles.push(rt.spawn(move || {
                        if i % 7 == 0 {
                            drop(inner.spawn(|| ()));
                        }
                        ran.fetch_add(1, Ordering::Relaxed);
                    }));
                }
                handles
            }));
        }
        thread::sleep(Duration::from_millis(5));
        rt.stop();
        let mut outcomes = [0usize; 3]; // ran, cancelled, rejected
        for p in producers {
            for h in p.join().unwrap() {
                match h.join() {
                    Ok(()) => outcomes[0] += 1,
                    Err(JoinError::Cancelled) => outcomes[1] += 1,
                    Err(JoinError::Rejected) => outcomes[2] += 1,
                    Err(e) => panic!("unexpected {e}"),
                }
            }
        }
        rt.wait_termination();
        assert_eq!(outcomes.iter().sum::<usize>(), 20_000);
        assert_eq!(outcomes[0], ran.load(Ordering::Relaxed));
        let m = rt.metrics();
        assert_eq!(m.submitted, m.completed + m.panicked + m.cancelled, "{m:?}");
        // Every external task that was not rejected was accepted and counted
        // (children spawned from inside add to that).
        assert!(m.submitted as usize >= 20_000 - outcomes[2], "{m:?}");
    })
}

#[test]
fn wait_termination_timeout_is_false_while_work_runs_and_true_after() {
    without_hanging(|| {
        let rt = Runtime::new(1).unwrap();
        let gate = Gate::new();
        let g = gate.clone();
        let (tx, rx) = mpsc::channel();
        drop(rt.spawn(move || {
            tx.send(()).unwrap();
            g.wait();
        }));
        rx.recv().unwrap();
        assert!(
            !rt.wait_termination_timeout(Duration::from_millis(10)),
            "not even shut down"
        );
        let rt = Arc::new(rt);
        let rt2 = rt.clone();
        let stopper = thread::spawn(move || rt2.stop());
        while !rt.is_shutdown() {
            thread::yield_now();
        }
        assert!(
            !rt.wait_termination_timeout(Duration::from_millis(10)),
            "a task still runs"
        );
        gate.open();
        assert!(rt.wait_termination_timeout(Duration::from_secs(30)));
        assert_eq!(stopper.join().unwrap(), 0);
    })
}
