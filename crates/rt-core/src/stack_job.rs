//! The second half of a `join`, on the joiner's stack: no allocation.
//!
//! A `StackJob` holds the closure, a slot for its result and a latch word.
//! Its owner (the worker inside `join`) runs it itself unless it was made
//! stealable and somebody took it: then a thief runs it through its
//! [`FrameRef`] and settles the latch, or `stop` gives it back unrun. The
//! owner does not leave `join`, and so keeps the job alive, before it ran
//! the job itself or saw the latch settled. Protocol: `JOIN_HELPING.md`.

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::ptr::NonNull;

use crate::entry::{FrameRef, FrameVTable};
use crate::sync::{thread, AtomicUsize, Ordering, UnsafeCell};
use crate::worker::WorkerContext;
use crate::worker_slot::WorkerSlot;

/// A thief has started the job.
const STARTED: usize = 1 << 0;
/// The thief has stored the result.
const DONE: usize = 1 << 1;
/// `stop` gave the job back unrun: the owner runs it.
const RETURNED: usize = 1 << 2;
/// The owner may park: whoever sets `DONE` or `RETURNED` unparks it.
const WAITER: usize = 1 << 3;
/// Worker indexes, + 1 (0: unknown), each in a field of this many bits;
/// `MAX_THREADS` (4,096) fits.
const INDEX_BITS: u32 = 12;
const OWNER_SHIFT: u32 = 8;
const RUNNER_SHIFT: u32 = OWNER_SHIFT + INDEX_BITS;
const INDEX_MASK: usize = (1 << INDEX_BITS) - 1;

/// `#[repr(C)]`: the latch comes first, so code that does not know `F` and
/// `R` (a nested `join` making this one stealable) can reach it through the
/// job's address ([`make_stealable`]).
#[repr(C)]
pub(crate) struct StackJob<F, R> {
    /// The flags above, the owner's index + 1 (set when the job is made
    /// stealable) and the runner's index + 1 (set by a thief).
    latch: AtomicUsize,
    func: UnsafeCell<Option<F>>,
    result: UnsafeCell<Option<std::thread::Result<R>>>,
}

/// How the owner gets the result back.
pub(crate) enum Outcome<R> {
    /// A thief ran the job: here is its result.
    Ran(std::thread::Result<R>),
    /// Nobody ran it: the owner must.
    Returned,
}

impl<F, R> StackJob<F, R>
where
    F: FnOnce() -> R + Send,
    R: Send,
{
    pub(crate) const VTABLE: FrameVTable = FrameVTable {
        run: Self::run_erased,
        give_back: Self::give_back_erased,
    };

    pub(crate) fn new(func: F) -> Self {
        Self {
            latch: AtomicUsize::new(0),
            func: UnsafeCell::new(Some(func)),
            result: UnsafeCell::new(None),
        }
    }

    /// Runs the job on the owner's thread: it was never taken by anyone, or
    /// was given back. A panic comes back as the `Err`.
    #[inline]
    pub(crate) fn run_here(&self) -> std::thread::Result<R> {
        let func = self.take_func();
        catch_unwind(AssertUnwindSafe(func))
    }

    fn take_func(&self) -> F {
        // The closure is taken exactly once: by the owner (never queued,
        // popped back, or given back unrun: no thief has it), or by the one
        // thief that took the queue entry.
        // SAFETY: so this is the only access to `func`.
        let func = self.func.with_mut(|func| unsafe { (*func).take() });
        func.expect("a stack job runs once")
    }

    /// The worker that runs the job, while it runs: for leapfrogging.
    pub(crate) fn runner(&self) -> Option<usize> {
        let latch = self.latch.load(Ordering::Relaxed);
        let runner = (latch >> RUNNER_SHIFT) & INDEX_MASK;
        (latch & (STARTED | DONE) == STARTED && runner != 0).then(|| runner - 1)
    }

    /// Whether a thief finished the job, or `stop` gave it back.
    pub(crate) fn is_settled(&self) -> bool {
        self.latch.load(Ordering::Acquire) & (DONE | RETURNED) != 0
    }

    /// Registers the owner to be unparked, then parks it once unless the
    /// job is settled. Called only by the owner; it may return early.
    pub(crate) fn park_once(&self) {
        // An RMW, ordered against the settling RMW: either it sees DONE or
        // RETURNED (and does not park), or the settler sees WAITER (and
        // unparks). Acquire makes the result visible in the first case.
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

    /// Runs the job for a thief (inside the unit of work its caller opened
    /// for it) and settles the latch.
    ///
    /// # Safety
    ///
    /// `frame` is the address of a live job of this type whose entry was
    /// made by [`make_stealable`], and this is the one call for that entry.
    unsafe fn run_erased(frame: NonNull<()>, worker: &WorkerContext) {
        // SAFETY: per the contract, the owner keeps the job alive until the
        // latch is settled, which `run_stolen` does last.
        let job = unsafe { frame.cast::<Self>().as_ref() };
        job.run_stolen(worker.index(), &worker.shared.slots);
    }

    /// What a thief (worker `runner` of the runtime whose slots are
    /// `slots`) does with the job: record itself, run it, store the result,
    /// settle the latch. Nothing touches the job after the settling RMW.
    pub(crate) fn run_stolen(&self, runner: usize, slots: &[WorkerSlot]) {
        // Relaxed: the runner index is a hint for leapfroggers, who check
        // under their lease what the runner really runs.
        self.latch
            .fetch_or(STARTED | (runner + 1) << RUNNER_SHIFT, Ordering::Relaxed);
        let func = self.take_func();
        let result = catch_unwind(AssertUnwindSafe(func));
        // SAFETY: this thread took the entry, so it alone writes the result,
        // before settling.
        self.result.with_mut(|slot| unsafe { *slot = Some(result) });
        settle(&self.latch, DONE, slots);
    }

    /// # Safety
    ///
    /// As for [`run_erased`](Self::run_erased).
    unsafe fn give_back_erased(frame: NonNull<()>, slots: &[WorkerSlot]) {
        // SAFETY: as in `run_erased`.
        let job = unsafe { frame.cast::<Self>().as_ref() };
        settle(&job.latch, RETURNED, slots);
    }
}

/// Makes the job at `job` stealable: records its owner in the latch and
/// returns the queue entry to push. Called by the owner, which need not know
/// the job's types (it may be a nested `join`'s frame doing it).
///
/// # Safety
///
/// `job` is the address of a live `StackJob` whose vtable is `vtable`; the
/// owner keeps it in place until it popped the entry back or saw the latch
/// settled.
pub(crate) unsafe fn make_stealable(
    job: NonNull<()>,
    vtable: &'static FrameVTable,
    owner: usize,
) -> FrameRef {
    // SAFETY: `StackJob` is `#[repr(C)]` with the latch first.
    let latch = unsafe { job.cast::<AtomicUsize>().as_ref() };
    // Relaxed: the push that follows publishes it (Release), and only a
    // thief that took the entry reads it.
    latch.store((owner + 1) << OWNER_SHIFT, Ordering::Relaxed);
    // SAFETY: per this function's contract.
    unsafe { FrameRef::new(job, vtable) }
}

/// Sets `bits` in the latch and unparks a waiting owner. The job may be gone
/// the moment the bits are visible: nothing after the RMW touches it (the
/// owner is found through the runtime's state).
fn settle(latch: &AtomicUsize, bits: usize, slots: &[WorkerSlot]) {
    // Release publishes the result (for DONE); Acquire pairs with the
    // owner's registration of WAITER.
    let prev = latch.fetch_or(bits, Ordering::AcqRel);
    if prev & WAITER != 0 {
        let owner = (prev >> OWNER_SHIFT) & INDEX_MASK;
        debug_assert!(owner != 0, "a stealable job records its owner");
        slots[owner - 1].unpark();
    }
}
