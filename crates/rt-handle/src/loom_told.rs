//! Loom models of cancellations told to the executor at once
//! (`JOIN_STATE.md`, "Who counts a cancellation", "Tasks queued with a
//! token"): a cancel through the handle or the token, racing the queue
//! side's run or drop of the same task.
//!
//! What runs is the real code: the handle's `cancel`, the token's `cancel`
//! (its lock, its list, its pin), the registry of listeners (loom's mutex),
//! `Job::run` and the drop of an unrun `Job`. The executor is a stand-in:
//! a listener that counts what it is told, registered under its own
//! identity.
//!
//! Interleavings covered: the canceller's read of the owner, its claim, its
//! count and its `COUNTED` before, between and after the queue side's
//! leaving of the token's list, its claim and its letting go; a token's
//! cancel finishing (dropping the body, completing, unpinning) before or
//! after the queue side lets go, with the handle kept or dropped first (so
//! that either side frees the cell).
//!
//! Checked in every interleaving: the task is counted exactly once (by the
//! queue side's outcome or by the listener, never both, never neither);
//! the gauge of told cancellations still queued is back at 0 once the entry
//! is gone; the body runs or the task ends cancelled (or rejected), never
//! both; the captures are dropped exactly once; and the cell is freed
//! exactly once (its captures hold a loom `Arc`, whose leak loom reports;
//! a second free drops them twice; a cell never freed keeps a reference to
//! its token, which the models count).
//!
//! Run: `cargo xtask loom`.

use std::sync::Arc as StdArc;
use std::sync::Weak;

use loom::sync::atomic::{AtomicUsize, Ordering};
use loom::sync::Arc;
use loom::thread;

use crate::loom_support::Tracked;
use crate::raw::{listeners, CancelListener, JobControl, PoolId};
use crate::{CancellationToken, Job, JoinError, Priority, RunOutcome};

/// The stand-in executor's listener.
struct Listener {
    cancelled: AtomicUsize,
    stale: AtomicUsize,
}

impl CancelListener for Listener {
    fn cancelled_while_queued(&self, class: Priority) {
        assert_eq!(class, Priority::Background, "the class it was queued at");
        self.stale.fetch_add(1, Ordering::Relaxed);
        self.cancelled.fetch_add(1, Ordering::Release);
    }
    fn cancelled_entry_taken(&self, _class: Priority) {
        self.stale.fetch_sub(1, Ordering::Relaxed);
    }
}

/// Registers a listener; the `std` `Arc` keeps it (the registry holds a
/// `Weak`), and its address is the pool's identity.
fn executor() -> (StdArc<Listener>, PoolId) {
    let listener = StdArc::new(Listener {
        cancelled: AtomicUsize::new(0),
        stale: AtomicUsize::new(0),
    });
    let pool = PoolId::of(&listener);
    let weak: Weak<dyn CancelListener> = StdArc::downgrade(&listener) as _;
    listeners::register(pool, weak);
    (listener, pool)
}

/// Whether a count by the queue side counts the task.
fn counts(outcome: RunOutcome) -> usize {
    usize::from(outcome != RunOutcome::Stale)
}

#[test]
fn a_handle_cancel_racing_a_workers_run_counts_the_task_exactly_once() {
    loom::model(|| {
        let (listener, pool) = executor();
        let runs = Arc::new(AtomicUsize::new(0));
        let (capture, drops) = Tracked::new(5);
        let body_runs = runs.clone();
        let (job, handle) = Job::new(move || {
            body_runs.fetch_add(1, Ordering::Relaxed);
            let owned = capture;
            owned.value
        });
        job.set_owner(pool, Priority::Background);

        let worker = thread::spawn(move || job.run());
        let cancelled = handle.cancel();
        let result = handle.join();
        let outcome = worker.join().unwrap();

        let told = listener.cancelled.load(Ordering::Acquire);
        assert_eq!(
            counts(outcome) + told,
            1,
            "counted once: {outcome:?}, told {told}"
        );
        assert_eq!(listener.stale.load(Ordering::Relaxed), 0);
        if cancelled {
            assert_eq!((outcome, told), (RunOutcome::Stale, 1));
            assert_eq!(result, Err(JoinError::Cancelled));
            assert_eq!(runs.load(Ordering::Relaxed), 0);
        } else {
            assert_eq!(outcome, RunOutcome::Completed);
            assert_eq!(result, Ok(5));
            assert_eq!(runs.load(Ordering::Relaxed), 1);
        }
        assert_eq!(drops.get(), 1, "the captures are dropped exactly once");
        listeners::deregister(pool);
    });
}

/// A token's cancel racing the queue side: `run` it, or drop it unrun;
/// the handle kept (joined at the end) or dropped at once.
fn token_cancel_racing(run: bool, keep_handle: bool) {
    let (listener, pool) = executor();
    let runs = Arc::new(AtomicUsize::new(0));
    let (capture, drops) = Tracked::new(5);
    let token = CancellationToken::new();
    let body_runs = runs.clone();
    let (job, handle) = Job::cancellable(&token, move |_| {
        body_runs.fetch_add(1, Ordering::Relaxed);
        let owned = capture;
        owned.value
    });
    job.set_owner(pool, Priority::Background);
    let handle = keep_handle.then_some(handle);

    let queue_side = thread::spawn(move || {
        if run {
            Some(job.run())
        } else {
            drop(job);
            None
        }
    });
    token.cancel();
    let outcome = queue_side.join().unwrap();

    let told = listener.cancelled.load(Ordering::Acquire);
    let ran = runs.load(Ordering::Relaxed);
    assert_eq!(listener.stale.load(Ordering::Relaxed), 0);
    assert_eq!(token.queued_tasks(), 0);
    match outcome {
        Some(outcome) => {
            assert_eq!(
                counts(outcome) + told,
                1,
                "counted once: {outcome:?}, told {told}"
            );
            // Ran, or cancelled (by the token's claim, told; or by the
            // body's check of the flag, counted by the run).
            assert_eq!(ran, usize::from(outcome == RunOutcome::Completed));
        }
        None => {
            // Dropped unrun: rejected (not a cancellation), or cancelled by
            // the token first (told).
            assert!(told <= 1);
            assert_eq!(ran, 0);
        }
    }
    if let Some(handle) = handle {
        match handle.join() {
            Ok(value) => assert_eq!((value, ran), (5, 1)),
            Err(JoinError::Cancelled) => assert_eq!(ran, 0),
            Err(JoinError::Rejected) => assert_eq!((ran, told), (0, 0)),
            Err(other) => panic!("{other}"),
        }
    }
    assert_eq!(drops.get(), 1, "the captures are dropped exactly once");
    // The cell holds a reference to the token until it is freed: freed.
    assert_eq!(token.references(), 1, "the cell was freed");
    listeners::deregister(pool);
}

#[test]
fn a_token_cancel_racing_the_run_of_its_job_ends_the_task_once() {
    loom::model(|| token_cancel_racing(true, true));
}

#[test]
fn a_token_cancel_racing_the_run_of_its_job_whose_handle_is_gone_frees_the_cell_once() {
    loom::model(|| token_cancel_racing(true, false));
}

#[test]
fn a_token_cancel_racing_the_drop_of_its_unrun_job_ends_the_task_once() {
    loom::model(|| token_cancel_racing(false, true));
}

#[test]
fn a_token_cancel_racing_the_drop_of_its_unrun_job_whose_handle_is_gone_frees_the_cell_once() {
    loom::model(|| token_cancel_racing(false, false));
}
