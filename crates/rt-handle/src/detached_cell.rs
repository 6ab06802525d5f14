//! A task without a result slot or a handle: what `execute` submits.

use std::panic::{catch_unwind, AssertUnwindSafe};

use crate::panic_message::{drop_quietly, panic_message};
use crate::sync::{AtomicU64, AtomicUsize, Ordering, UnsafeCell};
use crate::task_cell::{PanicReport, Runnable};
use crate::{JoinError, RunOutcome};

const CLAIMED: usize = 1;
const FINISHED: usize = 2;

/// The closure and one state word; nobody waits for it, so there is no
/// result slot and no waiter. The claim CAS still makes run and cancel
/// exclusive, as in `TaskCell`.
pub(crate) struct DetachedCell<F> {
    state: AtomicUsize,
    /// The executor's stamp (see `Job::set_stamp`).
    stamp: AtomicU64,
    body: UnsafeCell<Option<F>>,
}

// SAFETY: `body` is only touched by the thread that won the claim CAS, so the
// cell never shares `&F`; moving `F` between threads needs only `F: Send`.
unsafe impl<F: Send> Send for DetachedCell<F> {}
// SAFETY: as above.
unsafe impl<F: Send> Sync for DetachedCell<F> {}

impl<F: FnOnce() + Send> DetachedCell<F> {
    pub(crate) fn new(body: F) -> Self {
        Self {
            state: AtomicUsize::new(0),
            stamp: AtomicU64::new(0),
            body: UnsafeCell::new(Some(body)),
        }
    }

    fn claim(&self) -> Option<F> {
        self.state
            .compare_exchange(0, CLAIMED, Ordering::Acquire, Ordering::Relaxed)
            .ok()?;
        // SAFETY: the CAS above succeeded, so this thread alone owns `body`.
        self.body.with_mut(|b| unsafe { (*b).take() })
    }
}

impl<F: FnOnce() + Send> Runnable for DetachedCell<F> {
    fn run(&self, _tag: usize, report: PanicReport<'_>) -> RunOutcome {
        let Some(body) = self.claim() else {
            return RunOutcome::Cancelled;
        };
        let outcome = match catch_unwind(AssertUnwindSafe(body)) {
            Ok(()) => RunOutcome::Completed,
            Err(payload) => {
                report(&panic_message(payload));
                RunOutcome::Panicked
            }
        };
        self.state.store(CLAIMED | FINISHED, Ordering::Release);
        outcome
    }

    fn finish_unrun(&self, _reason: JoinError) -> bool {
        match self.claim() {
            Some(body) => {
                drop_quietly(body);
                self.state.store(CLAIMED | FINISHED, Ordering::Release);
                true
            }
            None => false,
        }
    }

    fn discard(&self) -> RunOutcome {
        // Nobody can claim a detached task but its queue entry's taker, so
        // an entry taken for draining always cancels it.
        let cancelled = self.finish_unrun(JoinError::Cancelled);
        debug_assert!(cancelled, "a queued detached task has not started");
        RunOutcome::Cancelled
    }

    fn is_finished(&self) -> bool {
        self.state.load(Ordering::Acquire) & FINISHED != 0
    }

    fn set_owner(&self, _owner: usize) {
        // Nobody joins a detached task.
    }

    fn set_stamp(&self, stamp: u64) {
        self.stamp.store(stamp, Ordering::Relaxed);
    }

    fn stamp(&self) -> u64 {
        self.stamp.load(Ordering::Relaxed)
    }

    fn scope_id(&self) -> usize {
        0
    }
}
