//! The second half of a `join`, on the joiner's stack: no allocation.
//!
//! A `StackJob` holds the closure, a slot for its result and a [`Latch`].
//! Its owner (the worker inside `join`) runs it itself unless it was shared
//! (pushed where thieves may take it) and somebody took it: then a thief
//! runs it through its [`FrameRef`] and counts the latch down, or `stop` gives it back unrun
//! (counts the latch down with no result). The owner does not leave `join`,
//! and so keeps the job alive, before it ran the job itself or saw the
//! latch set. Protocol: `JOIN_HELPING.md`.

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::ptr::NonNull;

use crate::fork_join::join::FnContext;
use crate::fork_join::latch::{Latch, Waiter};
use crate::fork_join::worker_slot::WorkerSlot;
use crate::sync::{AtomicUsize, Ordering, UnsafeCell};
use crate::worker::entry::{FrameRef, FrameVTable};
use crate::worker::WorkerContext;

/// `#[repr(C)]`: the latch comes first, so code that does not know `F` and
/// `R` (a nested `join` sharing this one) can reach it through the job's
/// address ([`share`]).
#[repr(C)]
pub(crate) struct StackJob<F, R> {
    /// Set (counted down from one) by the thief that ran the job, or by
    /// `stop` giving it back.
    latch: Latch,
    /// Who runs the job, once a thief started it.
    runner: RunnerWord,
    func: UnsafeCell<Option<F>>,
    result: UnsafeCell<Option<std::thread::Result<R>>>,
}

/// The index of the worker running a shared half, once a thief started it:
/// a hint for leapfroggers, who check under their lease what that worker
/// really runs.
pub(crate) struct RunnerWord(
    /// The index + 1, 0 until a thief starts the half.
    AtomicUsize,
);

impl RunnerWord {
    /// The worker running the half, while it runs (the half's latch is not
    /// set yet).
    pub(crate) fn get(&self, latch: &Latch) -> Option<usize> {
        // Relaxed: a hint (see above).
        let runner = self.0.load(Ordering::Relaxed);
        (runner != 0 && !latch.is_set()).then(|| runner - 1)
    }

    fn set(&self, runner: usize) {
        // Relaxed: a hint (see above).
        self.0.store(runner + 1, Ordering::Relaxed);
    }
}

/// How the owner gets the result back.
pub(crate) enum Outcome<R> {
    /// A thief ran the job: here is its result.
    Ran(std::thread::Result<R>),
    /// Nobody ran it (`stop` gave it back): the owner must.
    Returned,
}

impl<F, R> StackJob<F, R>
where
    F: FnOnce(FnContext) -> R + Send,
    R: Send,
{
    pub(crate) const VTABLE: FrameVTable = FrameVTable {
        run: Self::run_erased,
        give_back: Self::give_back_erased,
    };

    pub(crate) fn new(func: F) -> Self {
        Self {
            latch: Latch::new(1),
            runner: RunnerWord(AtomicUsize::new(0)),
            func: UnsafeCell::new(Some(func)),
            result: UnsafeCell::new(None),
        }
    }

    /// Runs the job on the owner's thread: it was never taken by anyone, or
    /// was given back. A panic comes back as the `Err`.
    #[inline]
    pub(crate) fn run_here(&self, context: FnContext) -> std::thread::Result<R> {
        let func = self.take_func();
        catch_unwind(AssertUnwindSafe(|| func(context)))
    }

    fn take_func(&self) -> F {
        // The closure is taken exactly once: by the owner (never shared,
        // popped back, or given back unrun: no thief has it), or by the one
        // thief that took the queue entry.
        // SAFETY: so this is the only access to `func`.
        let func = self.func.with_mut(|func| unsafe { (*func).take() });
        func.expect("a stack job runs once")
    }

    /// The latch the owner waits on.
    pub(crate) fn latch(&self) -> &Latch {
        &self.latch
    }

    /// Who runs the job, once a thief started it.
    pub(crate) fn runner(&self) -> &RunnerWord {
        &self.runner
    }

    /// Once the latch is set: the thief's result, or `Returned`.
    pub(crate) fn outcome(&self) -> Outcome<R> {
        debug_assert!(self.latch.is_set());
        // SAFETY: the latch was seen set (Acquire, pairing with the setter's
        // Release): a thief's result is written, and nobody touches the job
        // any more.
        let result = self.result.with_mut(|result| unsafe { (*result).take() });
        match result {
            Some(result) => Outcome::Ran(result),
            None => Outcome::Returned,
        }
    }

    /// Runs the job for a thief (inside the unit of work its caller opened
    /// for it) and sets the latch.
    ///
    /// # Safety
    ///
    /// `frame` is the address of a live job of this type whose entry was
    /// made by [`share`], and this is the one call for that entry.
    unsafe fn run_erased(frame: NonNull<()>, worker: &WorkerContext) {
        // SAFETY: per the contract, the owner keeps the job alive until the
        // latch is set, which `run_stolen` does last.
        let job = unsafe { frame.cast::<Self>().as_ref() };
        job.run_stolen(worker.index());
    }

    /// What a thief (worker `runner`) does with the job: record itself, run
    /// it, store the result, count the latch down. Nothing touches the job
    /// after that.
    pub(crate) fn run_stolen(&self, runner: usize) {
        self.runner.set(runner);
        let func = self.take_func();
        let result = catch_unwind(AssertUnwindSafe(|| func(FnContext::MIGRATED)));
        // SAFETY: this thread took the entry, so it alone writes the result,
        // before the count-down publishes it.
        self.result.with_mut(|slot| unsafe { *slot = Some(result) });
        self.latch.count_down();
    }

    /// # Safety
    ///
    /// As for [`run_erased`](Self::run_erased).
    unsafe fn give_back_erased(frame: NonNull<()>) {
        // SAFETY: as in `run_erased`.
        let job = unsafe { frame.cast::<Self>().as_ref() };
        job.latch.count_down();
    }
}

/// Shares the job at `job` (for its entry to be pushed where thieves may
/// take it): names its owner, whose slot is `owner`, as the latch's waiter
/// and returns the queue entry to push. Called by the owner, which need not know the job's types (it may
/// be a nested `join`'s frame doing it).
///
/// # Safety
///
/// `job` is the address of a live `StackJob` whose vtable is `vtable`; the
/// owner keeps it in place until it popped the entry back or saw the latch
/// set.
pub(crate) unsafe fn share(
    job: NonNull<()>,
    vtable: &'static FrameVTable,
    owner: &WorkerSlot,
) -> FrameRef {
    // SAFETY: `StackJob` is `#[repr(C)]` with the latch first.
    let latch = unsafe { job.cast::<Latch>().as_ref() };
    latch.set_waiter(Waiter::Worker(owner));
    // SAFETY: per this function's contract.
    unsafe { FrameRef::new(job, vtable) }
}
