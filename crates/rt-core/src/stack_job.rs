//! The second half of a `join`, on the joiner's stack: no allocation.
//!
//! A `StackJob` holds the closure, a slot for its result and a latch word.
//! Its owner (the worker inside `join`) may run it itself (it never left
//! the worker's private list, or the owner popped it back from its deque),
//! or a thief runs it through its [`FrameRef`] and sets the latch, or
//! `stop` gives it back unrun. The owner does not leave `join`, and so keeps
//! the frame alive, before it ran the job itself or saw the latch set.
//! Protocol: `JOIN_HELPING.md`.

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::ptr::NonNull;
use std::thread;

use crate::entry::{FrameRef, FrameVTable};
use crate::sync::{AtomicUsize, Ordering, UnsafeCell};
use crate::worker::WorkerContext;
use crate::worker_slot::WorkerSlot;

/// A thief has started the job (its index + 1 is in the bits from
/// [`RUNNER_SHIFT`] up).
const STARTED: usize = 1 << 0;
/// The thief has stored the result.
const DONE: usize = 1 << 1;
/// `stop` gave the job back unrun: the owner runs it.
const RETURNED: usize = 1 << 2;
/// The owner may park: whoever sets `DONE` or `RETURNED` unparks it.
const WAITER: usize = 1 << 3;
const RUNNER_SHIFT: u32 = 8;

pub(crate) struct StackJob<'a, F, R> {
    latch: AtomicUsize,
    /// The owner's slot, to unpark it; the runtime's state outlives every
    /// worker's frames.
    owner: &'a WorkerSlot,
    func: UnsafeCell<Option<F>>,
    result: UnsafeCell<Option<thread::Result<R>>>,
}

/// How the owner gets the result back.
pub(crate) enum Outcome<R> {
    /// A thief ran the job: here is its result.
    Ran(thread::Result<R>),
    /// Nobody ran it: the owner must.
    Returned,
}

impl<'a, F, R> StackJob<'a, F, R>
where
    F: FnOnce() -> R + Send,
    R: Send,
{
    const VTABLE: FrameVTable = FrameVTable {
        run: Self::run_erased,
        give_back: Self::give_back_erased,
    };

    pub(crate) fn new(func: F, owner: &'a WorkerSlot) -> Self {
        Self {
            latch: AtomicUsize::new(0),
            owner,
            func: UnsafeCell::new(Some(func)),
            result: UnsafeCell::new(None),
        }
    }

    /// The queue entry for this job.
    ///
    /// # Safety
    ///
    /// The caller (the owner) keeps the job alive and in place until it has
    /// either taken the entry back itself or [`wait`]ed for the latch.
    pub(crate) unsafe fn frame_ref(&self) -> FrameRef {
        let frame = NonNull::from(self).cast::<()>();
        let vtable: &'static FrameVTable = &Self::VTABLE;
        // SAFETY: the caller keeps the frame valid until `run_erased` or
        // `give_back_erased` was called on it (they are this type's).
        unsafe { FrameRef::new(frame, vtable) }
    }

    /// Runs the job on the owner's thread: it was never taken by anyone,
    /// or was given back.
    pub(crate) fn run_here(&self) -> thread::Result<R> {
        let func = self.take_func();
        catch_unwind(AssertUnwindSafe(func))
    }

    fn take_func(&self) -> F {
        // SAFETY: the closure is taken exactly once: by the owner (the job
        // was never queued, or the owner popped it back, or it came back
        // unrun: then no thief has it), or by the one thief that took the
        // queue entry.
        self.func
            .with_mut(|func| unsafe { (*func).take() })
            .expect("a stack job runs once")
    }

    /// The worker that runs the job, while it runs: for leapfrogging.
    pub(crate) fn runner(&self) -> Option<usize> {
        let latch = self.latch.load(Ordering::Relaxed);
        (latch & (STARTED | DONE) == STARTED).then(|| (latch >> RUNNER_SHIFT) - 1)
    }

    /// Whether a thief finished the job, or `stop` gave it back.
    pub(crate) fn is_settled(&self) -> bool {
        self.latch.load(Ordering::Acquire) & (DONE | RETURNED) != 0
    }

    /// Registers the owner to be unparked, then parks it once unless the
    /// job is settled. Called only by the owner; it may return early.
    pub(crate) fn park_once(&self) {
        // AcqRel: Acquire makes the result visible if it is settled already;
        // Release is not needed (the waker reads nothing the owner wrote),
        // but the RMW must be ordered against the setter's RMW, which it is.
        let prev = self.latch.fetch_or(WAITER, Ordering::AcqRel);
        if prev & (DONE | RETURNED) == 0 {
            thread::park();
        }
    }

    /// Once settled: the thief's result, or `Returned`.
    pub(crate) fn outcome(&self) -> Outcome<R> {
        let latch = self.latch.load(Ordering::Acquire);
        debug_assert!(latch & (DONE | RETURNED) != 0);
        if latch & RETURNED != 0 {
            return Outcome::Returned;
        }
        // SAFETY: DONE was observed with Acquire, pairing with the thief's
        // Release: the result is written, and the thief no longer touches
        // the job.
        let result = self.result.with_mut(|result| unsafe { (*result).take() });
        Outcome::Ran(result.expect("a done stack job holds its result"))
    }

    /// Sets `bits` in the latch and unparks a waiting owner. The job may be
    /// gone the moment the bits are visible: nothing after the RMW touches
    /// it (the owner's slot outlives it).
    fn settle(&self, bits: usize) {
        let owner = self.owner;
        // Release publishes the result (for DONE); Acquire pairs with the
        // owner's registration of WAITER.
        let prev = self.latch.fetch_or(bits, Ordering::AcqRel);
        if prev & WAITER != 0 {
            owner.unpark();
        }
    }

    /// Runs the job for a thief (inside the unit of work its caller opened
    /// for it) and settles the latch.
    ///
    /// # Safety
    ///
    /// `frame` comes from [`frame_ref`](Self::frame_ref) of a live job of
    /// this type, and this is the one call for its entry.
    unsafe fn run_erased(frame: NonNull<()>, worker: &WorkerContext) {
        // SAFETY: per the contract, the owner keeps the job alive until the
        // latch is settled, which happens last below.
        let job = unsafe { frame.cast::<Self>().as_ref() };
        // Relaxed: the runner index is a hint for leapfroggers, who check
        // under their lease what the runner really runs.
        job.latch.fetch_or(
            STARTED | (worker.index() + 1) << RUNNER_SHIFT,
            Ordering::Relaxed,
        );
        let func = job.take_func();
        let result = catch_unwind(AssertUnwindSafe(func));
        // SAFETY: this thread took the entry, so it alone writes the result,
        // before settling.
        job.result.with_mut(|slot| unsafe { *slot = Some(result) });
        job.settle(DONE);
    }

    /// # Safety
    ///
    /// As for [`run_erased`](Self::run_erased).
    unsafe fn give_back_erased(frame: NonNull<()>) {
        // SAFETY: as in `run_erased`.
        let job = unsafe { frame.cast::<Self>().as_ref() };
        job.settle(RETURNED);
    }
}
