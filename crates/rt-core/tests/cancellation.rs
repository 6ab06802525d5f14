//! Cancellation: before start the body never runs; once running, the body
//! sees the token and may stop early.

mod support;

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc;
use std::sync::Arc;

use rt_core::{CancellationToken, JoinError, Priority, Runtime, TaskStatus};
use support::{occupy_all_workers, without_hanging, Gate};

#[test]
fn a_running_task_observes_cancellation_and_exits_early() {
    without_hanging(|| {
        let rt = Runtime::new(2).unwrap();
        let token = CancellationToken::new();
        let (started_tx, started_rx) = mpsc::channel();
        let handle = rt.spawn_cancellable(Priority::Normal, &token, move |ctx| {
            started_tx.send(()).unwrap();
            let mut rounds = 0u64;
            while !ctx.is_cancelled() {
                rounds += 1;
                std::hint::spin_loop();
            }
            rounds
        });
        started_rx.recv().unwrap();
        token.cancel();
        // The body ran and returned on its own: its value is delivered.
        assert!(handle.join().is_ok());
    })
}

#[test]
fn a_task_cancelled_before_it_starts_never_runs() {
    without_hanging(|| {
        let rt = Runtime::new(1).unwrap();
        let gate = Gate::new();
        let blockers = occupy_all_workers(&rt, &gate);
        let ran = Arc::new(AtomicUsize::new(0));
        let token = CancellationToken::new();
        let handles: Vec<_> = (0..10)
            .map(|_| {
                let ran = ran.clone();
                rt.spawn_cancellable(Priority::Normal, &token, move |_| {
                    ran.fetch_add(1, Ordering::SeqCst);
                })
            })
            .collect();
        token.cancel();
        gate.open();
        for h in handles {
            assert_eq!(h.join(), Err(JoinError::Cancelled));
        }
        drop(blockers);
        rt.shutdown();
        assert_eq!(ran.load(Ordering::SeqCst), 0);
        assert_eq!(rt.metrics().cancelled, 10);
    })
}

#[test]
fn cancelling_one_token_leaves_tasks_with_another_token_alone() {
    without_hanging(|| {
        let rt = Runtime::new(1).unwrap();
        let gate = Gate::new();
        let _blockers = occupy_all_workers(&rt, &gate);
        let cancelled = CancellationToken::new();
        let unrelated = CancellationToken::new();
        let doomed = rt.spawn_cancellable(Priority::Normal, &cancelled, |_| "doomed");
        let fine = rt.spawn_cancellable(Priority::Normal, &unrelated, |ctx| ctx.is_cancelled());
        cancelled.cancel();
        gate.open();
        assert_eq!(doomed.join(), Err(JoinError::Cancelled));
        assert_eq!(fine.join(), Ok(false));
    })
}

#[test]
fn a_queued_task_cancelled_through_its_handle_never_runs_and_is_counted() {
    without_hanging(|| {
        let rt = Runtime::new(1).unwrap();
        let gate = Gate::new();
        let _blockers = occupy_all_workers(&rt, &gate);
        let ran = Arc::new(AtomicUsize::new(0));
        let r = ran.clone();
        let handle = rt.spawn(move || r.fetch_add(1, Ordering::SeqCst));
        assert_eq!(handle.status(), TaskStatus::Queued);
        assert!(handle.cancel());
        gate.open();
        assert_eq!(handle.join(), Err(JoinError::Cancelled));
        rt.shutdown();
        assert_eq!(ran.load(Ordering::SeqCst), 0);
        let m = rt.metrics();
        assert_eq!((m.cancelled, m.submitted), (1, 2), "{m:?}");
    })
}

#[test]
fn a_running_task_cannot_be_cancelled_through_its_handle() {
    without_hanging(|| {
        let rt = Runtime::new(1).unwrap();
        let gate = Gate::new();
        let (tx, rx) = mpsc::channel();
        let g = gate.clone();
        let handle = rt.spawn(move || {
            tx.send(()).unwrap();
            g.wait();
            9
        });
        rx.recv().unwrap();
        assert_eq!(handle.status(), TaskStatus::Running);
        assert!(!handle.cancel());
        gate.open();
        assert_eq!(handle.join(), Ok(9));
    })
}
