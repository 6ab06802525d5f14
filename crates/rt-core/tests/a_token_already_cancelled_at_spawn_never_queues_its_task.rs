//! `Runtime::spawn_cancellable` with a token already cancelled: the handle
//! says `Cancelled` at once and the metrics count the task at once
//! (submitted and cancelled), without queueing it; from outside the pool
//! and from one of its tasks. After shutdown it is rejected, as any spawn.

mod support;

use rt_core::{CancellationToken, JoinError, Priority, Runtime, TaskStatus};
use support::{occupy_all_workers, without_hanging, Gate};

#[test]
fn a_token_cancelled_before_the_spawn_ends_the_task_at_once_and_counts_it() {
    without_hanging(|| {
        let rt = Runtime::new(1).unwrap();
        let gate = Gate::new();
        let _busy = occupy_all_workers(&rt, &gate);
        let token = CancellationToken::new();
        token.cancel();
        let before = rt.metrics();
        let handles: Vec<_> = Priority::ALL
            .into_iter()
            .map(|p| rt.spawn_cancellable(p, &token, |_| -> u8 { unreachable!("never runs") }))
            .collect();
        assert!(handles.iter().all(|h| h.status() == TaskStatus::Cancelled));
        let m = rt.metrics();
        assert_eq!(m.submitted, before.submitted + 3, "{m:?}");
        assert_eq!(m.cancelled, before.cancelled + 3, "{m:?}");
        assert_eq!(rt.stats().queued_total(), 0, "nothing was queued");
        assert_eq!(token.queued_tasks(), 0);
        for h in handles {
            assert_eq!(h.join(), Err(JoinError::Cancelled));
        }
        gate.open();
        rt.shutdown();
        let m = rt.metrics();
        assert_eq!(m.submitted, m.completed + m.panicked + m.cancelled, "{m:?}");
    })
}

#[test]
fn a_task_spawning_with_a_cancelled_token_counts_it_at_once_too() {
    without_hanging(|| {
        let rt = Runtime::new(1).unwrap();
        let token = CancellationToken::new();
        token.cancel();
        let seen = rt.install(|| {
            let h = rt.spawn_cancellable(Priority::Normal, &token, |_| 1);
            (
                h.status(),
                rt.metrics().cancelled,
                rt.stats().queued_total(),
            )
        });
        assert_eq!(seen, (TaskStatus::Cancelled, 1, 0));
        rt.shutdown();
        let m = rt.metrics();
        assert_eq!(m.submitted, m.completed + m.panicked + m.cancelled, "{m:?}");
        assert_eq!(m.cancelled, 1);
    })
}

#[test]
fn after_shutdown_a_spawn_with_a_cancelled_token_is_rejected_and_not_counted() {
    without_hanging(|| {
        let rt = Runtime::new(1).unwrap();
        rt.shutdown();
        let token = CancellationToken::new();
        token.cancel();
        let h = rt.spawn_cancellable(Priority::Normal, &token, |_| 1);
        assert_eq!(h.join(), Err(JoinError::Rejected));
        assert_eq!(rt.metrics().submitted, 0);
    })
}
