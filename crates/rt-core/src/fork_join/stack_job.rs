//! The second half of a `join`, on the joiner's stack: no allocation.
//!
//! A `StackJob` holds the closure, a slot for its result and a [`Latch`].
//! Its owner (the worker inside `join`) runs it itself unless it was shared
//! (pushed where thieves may take it) and somebody took it: then a thief
//! runs it through its [`FrameRef`] and counts the latch down, or `stop`
//! gives it back unrun (counts the latch down with no result). The owner
//! does not leave `join`, and so keeps the job alive, before it ran the job
//! itself or saw the latch set. Protocol: `JOIN_HELPING.md`.

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::ptr::NonNull;

use rt_handle::raw::RunnerTag;

use crate::fork_join::latch::Latch;
use crate::sync::thread::Thread;
use crate::sync::{AtomicUsize, Ordering, UnsafeCell};
use crate::worker::entry::{runner_index, runner_tag};
use crate::worker::entry::{FrameAction, FrameRef};
use crate::worker::with_current;
use crate::worker::JoinFrame;

/// What a closure of [`join_context`](crate::join_context) is told about
/// where it runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FnContext {
    migrated: bool,
}

impl FnContext {
    pub(crate) const MIGRATED: FnContext = FnContext { migrated: true };
    pub(crate) const HERE: FnContext = FnContext { migrated: false };

    /// Whether the closure runs on another thread than the one that called
    /// `join_context`: `b` taken by another worker, or the whole pair sent
    /// to the global runtime from a thread that is not a worker (rayon's
    /// meaning: a migrated half may split its work again).
    pub fn migrated(&self) -> bool {
        self.migrated
    }
}

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

/// Who runs a shared half, once a thief started it: a hint for
/// leapfroggers and for joiners that ask the runner to share, who check
/// under their lease what that worker really runs.
pub(crate) struct RunnerWord(
    /// The runner's tag (`ids::runner_tag`), 0 until a thief starts the
    /// half.
    AtomicUsize,
);

impl RunnerWord {
    /// The index of the worker running the half, while it runs (the half's
    /// latch is not set yet).
    pub(crate) fn get(&self, latch: &Latch) -> Option<usize> {
        // Relaxed: a hint (see above).
        let tag = RunnerTag::new(self.0.load(Ordering::Relaxed))?;
        (!latch.is_set()).then(|| runner_index(tag))
    }

    fn set(&self, runner: usize) {
        // Relaxed: a hint (see above).
        self.0.store(runner_tag(runner).get(), Ordering::Relaxed);
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
    pub(crate) fn new(func: F) -> Self {
        Self {
            latch: Latch::new(1),
            runner: RunnerWord(AtomicUsize::new(0)),
            func: UnsafeCell::new(Some(func)),
            result: UnsafeCell::new(None),
        }
    }

    /// The pending half this job is, to link into its unit's private list.
    pub(crate) fn frame(&self, older: *const JoinFrame) -> JoinFrame {
        JoinFrame {
            older,
            job: NonNull::from(self).cast(),
            execute: Self::execute,
            is_shared: std::cell::Cell::new(false),
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

    /// The job's entry, executed by its one taker: a thief runs it (inside
    /// the unit its worker opened for it) and sets the latch; `stop` gives
    /// it back.
    ///
    /// # Safety
    ///
    /// `frame` is the address of a live job of this type whose entry was
    /// made by [`share`], and this is the one call for that entry.
    unsafe fn execute(frame: NonNull<()>, action: FrameAction) {
        // SAFETY: per the contract, the owner keeps the job alive until the
        // latch is set, which both arms do last.
        let job = unsafe { frame.cast::<Self>().as_ref() };
        match action {
            FrameAction::Run => {
                let runner = with_current(|worker| {
                    worker.expect("a stolen join half runs on a worker").index()
                });
                job.run_stolen(runner);
            }
            FrameAction::GiveBack => job.latch.count_down(),
        }
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
}

/// Shares the pending half `frame` (for its entry to be pushed where
/// thieves may take it): names its owner, whose thread is `owner`, as the
/// latch's waiter and returns the queue entry to push. Called by the owner,
/// which need not know the job's types (it may be a nested `join`'s frame
/// doing it).
///
/// # Safety
///
/// `frame` is a live `StackJob`'s pending half; the owner keeps the job in
/// place until it popped the entry back or saw the latch set.
pub(crate) unsafe fn share(frame: &JoinFrame, owner: &Thread) -> FrameRef {
    // SAFETY: `StackJob` is `#[repr(C)]` with the latch first.
    let latch = unsafe { frame.job.cast::<Latch>().as_ref() };
    latch.set_waiter_worker(owner);
    // SAFETY: per this function's contract.
    unsafe { frame.frame_ref() }
}
