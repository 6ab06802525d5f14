//! A task without a result slot or a handle: what `execute` submits, and
//! a scope's task spawned without a handle (rayon's `Scope::spawn`).

use std::mem::ManuallyDrop;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::ptr::NonNull;

use crate::body_wrapper::{call_wrapped, BodyWrapper};
use crate::completion::{Completion, ScopeCompletion};
use crate::header::HANDLE_DONE;
use crate::header::{Header, PanicReport, Payload, TaskRef, VTable, HANDLE_GONE};
use crate::ids::RunnerTag;
use crate::panic_message::{drop_quietly, panic_message};
use crate::sync::UnsafeCell;
use crate::RunOutcome;

/// The header, the closure, and whom to tell of the completion (`()`:
/// nobody; a scope, for a scope's task). No handle waits for it, so there is
/// no result slot, and nobody but the queue side (the `Job`) ever reaches
/// it: it is born with `HANDLE_GONE | HANDLE_DONE` set, and the job runs it,
/// tells the scope if it has one, and frees it without looking at the state
/// word. `#[repr(C)]` with the header first: a pointer to the cell is a
/// pointer to its header.
#[repr(C)]
pub(crate) struct DetachedCell<F, C> {
    header: Header,
    /// The scope to tell, if any.
    completion: C,
    /// The closure, until the job takes it to run it or drops it (a
    /// cancel, a drain, a rejection): the job does one of the two, once,
    /// before it lets go, so the cell never drops it.
    body: UnsafeCell<ManuallyDrop<F>>,
}

impl<F: FnOnce() + Send, C: Completion> DetachedCell<F, C> {
    /// The cell type's vtable. A task without a handle is never run
    /// inline nor joined, and never has an output.
    const VTABLE: VTable = VTable {
        run: Self::run,
        call: no_inline_run,
        drop_body: Self::drop_body,
        take_output: no_output,
        drop_output: no_output_to_drop,
        scope: if C::IN_SCOPE { Some(Self::scope) } else { None },
        leave_token: None,
        dealloc: Self::dealloc,
    };

    /// Moves a new cell for `body` into a recycled block (`recycle/`):
    /// the pointer the job holds.
    pub(crate) fn allocate(body: F, completion: C) -> NonNull<Header> {
        crate::recycle::allocate(Self {
            header: Header::new(&Self::VTABLE, HANDLE_GONE | HANDLE_DONE),
            completion,
            body: UnsafeCell::new(ManuallyDrop::new(body)),
        })
        .cast()
    }

    /// Takes the closure out.
    ///
    /// # Safety
    ///
    /// `header` heads a live cell of this type, whose job (the one owner)
    /// calls this once, to run or drop the closure.
    unsafe fn take_body(header: NonNull<Header>) -> F {
        // SAFETY: per the contract; the pointer came from `allocate`.
        let this = unsafe { header.cast::<Self>().as_ref() };
        // SAFETY: only the job reaches the closure, and only once.
        this.body
            .with_mut(|b| unsafe { ManuallyDrop::take(&mut *b) })
    }

    /// Vtable `run`: the job runs the closure, then frees the cell.
    ///
    /// # Safety
    ///
    /// `header` heads a live cell of this type whose job the caller hands
    /// over; it does not touch the cell again.
    unsafe fn run(
        header: NonNull<Header>,
        _tag: Option<RunnerTag>,
        report: PanicReport<'_>,
        wrapper: Option<BodyWrapper<'_>>,
    ) -> RunOutcome {
        // SAFETY: the job has not run nor dropped the closure (it is
        // consumed by doing either).
        let body = unsafe { Self::take_body(header) };
        let (outcome, panic) =
            match call_wrapped(wrapper, body, |body| catch_unwind(AssertUnwindSafe(body))) {
                Ok(()) => (RunOutcome::Completed, None),
                // A scope's task: the panic is the scope's, as an unjoined
                // one (the scope re-raises it when it ends).
                Err(payload) if C::IN_SCOPE => (RunOutcome::Panicked, Some(payload)),
                Err(payload) => {
                    report(&panic_message(payload));
                    (RunOutcome::Panicked, None)
                }
            };
        if C::IN_SCOPE {
            // The closure, run or unwound, owns nothing any more: the
            // scope may hear of the completion, after which it may end.
            // SAFETY: the cell is live (freed below) and of this type.
            unsafe { TaskRef::new(header) }.tell_completed(panic);
        }
        // SAFETY: the handle side was let go of at birth and nobody else
        // reaches the cell, so the job is the last owner; this was its
        // last access (the scope, told above, is not reached from here).
        unsafe { Self::dealloc(header) };
        outcome
    }

    /// Vtable `scope`: the scope the task belongs to.
    ///
    /// # Safety
    ///
    /// `header` heads a live cell of this type, with `C::IN_SCOPE`.
    unsafe fn scope(header: NonNull<Header>) -> NonNull<dyn ScopeCompletion> {
        // SAFETY: per the contract; the pointer came from `allocate`.
        unsafe { header.cast::<Self>().as_ref() }.completion.scope()
    }

    /// Vtable `drop_body`.
    ///
    /// # Safety
    ///
    /// As [`take_body`](Self::take_body).
    unsafe fn drop_body(header: NonNull<Header>) {
        // SAFETY: per the contract.
        drop_quietly(unsafe { Self::take_body(header) });
    }

    /// Vtable `dealloc`.
    ///
    /// # Safety
    ///
    /// `header` heads a cell of this type made by `allocate`, whose closure
    /// was taken, and which nothing will use again.
    unsafe fn dealloc(header: NonNull<Header>) {
        // SAFETY: per the contract.
        unsafe { crate::recycle::deallocate(header.cast::<Self>()) };
    }
}

/// Vtable `call` of a task without a handle: only a joiner, through the
/// handle, runs a task inline or for its join.
unsafe fn no_inline_run(_: NonNull<Header>, _: Option<BodyWrapper<'_>>) -> RunOutcome {
    unreachable!("a task without a handle has no joiner to run it")
}

/// Vtable `take_output` of a task without a handle.
unsafe fn no_output(_: NonNull<Header>, _: NonNull<()>) {
    unreachable!("a task without a handle has no output to take")
}

/// Vtable `drop_output` of a task without a handle: it never stores one.
unsafe fn no_output_to_drop(_: NonNull<Header>) -> Option<Payload> {
    unreachable!("a task without a handle has no output to drop")
}
