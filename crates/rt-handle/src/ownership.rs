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
//! Letting go is a free function on the raw pointer to the cell's header,
//! not a method: once one side has set its bit the other may free the cell
//! at once, and no reference to the cell may still be live (as a function
//! argument) on the first side when that happens. Freeing goes through the
//! header's vtable (`dealloc`), which knows the cell's type and layout.

use std::ptr::NonNull;

use crate::header::{
    output_left, Header, TaskRef, COMPLETE, HANDLE_DONE, HANDLE_GONE, JOB_DONE, PINNED, QUEUE_LEFT,
};
use crate::sync::Ordering;

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
