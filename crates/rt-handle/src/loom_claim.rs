//! Loom model of a joiner's inline claim racing a worker's start of the
//! same task (`JOIN_STATE.md`, "Inline runs"): the body runs exactly once,
//! exactly one of the two counts the task, and the handle gets the value.
//!
//! What runs is the real task cell through its public faces: the worker
//! calls `JobControl::run_as` (what a worker does with a queue entry), the
//! joiner `TaskRef::run_inline` through its handle (what a worker joining
//! a task it finds unstarted does), then `JoinHandle::join`.
//!
//! Interleavings covered: either claim CAS first, the loser seeing the
//! winner's `RUNNING` (and `INLINE`) before or after the winner completes,
//! and the join spinning, registering or finding the result at once.
//!
//! Run: `cargo xtask loom`.

use loom::sync::atomic::{AtomicUsize, Ordering};
use loom::sync::Arc;
use loom::thread;

use crate::loom_support::{silence_deliberate_panics, Tracked, EXPECTED_PANIC};
use crate::raw::{JobControl, RunnerTag};
use crate::{Job, RunOutcome};

fn claim_racing_start(panics: bool) {
    silence_deliberate_panics();
    let runs = Arc::new(AtomicUsize::new(0));
    let (value, drops) = Tracked::new(5);
    let body_runs = runs.clone();
    let (job, handle) = Job::new(move || {
        body_runs.fetch_add(1, Ordering::Relaxed);
        if panics {
            panic!("{}", EXPECTED_PANIC);
        }
        value
    });
    let worker = thread::spawn(move || job.run_as(RunnerTag::new(1), |_| {}, None));
    let inline = handle.core().run_inline(RunnerTag::new(2).unwrap(), None);
    let queued = worker.join().unwrap();

    assert_eq!(runs.load(Ordering::Relaxed), 1, "the body ran exactly once");
    let counted = [Some(queued), inline]
        .into_iter()
        .flatten()
        .filter(|o| *o != RunOutcome::Stale)
        .count();
    assert_eq!(counted, 1, "exactly one of the two counts the task");
    match handle.join() {
        Ok(tracked) => {
            assert!(!panics);
            assert_eq!(tracked.value, 5);
            drop(tracked);
            assert_eq!(drops.get(), 1);
        }
        Err(error) => assert!(panics && error.is_panic()),
    }
}

#[test]
fn a_joiners_inline_claim_racing_a_workers_start_runs_the_body_once() {
    loom::model(|| claim_racing_start(false));
}

#[test]
fn a_joiners_inline_claim_racing_a_workers_start_reports_a_panic_once() {
    loom::model(|| claim_racing_start(true));
}
