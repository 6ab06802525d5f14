//! A task without a result slot or a handle: what `execute` submits.

use std::panic::{catch_unwind, AssertUnwindSafe};

use crate::body_wrapper::{call_wrapped, BodyWrapper};
use crate::ids::{Awaited, PoolId, RunnerTag, ScopeId, Stamp};
use crate::ownership::HANDLE_DONE;
use crate::panic_message::{drop_quietly, panic_message};
use crate::sync::{AtomicU64, AtomicUsize, Ordering, UnsafeCell};
use crate::task_cell::{Discarded, PanicReport, Runnable};
use crate::{JoinError, RunOutcome};

/// The closure and the state word; nobody waits for it, so there is no
/// result slot and no waiter, and nobody but the queue side (the `Job`)
/// ever reaches it: it is born with `HANDLE_DONE` set, and the job runs,
/// cancels or frees it without any atomic read-modify-write.
///
/// `#[repr(C)]` with the state word first: `ownership::release` reaches it
/// through the cell's pointer.
#[repr(C)]
pub(crate) struct DetachedCell<F> {
    /// Only the ownership bits (`ownership.rs`): `HANDLE_DONE` from birth.
    state: AtomicUsize,
    /// The executor's stamp (see `Job::set_stamp`).
    stamp: AtomicU64,
    body: UnsafeCell<Option<F>>,
}

// SAFETY: `body` is only touched by the job that owns the cell (the one
// owner: `&self` methods that take the body are called only by it), so the
// cell never shares `&F`; moving `F` between threads needs only `F: Send`.
unsafe impl<F: Send> Send for DetachedCell<F> {}
// SAFETY: as above.
unsafe impl<F: Send> Sync for DetachedCell<F> {}

impl<F: FnOnce() + Send> DetachedCell<F> {
    pub(crate) fn new(body: F) -> Self {
        Self {
            state: AtomicUsize::new(HANDLE_DONE),
            stamp: AtomicU64::new(0),
            body: UnsafeCell::new(Some(body)),
        }
    }

    #[inline]
    fn run_body(&self, report: PanicReport<'_>, wrapper: Option<BodyWrapper<'_>>) -> RunOutcome {
        let Some(body) = self.take() else {
            return RunOutcome::Cancelled;
        };
        match call_wrapped(wrapper, body, |body| catch_unwind(AssertUnwindSafe(body))) {
            Ok(()) => RunOutcome::Completed,
            Err(payload) => {
                report(&panic_message(payload));
                RunOutcome::Panicked
            }
        }
    }

    fn take(&self) -> Option<F> {
        // SAFETY: only the job, the cell's one owner, calls this (see the
        // `Send` impl), and it holds no other reference into `body`.
        self.body.with_mut(|b| unsafe { (*b).take() })
    }
}

impl<F: FnOnce() + Send> Runnable for DetachedCell<F> {
    fn run(&self, _tag: Option<RunnerTag>, report: PanicReport<'_>) -> RunOutcome {
        self.run_body(report, None)
    }

    fn run_wrapped(
        &self,
        _tag: Option<RunnerTag>,
        report: PanicReport<'_>,
        wrapper: BodyWrapper<'_>,
    ) -> RunOutcome {
        self.run_body(report, Some(wrapper))
    }

    fn run_joined(&self, _wrapper: Option<BodyWrapper<'_>>) -> RunOutcome {
        unreachable!("a detached task has no handle, so no joiner runs it")
    }

    fn finish_unrun(&self, _reason: JoinError) -> bool {
        match self.take() {
            Some(body) => {
                drop_quietly(body);
                true
            }
            None => false,
        }
    }

    fn discard(&self) -> Discarded {
        // Nobody can claim a detached task but its queue entry's taker, so
        // an entry taken for draining always cancels it.
        let cancelled = self.finish_unrun(JoinError::Cancelled);
        debug_assert!(cancelled, "a queued detached task has not started");
        Discarded::Cancelled
    }

    fn is_finished(&self) -> bool {
        // SAFETY: only the job, the cell's one owner, calls this; nothing
        // writes the body meanwhile.
        self.body.with(|b| unsafe { (*b).is_none() })
    }

    fn set_owner(&self, _owner: PoolId) {
        // Nobody joins a detached task.
    }

    fn set_stamp(&self, stamp: Stamp) {
        // Relaxed: written before the queue hand-off that orders it.
        self.stamp.store(stamp.get(), Ordering::Relaxed);
    }

    fn stamp(&self) -> Option<Stamp> {
        Stamp::new(self.stamp.load(Ordering::Relaxed))
    }

    fn awaited(&self) -> Awaited {
        Awaited::Never
    }

    fn scope(&self) -> Option<ScopeId> {
        None
    }
}
