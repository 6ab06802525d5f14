//! Loom model of who frees a task (the end of `header.rs`, `JOIN_STATE.md`, "Who
//! frees the task"): the queue side and the handle side each let go once,
//! and whichever lets go second frees the allocation, also when it only
//! *saw* the other's bit and wrote nothing.
//!
//! Interleavings covered:
//!
//! * the handle dropped while the job is dropped unrun (rejected);
//! * the handle joined while the worker completes, each letting go after.
//!
//! The handle dropped unjoined while a worker runs the task (before the
//! worker looks, so it runs alone; between its claim and its completion;
//! after) is `loom_join.rs`'s
//! `completion_racing_a_dropped_handle_frees_the_result_exactly_once`.
//!
//! The result counts its drops and holds a loom `Arc`: a cell freed twice
//! drops it twice, and a cell never freed leaks the `Arc`, which loom
//! reports.
//!
//! Run: `RUSTFLAGS="--cfg loom" cargo test -p rt-handle --lib --profile loom loom_`.

use loom::thread;

use crate::loom_support::Tracked;
use crate::{Job, RunOutcome};

#[test]
fn a_handle_dropped_while_its_job_is_rejected_frees_the_cell_once() {
    loom::model(|| {
        let (capture, drops) = Tracked::new(7);
        let (job, handle) = Job::new(move || {
            let owned = capture;
            owned.value
        });
        let queue = thread::spawn(move || drop(job));
        drop(handle);
        queue.join().unwrap();
        assert_eq!(
            drops.get(),
            1,
            "the body's captures are dropped exactly once"
        );
    });
}

#[test]
fn a_handle_joined_while_its_task_completes_gets_the_result_and_the_cell_is_freed_once() {
    loom::model(|| {
        let (result, drops) = Tracked::new(7);
        let (job, handle) = Job::new(move || result);
        let worker = thread::spawn(move || job.run());
        let value = handle.join().map(|tracked| tracked.value);
        assert_eq!(value, Ok(7));
        assert_eq!(worker.join().unwrap(), RunOutcome::Completed);
        assert_eq!(drops.get(), 1);
    });
}
