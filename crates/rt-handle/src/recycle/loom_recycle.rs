//! Loom model of the recycler's return path (`RECYCLING.md`): a cell freed
//! on one thread goes back through that thread's cache and the depot to
//! another thread, which builds a new task in the same block.
//!
//! Under loom a class's stack holds one block (`BATCH` = 1) and the depot
//! two stacks of the smallest class, so a couple of tasks reach every
//! path: a freed block kept by its thread, moved aside, handed to the depot
//! (by a worker going idle, racing the other thread's take), taken from it
//! by the other thread, or freed because the depot is full. Every free block holds a `Link` in a loom cell: a block handed
//! over without the depot's lock ordering its link's write before its read
//! is reported, and so is a block reused while its old task's cells are
//! still in use (the new task's cells are created over them).
//!
//! Run: `RUSTFLAGS="--cfg loom" cargo test -p rt-handle --lib --profile loom loom_`.

use loom::thread;

use crate::loom_support::Tracked;
use crate::{Job, RunOutcome};

use super::release_idle_memory;

#[test]
fn a_cell_freed_on_a_worker_is_reused_safely_by_a_submitter_while_the_worker_goes_idle() {
    loom::model(|| {
        let (capture, drops) = Tracked::new(1);
        let (job, handle) = Job::new(move || {
            let owned = capture;
            owned.value
        });
        let worker = thread::spawn(move || {
            assert_eq!(job.run(), RunOutcome::Completed);
            release_idle_memory();
        });
        assert_eq!(handle.join(), Ok(1));
        // A second task, maybe in the first one's block.
        let (job, handle) = Job::new(|| 2);
        job.run();
        assert_eq!(handle.join(), Ok(2));
        worker.join().unwrap();
        assert_eq!(drops.get(), 1, "the first task's captures dropped once");
    });
}

#[test]
fn cells_freed_on_two_threads_at_once_each_reach_one_owner() {
    loom::model(|| {
        let (first, first_handle) = Job::new(|| 1);
        let (second, second_handle) = Job::new(|| 2);
        let other = thread::spawn(move || {
            first.run();
            drop(first_handle);
            let (third, third_handle) = Job::new(|| 3);
            third.run();
            third_handle.join()
        });
        second.run();
        drop(second_handle);
        release_idle_memory();
        let (fourth, fourth_handle) = Job::new(|| 4);
        fourth.run();
        assert_eq!(fourth_handle.join(), Ok(4));
        assert_eq!(other.join().unwrap(), Ok(3));
    });
}
