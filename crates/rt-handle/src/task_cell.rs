//! One allocation per task: the closure, the state word, the result slot and
//! the joiner's thread, driven by an atomic state machine.
//!
//! See `JOIN_STATE.md` beside this file for the protocol and why its orderings
//! suffice. In short: whoever moves the state out of "not started" (a worker
//! running the task, a joiner running it inline, or a canceller) owns the
//! stage exclusively until it sets `COMPLETE`; after `COMPLETE` the single
//! handle owns it, or, if the handle is gone, the completer drops the result
//! at once.

use std::any::Any;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::ptr::NonNull;
use std::task::{Poll, Waker};

use crate::body_wrapper::{call_wrapped, BodyWrapper};
use crate::ids::{Awaited, PoolId, RunnerTag, ScopeId, Stamp, TaskId};
use crate::ownership::{free, release, state_of, HANDLE_DONE, JOB_DONE};
use crate::panic_message::drop_quietly;
use crate::sync::{thread, AtomicU64, AtomicUsize, Ordering, UnsafeCell};
use crate::waiter::{Waiter, Wanted};
use crate::{JoinError, PanicMessage, TaskStatus};

/// Someone owns the stage: the body is running (or about to).
pub(crate) const RUNNING: usize = 1 << 0;
/// The stage holds the final result; the handle owns it.
pub(crate) const COMPLETE: usize = 1 << 1;
/// The handle stored a waiter (its thread, or its future's waker) in
/// `waiter`, to be told of the completion.
pub(crate) const WAITER: usize = 1 << 2;
/// With `COMPLETE`: the result is `Err(Panicked)`.
pub(crate) const PANICKED: usize = 1 << 3;
/// With `COMPLETE`: the result is `Err(Cancelled)`; the body never ran.
pub(crate) const CANCELLED: usize = 1 << 4;
/// With `COMPLETE`: the result is `Err(Rejected)`; the body never ran.
pub(crate) const REJECTED: usize = 1 << 5;
/// With `RUNNING`: a joiner claimed the task and runs it inline; it counts
/// the task, and the queue entry, when taken, is skipped.
pub(crate) const INLINE: usize = 1 << 6;
/// The handle is gone: nobody will take the result, so the completer drops
/// it (and a scope hears of an unjoined panic).
pub(crate) const HANDLE_GONE: usize = 1 << 7;
// Bits 8 and 9: `JOB_DONE` and `HANDLE_DONE`, who still owns the cell
// (`ownership.rs`).
/// With `RUNNING`: the runner's tag (an executor's own encoding of who runs
/// the task, for joiners that help), in the bits from here up.
const TAG_SHIFT: u32 = 10;

/// The largest runner tag the state word can hold.
pub(crate) const MAX_TAG: usize = usize::MAX >> TAG_SHIFT;

/// The bits of `tag` in the state word (none without a tag).
#[inline(always)]
fn tag_bits(tag: Option<RunnerTag>) -> usize {
    tag.map_or(0, RunnerTag::get) << TAG_SHIFT
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

/// How a call to [`Job::run`](crate::Job::run) ended, for the executor's
/// metrics.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum RunOutcome {
    /// The body ran and returned a value.
    Completed,
    /// The body ran and panicked; the panic was caught.
    Panicked,
    /// The body did not run: its token was cancelled before it started, or
    /// the task was cancelled while it waited in a queue.
    Cancelled,
    /// Nothing to count: this queue entry is stale, because a thread that
    /// joined the task ran it inline and counted it there.
    Skipped,
}

/// How a queue entry taken out without running (`JobControl::discard`)
/// ended its task, for an executor that counts what it cancelled.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Discarded {
    /// This call cancelled the task: its body will never run.
    Cancelled,
    /// The task had been cancelled before (through its handle): the entry
    /// counts that cancellation, which this call did not make.
    AlreadyCancelled,
    /// A joiner runs or ran the task, and counts it: nothing to count.
    Skipped,
}

impl Discarded {
    /// What the executor's metrics count for the entry.
    pub fn outcome(self) -> RunOutcome {
        match self {
            Discarded::Cancelled | Discarded::AlreadyCancelled => RunOutcome::Cancelled,
            Discarded::Skipped => RunOutcome::Skipped,
        }
    }
}

/// What happens, besides storing the result, when a task completes: a
/// scope counts its tasks down with it. `()` for plain tasks.
pub(crate) trait Completion: Send + Sync {
    /// The task completed; `unjoined_panic` is the payload of its panic if
    /// it panicked and its handle was already gone (nobody will ever see
    /// that panic). Called after everything else the task owned has been
    /// dropped.
    fn completed(&self, unjoined_panic: Option<Box<dyn Any + Send>>);
    /// A handle dropped the panic with this payload without joining it.
    fn dropped_unjoined_panic(&self, payload: Box<dyn Any + Send>);
    /// The identity of the scope the task belongs to, or 0.
    fn scope(&self) -> Option<ScopeId>;
}

/// Plain tasks: an unjoined panic's payload is dropped, quietly.
impl Completion for () {
    #[inline]
    fn completed(&self, unjoined_panic: Option<Box<dyn Any + Send>>) {
        if let Some(payload) = unjoined_panic {
            drop_quietly(payload);
        }
    }
    #[inline]
    fn dropped_unjoined_panic(&self, payload: Box<dyn Any + Send>) {
        drop_quietly(payload);
    }
    #[inline]
    fn scope(&self) -> Option<ScopeId> {
        None
    }
}

/// A result nobody will take: the payload of a panic, to hand to the
/// completion; anything else (a value, `Cancelled`) is dropped here, with a
/// panic of its `Drop` contained.
#[inline(always)]
fn unjoined_panic<T>(result: Result<T, JoinError>) -> Option<Box<dyn Any + Send>> {
    match result {
        Ok(value) => {
            drop_quietly(value);
            None
        }
        Err(JoinError::Panicked(message)) => Some(message.into_payload()),
        // `Cancelled` and `Rejected` hold nothing.
        Err(_) => None,
    }
}

enum Stage<F, T> {
    Pending(F),
    Running,
    Done(Result<T, JoinError>),
    Taken,
}

/// `#[repr(C)]` with the state word first: `ownership::release` reaches it
/// through the cell's pointer.
#[repr(C)]
pub(crate) struct TaskCell<F, T, C = ()> {
    state: AtomicUsize,
    /// The executor that accepted the task (its `PoolId`), or 0: a joiner
    /// on a worker of that executor may run the task inline or help.
    owner: AtomicUsize,
    /// The executor's `Stamp`, or 0 (see `JobControl::set_stamp`).
    stamp: AtomicU64,
    stage: UnsafeCell<Stage<F, T>>,
    waiter: UnsafeCell<Option<Waiter>>,
    completion: C,
}

// SAFETY: the cell moves `F` and `T` between threads (submitter → runner →
// joiner) but never shares a `&F` or `&T`: the state machine gives exactly one
// thread access to `stage` at a time, and to `waiter` (see the protocol doc).
// So `F: Send` and `T: Send` suffice for both `Send` and `Sync`; `C` is shared
// and must be `Sync` itself.
unsafe impl<F: Send, T: Send, C: Send + Sync> Send for TaskCell<F, T, C> {}
// SAFETY: as above.
unsafe impl<F: Send, T: Send, C: Send + Sync> Sync for TaskCell<F, T, C> {}

/// Why the queue side's claim failed: who has the task, or how it ended.
/// Besides the queue side, only a joiner (with `INLINE`) or `finish_unrun`
/// (a cancel, without `INLINE`) claims a task, so a claim without `INLINE`
/// is a cancellation: finished (`COMPLETE`) or still dropping the body
/// (`RUNNING`).
fn claimed_by(state: usize) -> RunOutcome {
    if state & INLINE != 0 {
        RunOutcome::Skipped
    } else {
        debug_assert!(state & (RUNNING | COMPLETE) != 0);
        RunOutcome::Cancelled
    }
}

impl<F, T, C> TaskCell<F, T, C>
where
    F: FnOnce() -> Result<T, JoinError>,
    C: Completion,
{
    pub(crate) fn new(body: F, completion: C) -> Self {
        Self {
            state: AtomicUsize::new(0),
            owner: AtomicUsize::new(0),
            stamp: AtomicU64::new(0),
            stage: UnsafeCell::new(Stage::Pending(body)),
            waiter: UnsafeCell::new(None),
            completion,
        }
    }

    /// Claims the stage if the task has not started: sets `RUNNING` and
    /// `extra`. On failure, the state that was found.
    #[inline]
    fn claim(&self, extra: usize) -> Result<(), usize> {
        let mut state = self.state.load(Ordering::Relaxed);
        loop {
            if state & (RUNNING | COMPLETE) != 0 {
                return Err(state);
            }
            // Acquire: the stage was written by `new` on the submitting thread;
            // the queue hand-off already orders that, but a canceller or a
            // joiner on a third thread may reach the stage only through this
            // word.
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

    /// Runs the body (inside `wrapper`) if nobody claimed the task first,
    /// recording `tag` as the runner's. Called by the queue side (the `Job`).
    // Always inlined into the vtable's `run`: one frame per task, not two.
    #[inline(always)]
    pub(crate) fn run(
        &self,
        tag: Option<RunnerTag>,
        wrapper: Option<BodyWrapper<'_>>,
    ) -> RunOutcome {
        // Acquire pairs with the Release of the handle's letting go: the
        // handle is done with the cell for good, and only the handle could
        // claim, cancel or join the task besides this queue side.
        if self.state.load(Ordering::Acquire) & (HANDLE_DONE | RUNNING | COMPLETE) == HANDLE_DONE {
            return self.run_alone(wrapper);
        }
        match self.claim(tag_bits(tag)) {
            Ok(()) => self.run_claimed(wrapper),
            Err(state) => claimed_by(state),
        }
    }

    /// Runs the body (inside `wrapper`) on a joiner's thread if the task
    /// has not started; `None` if somebody else has it (or it ended).
    pub(crate) fn run_inline(
        &self,
        tag: RunnerTag,
        wrapper: Option<BodyWrapper<'_>>,
    ) -> Option<RunOutcome> {
        self.claim(INLINE | tag_bits(Some(tag))).ok()?;
        Some(self.run_claimed(wrapper))
    }

    /// Runs the task for a thread that holds both of its sides (see
    /// `JobControl::run_joined`): nobody else reaches the cell, so the
    /// state word is only loaded and stored, and the queue side lets go
    /// (`JOB_DONE`) in the same store that completes the task. The handle
    /// then finds the result as after any completion, and frees the cell
    /// when it lets go (it sees `JOB_DONE`).
    pub(crate) fn run_joined(&self, wrapper: Option<BodyWrapper<'_>>) -> RunOutcome {
        // Relaxed: only this thread has touched the word since it took the
        // job from its queue and entered the handle's join, which ordered
        // every earlier write by other threads.
        let state = self.state.load(Ordering::Relaxed);
        if state & (RUNNING | COMPLETE) != 0 {
            // Cancelled through the handle before the join.
            self.state.store(state | JOB_DONE, Ordering::Relaxed);
            return claimed_by(state);
        }
        let (result, outcome_bit, outcome) = call_wrapped(wrapper, self.take_body(), Self::call);
        // SAFETY: the caller holds both sides, so nobody else reads or
        // writes the stage.
        self.stage
            .with_mut(|stage| unsafe { *stage = Stage::Done(result) });
        // Relaxed: the handle that reads the result next is on this thread.
        self.state
            .store(state | COMPLETE | outcome_bit | JOB_DONE, Ordering::Relaxed);
        self.completion.completed(None);
        outcome
    }

    /// Runs the body of a task nobody else can reach any more (its handle
    /// let go before it started): no claim, no completion to publish. The
    /// result is dropped at once, as a completer does when the handle is
    /// gone.
    fn run_alone(&self, wrapper: Option<BodyWrapper<'_>>) -> RunOutcome {
        let (result, _, outcome) = call_wrapped(wrapper, self.take_body(), Self::call);
        self.completion.completed(unjoined_panic(result));
        outcome
    }

    fn run_claimed(&self, wrapper: Option<BodyWrapper<'_>>) -> RunOutcome {
        let (result, outcome_bit, outcome) = call_wrapped(wrapper, self.take_body(), Self::call);
        self.complete(result, outcome_bit);
        outcome
    }

    /// Takes the body out of the stage.
    fn take_body(&self) -> F {
        // SAFETY: called by the stage's owner (the claimer, or the queue
        // side once the handle let go), before it completes the task; no
        // other thread reads or writes the stage meanwhile.
        self.stage.with_mut(|stage| unsafe {
            match std::mem::replace(&mut *stage, Stage::Running) {
                Stage::Pending(body) => body,
                _ => unreachable!("a claimed task holds its body"),
            }
        })
    }

    /// Runs `body`, catching a panic: the result, its outcome bit and what
    /// to count.
    fn call(body: F) -> (Result<T, JoinError>, usize, RunOutcome) {
        match catch_unwind(AssertUnwindSafe(body)) {
            Ok(Ok(value)) => (Ok(value), 0, RunOutcome::Completed),
            Ok(Err(JoinError::Cancelled)) => {
                (Err(JoinError::Cancelled), CANCELLED, RunOutcome::Cancelled)
            }
            Ok(Err(other)) => unreachable!("a body only reports cancellation, not {other:?}"),
            Err(payload) => (
                Err(JoinError::Panicked(PanicMessage::from_payload(payload))),
                PANICKED,
                RunOutcome::Panicked,
            ),
        }
    }

    /// Completes a task that has not started without running it: used for
    /// cancellation and rejection. False when it had already started.
    pub(crate) fn finish_unrun(&self, reason: JoinError) -> bool {
        if self.claim(0).is_err() {
            return false;
        }
        let bit = match reason {
            JoinError::Cancelled => CANCELLED,
            JoinError::Rejected => REJECTED,
            JoinError::Panicked(_) => unreachable!("an unrun task cannot have panicked"),
        };
        // SAFETY: `claim` succeeded, so this thread owns the stage.
        let body = self
            .stage
            .with_mut(|stage| unsafe { std::mem::replace(&mut *stage, Stage::Running) });
        // The closure's captures may panic when dropped; that must not unwind
        // into a worker or a canceller.
        drop_quietly(body);
        self.complete(Err(reason), bit);
        true
    }

    /// Takes a queue entry out without running it (`stop`): cancels the
    /// task if it has not started, and says who ended it.
    pub(crate) fn discard(&self) -> Discarded {
        if self.finish_unrun(JoinError::Cancelled) {
            return Discarded::Cancelled;
        }
        match claimed_by(self.state.load(Ordering::Acquire)) {
            RunOutcome::Skipped => Discarded::Skipped,
            _ => Discarded::AlreadyCancelled,
        }
    }

    /// Stores the result, publishes COMPLETE and wakes a parked joiner; if
    /// the handle is gone, drops the result instead.
    fn complete(&self, result: Result<T, JoinError>, outcome_bit: usize) {
        // SAFETY: the caller set RUNNING and has not yet set COMPLETE, so it
        // still owns the stage.
        self.stage
            .with_mut(|stage| unsafe { *stage = Stage::Done(result) });
        // RUNNING is set and COMPLETE and the outcome bits are clear, so one
        // XOR clears the first and sets the others, leaving WAITER, INLINE,
        // HANDLE_GONE and the tag untouched. Release publishes the result to
        // the joiner; Acquire pairs with the joiner's Release of WAITER (its
        // thread handle) and with the handle's Release of HANDLE_GONE.
        let prev = self
            .state
            .fetch_xor(RUNNING | COMPLETE | outcome_bit, Ordering::AcqRel);
        let mut unjoined = None;
        if prev & HANDLE_GONE != 0 {
            let stage = &self.stage;
            // SAFETY: the handle set HANDLE_GONE before COMPLETE, so it will
            // never touch the stage: the result is ours to drop.
            let stage = stage.with_mut(|s| unsafe { std::mem::replace(&mut *s, Stage::Taken) });
            let Stage::Done(result) = stage else {
                unreachable!("a task holds its result from completion until taken")
            };
            unjoined = unjoined_panic(result);
        } else if prev & WAITER != 0 {
            // The handle wrote `waiter` before setting WAITER (our Acquire
            // pairs with that Release), and with COMPLETE set it can no longer
            // clear WAITER to write again; reads on two threads are fine.
            self.waiter.with(|w| {
                // SAFETY: so nobody writes the slot while we read it.
                if let Some(waiter) = unsafe { &*w } {
                    waiter.wake();
                }
            });
        }
        self.completion.completed(unjoined);
    }

    pub(crate) fn is_finished(&self) -> bool {
        self.state.load(Ordering::Acquire) & COMPLETE != 0
    }

    pub(crate) fn status(&self) -> TaskStatus {
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
        let state = self.state.load(Ordering::SeqCst);
        if state & (RUNNING | COMPLETE) == RUNNING {
            RunnerTag::new(state >> TAG_SHIFT)
        } else {
            None
        }
    }

    /// Makes `wanted` the one told of the completion (the handle's thread,
    /// or its future's waker), replacing an earlier, different waiter;
    /// false if the task has completed (the result is then visible).
    /// Only the handle calls it.
    fn register(&self, wanted: Wanted<'_>) -> bool {
        let mut state = self.state.load(Ordering::Acquire);
        if state & COMPLETE != 0 {
            return false;
        }
        if state & WAITER != 0 {
            let waiter = &self.waiter;
            // SAFETY: while WAITER is set nobody writes the slot (the handle
            // wrote it before setting WAITER; the completer only reads).
            let same = waiter.with(|w| unsafe { (*w).as_ref().is_some_and(|w| w.is(&wanted)) });
            if same {
                return true;
            }
            // Take the slot back: with WAITER clear and COMPLETE not set,
            // the completer has not read it and will not (it reads only if
            // its RMW finds WAITER). Relaxed on success: the slot's last
            // writer is this thread. Acquire on failure: COMPLETE is set
            // and the result must be visible.
            loop {
                match self.state.compare_exchange_weak(
                    state,
                    state & !WAITER,
                    Ordering::Relaxed,
                    Ordering::Acquire,
                ) {
                    Ok(_) => break,
                    Err(actual) if actual & COMPLETE != 0 => return false,
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
        // makes the result visible if the task completed meanwhile.
        let prev = self.state.fetch_or(WAITER, Ordering::AcqRel);
        // A replaced waker is the async runtime's code: drop it after the
        // new waiter is published, and never unwind from its drop.
        drop_quietly(old);
        prev & COMPLETE == 0
    }

    /// Parks the calling thread (the handle's) once, unless the task has
    /// completed; it may return early (a spurious wake-up, or an unpark meant
    /// for something else). The caller loops until finished.
    pub(crate) fn park_once(&self) {
        if self.register(Wanted::CurrentThread) {
            thread::park();
        }
    }

    /// The handle polled as a future: the result if the task completed,
    /// otherwise `waker` is woken when it does. Only the handle calls it,
    /// and not again once it returned `Ready`.
    pub(crate) fn poll_join(&self, waker: &Waker) -> Poll<Result<T, JoinError>> {
        if self.state.load(Ordering::Acquire) & COMPLETE != 0
            || !self.register(Wanted::Waker(waker))
        {
            return Poll::Ready(self.take_result());
        }
        Poll::Pending
    }

    /// Waits for COMPLETE and takes the result. Called at most once, by the
    /// single handle.
    pub(crate) fn join(&self) -> Result<T, JoinError> {
        let mut state = self.state.load(Ordering::Acquire);
        let mut spins = 0;
        while state & COMPLETE == 0 && spins < JOIN_SPINS {
            std::hint::spin_loop();
            spins += 1;
            state = self.state.load(Ordering::Acquire);
        }
        if state & COMPLETE == 0 && self.register(Wanted::CurrentThread) {
            // `park` may return spuriously, or for an unpark meant for an
            // earlier join on this thread: only COMPLETE ends the wait.
            while self.state.load(Ordering::Acquire) & COMPLETE == 0 {
                thread::park();
            }
        }
        self.take_result()
    }

    fn take_result(&self) -> Result<T, JoinError> {
        // SAFETY: COMPLETE was observed with Acquire, so the completer has
        // written the result and will not touch the stage again (HANDLE_GONE
        // is not set: the handle is joining); this is the only join.
        self.stage.with_mut(|stage| unsafe {
            match std::mem::replace(&mut *stage, Stage::Taken) {
                Stage::Done(result) => result,
                _ => unreachable!("a complete task holds its result until joined"),
            }
        })
    }

    /// The handle is dropped without joining a task that completed: drops
    /// its result, with a panic of its `Drop` contained (so that the handle
    /// still lets go of the cell), or hands a panic's payload to the
    /// completion (a scope hears of an unjoined panic).
    fn drop_result(&self) {
        if let Some(payload) = unjoined_panic(self.take_result()) {
            self.completion.dropped_unjoined_panic(payload);
        }
    }
}

/// The handle is dropped without taking the result: lets go of the handle
/// side. If the task has not completed, one CAS sets `HANDLE_GONE` (the
/// completer drops the result) and `HANDLE_DONE` together; otherwise the
/// result is dropped here first.
///
/// # Safety
///
/// `task` is the handle's pointer to a cell made by `recycle::allocate`; the
/// handle has not let go and does not touch the cell again.
pub(crate) unsafe fn drop_handle<T>(task: NonNull<dyn JoinTarget<T> + '_>) {
    // SAFETY: the handle still owns its side, so the cell is live.
    let state = unsafe { state_of(task) };
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
                    // SAFETY: both sides have let go; the cell came from
                    // `recycle::allocate`.
                    unsafe { free(task) };
                }
                return;
            }
            Err(actual) => current = actual,
        }
    }
    // Complete (seen with Acquire): the result is visible and ours.
    // SAFETY: the handle still owns its side.
    unsafe { task.as_ref() }.drop_result();
    // SAFETY: the handle's last access to the cell was just above.
    unsafe { release(task, HANDLE_DONE) };
}

/// Where a detached task's panic message goes (tasks with a handle send it
/// to the handle instead).
pub(crate) type PanicReport<'a> = &'a mut dyn FnMut(&str);

/// The type-erased face of a task that a queue holds.
pub(crate) trait Runnable: Send + Sync {
    fn run(&self, tag: Option<RunnerTag>, report: PanicReport<'_>) -> RunOutcome;
    /// `run` with the body inside `wrapper`: a method of its own so that
    /// the common, unwrapped call keeps its lean frame.
    fn run_wrapped(
        &self,
        tag: Option<RunnerTag>,
        report: PanicReport<'_>,
        wrapper: BodyWrapper<'_>,
    ) -> RunOutcome;
    /// See `JobControl::run_joined`; the queue side lets go inside it.
    fn run_joined(&self, wrapper: Option<BodyWrapper<'_>>) -> RunOutcome;
    fn finish_unrun(&self, reason: JoinError) -> bool;
    fn discard(&self) -> Discarded;
    fn is_finished(&self) -> bool;
    fn set_owner(&self, owner: PoolId);
    /// Who may still wait for the task (see `JobControl::awaited`).
    fn awaited(&self) -> Awaited;
    /// The task's scope, if it belongs to one.
    fn scope(&self) -> Option<ScopeId>;
    fn set_stamp(&self, stamp: Stamp);
    fn stamp(&self) -> Option<Stamp>;
}

/// What a thread that joins a task, and may help it along, needs: the
/// handle's view of the state word without the result's type.
pub trait TaskCore: Send + Sync {
    /// The task's identity, the same as its queue entry's
    /// ([`JobControl::id`](crate::executor_support::JobControl::id)).
    fn id(&self) -> TaskId;
    /// The executor that accepted the task, if it said
    /// ([`JobControl::set_owner`](crate::executor_support::JobControl::set_owner)).
    fn owner(&self) -> Option<PoolId>;
    /// True once the task has completed.
    fn is_finished(&self) -> bool;
    /// While the task runs: the tag its runner recorded (see
    /// [`JobControl::run_as`](crate::executor_support::JobControl::run_as)).
    fn runner(&self) -> Option<RunnerTag>;
    /// Runs the task on the calling thread if it has not started, recording
    /// `tag`, its body inside `wrapper` if one is given; `None` if somebody
    /// else has it. The caller counts the outcome; the queue entry, when
    /// taken, reports [`RunOutcome::Skipped`].
    fn run_inline(&self, tag: RunnerTag, wrapper: Option<BodyWrapper<'_>>) -> Option<RunOutcome>;
    /// Cancels the task if it has not started (see
    /// [`JoinHandle::cancel`](crate::JoinHandle::cancel)).
    fn cancel(&self) -> bool;
    /// The scope the task belongs to, if any
    /// ([`Job::scoped`](crate::Job::scoped)).
    fn scope(&self) -> Option<ScopeId>;
    /// The executor's stamp (see
    /// [`JobControl::set_stamp`](crate::executor_support::JobControl::set_stamp)).
    fn stamp(&self) -> Option<Stamp>;
    /// Parks the calling thread once, unless the task has finished: it
    /// returns when the task completes, and possibly earlier (a spurious
    /// wake-up, or an `unpark` of the thread for another reason). Only the
    /// handle's own thread may call it.
    fn park_once(&self);
}

/// The face of a task that its handle holds.
pub(crate) trait JoinTarget<T>: TaskCore {
    fn join(&self) -> Result<T, JoinError>;
    fn poll_join(&self, waker: &Waker) -> Poll<Result<T, JoinError>>;
    fn status(&self) -> TaskStatus;
    fn drop_result(&self);
    fn as_core(&self) -> &dyn TaskCore;
}

impl<F, T, C> Runnable for TaskCell<F, T, C>
where
    F: FnOnce() -> Result<T, JoinError> + Send,
    T: Send,
    C: Completion,
{
    fn run(&self, tag: Option<RunnerTag>, _report: PanicReport<'_>) -> RunOutcome {
        TaskCell::run(self, tag, None)
    }
    fn run_wrapped(
        &self,
        tag: Option<RunnerTag>,
        _report: PanicReport<'_>,
        wrapper: BodyWrapper<'_>,
    ) -> RunOutcome {
        TaskCell::run(self, tag, Some(wrapper))
    }
    fn run_joined(&self, wrapper: Option<BodyWrapper<'_>>) -> RunOutcome {
        TaskCell::run_joined(self, wrapper)
    }
    fn finish_unrun(&self, reason: JoinError) -> bool {
        TaskCell::finish_unrun(self, reason)
    }
    fn discard(&self) -> Discarded {
        TaskCell::discard(self)
    }
    fn is_finished(&self) -> bool {
        TaskCell::is_finished(self)
    }
    fn set_owner(&self, owner: PoolId) {
        // Relaxed: a joiner that misses the owner (it reads none) merely
        // parks instead of helping; the queue hand-off orders it for every
        // joiner that got the handle after the submission.
        self.owner.store(owner.get(), Ordering::Relaxed);
    }
    fn awaited(&self) -> Awaited {
        if let Some(scope) = self.completion.scope() {
            return Awaited::InScope(scope);
        }
        // Relaxed: HANDLE_GONE is never cleared, so a stale read can only
        // say "may be awaited", the cautious answer.
        if self.state.load(Ordering::Relaxed) & HANDLE_GONE == 0 {
            Awaited::ByHandle
        } else {
            Awaited::Never
        }
    }
    fn scope(&self) -> Option<ScopeId> {
        self.completion.scope()
    }
    fn set_stamp(&self, stamp: Stamp) {
        // Relaxed: written before the queue hand-off that orders it for
        // the worker that reads it.
        self.stamp.store(stamp.get(), Ordering::Relaxed);
    }
    fn stamp(&self) -> Option<Stamp> {
        Stamp::new(self.stamp.load(Ordering::Relaxed))
    }
}

impl<F, T, C> TaskCore for TaskCell<F, T, C>
where
    F: FnOnce() -> Result<T, JoinError> + Send,
    T: Send,
    C: Completion,
{
    fn id(&self) -> TaskId {
        TaskId::of(std::ptr::NonNull::from(self))
    }
    fn owner(&self) -> Option<PoolId> {
        PoolId::from_raw(self.owner.load(Ordering::Relaxed))
    }
    fn is_finished(&self) -> bool {
        TaskCell::is_finished(self)
    }
    fn runner(&self) -> Option<RunnerTag> {
        TaskCell::runner(self)
    }
    fn run_inline(&self, tag: RunnerTag, wrapper: Option<BodyWrapper<'_>>) -> Option<RunOutcome> {
        TaskCell::run_inline(self, tag, wrapper)
    }
    fn cancel(&self) -> bool {
        self.finish_unrun(JoinError::Cancelled)
    }
    fn scope(&self) -> Option<ScopeId> {
        self.completion.scope()
    }
    fn stamp(&self) -> Option<Stamp> {
        Runnable::stamp(self)
    }
    fn park_once(&self) {
        TaskCell::park_once(self)
    }
}

impl<F, T, C> JoinTarget<T> for TaskCell<F, T, C>
where
    F: FnOnce() -> Result<T, JoinError> + Send,
    T: Send,
    C: Completion,
{
    fn join(&self) -> Result<T, JoinError> {
        TaskCell::join(self)
    }
    fn poll_join(&self, waker: &Waker) -> Poll<Result<T, JoinError>> {
        TaskCell::poll_join(self, waker)
    }
    fn status(&self) -> TaskStatus {
        TaskCell::status(self)
    }
    fn drop_result(&self) {
        TaskCell::drop_result(self)
    }
    fn as_core(&self) -> &dyn TaskCore {
        self
    }
}
