//! Running a closure on the runtime's workers from outside them: what
//! `Runtime::install`, and `Runtime::join` and `Runtime::scope` called from
//! outside, do (rayon's `install`).
//!
//! The closure waits in an [`InstallJob`] on the caller's stack; a frame
//! entry for it goes through the submission gate onto an injector, a worker
//! runs it as a unit of its own, stores the result and sets the latch,
//! which unparks the caller. The latch is shared through an `Arc`, so the
//! worker can still unpark the caller after the caller has seen the latch
//! set and left (taking its stack frame with it). If the runtime refuses the
//! entry (it is shut down), or `stop` drains it, the caller runs the closure
//! itself, outside the pool.

use std::panic::{catch_unwind, resume_unwind, AssertUnwindSafe};
use std::ptr::NonNull;
use std::sync::Arc;
use std::thread::{self, Thread};

use rt_handle::Wait;
use rt_queue::Priority;

use crate::entry::{Entry, FrameRef, FrameVTable};
use crate::shared::Shared;
use crate::sync::{AtomicUsize, Ordering, UnsafeCell};
use crate::worker::{self, WorkerContext};
use crate::worker_slot::WorkerSlot;

const PENDING: usize = 0;
const DONE: usize = 1;
const RETURNED: usize = 2;

/// Runs `op` on a worker of the runtime owning `shared` and returns its
/// result (a panic in `op` resumes here). On a worker of this runtime, `op`
/// runs at once, inline; if the runtime refuses the work (shut down) or
/// drains it (`stop`), `op` runs on the calling thread with `None`.
pub(crate) fn install<R, F>(shared: &Arc<Shared>, op: F) -> R
where
    F: FnOnce(Option<&WorkerContext>) -> R + Send,
    R: Send,
{
    let op = match worker::with_local(shared, |local| match local {
        Some(worker) if worker.in_unit() => Ok(op(Some(worker))),
        // A worker of this runtime outside any unit (in a hook): waiting
        // for another worker could wait for itself; run it right here.
        Some(_) => Ok(op(None)),
        None => Err(op),
    }) {
        Ok(result) => return result,
        Err(op) => op,
    };
    let job = InstallJob {
        latch: Arc::new(Latch {
            state: AtomicUsize::new(PENDING),
            caller: thread::current(),
        }),
        op: UnsafeCell::new(Some(op)),
        result: UnsafeCell::new(None),
    };
    // SAFETY: `job` stays in place until this function returns, which is
    // after the latch left PENDING (the worker ran it or gave it back), or
    // after the entry came back refused.
    let frame = unsafe { job.frame_ref() };
    let accepted = shared
        .offer_entry(Priority::Normal, frame, Entry::Frame, Wait::Block, false)
        .is_ok();
    if accepted {
        let wait = || {
            // Acquire pairs with the Release in `settle`.
            while job.latch.state.load(Ordering::Acquire) == PENDING {
                thread::park();
            }
        };
        // On a worker of another runtime, that runtime counts this worker
        // as waiting, so that it keeps one worker free for the work this
        // closure may hand back to it (`COMPENSATION.md`).
        worker::with_any(|other| match other {
            Some(other) => other.shared.waiting(wait),
            None => wait(),
        });
        if job.latch.state.load(Ordering::Acquire) == DONE {
            // SAFETY: DONE was seen with Acquire: the worker wrote the
            // result and no longer touches the job.
            let result = job.result.with_mut(|r| unsafe { (*r).take() });
            match result.expect("a done install holds its result") {
                Ok(value) => return value,
                Err(payload) => resume_unwind(payload),
            }
        }
    }
    // Refused, or given back unrun: run it here, outside the pool.
    job.take_op()(None)
}

struct Latch {
    state: AtomicUsize,
    caller: Thread,
}

struct InstallJob<F, R> {
    latch: Arc<Latch>,
    op: UnsafeCell<Option<F>>,
    result: UnsafeCell<Option<thread::Result<R>>>,
}

impl<F, R> InstallJob<F, R>
where
    F: FnOnce(Option<&WorkerContext>) -> R + Send,
    R: Send,
{
    const VTABLE: FrameVTable = FrameVTable {
        run: Self::run_erased,
        give_back: Self::give_back_erased,
    };

    /// # Safety
    ///
    /// The job must stay in place until its latch left PENDING, or until
    /// the entry came back refused.
    unsafe fn frame_ref(&self) -> FrameRef {
        let vtable: &'static FrameVTable = &Self::VTABLE;
        // SAFETY: per this function's contract.
        unsafe { FrameRef::new(NonNull::from(self).cast(), vtable) }
    }

    fn take_op(&self) -> F {
        // SAFETY: the closure is taken once: by the one worker that took the
        // entry, or by the caller when nobody ran it.
        self.op
            .with_mut(|op| unsafe { (*op).take() })
            .expect("an installed closure runs once")
    }

    /// # Safety
    ///
    /// `frame` comes from [`frame_ref`](Self::frame_ref), and this is the
    /// one call for its entry.
    unsafe fn run_erased(frame: NonNull<()>, worker: &WorkerContext) {
        // SAFETY: the caller keeps the job alive until the latch is set.
        let job = unsafe { frame.cast::<Self>().as_ref() };
        let latch = Arc::clone(&job.latch);
        let op = job.take_op();
        let result = catch_unwind(AssertUnwindSafe(|| op(Some(worker))));
        // SAFETY: this worker took the entry, so it alone writes the result,
        // before setting the latch.
        job.result.with_mut(|r| unsafe { *r = Some(result) });
        settle(&latch, DONE);
    }

    /// # Safety
    ///
    /// As for [`run_erased`](Self::run_erased).
    unsafe fn give_back_erased(frame: NonNull<()>, _slots: &[WorkerSlot]) {
        // SAFETY: as in `run_erased`.
        let job = unsafe { frame.cast::<Self>().as_ref() };
        let latch = Arc::clone(&job.latch);
        settle(&latch, RETURNED);
    }
}

/// Sets the latch and unparks the caller, through the worker's own
/// reference to the latch: the job may be gone once the state is visible.
fn settle(latch: &Latch, state: usize) {
    // Release publishes the result to the caller's Acquire load.
    latch.state.store(state, Ordering::Release);
    latch.caller.unpark();
}
