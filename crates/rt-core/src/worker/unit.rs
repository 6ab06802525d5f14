//! The unit of work a worker runs now, as one value (`JOIN_HELPING.md`,
//! "Units"): it lives in the frame of the `run_unit` call that runs it, and
//! the worker points at the innermost one.

use std::cell::Cell;
use std::ptr::{self, NonNull};

use rt_handle::raw::ScopeId;
use rt_queue::Priority;

use crate::fork_join::worker_slot::{CleanUnit, Published};
use crate::ids::WorkId;
use crate::worker::deques::Marks;
use crate::worker::entry::{FrameAction, FrameRef};

/// The unit of work a worker runs (the innermost, when units nest). A
/// nested unit points at the one it interrupts, which the worker points at
/// again when it ends.
pub(crate) struct Unit {
    /// Where the worker's own deques stood when the unit began.
    pub(crate) base: Marks,
    /// The unit's priority: the default of what it forks.
    pub(crate) priority: Priority,
    /// The unit's pending `join` halves, newest first (a list through the
    /// joiners' stack frames), and the newest of those already shared:
    /// they are always the oldest ones, from the bottom up.
    pub(crate) newest: Cell<*const JoinFrame>,
    pub(crate) newest_shared: Cell<*const JoinFrame>,
    /// Whether the unit is clean, and whether it published that yet.
    pub(crate) clean: Cell<Clean>,
}

/// A unit's cleanliness (`JOIN_HELPING.md`). A clean unit is published in
/// the worker's slot lazily, at its first push: until then its deques hold
/// nothing of it for a leapfrogger to take, and a unit that never pushes
/// (most tasks) never touches the slot, nor pays the fence of ending one.
#[derive(Clone, Copy)]
pub(crate) enum Clean {
    /// The unit began with entries in its deques, or nothing waits for it.
    No,
    /// Clean; nothing pushed yet, so nothing published.
    Unpublished(CleanUnit),
    /// Clean and published as `unit`; `outer` is what to restore when it
    /// ends.
    Published { unit: CleanUnit, outer: Published },
}

/// One pending `join` half in its unit's private list, on the joiner's
/// stack: enough for any later `join` of the unit to share it without
/// knowing its types (`fork_join/join.rs`).
pub(crate) struct JoinFrame {
    /// The next older pending half of the unit.
    pub(crate) older: *const JoinFrame,
    /// The half's `StackJob`, and the function that runs it.
    pub(crate) job: NonNull<()>,
    pub(crate) execute: unsafe fn(NonNull<()>, FrameAction),
    /// Whether the half was shared (pushed onto the deque).
    pub(crate) is_shared: Cell<bool>,
}

impl JoinFrame {
    /// The queue entry of the half.
    ///
    /// # Safety
    ///
    /// As [`FrameRef::new`]: the half stays in place until its entry was
    /// executed (or taken back by its owner).
    pub(crate) unsafe fn frame_ref(&self) -> FrameRef {
        // SAFETY: per this function's contract.
        unsafe { FrameRef::new(self.job, self.execute) }
    }
}

/// Whether anything may wait for a unit (a task's handle or scope, the
/// owner of a shared half or an installed closure): a unit nothing waits
/// for is never clean, since no leapfrogger would ask for its work.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Waited {
    Never,
    /// Something waits; for a task of a scope, the scope.
    By {
        scope: Option<ScopeId>,
    },
}

impl Unit {
    /// A unit that begins now, identified by `id`, with the deques at
    /// `base`; `deques_empty` says whether they hold nothing (asked only
    /// when something waits for the unit).
    #[inline(always)]
    pub(crate) fn begin(
        id: WorkId,
        waited: Waited,
        priority: Priority,
        base: Marks,
        deques_empty: impl FnOnce() -> bool,
    ) -> Self {
        let clean = match waited {
            Waited::By { scope } if deques_empty() => {
                Clean::Unpublished(CleanUnit { unit: id, scope })
            }
            _ => Clean::No,
        };
        Self {
            base,
            priority,
            newest: Cell::new(ptr::null()),
            newest_shared: Cell::new(ptr::null()),
            clean: Cell::new(clean),
        }
    }
}
