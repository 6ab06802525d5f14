//! The captures of a task cancelled while queued (through its handle, by
//! its token, or by `stop`) are dropped exactly once, when it is
//! cancelled; a panic in a captured value's `Drop` during a token's cancel
//! is contained: `cancel` does not unwind, and the other tasks are still
//! cancelled.

mod support;

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

use rt_core::{CancellationToken, JoinError, Priority, Runtime, TaskStatus};
use support::{occupy_all_workers, quietly, without_hanging, Gate};

/// Counts its drops; panics in its drop if asked to.
struct Capture {
    drops: Arc<AtomicUsize>,
    panics: bool,
}

impl Drop for Capture {
    fn drop(&mut self) {
        self.drops.fetch_add(1, Ordering::SeqCst);
        if self.panics {
            panic!("a captured value's drop panics");
        }
    }
}

fn capture(drops: &Arc<AtomicUsize>, panics: bool) -> Capture {
    Capture {
        drops: drops.clone(),
        panics,
    }
}

#[test]
fn every_cancelled_bodys_captures_are_dropped_once_when_it_is_cancelled() {
    without_hanging(|| {
        let rt = Runtime::new(1).unwrap();
        let gate = Gate::new();
        let _busy = occupy_all_workers(&rt, &gate);
        let drops = Arc::new(AtomicUsize::new(0));
        let token = CancellationToken::new();
        let by_handle: Vec<_> = (0..10)
            .map(|_| {
                let c = capture(&drops, false);
                rt.spawn(move || drop(c))
            })
            .collect();
        let by_token: Vec<_> = (0..10)
            .map(|_| {
                let c = capture(&drops, false);
                rt.spawn_cancellable(Priority::Background, &token, move |_| drop(c))
            })
            .collect();
        let by_stop: Vec<_> = (0..10)
            .map(|_| {
                let c = capture(&drops, false);
                rt.spawn_with_priority(Priority::High, move || drop(c))
            })
            .collect();
        for h in &by_handle {
            assert!(h.cancel());
        }
        assert_eq!(drops.load(Ordering::SeqCst), 10);
        token.cancel();
        assert_eq!(drops.load(Ordering::SeqCst), 20);
        assert_eq!(rt.stop(), 10);
        assert_eq!(drops.load(Ordering::SeqCst), 30);
        gate.open();
        rt.shutdown();
        for h in by_handle.into_iter().chain(by_token).chain(by_stop) {
            assert_eq!(h.join(), Err(JoinError::Cancelled));
        }
        assert_eq!(drops.load(Ordering::SeqCst), 30, "dropped once each");
        let m = rt.metrics();
        assert_eq!(m.submitted, m.completed + m.panicked + m.cancelled, "{m:?}");
    })
}

#[test]
fn a_panicking_capture_drop_during_a_token_cancel_is_contained() {
    without_hanging(|| {
        let rt = Runtime::new(1).unwrap();
        let gate = Gate::new();
        let _busy = occupy_all_workers(&rt, &gate);
        let drops = Arc::new(AtomicUsize::new(0));
        let token = CancellationToken::new();
        let handles: Vec<_> = (0..9)
            .map(|i| {
                let c = capture(&drops, i % 3 == 1);
                rt.spawn_cancellable(Priority::ALL[i % 3], &token, move |_| drop(c))
            })
            .collect();
        let unwound = quietly(|| catch_unwind(AssertUnwindSafe(|| token.cancel())));
        assert!(unwound.is_ok(), "cancel does not unwind");
        assert_eq!(drops.load(Ordering::SeqCst), 9);
        assert!(handles.iter().all(|h| h.status() == TaskStatus::Cancelled));
        assert_eq!(rt.metrics().cancelled, 9);
        gate.open();
        rt.shutdown();
        let m = rt.metrics();
        assert_eq!(m.submitted, m.completed + m.panicked + m.cancelled, "{m:?}");
        assert_eq!(m.cancelled, 9);
        assert_eq!(drops.load(Ordering::SeqCst), 9);
    })
}
