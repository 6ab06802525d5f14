//! A task without its types: the [`Header`] every cell begins with (the
//! state word, the vtable, the owner and stamp words, the waiter slot), the
//! [`VTable`] of the operations that need the cell's types, and the
//! protocol's steps written once for every cell type: on the header alone
//! (claim, status, register, park, wait) and through its pointer,
//! [`TaskRef`] (complete, cancel, run inline, run joined, tell the scope).
//!
//! Every cell is `#[repr(C)]` with its header first, so a pointer to the
//! cell is a pointer to its header: that thin pointer is what the queue
//! entry ([`Job`](crate::Job)), the handles and a `TaskRef` hold. The
//! protocol is `JOIN_STATE.md` beside this file; letting go and freeing
//! are at the end of this file ("Who frees a task's allocation").

use std::any::Any;
use std::fmt;
use std::marker::PhantomData;
use std::ptr::NonNull;
use std::task::Waker;

use crate::body_wrapper::BodyWrapper;
use crate::ids::{Awaited, PoolId, RunnerTag, ScopeId, Stamp, TaskId, OWNER_ALIGN, TAG_SHIFT};
use crate::panic_message::drop_quietly;
use crate::raw::listeners::{self, CancelListener};
use crate::raw::ScopeCompletion;
use crate::sync::{thread, AtomicU64, AtomicUsize, Ordering, UnsafeCell};
use crate::waiter::{Waiter, Wanted};
use crate::{JoinError, Priority, RunOutcome, TaskStatus};

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
// Bits 8 and 9: who still owns the cell (the end of this file lets go).
/// The queue side (the `Job`) has let go of the task.
pub(crate) const JOB_DONE: usize = 1 << 8;
/// The handle side has let go of the task (or it never had one).
pub(crate) const HANDLE_DONE: usize = 1 << 9;
/// With `COMPLETE`: the handle took the output (a poll returned `Ready`);
/// only the handle writes or reads it.
pub(crate) const TAKEN: usize = 1 << 10;
// Bits 11 to 14: a cancellation by a party that is not the queue side
// (`JOIN_STATE.md`, "Who counts a cancellation").
/// Set in the claim of a canceller that found the executor's listener
/// (`raw::listeners`): the canceller counts the task and tells
/// the executor; the queue entry, when taken, counts nothing.
pub(crate) const TOLD: usize = 1 << 11;
/// With `TOLD`: the canceller's count is done. The queue side waits for it
/// before it lets its entry go, so that every task is counted before the
/// executor can have finished (a window of a few instructions, no user
/// code).
pub(crate) const COUNTED: usize = 1 << 12;
/// With `RUNNING`: a token's cancel claimed the task, holding neither of
/// its sides, and is still at work on the cell (dropping the body,
/// completing it). The queue side must not let go meanwhile: whichever of
/// the two comes second lets go of the queue side (`QUEUE_LEFT`).
pub(crate) const PINNED: usize = 1 << 13;
/// With `PINNED`: the queue side was consumed while the token's cancel
/// still worked on the cell; that cancel lets go of the queue side for it.
pub(crate) const QUEUE_LEFT: usize = 1 << 14;
// With `RUNNING`: the runner's tag (an executor's own encoding of who
// runs the task, for joiners that help), in the bits from `TAG_SHIFT` up.
const _: () = assert!(QUEUE_LEFT << 1 == 1 << TAG_SHIFT);

/// The bits of `tag` in the state word (none without a tag).
#[inline(always)]
pub(crate) fn tag_bits(tag: Option<RunnerTag>) -> usize {
    rt_queue::path_step!();
    tag.map_or(0, RunnerTag::get) << TAG_SHIFT
}

/// The outcome bit a claimant publishes for `outcome`.
#[inline(always)]
pub(crate) fn outcome_bit(outcome: RunOutcome) -> usize {
    rt_queue::path_step!();
    match outcome {
        RunOutcome::Completed => 0,
        RunOutcome::Panicked => PANICKED,
        RunOutcome::Cancelled => CANCELLED,
        RunOutcome::Stale => unreachable!("a claimant ran or cancelled the task"),
    }
}

/// Whether a task that completed with these outcome bits left an output in
/// its stage (a value or a panic); a cancelled or rejected one left none.
#[inline(always)]
pub(crate) fn holds_output(state: usize) -> bool {
    state & (CANCELLED | REJECTED) == 0
}

/// Whether the state, seen `COMPLETE` by the handle, leaves an output for
/// it to take or drop: the task left one, and no poll took it.
#[inline(always)]
pub(crate) fn output_left(state: usize) -> bool {
    debug_assert!(state & COMPLETE != 0);
    holds_output(state) && state & TAKEN == 0
}

/// The priority classes in the owner word's low bits, by index.
const OWNER_CLASS_MASK: usize = OWNER_ALIGN - 1;
const _: () = assert!(Priority::COUNT <= OWNER_ALIGN);

/// Where a detached task's panic message goes (tasks with a handle send it
/// to the handle instead).
pub(crate) type PanicReport<'a> = &'a mut dyn FnMut(&str);

/// A panic's payload that nobody joined, on its way to the task's scope.
pub(crate) type Payload = Box<dyn Any + Send>;

/// The vtable entry that finds a scoped task's scope.
pub(crate) type ScopeOf = unsafe fn(NonNull<Header>) -> NonNull<dyn ScopeCompletion>;

/// The vtable entry that takes a task queued with a cancellation token
/// (`Job::cancellable`) off its token's list (`token.rs`).
pub(crate) type LeaveToken = unsafe fn(NonNull<Header>);

/// The operations that need a cell's types, one static table per cell type
/// (`TaskCell<F, T, C>`, `DetachedCell<F>`). Each takes the pointer to the
/// cell's header, which is the pointer to the cell. The protocol's steps
/// around them (claim, complete, wake, let go) are written once, on the
/// header and [`TaskRef`](crate::raw::TaskRef).
pub(crate) struct VTable {
    /// The queue side runs the task ([`JobControl::run_as`]): claims it, or
    /// runs it alone if its handle is gone, or finds it claimed; then lets
    /// go of the queue side, freeing the cell if it is the last. Typed from
    /// end to end, so that a worker makes one indirect call per task.
    ///
    /// [`JobControl::run_as`]: crate::raw::JobControl::run_as
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
    /// Takes the task off its cancellation token's list of queued tasks,
    /// if it is on it; `None` for every task of a type without a token.
    pub(crate) leave_token: Option<LeaveToken>,
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
    /// The executor that accepted the task (its `PoolId`, aligned to 4)
    /// and in the two low bits the index of the class it was queued at,
    /// or 0: a joiner on a worker of that executor may run the task
    /// inline or help, and a canceller tells that executor.
    owner: AtomicUsize,
    /// The executor's `Stamp`, or 0 (see `JobControl::set_stamp`).
    stamp: AtomicU64,
    /// Who the completion tells: written by the handle only while `WAITER`
    /// is clear, read by the completer once it found `WAITER` set.
    waiter: UnsafeCell<Option<Waiter>>,
}

impl Header {
    /// A header for a new cell: `state` holds the bits it is born with
    /// (`HANDLE_GONE | HANDLE_DONE` for a task without a handle).
    pub(crate) fn new(vtable: &'static VTable, state: usize) -> Self {
        rt_queue::path_step!();
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
        rt_queue::path_step!();
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
        rt_queue::path_step!();
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
        // own tag, which it wrote itself (its `ExecutorKind`'s `runs_here`).
        let state = self.state.load(Ordering::Relaxed);
        if state & (RUNNING | COMPLETE) == RUNNING {
            RunnerTag::new(state >> TAG_SHIFT)
        } else {
            None
        }
    }

    #[inline]
    pub(crate) fn owner(&self) -> Option<PoolId> {
        rt_queue::path_step!();
        // Relaxed: a joiner that misses the owner (it reads none) merely
        // parks instead of helping; the queue hand-off orders it for every
        // joiner that got the handle after the submission.
        PoolId::from_owner_word(self.owner.load(Ordering::Relaxed))
    }

    /// The executor that accepted the task and the class it queued it at,
    /// as a canceller that holds no side of the queue reads them: with
    /// Acquire, pairing with the Release of `set_owner`, so that what the
    /// executor did before (counting the task as submitted) happens
    /// before the canceller's count.
    #[inline]
    pub(crate) fn owner_and_class(&self) -> Option<(PoolId, Priority)> {
        let word = self.owner.load(Ordering::Acquire);
        let pool = PoolId::from_owner_word(word)?;
        let class = Priority::from_index(word & OWNER_CLASS_MASK)?;
        Some((pool, class))
    }

    #[inline]
    pub(crate) fn set_owner(&self, owner: PoolId, class: Priority) {
        rt_queue::path_step!();
        // Release pairs with the Acquire of `owner_and_class`: an executor
        // that counts its tasks (and registered a cancel listener) counts
        // the task as submitted before this store. A plain store on x86
        // (no read-modify-write); `PoolId`'s low bits are clear.
        self.owner
            .store(owner.get() | class.index(), Ordering::Release);
    }

    #[inline]
    pub(crate) fn stamp(&self) -> Option<Stamp> {
        // Relaxed: see `set_stamp`.
        Stamp::new(self.stamp.load(Ordering::Relaxed))
    }

    #[inline]
    pub(crate) fn set_stamp(&self, stamp: Stamp) {
        // Relaxed: written before the queue hand-off that orders it for
        // the worker that reads it.
        self.stamp.store(stamp.get(), Ordering::Relaxed);
    }

    /// Wakes the waiter. Called by the completer once its completing RMW
    /// found `WAITER` set.
    pub(crate) fn wake_waiter(&self) {
        rt_queue::path_step!();
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
            let same = self.waiter.with(|w| {
                // SAFETY: while WAITER is set nobody writes the slot (the
                // handle wrote it before setting WAITER; the completer
                // only reads).
                unsafe { (*w).as_ref().is_some_and(|w| w.is(&wanted)) }
            });
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

    /// Waits for the completion, polling a little ([`SpinThenPark`]), then
    /// parking: the state, seen with Acquire, so the output is visible.
    /// Only the handle calls it, on its own thread.
    pub(crate) fn wait(&self) -> usize {
        // A task about to finish costs polls instead of a park/unpark
        // round trip. Acquire, as every load of the wait: pairs with the
        // Release of the completer's RMW that sets COMPLETE, so the output
        // is visible.
        let mut state = 0;
        if SpinThenPark::poll(|| {
            state = self.state.load(Ordering::Acquire);
            state & COMPLETE != 0
        }) {
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

/// A task, for a thread that joins it and may help it along: what
/// [`Joining::task`](crate::raw::Joining::task) gives the `join` of an
/// executor's [`ExecutorKind`](crate::raw::ExecutorKind). One thin
/// pointer to the task's cell, valid for `'a` (the join that made it holds
/// the task's handle), and `Copy`.
///
/// It does not leave the thread that made it (it is neither `Send` nor
/// `Sync`): [`park_once`](Self::park_once) registers that thread as the
/// one the task's completion wakes, which only the handle's thread may do.
#[derive(Clone, Copy)]
pub struct TaskRef<'a> {
    header: NonNull<Header>,
    /// The cell outlives `'a`; the reference stays on its thread.
    _task: PhantomData<(&'a Header, *const ())>,
}

impl<'a> TaskRef<'a> {
    /// # Safety
    ///
    /// `header` points at the header of a live task cell, and the caller
    /// keeps one of the task's sides (its queue entry or its handle) for
    /// `'a`, so that the cell is not freed meanwhile.
    #[inline(always)]
    pub(crate) unsafe fn new(header: NonNull<Header>) -> Self {
        rt_queue::path_step!();
        Self {
            header,
            _task: PhantomData,
        }
    }

    #[inline(always)]
    pub(crate) fn header(self) -> &'a Header {
        rt_queue::path_step!();
        // SAFETY: the cell lives for `'a` (`new`'s contract).
        unsafe { self.header.as_ref() }
    }

    /// The task's identity, the same as its queue entry's
    /// ([`JobControl::id`](crate::raw::JobControl::id)).
    #[inline]
    pub fn id(self) -> TaskId {
        rt_queue::path_step!();
        TaskId::of(self.header)
    }

    /// The executor that accepted the task, if it said
    /// ([`JobControl::set_owner`](crate::raw::JobControl::set_owner)).
    pub fn owner(self) -> Option<PoolId> {
        rt_queue::path_step!();
        self.header().owner()
    }

    /// True once the task has completed.
    pub fn is_finished(self) -> bool {
        rt_queue::path_step!();
        self.header().is_finished()
    }

    /// While the task runs: the tag its runner recorded (see
    /// [`JobControl::run_as`](crate::raw::JobControl::run_as)).
    pub fn runner(self) -> Option<RunnerTag> {
        self.header().runner()
    }

    /// Runs the task on the calling thread if it has not started, recording
    /// `tag`, its body inside `wrapper` if one is given; `None` if somebody
    /// else has it. The caller counts the outcome; the queue entry, when
    /// taken, reports [`RunOutcome::Stale`].
    pub fn run_inline(
        self,
        tag: RunnerTag,
        wrapper: Option<BodyWrapper<'_>>,
    ) -> Option<RunOutcome> {
        self.header().claim(INLINE | tag_bits(Some(tag))).ok()?;
        // SAFETY: the claim succeeded, so this thread owns the stage.
        let outcome = unsafe { (self.header().vtable.call)(self.header, wrapper) };
        self.complete(outcome_bit(outcome));
        Some(outcome)
    }

    /// Cancels the task if it has not started (see
    /// [`JoinHandle::cancel`](crate::JoinHandle::cancel)): the body is
    /// dropped and the task completes as cancelled before this returns. If
    /// the executor that accepted the task registered a cancel listener
    /// (`raw::listeners`), it is told, and counts the task,
    /// before this returns too; its queue entry, when taken, counts nothing
    /// (`JOIN_STATE.md`, "Who counts a cancellation").
    pub fn cancel(self) -> bool {
        let header = self.header();
        // A task that started or ended (an awaited `CancelOnDrop`, say)
        // costs one load, no lookup. Relaxed: the claim below decides.
        if header.state.load(Ordering::Relaxed) & (RUNNING | COMPLETE) != 0 {
            return false;
        }
        // The owner is read before the claim: whether the claim says TOLD
        // is decided by what the canceller will do after it.
        let told = header
            .owner_and_class()
            .and_then(|(pool, class)| Some((listeners::find(pool)?, class)));
        let extra = if told.is_some() { TOLD } else { 0 };
        if header.claim(extra).is_err() {
            return false;
        }
        if let Some((listener, class)) = &told {
            self.count_told(&**listener, *class);
        }
        self.drop_body_and_complete(CANCELLED);
        true
    }

    /// A canceller whose claim said `TOLD` counts the task: it tells the
    /// listener, then sets `COUNTED`, which the queue side waits for.
    pub(crate) fn count_told(self, listener: &dyn CancelListener, class: Priority) {
        listener.cancelled_while_queued(class);
        // Release: the count happens before the queue side's Acquire load
        // that sees COUNTED, hence before the executor lets the entry go
        // (and, say, before its workers exit at shutdown).
        self.header().state.fetch_or(COUNTED, Ordering::Release);
    }

    /// Why the queue side's claim failed (`state`, seen by the claim or
    /// after it): who has the task, or how it ended, as the queue side
    /// counts it. Besides the queue side, only a joiner (with `INLINE`) or
    /// a cancel (without `INLINE`) claims a task, so a claim without
    /// `INLINE` is a cancellation: finished (`COMPLETE`) or still under
    /// way (`RUNNING`). A cancellation whose canceller told the executor
    /// (`TOLD`) was counted by it: the entry counts nothing, and leaves
    /// the executor's gauge of cancelled entries still queued.
    #[inline]
    pub(crate) fn claimed_by(self, state: usize) -> RunOutcome {
        debug_assert!(state & (RUNNING | COMPLETE) != 0);
        if state & INLINE != 0 {
            RunOutcome::Stale
        } else if state & TOLD != 0 {
            self.told_entry_taken();
            RunOutcome::Stale
        } else {
            RunOutcome::Cancelled
        }
    }

    /// The queue side takes the entry of a task whose canceller counted it
    /// (`TOLD`): waits until that count is done (`COUNTED`: the canceller
    /// sets it a few instructions after its claim, running no user code in
    /// between), so that the task is counted before its entry is gone, and
    /// tells the executor's listener that the entry left its queue.
    #[cold]
    #[inline(never)]
    fn told_entry_taken(self) {
        let header = self.header();
        // Acquire pairs with the Release of `count_told`'s `fetch_or`.
        while header.state.load(Ordering::Acquire) & COUNTED == 0 {
            thread::yield_now();
        }
        // The listener may be gone (the executor is being dropped, with
        // its queues): nothing is queued any more, nothing to tell.
        if let Some((pool, class)) = header.owner_and_class() {
            if let Some(listener) = listeners::find(pool) {
                listener.cancelled_entry_taken(class);
            }
        }
    }

    /// Leaves the cancellation token's list of queued tasks, if the task
    /// is on one: the first step of every consumption of the queue side
    /// (`token.rs`). Once it returns, no token's cancel can reach the cell
    /// any more, and one that claimed it before is seen.
    #[inline]
    pub(crate) fn leave_token(self) {
        if let Some(leave) = self.header().vtable.leave_token {
            // SAFETY: the cell is live (the queue side holds it) and of the
            // vtable's type.
            unsafe { leave(self.header) };
        }
    }

    /// The scope the task belongs to, if any
    /// ([`Job::scoped`](crate::Job::scoped)).
    #[inline]
    pub fn scope(self) -> Option<ScopeId> {
        rt_queue::path_step!();
        let scope_of = self.header().vtable.scope?;
        // SAFETY: the cell is live and of the vtable's type.
        Some(ScopeId::of(unsafe { scope_of(self.header) }))
    }

    /// The executor's stamp (see
    /// [`JobControl::set_stamp`](crate::raw::JobControl::set_stamp)).
    #[inline]
    pub fn stamp(self) -> Option<Stamp> {
        self.header().stamp()
    }

    /// Parks the calling thread once, unless the task has finished: it
    /// returns when the task completes, and possibly earlier (a spurious
    /// wake-up, or an `unpark` of the thread for another reason). Only the
    /// handle's own thread may call it, which a `TaskRef` from
    /// [`Joining`](crate::raw::Joining) is on.
    pub fn park_once(self) {
        self.header().park_once();
    }

    /// Who may still wait for the task (see `JobControl::awaited`).
    #[inline]
    pub(crate) fn awaited(self) -> Awaited {
        rt_queue::path_step!();
        if let Some(scope) = self.scope() {
            return Awaited::InScope(scope);
        }
        // Relaxed: HANDLE_GONE is never cleared, so a stale read can only
        // say "may be awaited", the cautious answer.
        if self.header().state.load(Ordering::Relaxed) & HANDLE_GONE == 0 {
            Awaited::ByHandle
        } else {
            Awaited::Never
        }
    }

    /// The claimant ends the task with `outcome` (0, `PANICKED`,
    /// `CANCELLED` or `REJECTED`); a value or a panic is in the stage
    /// already. Publishes `COMPLETE`, then drops the output if the handle
    /// is gone, or wakes the handle's waiter; then tells the scope, if any.
    pub(crate) fn complete(self, outcome: usize) {
        rt_queue::path_step!();
        let header = self.header();
        // RUNNING is set and COMPLETE and the outcome bits are clear, so
        // one XOR clears the first and sets the others, leaving WAITER,
        // INLINE, HANDLE_GONE and the tag untouched. Release publishes the
        // output to the handle; Acquire pairs with the handle's Release of
        // WAITER (its waiter) and of HANDLE_GONE.
        let prev = header
            .state
            .fetch_xor(RUNNING | COMPLETE | outcome, Ordering::AcqRel);
        let mut unjoined = None;
        if prev & HANDLE_GONE != 0 {
            if holds_output(outcome) {
                // SAFETY: the handle set HANDLE_GONE before COMPLETE, so it
                // will never touch the stage: the output is ours to drop.
                unjoined = unsafe { (header.vtable.drop_output)(self.header) };
            }
        } else if prev & WAITER != 0 {
            header.wake_waiter();
        }
        self.tell_completed(unjoined);
    }

    /// Tells the scope, if the task has one, that the task completed,
    /// handing it the payload of a panic nobody joined; a task outside
    /// scopes drops that payload quietly. Called once per task, after
    /// everything else the task owned has been dropped.
    pub(crate) fn tell_completed(self, unjoined_panic: Option<Payload>) {
        rt_queue::path_step!();
        match self.header().vtable.scope {
            Some(scope_of) => {
                // SAFETY: the cell is live and of the vtable's type; the
                // task completes once, and the scope does not end before
                // it heard of that completion (`Job::scoped`'s contract).
                unsafe { scope_of(self.header).as_ref() }.task_completed(unjoined_panic);
            }
            None => {
                if let Some(payload) = unjoined_panic {
                    drop_quietly(payload);
                }
            }
        }
    }

    /// The handle dropped the panic with `payload` without joining it:
    /// the scope hears of it; outside scopes it is dropped quietly.
    pub(crate) fn tell_dropped_panic(self, payload: Payload) {
        match self.header().vtable.scope {
            Some(scope_of) => {
                // The handle cannot outlive the scope (`ScopedJoinHandle`
                // carries `'scope`), and it drops a panic only once the task
                // completed, before the scope can have ended.
                // SAFETY: the cell is live and of the vtable's type, and so
                // is its scope.
                unsafe { scope_of(self.header).as_ref() }.handle_dropped_a_panic(payload)
            }
            None => drop_quietly(payload),
        }
    }

    /// Completes a task that has not started without running it, for the
    /// queue side (a drain's cancel, a rejection): no `TOLD`, since the
    /// queue side counts what it ends itself. On failure, the state that
    /// was found: somebody else claimed the task.
    pub(crate) fn finish_unrun(self, reason: JoinError) -> Result<(), usize> {
        self.header().claim(0)?;
        let bit = match reason {
            JoinError::Cancelled => CANCELLED,
            JoinError::Rejected => REJECTED,
            JoinError::Panicked(_) => unreachable!("an unrun task cannot have panicked"),
        };
        self.drop_body_and_complete(bit);
        Ok(())
    }

    /// The claimant of a task that has not started drops its body (a panic
    /// of its captures' `Drop` is contained) and completes it with
    /// `outcome` (`CANCELLED` or `REJECTED`).
    pub(crate) fn drop_body_and_complete(self, outcome: usize) {
        // SAFETY: the caller claimed the task, so this thread owns the
        // stage, which holds the body.
        unsafe { (self.header().vtable.drop_body)(self.header) };
        self.complete(outcome);
    }

    /// Runs the task for a thread that holds both of its sides (see
    /// `JobControl::run_joined`): nobody else reaches the cell, so the
    /// state word is only loaded and stored, and the queue side lets go
    /// (`JOB_DONE`) in the same store that completes the task. The handle
    /// then finds the output as after any completion, and frees the cell
    /// when it lets go (it sees `JOB_DONE`).
    pub(crate) fn run_joined(self, wrapper: Option<BodyWrapper<'_>>) -> RunOutcome {
        // A task queued with a token leaves the token's list first: after
        // that, no token's cancel reaches it, and one that claimed it
        // before is seen (the token's lock orders it).
        self.leave_token();
        let state = &self.header().state;
        // Relaxed: only this thread has touched the word since it took the
        // job from its queue and entered the handle's join, which ordered
        // every earlier write by other threads (and `leave_token`'s lock
        // orders a token's claim), unless a token's cancel still works on
        // the cell (`PINNED`), which the RMWs below handle.
        let current = state.load(Ordering::Relaxed);
        if current & (RUNNING | COMPLETE) != 0 {
            // Cancelled through the handle before the join, or by a token.
            let outcome = self.claimed_by(current);
            if current & PINNED != 0 {
                // SAFETY: the queue side is this thread's, and is done
                // with the cell; the handle side keeps it live.
                unsafe { release_queue_side(self.header, current) };
            } else {
                state.store(current | JOB_DONE, Ordering::Relaxed);
            }
            return outcome;
        }
        // SAFETY: this thread holds both sides, so it owns the stage.
        let outcome = unsafe { (self.header().vtable.call)(self.header, wrapper) };
        // Relaxed: the handle that reads the output next is on this thread.
        state.store(
            current | COMPLETE | outcome_bit(outcome) | JOB_DONE,
            Ordering::Relaxed,
        );
        self.tell_completed(None);
        outcome
    }
}

impl fmt::Debug for TaskRef<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("TaskRef")
            .field("id", &self.id())
            .field("status", &self.header().status())
            .finish()
    }
}

// Who frees a task's allocation: its two owners, the queue side (the
// [`Job`](crate::Job)) and the handle side, instead of a reference count.
//
// A task has at most two owners, so each owns one bit of the task's state
// word, set when it lets go: `JOB_DONE` and `HANDLE_DONE`. Whoever lets go
// second frees the allocation. A side that *sees* the other's bit already
// set (an Acquire load) knows the other will never touch the cell again,
// and frees it without writing anything: a task whose handle was dropped
// before it ran costs its worker no atomic read-modify-write at all, where
// an `Arc` costs two (the strong and the weak count) on top of the state
// machine's own. See `JOIN_STATE.md`, "Who frees the task".
//
// Letting go is a free function on the raw pointer to the cell's header,
// not a method: once one side has set its bit the other may free the cell
// at once, and no reference to the cell may still be live (as a function
// argument) on the first side when that happens. Freeing goes through the
// header's vtable (`dealloc`), which knows the cell's type and layout.

/// Lets go of the caller's side of the task (`mine` is `JOB_DONE` or
/// `HANDLE_DONE`): true if the other side had let go already, so that the
/// caller must free the cell (with the cell type's `dealloc`).
///
/// # Safety
///
/// `task` points at the header of a live cell, the caller owns side `mine`
/// and has not let go of it, and does not touch the cell again unless
/// this returns true.
#[inline(always)]
pub(crate) unsafe fn let_go(task: NonNull<Header>, mine: usize) -> bool {
    rt_queue::path_step!();
    let theirs = JOB_DONE ^ HANDLE_DONE ^ mine;
    // SAFETY: we still own our side, so the cell is live. The reference is
    // not used once our bit is set.
    let state = unsafe { &task.as_ref().state };
    // Acquire pairs with the Release of the other side's letting go: all
    // its accesses to the cell happened before it, so it is ours alone.
    state.load(Ordering::Acquire) & theirs != 0
        // Release: our accesses happen before the other side's free;
        // Acquire: as above, if the other side let go first.
        || state.fetch_or(mine, Ordering::AcqRel) & theirs != 0
}

/// Lets go of the caller's side of the task, freeing the allocation
/// ([`free`]) if the other side already has.
///
/// # Safety
///
/// As [`let_go`]; the cell came from `recycle::allocate`, and the caller
/// does not touch it again.
pub(crate) unsafe fn release(task: NonNull<Header>, mine: usize) {
    rt_queue::path_step!();
    // SAFETY: per this function's contract.
    if unsafe { let_go(task, mine) } {
        // SAFETY: both sides have let go and the other will not touch the
        // cell again.
        unsafe { free(task) };
    }
}

/// Lets go of the queue side of a task that somebody else claimed, `seen`
/// being a state (from the failed claim, or read after it) that shows the
/// claim. If a token's cancel claimed it and may still work on the cell
/// (`PINNED`), the queue side must not let go under it: it marks that it
/// left (`QUEUE_LEFT`), and the cancel lets go for it when done
/// ([`unpin`]); whichever of the two read-modify-writes comes second lets
/// go. Otherwise, as [`release`].
///
/// # Safety
///
/// As [`release`], for the queue side (`JOB_DONE`).
pub(crate) unsafe fn release_queue_side(task: NonNull<Header>, seen: usize) {
    if seen & PINNED != 0 {
        // SAFETY: the queue side is still ours, so the cell is live.
        let state = unsafe { &task.as_ref().state };
        // Release: the queue side's accesses happen before the cancel's
        // letting go for it (its AcqRel `fetch_and` reads this or later);
        // Acquire: if the cancel unpinned first, its accesses happen
        // before ours, and before a free by us.
        if state.fetch_or(QUEUE_LEFT, Ordering::AcqRel) & PINNED != 0 {
            // The cancel still works on the cell; it lets go for us.
            return;
        }
    }
    // SAFETY: per this function's contract.
    unsafe { release(task, JOB_DONE) };
}

/// A token's cancel, done with a task it claimed with `PINNED` (body
/// dropped, task completed), clears the pin; if the queue side was
/// consumed meanwhile (`QUEUE_LEFT`), it lets go of the queue side for it,
/// freeing the cell if the handle side let go too.
///
/// # Safety
///
/// `task` points at the header of a live cell (made by
/// `recycle::allocate`) that the caller claimed with `PINNED` and has not
/// unpinned; the caller does not touch the cell again.
pub(crate) unsafe fn unpin(task: NonNull<Header>) {
    // SAFETY: the pin keeps the queue side, hence the cell, live.
    let state = unsafe { &task.as_ref().state };
    // AcqRel: pairs with the queue side's `fetch_or(QUEUE_LEFT)`, as in
    // `release_queue_side`.
    if state.fetch_and(!PINNED, Ordering::AcqRel) & QUEUE_LEFT != 0 {
        // SAFETY: the queue side left its ownership to us, and this was
        // our last access.
        unsafe { release(task, JOB_DONE) };
    }
}

/// Frees the task's allocation through its vtable, dropping whatever the
/// cell still holds (a panic in that is contained); the block goes back to
/// the recycler (`recycle/`).
///
/// # Safety
///
/// `task` points at the header of a cell made by `recycle::allocate`, and
/// both sides have let go of it: the caller's is the last access.
pub(crate) unsafe fn free(task: NonNull<Header>) {
    rt_queue::path_step!();
    // SAFETY: the cell is still whole (nobody else touches it), and its
    // vtable is its own type's.
    unsafe { (task.as_ref().vtable.dealloc)(task) };
}

/// The handle is dropped: lets go of the handle side. If the task has not
/// completed, one CAS sets `HANDLE_GONE` (the completer drops the output)
/// and `HANDLE_DONE` together; otherwise the output, if the handle has not
/// taken it, is dropped here first (a panic's payload goes to the scope).
///
/// # Safety
///
/// `task` points at the header of a cell made by `recycle::allocate`, of
/// which the caller owns the handle side and has not let go; the caller
/// does not touch the cell again.
pub(crate) unsafe fn drop_handle(task: NonNull<Header>) {
    // SAFETY: the handle still owns its side, so the cell is live. The
    // reference is not used once the handle's bit is set.
    let state = unsafe { &task.as_ref().state };
    let mut current = state.load(Ordering::Acquire);
    while current & COMPLETE == 0 {
        // Release: the handle's accesses (a waiter it registered) happen
        // before the completer's and before the free; Acquire: if the job
        // side let go first, the cell is ours to free.
        match state.compare_exchange_weak(
            current,
            current | HANDLE_GONE | HANDLE_DONE,
            Ordering::AcqRel,
            Ordering::Acquire,
        ) {
            Ok(_) => {
                if current & JOB_DONE != 0 {
                    // SAFETY: both sides have let go.
                    unsafe { free(task) };
                }
                return;
            }
            Err(actual) => current = actual,
        }
    }
    // Complete (seen with Acquire): the output, if any, is visible and ours.
    if output_left(current) {
        // SAFETY: the handle still owns its side for the two calls below.
        let this = unsafe { TaskRef::new(task) };
        // SAFETY: the task completed and the handle has not taken the
        // output: the stage holds it, and nobody else touches it.
        if let Some(payload) = unsafe { (this.header().vtable.drop_output)(task) } {
            this.tell_dropped_panic(payload);
        }
    }
    // SAFETY: the handle's last access to the cell was just above.
    unsafe { release(task, HANDLE_DONE) };
}

// The one spin-then-park policy of the workspace's waits.

/// How long a thread polls for what it waits for before it parks: the one
/// policy of the waits that end when other threads finish work (a join on
/// a task's handle, rt-core's latch, the end of an rt-dag run).
///
/// A wait that ends within the polls costs no park/unpark round trip (tens
/// of microseconds on a VM, and the operating system's wake-up latency on
/// a loaded machine); one that does not has spent a few microseconds
/// before it parks. First [`SPINS`](Self::SPINS) polls with
/// [`spin_loop`](std::hint::spin_loop) between them, then
/// [`YIELDS`](Self::YIELDS) with `yield_now` between them, which on a
/// machine with fewer cores than busy threads lets the thread that ends
/// the wait run. The counts were chosen with
/// `crates/rt-dag/examples/chain_tail.rs` (`docs/BENCHMARKS.md`, "Waiting
/// for a short run").
///
/// The policy only polls: what the caller parks on, and who unparks it,
/// stays the caller's protocol, which must hold whether or not the polls
/// saw the end.
///
/// ```
/// use std::sync::atomic::{AtomicBool, Ordering};
/// use rt_handle::raw::SpinThenPark;
///
/// let done = AtomicBool::new(true);
/// assert!(SpinThenPark::poll(|| done.load(Ordering::Acquire)));
/// let never = AtomicBool::new(false);
/// // Spent every poll: the caller parks now.
/// assert!(!SpinThenPark::poll(|| never.load(Ordering::Acquire)));
/// ```
#[derive(Debug, Clone, Copy)]
pub struct SpinThenPark;

impl SpinThenPark {
    /// Polls with a busy pause between them.
    #[cfg(not(loom))]
    pub const SPINS: u32 = 64;
    /// Then polls with `yield_now` between them.
    #[cfg(not(loom))]
    pub const YIELDS: u32 = 8;
    /// Under loom every poll is a load the model checker branches on; one
    /// spin still covers both paths (seen while polling, seen only after
    /// parking) without multiplying the interleavings.
    #[cfg(loom)]
    pub const SPINS: u32 = 1;
    /// None under loom (see [`SPINS`](Self::SPINS)).
    #[cfg(loom)]
    pub const YIELDS: u32 = 0;

    /// Calls `ready` until it says true (then true), at most
    /// `SPINS + YIELDS + 1` times, pausing between calls as described
    /// above; false if it never did: the caller parks now.
    #[inline]
    pub fn poll(mut ready: impl FnMut() -> bool) -> bool {
        for round in 0..Self::SPINS + Self::YIELDS {
            if ready() {
                return true;
            }
            if round < Self::SPINS {
                std::hint::spin_loop();
            } else {
                thread::yield_now();
            }
        }
        ready()
    }
}
