//! A task seen without its types: the thin pointer to its header, with the
//! protocol's steps that go through the vtable (complete, cancel, run
//! inline, tell the scope), written once for every cell type.

use std::fmt;
use std::marker::PhantomData;
use std::ptr::NonNull;

use crate::body_wrapper::BodyWrapper;
use crate::header::{
    claimed_by, holds_output, outcome_bit, tag_bits, Header, Payload, CANCELLED, COMPLETE,
    HANDLE_GONE, INLINE, REJECTED, RUNNING, WAITER,
};
use crate::ids::{Awaited, PoolId, RunnerTag, ScopeId, Stamp, TaskId};
use crate::outcome::Discarded;
use crate::ownership::JOB_DONE;
use crate::panic_message::drop_quietly;
use crate::sync::Ordering;
use crate::{JoinError, RunOutcome};

/// A task, for a thread that joins it and may help it along: what
/// [`Joining::task`](super::executor_support::Joining::task) gives an
/// executor's [`WaitHelp`](super::executor_support::WaitHelp). One thin
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
        Self {
            header,
            _task: PhantomData,
        }
    }

    #[inline(always)]
    pub(crate) fn header(self) -> &'a Header {
        // SAFETY: the cell lives for `'a` (`new`'s contract).
        unsafe { self.header.as_ref() }
    }

    /// The task's identity, the same as its queue entry's
    /// ([`JobControl::id`](crate::executor_support::JobControl::id)).
    pub fn id(self) -> TaskId {
        TaskId::of(self.header)
    }

    /// The executor that accepted the task, if it said
    /// ([`JobControl::set_owner`](crate::executor_support::JobControl::set_owner)).
    pub fn owner(self) -> Option<PoolId> {
        self.header().owner()
    }

    /// True once the task has completed.
    pub fn is_finished(self) -> bool {
        self.header().is_finished()
    }

    /// While the task runs: the tag its runner recorded (see
    /// [`JobControl::run_as`](crate::executor_support::JobControl::run_as)).
    pub fn runner(self) -> Option<RunnerTag> {
        self.header().runner()
    }

    /// Runs the task on the calling thread if it has not started, recording
    /// `tag`, its body inside `wrapper` if one is given; `None` if somebody
    /// else has it. The caller counts the outcome; the queue entry, when
    /// taken, reports [`RunOutcome::Skipped`].
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
    /// [`JoinHandle::cancel`](crate::JoinHandle::cancel)).
    pub fn cancel(self) -> bool {
        self.finish_unrun(JoinError::Cancelled)
    }

    /// The scope the task belongs to, if any
    /// ([`Job::scoped`](crate::Job::scoped)).
    pub fn scope(self) -> Option<ScopeId> {
        let scope_of = self.header().vtable.scope?;
        // SAFETY: the cell is live and of the vtable's type.
        Some(ScopeId::of(unsafe { scope_of(self.header) }))
    }

    /// The executor's stamp (see
    /// [`JobControl::set_stamp`](crate::executor_support::JobControl::set_stamp)).
    pub fn stamp(self) -> Option<Stamp> {
        self.header().stamp()
    }

    /// Parks the calling thread once, unless the task has finished: it
    /// returns when the task completes, and possibly earlier (a spurious
    /// wake-up, or an `unpark` of the thread for another reason). Only the
    /// handle's own thread may call it, which a `TaskRef` from
    /// [`Joining`](crate::executor_support::Joining) is on.
    pub fn park_once(self) {
        self.header().park_once();
    }

    /// Who may still wait for the task (see `JobControl::awaited`).
    pub(crate) fn awaited(self) -> Awaited {
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
            // SAFETY: the cell is live and of the vtable's type; the handle
            // cannot outlive the scope (`ScopedJoinHandle` carries
            // `'scope`), and it drops a panic only once the task completed,
            // before the scope can have ended.
            Some(scope_of) => {
                unsafe { scope_of(self.header).as_ref() }.handle_dropped_a_panic(payload)
            }
            None => drop_quietly(payload),
        }
    }

    /// Completes a task that has not started without running it: used for
    /// cancellation and rejection. False when it had already started.
    pub(crate) fn finish_unrun(self, reason: JoinError) -> bool {
        if self.header().claim(0).is_err() {
            return false;
        }
        let bit = match reason {
            JoinError::Cancelled => CANCELLED,
            JoinError::Rejected => REJECTED,
            JoinError::Panicked(_) => unreachable!("an unrun task cannot have panicked"),
        };
        // SAFETY: the claim succeeded, so this thread owns the stage, which
        // holds the body.
        unsafe { (self.header().vtable.drop_body)(self.header) };
        self.complete(bit);
        true
    }

    /// Takes a queue entry out without running it (`stop`): cancels the
    /// task if it has not started, and says who ended it.
    pub(crate) fn discard(self) -> Discarded {
        if self.finish_unrun(JoinError::Cancelled) {
            return Discarded::Cancelled;
        }
        // Acquire, as any load that looks at a claimant's bits.
        match claimed_by(self.header().state.load(Ordering::Acquire)) {
            RunOutcome::Skipped => Discarded::Skipped,
            _ => Discarded::AlreadyCancelled,
        }
    }

    /// Runs the task for a thread that holds both of its sides (see
    /// `JobControl::run_joined`): nobody else reaches the cell, so the
    /// state word is only loaded and stored, and the queue side lets go
    /// (`JOB_DONE`) in the same store that completes the task. The handle
    /// then finds the output as after any completion, and frees the cell
    /// when it lets go (it sees `JOB_DONE`).
    pub(crate) fn run_joined(self, wrapper: Option<BodyWrapper<'_>>) -> RunOutcome {
        let state = &self.header().state;
        // Relaxed: only this thread has touched the word since it took the
        // job from its queue and entered the handle's join, which ordered
        // every earlier write by other threads.
        let current = state.load(Ordering::Relaxed);
        if current & (RUNNING | COMPLETE) != 0 {
            // Cancelled through the handle before the join.
            state.store(current | JOB_DONE, Ordering::Relaxed);
            return claimed_by(current);
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

/// Whether the state, seen `COMPLETE` by the handle, leaves an output for
/// it to take or drop.
pub(crate) fn output_left(state: usize) -> bool {
    debug_assert!(state & COMPLETE != 0);
    holds_output(state) && state & crate::header::TAKEN == 0
}
