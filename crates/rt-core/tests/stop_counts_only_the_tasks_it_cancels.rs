//! `stop()` returns the number of tasks *it* cancelled: tasks cancelled
//! earlier through their handles or their token were counted then, and are
//! counted neither again in the metrics nor in `stop`'s return; after the
//! shutdown the metrics' identity holds exactly.

mod support;

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

use rt_core::{CancellationToken, JoinError, Priority, Runtime, TaskStatus};
use support::{occupy_all_workers, without_hanging, Gate};

#[test]
fn stop_after_some_handle_and_token_cancels_returns_exactly_the_rest() {
    without_hanging(|| {
        let rt = Runtime::new(1).unwrap();
        let gate = Gate::new();
        let busy = occupy_all_workers(&rt, &gate);
        let ran = Arc::new(AtomicUsize::new(0));
        let token = CancellationToken::new();
        let spawn = |i: usize| {
            let ran = ran.clone();
            let body = move || {
                ran.fetch_add(1, Ordering::SeqCst);
            };
            match i % 3 {
                0 => rt.spawn_with_priority(Priority::ALL[i % 3], body),
                _ => rt.spawn_cancellable(Priority::ALL[i % 3], &token, move |_| body()),
            }
        };
        // A third without a token (High), two thirds with it (Normal and
        // Background).
        let handles: Vec<_> = (0..90).map(spawn).collect();
        // The third without a token cancelled through their handles, the
        // rest by the token: every one counted once, at once.
        let by_handle = handles.iter().step_by(3).filter(|h| h.cancel()).count();
        assert_eq!(by_handle, 30);
        token.cancel();
        assert_eq!(rt.metrics().cancelled, 90);

        // More tasks without a token, left queued for `stop`, but five
        // cancelled through their handles first.
        let queued: Vec<_> = (0..25).map(|i| spawn(3 * i)).collect();
        let cancelled_by_handle = queued.iter().take(5).filter(|h| h.cancel()).count();
        assert_eq!(cancelled_by_handle, 5);
        let before = rt.metrics().cancelled;

        let stopped = rt.stop();

        assert_eq!(stopped, 20, "stop counts only what it cancelled");
        assert_eq!(rt.metrics().cancelled, before + 20);
        assert!(queued.iter().all(|h| h.status() == TaskStatus::Cancelled));
        gate.open();
        for h in busy {
            assert_eq!(h.join(), Ok(()));
        }
        rt.shutdown();
        let m = rt.metrics();
        assert_eq!(m.submitted, m.completed + m.panicked + m.cancelled, "{m:?}");
        assert_eq!(m.cancelled, 90 + 25, "{m:?}");
        assert_eq!(ran.load(Ordering::SeqCst), 0);
        for h in handles.into_iter().chain(queued) {
            assert_eq!(h.join(), Err(JoinError::Cancelled));
        }
        assert_eq!(rt.stop(), 0);
    })
}
