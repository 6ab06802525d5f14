//! A task with a handle: one allocation holding the [`Header`], the
//! task's completion (its scope, for a task of a scope) and the stage (the
//! closure until it runs, then its output until the handle takes it).
//!
//! The functions here are the cell type's vtable entries, the steps that
//! need `F`, `T` and `C`; the protocol around them (claim, complete, wake,
//! cancel, let go) is written once, in `header.rs` and `ownership.rs`. See `JOIN_STATE.md` beside this file. In short: whoever
//! moves the state out of "not started" (a worker running the task, a
//! joiner running it inline, or a canceller) owns the stage exclusively
//! until it sets `COMPLETE`; after `COMPLETE` the single handle owns it,
//! or, if the handle is gone, the completer drops the output at once.

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::ptr::NonNull;

use crate::body_wrapper::{call_wrapped, BodyWrapper};
use crate::completion::Completion;
use crate::header::{
    outcome_bit, tag_bits, Header, PanicReport, Payload, TaskRef, VTable, COMPLETE, PINNED, RUNNING,
};
use crate::header::{HANDLE_DONE, JOB_DONE};
use crate::ids::RunnerTag;
use crate::ownership::{let_go, release_queue_side};
use crate::panic_message::drop_quietly;
use crate::raw::ScopeCompletion;
use crate::sync::{Ordering, UnsafeCell};
use crate::token::TokenLink;
use crate::{JoinError, PanicMessage, RunOutcome};

/// What the cell holds besides its header and completion.
enum Stage<F, T> {
    /// The closure, until someone claims the task.
    Pending(F),
    /// Nothing: the body is running, or the task ended without an output
    /// (cancelled or rejected), or the output was taken or dropped.
    Empty,
    /// The body's value, until the handle takes it.
    Value(T),
    /// The body's panic, until the handle takes it.
    Panicked(PanicMessage),
}

/// What a cell's stage holds until the task runs: the body. Its output is
/// the task's value, or `Err(Cancelled)` for a body that its token skipped.
pub(crate) trait Body<T, C>: Send {
    /// Runs the body of a task whose completion is a token link
    /// (`C::HAS_TOKEN`): the body finds its context there.
    fn call(self, completion: &C) -> Result<T, JoinError>;
    /// Runs the body of any other task, which needs nothing from its cell:
    /// the call the worker's unwinding guard wraps then captures the body
    /// alone.
    fn call_alone(self) -> Result<T, JoinError>;
}

/// A plain closure, for a task without a token.
impl<F, T, C> Body<T, C> for F
where
    F: FnOnce() -> Result<T, JoinError> + Send,
{
    #[inline(always)]
    fn call(self, _: &C) -> Result<T, JoinError> {
        self()
    }

    #[inline(always)]
    fn call_alone(self) -> Result<T, JoinError> {
        self()
    }
}

/// One task with a handle. `#[repr(C)]` with the header first: a pointer
/// to the cell is a pointer to its header.
#[repr(C)]
pub(crate) struct TaskCell<F, T, C> {
    header: Header,
    completion: C,
    stage: UnsafeCell<Stage<F, T>>,
}

/// A result nobody will take: the payload of a panic, to hand to the
/// completion; a value is dropped here, with a panic of its `Drop`
/// contained.
#[inline(always)]
fn unjoined_panic<T>(result: Result<T, JoinError>) -> Option<Payload> {
    match result {
        Ok(value) => {
            drop_quietly(value);
            None
        }
        Err(JoinError::Panicked(message)) => Some(message.into_payload()),
        // `Cancelled` holds nothing.
        Err(_) => None,
    }
}

/// What a run of the body counts as.
#[inline(always)]
fn outcome_of<T>(result: &Result<T, JoinError>) -> RunOutcome {
    match result {
        Ok(_) => RunOutcome::Completed,
        Err(JoinError::Panicked(_)) => RunOutcome::Panicked,
        Err(_) => RunOutcome::Cancelled,
    }
}

impl<F, T, C> TaskCell<F, T, C>
where
    F: Body<T, C>,
    T: Send,
    C: Completion,
{
    /// The cell type's vtable: one static table per `TaskCell<F, T, C>`.
    const VTABLE: VTable = VTable {
        run: Self::run,
        call: Self::call,
        drop_body: Self::drop_body,
        take_output: Self::take_output,
        drop_output: Self::drop_output,
        scope: if C::IN_SCOPE { Some(Self::scope) } else { None },
        token: if C::HAS_TOKEN {
            Some(Self::token)
        } else {
            None
        },
        dealloc: Self::dealloc,
    };

    /// Moves a new cell for `body` into a recycled block (`recycle/`):
    /// the pointer the job and the handle share, each owning one side
    /// (`ownership.rs`).
    pub(crate) fn allocate(body: F, completion: C) -> NonNull<Header> {
        crate::recycle::allocate(Self {
            header: Header::new(&Self::VTABLE, 0),
            completion,
            stage: UnsafeCell::new(Stage::Pending(body)),
        })
        .cast()
    }

    /// The cell `header` heads.
    ///
    /// # Safety
    ///
    /// `header` heads a live `TaskCell<F, T, C>` (its vtable is this
    /// type's), which stays live for `'a`.
    #[inline(always)]
    unsafe fn cell<'a>(header: NonNull<Header>) -> &'a Self {
        // SAFETY: per the contract; the pointer came from `allocate` (cast
        // back, with the whole cell's provenance).
        unsafe { header.cast::<Self>().as_ref() }
    }

    /// Takes the body out of the stage.
    ///
    /// # Safety
    ///
    /// The caller owns the stage (it claimed the task, or it is the queue
    /// side once the handle let go, or it holds both sides), and the task
    /// has not started.
    #[inline(always)]
    unsafe fn take_body(&self) -> F {
        // SAFETY: no other thread reads or writes the stage meanwhile (the
        // contract).
        self.stage.with_mut(|stage| unsafe {
            match std::mem::replace(&mut *stage, Stage::Empty) {
                Stage::Pending(body) => body,
                _ => unreachable!("a task that has not started holds its body"),
            }
        })
    }

    /// Runs `body` (the cell's, taken out of its stage), inside `wrapper`
    /// if one is given, catching a panic. Never unwinds. A body that needs
    /// nothing from the cell (every task without a token) is called without
    /// a reference to it, so that the calls below capture the body alone.
    #[inline(always)]
    fn run_body(&self, wrapper: Option<BodyWrapper<'_>>, body: F) -> Result<T, JoinError> {
        if C::HAS_TOKEN {
            call_wrapped(wrapper, body, |body| {
                Self::catch(|| body.call(&self.completion))
            })
        } else {
            call_wrapped(wrapper, body, |body| Self::catch(|| body.call_alone()))
        }
    }

    /// Calls `body`, catching a panic. Never unwinds.
    #[inline(always)]
    fn catch(body: impl FnOnce() -> Result<T, JoinError>) -> Result<T, JoinError> {
        match catch_unwind(AssertUnwindSafe(body)) {
            Ok(Ok(value)) => Ok(value),
            Ok(Err(JoinError::Cancelled)) => Err(JoinError::Cancelled),
            Ok(Err(other)) => unreachable!("a body only reports cancellation, not {other:?}"),
            Err(payload) => Err(JoinError::Panicked(PanicMessage::from_payload(payload))),
        }
    }

    /// Vtable `run`: the queue side runs the task and lets go of it.
    ///
    /// # Safety
    ///
    /// `header` heads a live cell of this type whose queue side the caller
    /// owns and hands over; it does not touch the cell again.
    unsafe fn run(
        header: NonNull<Header>,
        tag: Option<RunnerTag>,
        _report: PanicReport<'_>,
        wrapper: Option<BodyWrapper<'_>>,
    ) -> RunOutcome {
        // SAFETY: the queue side keeps the cell live until it lets go below.
        let this = unsafe { Self::cell(header) };
        // SAFETY: as above.
        let task = unsafe { TaskRef::new(header) };
        // A task queued with a token leaves the token's list first (known
        // to the compiler: nothing for any other type): from then on no
        // cancel of the token reaches it, and one that claimed it before is
        // seen below.
        if let Some(link) = this.completion.token() {
            link.leave(header);
        }
        // Acquire pairs with the Release of the handle's letting go: the
        // handle is done with the cell for good, and only the handle could
        // claim, cancel or join the task besides this queue side (a token's
        // cancel, the third, can no longer reach it).
        let state = this.header.state.load(Ordering::Acquire);
        if state & (HANDLE_DONE | RUNNING | COMPLETE) == HANDLE_DONE {
            // Alone: no claim, no completion to publish; the result is
            // dropped at once, as a completer does when the handle is gone.
            // SAFETY: nobody else can reach the stage any more.
            let result = this.run_body(wrapper, unsafe { this.take_body() });
            let outcome = outcome_of(&result);
            task.tell_completed(unjoined_panic(result));
            // SAFETY: the handle let go before (seen above), and this was
            // the queue side's last access.
            unsafe { Self::dealloc(header) };
            return outcome;
        }
        let outcome = match this.header.claim(tag_bits(tag)) {
            Ok(()) => {
                // SAFETY: the claim succeeded: this thread owns the stage.
                let outcome = unsafe { Self::call(header, wrapper) };
                task.complete(outcome_bit(outcome));
                outcome
            }
            Err(state) if state & PINNED != 0 => return Self::claimed_pinned(task, header, state),
            Err(state) => task.claimed_by(state),
        };
        // SAFETY: the queue side's last access to the cell was above.
        if unsafe { let_go(header, JOB_DONE) } {
            // SAFETY: both sides have let go.
            unsafe { Self::dealloc(header) };
        }
        outcome
    }

    /// The queue side found the task claimed by a token's cancel that may
    /// still work on the cell (`PINNED`): what it counts, then it lets go
    /// as the pin allows (`release_queue_side`). Out of line: rare.
    #[cold]
    #[inline(never)]
    fn claimed_pinned(task: TaskRef<'_>, header: NonNull<Header>, state: usize) -> RunOutcome {
        let outcome = task.claimed_by(state);
        // SAFETY: the queue side's last access to the cell was above.
        unsafe { release_queue_side(header, state) };
        outcome
    }

    /// Vtable `call`: runs the body and stores its output.
    ///
    /// # Safety
    ///
    /// `header` heads a live cell of this type, whose stage the caller owns
    /// and which has not started.
    unsafe fn call(header: NonNull<Header>, wrapper: Option<BodyWrapper<'_>>) -> RunOutcome {
        // SAFETY: per the contract.
        let this = unsafe { Self::cell(header) };
        // SAFETY: per the contract.
        let result = this.run_body(wrapper, unsafe { this.take_body() });
        let outcome = outcome_of(&result);
        let stage = match result {
            Ok(value) => Stage::Value(value),
            Err(JoinError::Panicked(message)) => Stage::Panicked(message),
            // Cancelled by its token: the state's bit says so.
            Err(_) => return outcome,
        };
        // SAFETY: the caller still owns the stage, which `take_body` left
        // empty (nothing to drop in it).
        this.stage.with_mut(|s| unsafe { s.write(stage) });
        outcome
    }

    /// Vtable `drop_body`.
    ///
    /// # Safety
    ///
    /// As [`call`](Self::call).
    unsafe fn drop_body(header: NonNull<Header>) {
        // SAFETY: per the contract.
        let this = unsafe { Self::cell(header) };
        // The closure's captures may panic when dropped; that must not
        // unwind into a worker or a canceller.
        // SAFETY: per the contract.
        drop_quietly(unsafe { this.take_body() });
    }

    /// Takes the output out of the stage.
    ///
    /// # Safety
    ///
    /// The task completed with an output, which the caller (the handle, or
    /// the completer once the handle is gone) owns and nobody took.
    unsafe fn output(header: NonNull<Header>) -> Result<T, JoinError> {
        // SAFETY: per the contract.
        let this = unsafe { Self::cell(header) };
        // SAFETY: per the contract, no other thread touches the stage.
        this.stage.with_mut(|stage| unsafe {
            match std::mem::replace(&mut *stage, Stage::Empty) {
                Stage::Value(value) => Ok(value),
                Stage::Panicked(message) => Err(JoinError::Panicked(message)),
                _ => unreachable!("a task that completed with an output holds it until taken"),
            }
        })
    }

    /// Vtable `take_output`.
    ///
    /// # Safety
    ///
    /// As [`output`](Self::output); `out` points at room for a
    /// `Result<T, JoinError>`.
    unsafe fn take_output(header: NonNull<Header>, out: NonNull<()>) {
        // SAFETY: per the contract.
        let output = unsafe { Self::output(header) };
        // SAFETY: per the contract.
        unsafe { out.cast::<Result<T, JoinError>>().write(output) };
    }

    /// Vtable `drop_output`.
    ///
    /// # Safety
    ///
    /// As [`output`](Self::output).
    unsafe fn drop_output(header: NonNull<Header>) -> Option<Payload> {
        // SAFETY: per the contract.
        unjoined_panic(unsafe { Self::output(header) })
    }

    /// Vtable `scope` (for a task of a scope).
    ///
    /// # Safety
    ///
    /// `header` heads a live cell of this type.
    unsafe fn scope(header: NonNull<Header>) -> NonNull<dyn ScopeCompletion> {
        // SAFETY: per the contract.
        unsafe { Self::cell(header) }.completion.scope()
    }

    /// Vtable `token` (for a task queued with a token).
    ///
    /// # Safety
    ///
    /// `header` heads a live cell of this type.
    unsafe fn token(header: NonNull<Header>) -> NonNull<TokenLink> {
        // SAFETY: per the contract.
        let link = unsafe { Self::cell(header) }.completion.token();
        NonNull::from(link.expect("a cell type with a token has a token link"))
    }

    /// Vtable `dealloc`.
    ///
    /// # Safety
    ///
    /// `header` heads a cell of this type made by `allocate`, which both
    /// sides have let go of.
    unsafe fn dealloc(header: NonNull<Header>) {
        // SAFETY: per the contract.
        unsafe { crate::recycle::deallocate(header.cast::<Self>()) };
    }
}
