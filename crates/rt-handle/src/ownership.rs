//! Who frees a task's allocation: its two owners, the queue side (the
//! [`Job`](crate::Job)) and the handle side, instead of a reference count.
//!
//! A task has at most two owners, so each owns one bit of the task's state
//! word, set when it lets go: `JOB_DONE` and `HANDLE_DONE`. Whoever lets go
//! second frees the allocation. A side that *sees* the other's bit already
//! set (an Acquire load) knows the other will never touch the cell again,
//! and frees it without writing anything: a task whose handle was dropped
//! before it ran costs its worker no atomic read-modify-write at all, where
//! an `Arc` costs two (the strong and the weak count) on top of the state
//! machine's own. See `JOIN_STATE.md`, "Who frees the task".
//!
//! The release is a free function on the raw pointer, not a method: once
//! one side has set its bit the other may free the cell at once, and no
//! reference to the cell may still be live (as a function argument) on the
//! first side when that happens. The state word is the first field of
//! every cell (`#[repr(C)]`), so the pointer to the cell is a pointer to
//! the word.

use std::ptr::NonNull;

use crate::sync::{AtomicUsize, Ordering};

/// The queue side (the `Job`) has let go of the task.
pub(crate) const JOB_DONE: usize = 1 << 8;
/// The handle side has let go of the task (or it never had one).
pub(crate) const HANDLE_DONE: usize = 1 << 9;

/// The state word of the cell `task` points at.
///
/// # Safety
///
/// `task` must point at a live cell whose first field is its state word
/// (`TaskCell` or `DetachedCell`, both `#[repr(C)]`).
pub(crate) unsafe fn state_of<'a, P: ?Sized>(task: NonNull<P>) -> &'a AtomicUsize {
    // SAFETY: the word is the first field of a live cell (the contract).
    // The reference is never used after `release` frees the cell.
    unsafe { task.cast::<AtomicUsize>().as_ref() }
}

/// Lets go of the caller's side of the task (`mine` is `JOB_DONE` or
/// `HANDLE_DONE`), freeing the allocation ([`free`]) if the other side
/// already has.
///
/// # Safety
///
/// `task` must come from `recycle::allocate` of a cell whose first field is its
/// state word, the caller must own side `mine` and not have let go of it,
/// and the caller must not touch the cell again.
pub(crate) unsafe fn release<P: ?Sized>(task: NonNull<P>, mine: usize) {
    let theirs = JOB_DONE ^ HANDLE_DONE ^ mine;
    // SAFETY: we still own our side, so the cell is live.
    let state = unsafe { state_of(task) };
    // Acquire pairs with the Release of the other side's letting go: all
    // its accesses to the cell happened before it, so it is ours alone.
    let last = state.load(Ordering::Acquire) & theirs != 0
        // Release: our accesses happen before the other side's free;
        // Acquire: as above, if the other side let go first.
        || state.fetch_or(mine, Ordering::AcqRel) & theirs != 0;
    if last {
        // SAFETY: both sides have let go and the other will not touch the
        // cell again; it came from `recycle::allocate` (the contract).
        unsafe { free(task) };
    }
}

/// Frees the task's allocation, dropping whatever the cell still holds (a
/// body that never ran, a result nobody took); a panic in those drops is
/// contained. The block goes back to the recycler (`recycle/`).
///
/// # Safety
///
/// `task` must come from `recycle::allocate`, and both sides must have let
/// go of it: the caller's is the last access to the cell.
pub(crate) unsafe fn free<P: ?Sized>(task: NonNull<P>) {
    // SAFETY: per the contract.
    unsafe { crate::recycle::deallocate(task) };
}
