//! Loom model of cancellation racing the start of a task: the claim CAS in
//! `Header::claim` (see `JOIN_STATE.md`) must let exactly one party take the task.
//!
//! Interleavings covered:
//!
//! * `JoinHandle::cancel` against `Job::run` on another thread: the
//!   canceller's claim before, between and after the worker's load and CAS,
//!   followed by a `join` that may have to wait for the worker;
//! * a queue drain (`Job::cancel`) completing the task while the joiner
//!   spins, registers as waiter or is parked: the cancellation wakes it;
//! * a `CancellationToken` cancelled while the worker starts the task: the
//!   flag set before or after the body's check, which runs under the claim;
//! * a queue drain or a dropped unrun `Job` (rejection) against
//!   `JoinHandle::cancel`: two claimants, one winner.
//!
//! In every case the body runs and its value is delivered, or the body never
//! runs and the handle reports `Cancelled` (or `Rejected`); never both, never
//! neither, and the closure's captures are dropped exactly once.
//!
//! Run: `RUSTFLAGS="--cfg loom" cargo test -p rt-handle --lib --profile loom loom_`.

use loom::sync::atomic::{AtomicUsize, Ordering};
use loom::sync::Arc;
use loom::thread;

use crate::loom_support::Tracked;
use crate::{CancellationToken, Job, JoinError, RunOutcome};

/// Counts how often a body ran.
fn counter() -> Arc<AtomicUsize> {
    Arc::new(AtomicUsize::new(0))
}

#[test]
fn a_handle_cancel_racing_the_start_runs_the_body_or_reports_cancelled_never_both() {
    loom::model(|| {
        let runs = counter();
        let (capture, drops) = Tracked::new(5);
        let body_runs = runs.clone();
        let (job, handle) = Job::new(move || {
            body_runs.fetch_add(1, Ordering::Relaxed);
            let owned = capture;
            owned.value
        });

        let worker = thread::spawn(move || job.run());
        let cancelled = handle.cancel();
        let result = handle.join();
        let outcome = worker.join().unwrap();
        let ran = runs.load(Ordering::Relaxed);

        if cancelled {
            let expected = (0, RunOutcome::Cancelled, Err(JoinError::Cancelled));
            assert_eq!((ran, outcome, result), expected);
        } else {
            assert_eq!((ran, outcome, result), (1, RunOutcome::Completed, Ok(5)));
        }
        assert_eq!(drops.get(), 1, "the captures are dropped exactly once");
    });
}

#[test]
fn a_queue_drain_wakes_a_joiner_that_is_already_waiting() {
    loom::model(|| {
        let (capture, drops) = Tracked::new(5);
        let (job, handle) = Job::new(move || {
            let owned = capture;
            owned.value
        });

        let drain = thread::spawn(move || job.cancel());
        assert_eq!(handle.join(), Err(JoinError::Cancelled));
        assert!(drain.join().unwrap(), "the drain claimed the unrun task");
        assert_eq!(drops.get(), 1, "the unrun body is dropped exactly once");
    });
}

#[test]
fn a_token_cancelled_racing_the_start_runs_the_body_or_reports_cancelled_never_both() {
    loom::model(|| {
        let runs = counter();
        let token = CancellationToken::new();
        let body_runs = runs.clone();
        let (job, handle) = Job::cancellable(&token, move |ctx| {
            body_runs.fetch_add(1, Ordering::Relaxed);
            // A running body may or may not see the later cancellation;
            // both are fine, it only has to be consistent with what ran.
            ctx.is_cancelled()
        });

        let worker = thread::spawn(move || job.run());
        token.cancel();
        let result = handle.join();
        let outcome = worker.join().unwrap();
        match (runs.load(Ordering::Relaxed), outcome, result) {
            (0, RunOutcome::Cancelled, Err(JoinError::Cancelled)) => {}
            (1, RunOutcome::Completed, Ok(_saw_cancel)) => {}
            other => panic!("inconsistent cancellation: {other:?}"),
        }
    });
}

#[test]
fn a_queue_drain_racing_a_handle_cancel_has_exactly_one_winner() {
    loom::model(|| {
        let (capture, drops) = Tracked::new(5);
        let (job, handle) = Job::new(move || {
            let owned = capture;
            owned.value
        });
        let handle = Arc::new(handle);

        let drain = thread::spawn(move || job.cancel());
        let by_handle = handle.cancel();
        let by_drain = drain.join().unwrap();
        assert!(by_handle ^ by_drain, "exactly one claimant wins");
        let handle = Arc::try_unwrap(handle).expect("only this thread holds the handle now");
        assert_eq!(handle.join(), Err(JoinError::Cancelled));
        assert_eq!(drops.get(), 1, "the unrun body is dropped exactly once");
    });
}

#[test]
fn dropping_an_unrun_job_racing_a_handle_cancel_reports_one_reason() {
    loom::model(|| {
        let (capture, drops) = Tracked::new(5);
        let (job, handle) = Job::new(move || {
            let owned = capture;
            owned.value
        });
        let handle = Arc::new(handle);

        let rejecter = thread::spawn(move || drop(job));
        let by_handle = handle.cancel();
        rejecter.join().unwrap();
        let handle = Arc::try_unwrap(handle).expect("only this thread holds the handle now");
        let expected = if by_handle {
            JoinError::Cancelled
        } else {
            JoinError::Rejected
        };
        assert_eq!(handle.join(), Err(expected));
        assert_eq!(drops.get(), 1);
    });
}
