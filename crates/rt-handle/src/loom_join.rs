//! Loom model of the join protocol (`JOIN_STATE.md`): a worker completing a
//! task races the caller's `join`, or the caller dropping the handle.
//!
//! Interleavings covered, for a value and for a panic:
//!
//! * the completer's `fetch_xor(COMPLETE)` before the joiner's first load
//!   (no wait), between its spin and its `fetch_or(WAITER)` (the joiner sees
//!   `COMPLETE` in the `fetch_or` and does not park), and after it (the
//!   completer sees `WAITER`, reads the thread and unparks it, before or after
//!   the joiner actually parks);
//! * the handle dropped before the body starts, while it runs, and after it
//!   finished, so the last reference to the result is on either thread.
//!
//! Each model checks that the result reaches the joiner exactly once and is
//! dropped exactly once; loom's `UnsafeCell` tracking checks that the stage
//! and the waiter slot are never accessed by two threads without a
//! happens-before edge; a lost unpark shows up as a deadlock.
//!
//! Run: `RUSTFLAGS="--cfg loom" cargo test -p rt-handle --lib --profile loom loom_`.

use loom::thread;

use crate::loom_support::{silence_deliberate_panics, Tracked, EXPECTED_PANIC};
use crate::{Job, JoinError, RunOutcome};

#[test]
fn completion_racing_join_delivers_the_value_once_and_frees_it_once() {
    loom::model(|| {
        let (result, drops) = Tracked::new(7);
        let (job, handle) = Job::new(move || result);
        let worker = thread::spawn(move || job.run());

        let value = handle.join().expect("a task that ran delivers its value");
        assert_eq!(value.value, 7);
        assert_eq!(worker.join().unwrap(), RunOutcome::Completed);
        assert_eq!(drops.get(), 0, "the delivered value is still alive");
        drop(value);
        assert_eq!(drops.get(), 1);
    });
}

#[test]
fn completion_racing_a_dropped_handle_frees_the_result_exactly_once() {
    loom::model(|| {
        let (result, drops) = Tracked::new(7);
        let (job, handle) = Job::new(move || result);
        let worker = thread::spawn(move || job.run());

        drop(handle);
        assert_eq!(worker.join().unwrap(), RunOutcome::Completed);
        assert_eq!(drops.get(), 1, "an unjoined result is dropped exactly once");
    });
}

#[test]
fn a_panic_racing_join_is_delivered_once_and_the_captures_are_freed_once() {
    silence_deliberate_panics();
    loom::model(|| {
        let (capture, drops) = Tracked::new(1);
        let (job, handle) = Job::new(move || -> u32 {
            let _owned = capture;
            std::panic::panic_any(EXPECTED_PANIC);
        });
        let worker = thread::spawn(move || job.run());

        assert_eq!(
            handle.join(),
            Err(JoinError::Panicked(EXPECTED_PANIC.into()))
        );
        assert_eq!(worker.join().unwrap(), RunOutcome::Panicked);
        assert_eq!(drops.get(), 1, "the unwound captures are dropped once");
    });
}

#[test]
fn a_panic_racing_a_dropped_handle_frees_everything_exactly_once() {
    silence_deliberate_panics();
    loom::model(|| {
        let (capture, drops) = Tracked::new(1);
        let (job, handle) = Job::new(move || -> u32 {
            let _owned = capture;
            std::panic::panic_any(EXPECTED_PANIC);
        });
        let worker = thread::spawn(move || job.run());

        drop(handle);
        assert_eq!(worker.join().unwrap(), RunOutcome::Panicked);
        assert_eq!(drops.get(), 1);
    });
}
