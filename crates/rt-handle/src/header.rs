//! The part of every task's cell that does not depend on its types: the
//! state word, the vtable, the owner and stamp words and the waiter slot,
//! and what is done with them alone (claim, status, register, park, wait).
//!
//! Every cell is `#[repr(C)]` with its [`Header`] first, so a pointer to
//! the cell is a pointer to its header: that thin pointer is what the
//! queue entry ([`Job`](crate::Job)), the handles and a
//! [`TaskRef`](crate::executor_support::TaskRef) hold. What needs the
//! cell's types (its closure, its result, its scope, its layout) goes
//! through the header's [`VTable`], one static table per cell type. The
//! protocol is `JOIN_STATE.md` beside this file.

use std::any::Any;
use std::ptr::NonNull;
use std::task::Waker;

use crate::body_wrapper::BodyWrapper;
use crate::executor_support::ScopeCompletion;
use crate::ids::{PoolId, RunnerTag, Stamp};
use crate::ownership::{HANDLE_DONE, JOB_DONE};
use crate::panic_message::drop_quietly;
use crate::sync::{thread, AtomicU64, AtomicUsize, Ordering, UnsafeCell};
use crate::waiter::{Waiter, Wanted};
use crate::{RunOutcome, TaskStatus};

/// Someone owns the stage: the body is running (or about to).
pub(crate) const RUNNING: usize = 1 << 0;
/// The task has ended; its outcome bits are final.
pub(crate) const COMPLETE: usize = 1 << 1;
/// The handle stored a waiter (its thread, or its future's waker) in the
/// waiter slot, to be told of the completion.
pub(crate) const WAITER: usize = 1 << 2;
/// With `COMPLETE`: the body panicked; the stage holds the panic.
pub(crate) const PANICKED: usize = 1 << 3;
/// With `COMPLETE`: the task was cancelled; the body never ran (or
/// returned early for its token), and the stage holds nothing.
pub(crate) const CANCELLED: usize = 1 << 4;
/// With `COMPLETE`: the task was rejected; the body never ran, and the
/// stage holds nothing.
pub(crate) const REJECTED: usize = 1 << 5;
/// With `RUNNING`: a joiner claimed the task and runs it inline; it counts
/// the task, and the queue entry, when taken, is skipped.
pub(crate) const INLINE: usize = 1 << 6;
/// The handle is gone: nobody will take the output, so the completer drops
/// it (and a scope hears of an unjoined panic).
pub(crate) const HANDLE_GONE: usize = 1 << 7;
// Bits 8 and 9: `JOB_DONE` and `HANDLE_DONE`, who still owns the cell
// (`ownership.rs`).
/// With `COMPLETE`: the handle took the output (a poll returned `Ready`);
/// only the handle writes or reads it.
pub(crate) const TAKEN: usize = 1 << 10;
/// With `RUNNING`: the runner's tag (an executor's own encoding of who runs
/// the task, for joiners that help), in the bits from here up.
const TAG_SHIFT: u32 = 11;

/// The largest runner tag the state word can hold.
pub(crate) const MAX_TAG: usize = usize::MAX >> TAG_SHIFT;

const _: () = assert!(JOB_DONE == 1 << 8 && HANDLE_DONE == 1 << 9);

/// The bits of `tag` in the state word (none without a tag).
#[inline(always)]
pub(crate) fn tag_bits(tag: Option<RunnerTag>) -> usize {
    tag.map_or(0, RunnerTag::get) << TAG_SHIFT
}

/// The outcome bit a claimant publishes for `outcome`.
#[inline(always)]
pub(crate) fn outcome_bit(outcome: RunOutcome) -> usize {
    match outcome {
        RunOutcome::Completed => 0,
        RunOutcome::Panicked => PANICKED,
        RunOutcome::Cancelled => CANCELLED,
        RunOutcome::Skipped => unreachable!("a claimant ran or cancelled the task"),
    }
}

/// Whether a task that completed with these outcome bits left an output in
/// its stage (a value or a panic); a cancelled or rejected one left none.
#[inline(always)]
pub(crate) fn holds_output(state: usize) -> bool {
    state & (CANCELLED | REJECTED) == 0
}

/// Why the queue side's claim failed: who has the task, or how it ended.
/// Besides the queue side, only a joiner (with `INLINE`) or a cancel
/// (without `INLINE`) claims a task, so a claim without `INLINE` is a
/// cancellation: finished (`COMPLETE`) or still dropping the body
/// (`RUNNING`).
pub(crate) fn claimed_by(state: usize) -> RunOutcome {
    if state & INLINE != 0 {
        RunOutcome::Skipped
    } else {
        debug_assert!(state & (RUNNING | COMPLETE) != 0);
        RunOutcome::Cancelled
    }
}

/// Spins before parking in `join`: a task that is about to finish costs a
/// few hundred nanoseconds of spinning instead of a park/unpark round trip
/// (tens of microseconds on a VM).
#[cfg(not(loom))]
const JOIN_SPINS: u32 = 64;
/// Under loom every spin is a load the model checker branches on; one spin
/// still covers both paths (seen while spinning, seen only after parking)
/// without multiplying the interleavings by 64.
#[cfg(loom)]
const JOIN_SPINS: u32 = 1;

/// Where a detached task's panic message goes (tasks with a handle send it
/// to the handle instead).
pub(crate) type PanicReport<'a> = &'a mut dyn FnMut(&str);

/// A panic's payload that nobody joined, on its way to the task's scope.
pub(crate) type Payload = Box<dyn Any + Send>;

/// The vtable entry that finds a scoped task's scope.
pub(crate) type ScopeOf = unsafe fn(NonNull<Header>) -> NonNull<dyn ScopeCompletion>;

/// The operations that need a cell's types, one static table per cell type
/// (`TaskCell<F, T, C>`, `DetachedCell<F>`). Each takes the pointer to the
/// cell's header, which is the pointer to the cell. The protocol's steps
/// around them (claim, complete, wake, let go) are written once, on the
/// header and [`TaskRef`](crate::executor_support::TaskRef).
pub(crate) struct VTable {
    /// The queue side runs the task ([`JobControl::run_as`]): claims it, or
    /// runs it alone if its handle is gone, or finds it claimed; then lets
    /// go of the queue side, freeing the cell if it is the last. Typed from
    /// end to end, so that a worker makes one indirect call per task.
    ///
    /// [`JobControl::run_as`]: crate::executor_support::JobControl::run_as
    pub(crate) run: unsafe fn(
        NonNull<Header>,
        Option<RunnerTag>,
        PanicReport<'_>,
        Option<BodyWrapper<'_>>,
    ) -> RunOutcome,
    /// Runs the body of a task the caller claimed (or holds both sides
    /// of), inside the wrapper if one is given, and stores its output in
    /// the stage; says how it ended. Nothing is published.
    pub(crate) call: unsafe fn(NonNull<Header>, Option<BodyWrapper<'_>>) -> RunOutcome,
    /// Drops the body of a task the caller claimed without running it (a
    /// panic of its captures' `Drop` is contained).
    pub(crate) drop_body: unsafe fn(NonNull<Header>),
    /// Moves the output (a value or a panic) out of the stage, as a
    /// `Result<T, JoinError>` written to the second pointer, which points
    /// at room for one of the cell's `T`.
    pub(crate) take_output: unsafe fn(NonNull<Header>, NonNull<()>),
    /// Drops the output nobody will take (a panic of its `Drop` is
    /// contained); a panic's payload is handed back for the scope.
    pub(crate) drop_output: unsafe fn(NonNull<Header>) -> Option<Payload>,
    /// The scope the task reports to; `None` for every task of a type
    /// outside scopes, so that asking costs no call.
    pub(crate) scope: Option<ScopeOf>,
    /// Drops what the cell still holds and gives its block back to the
    /// recycler (`recycle/`), with the cell's layout.
    pub(crate) dealloc: unsafe fn(NonNull<Header>),
}

/// The first field of every task cell: what the protocol needs whatever
/// the task's types.
///
/// ```text
///  ┌─ Header ───────────────────────────────────────────┐
///  │ state   AtomicUsize   flags, owners, runner tag    │
///  │ vtable  &'static VTable   the cell type's table    │
///  │ owner   AtomicUsize   PoolId of the executor, or 0 │
///  │ stamp   AtomicU64     the executor's Stamp, or 0   │
///  │ waiter  Option<Waiter>  a parked thread or a waker │
///  └────────────────────────────────────────────────────┘
///  then, per cell type: the scope (for a scope's task) and the stage
///  (closure → output), or a detached task's closure
/// ```
#[repr(C)]
pub(crate) struct Header {
    /// Flag bits, ownership bits and the runner's tag (`JOIN_STATE.md`).
    pub(crate) state: AtomicUsize,
    /// The operations that need the cell's types.
    pub(crate) vtable: &'static VTable,
    /// The executor that accepted the task (its `PoolId`), or 0: a joiner
    /// on a worker of that executor may run the task inline or help.
    owner: AtomicUsize,
    /// The executor's `Stamp`, or 0 (see `JobControl::set_stamp`).
    stamp: AtomicU64,
    /// Who the completion tells: written by the handle only while `WAITER`
    /// is clear, read by the completer once it found `WAITER` set.
    waiter: UnsafeCell<Option<Waiter>>,
}

// SAFETY: the waiter slot is written by the handle's thread only while
// `WAITER` is clear and read by others only once they saw it set (the
// protocol in `JOIN_STATE.md`); everything else is atomic. A `Waiter`
// (a `Thread` or a `Waker`) is itself `Send + Sync`.
unsafe impl Sync for Header {}
// SAFETY: as above.
unsafe impl Send for Header {}

impl Header {
    /// A header for a new cell: `state` holds the bits it is born with
    /// (`HANDLE_GONE | HANDLE_DONE` for a task without a handle).
    pub(crate) fn new(vtable: &'static VTable, state: usize) -> Self {
        Self {
            state: AtomicUsize::new(state),
            vtable,
            owner: AtomicUsize::new(0),
            stamp: AtomicU64::new(0),
            waiter: UnsafeCell::new(None),
        }
    }

    /// Claims the stage if the task has not started: sets `RUNNING` and
    /// `extra`. On failure, the state that was found.
    #[inline]
    pub(crate) fn claim(&self, extra: usize) -> Result<(), usize> {
        let mut state = self.state.load(Ordering::Relaxed);
        loop {
            if state & (RUNNING | COMPLETE) != 0 {
                return Err(state);
            }
            // Acquire: the stage was written by the submitting thread; the
            // queue hand-off already orders that, but a canceller or a
            // joiner on a third thread may reach the stage only through
            // this word.
            match self.state.compare_exchange_weak(
                state,
                state | RUNNING | extra,
                Ordering::Acquire,
                Ordering::Relaxed,
            ) {
                Ok(_) => return Ok(()),
                Err(actual) => state = actual,
            }
        }
    }

    pub(crate) fn is_finished(&self) -> bool {
        // Acquire: a caller that sees COMPLETE goes on to the output,
        // published by the completer's Release.
        self.state.load(Ordering::Acquire) & COMPLETE != 0
    }

    pub(crate) fn status(&self) -> TaskStatus {
        // Acquire, as in `is_finished`.
        let state = self.state.load(Ordering::Acquire);
        if state & COMPLETE == 0 {
            if state & RUNNING != 0 {
                TaskStatus::Running
            } else {
                TaskStatus::Queued
            }
        } else if state & PANICKED != 0 {
            TaskStatus::Panicked
        } else if state & CANCELLED != 0 {
            TaskStatus::Cancelled
        } else if state & REJECTED != 0 {
            TaskStatus::Rejected
        } else {
            TaskStatus::Finished
        }
    }

    /// The tag of whoever runs the task, while it runs (if it tagged it).
    pub(crate) fn runner(&self) -> Option<RunnerTag> {
        // Relaxed: the tag is a hint. A joiner uses it to choose whose
        // deques to leapfrog from, which rt-core checks again under its
        // own lease (`JOIN_HELPING.md`), and a runner compares it with its
        // own tag, which it wrote itself (`WaitHelp::runs_here`).
        let state = self.state.load(Ordering::Relaxed);
        if state & (RUNNING | COMPLETE) == RUNNING {
            RunnerTag::new(state >> TAG_SHIFT)
        } else {
            None
        }
    }

    pub(crate) fn owner(&self) -> Option<PoolId> {
        // Relaxed: see `set_owner`.
        PoolId::from_raw(self.owner.load(Ordering::Relaxed))
    }

    pub(crate) fn set_owner(&self, owner: PoolId) {
        // Relaxed: a joiner that misses the owner (it reads none) merely
        // parks instead of helping; the queue hand-off orders it for every
        // joiner that got the handle after the submission.
        self.owner.store(owner.get(), Ordering::Relaxed);
    }

    pub(crate) fn stamp(&self) -> Option<Stamp> {
        // Relaxed: see `set_stamp`.
        Stamp::new(self.stamp.load(Ordering::Relaxed))
    }

    pub(crate) fn set_stamp(&self, stamp: Stamp) {
        // Relaxed: written before the queue hand-off that orders it for
        // the worker that reads it.
        self.stamp.store(stamp.get(), Ordering::Relaxed);
    }

    /// Wakes the waiter. Called by the completer once its completing RMW
    /// found `WAITER` set.
    pub(crate) fn wake_waiter(&self) {
        // The handle wrote the slot before setting WAITER (the completer's
        // Acquire pairs with that Release), and with COMPLETE set it can no
        // longer clear WAITER to write again; reads on two threads are fine.
        self.waiter.with(|w| {
            // SAFETY: so nobody writes the slot while we read it.
            if let Some(waiter) = unsafe { &*w } {
                waiter.wake();
            }
        });
    }

    /// Makes `wanted` the one told of the completion (the handle's thread,
    /// or its future's waker), replacing an earlier, different waiter. On
    /// failure the task has completed: the state seen (with Acquire, so
    /// the output is visible). Only the handle calls it.
    fn register(&self, wanted: Wanted<'_>) -> Result<(), usize> {
        let mut state = self.state.load(Ordering::Acquire);
        if state & COMPLETE != 0 {
            return Err(state);
        }
        if state & WAITER != 0 {
            // SAFETY: while WAITER is set nobody writes the slot (the
            // handle wrote it before setting WAITER; the completer only
            // reads).
            let same = self
                .waiter
                .with(|w| unsafe { (*w).as_ref().is_some_and(|w| w.is(&wanted)) });
            if same {
                return Ok(());
            }
            // Take the slot back: with WAITER clear and COMPLETE not set,
            // the completer has not read it and will not (it reads only if
            // its RMW finds WAITER). Relaxed on success: the slot's last
            // writer is this thread. Acquire on failure: COMPLETE is set
            // and the output must be visible.
            loop {
                match self.state.compare_exchange_weak(
                    state,
                    state & !WAITER,
                    Ordering::Relaxed,
                    Ordering::Acquire,
                ) {
                    Ok(_) => break,
                    Err(actual) if actual & COMPLETE != 0 => return Err(actual),
                    Err(actual) => state = actual,
                }
            }
        }
        let waiter = Waiter::new(&wanted);
        // SAFETY: WAITER is clear and COMPLETE was not set when we last
        // looked, so the completer will not read the slot before it sees
        // the WAITER we set below; nobody else touches it.
        let old = self.waiter.with_mut(|w| unsafe { (*w).replace(waiter) });
        // Release publishes the waiter to the completer's Acquire; Acquire
        // makes the output visible if the task completed meanwhile.
        let prev = self.state.fetch_or(WAITER, Ordering::AcqRel);
        // A replaced waker is the async runtime's code: drop it after the
        // new waiter is published, and never unwind from its drop.
        drop_quietly(old);
        if prev & COMPLETE != 0 {
            Err(prev | WAITER)
        } else {
            Ok(())
        }
    }

    /// Parks the calling thread (the handle's) once, unless the task has
    /// completed; it may return early (a spurious wake-up, or an unpark
    /// meant for something else). The caller loops until finished.
    pub(crate) fn park_once(&self) {
        if self.register(Wanted::CurrentThread).is_ok() {
            thread::park();
        }
    }

    /// The handle polled as a future: the state, once the task completed
    /// (seen with Acquire, so the output is visible); otherwise `waker` is
    /// woken when it does. Only the handle calls it.
    pub(crate) fn poll_completion(&self, waker: &Waker) -> Option<usize> {
        let state = self.state.load(Ordering::Acquire);
        if state & COMPLETE != 0 {
            return Some(state);
        }
        self.register(Wanted::Waker(waker)).err()
    }

    /// Waits for the completion, spinning a little, then parking: the
    /// state, seen with Acquire, so the output is visible. Only the handle
    /// calls it, on its own thread.
    pub(crate) fn wait(&self) -> usize {
        let mut state = self.state.load(Ordering::Acquire);
        let mut spins = 0;
        while state & COMPLETE == 0 && spins < JOIN_SPINS {
            std::hint::spin_loop();
            spins += 1;
            state = self.state.load(Ordering::Acquire);
        }
        if state & COMPLETE != 0 {
            return state;
        }
        if let Err(state) = self.register(Wanted::CurrentThread) {
            return state;
        }
        // `park` may return spuriously, or for an unpark meant for an
        // earlier join on this thread: only COMPLETE ends the wait.
        loop {
            let state = self.state.load(Ordering::Acquire);
            if state & COMPLETE != 0 {
                return state;
            }
            thread::park();
        }
    }
}
