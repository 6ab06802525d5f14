//! What the runtime's queues hold: a heap task, a frame that lives on the
//! stack of a thread waiting for it, or a ticket for a task in the scope
//! inbox. An entry does not know the worker that takes it: work that
//! needs its worker finds it through the worker thread-local
//! (`worker::with_current`), as rayon's jobs do.

use std::fmt;
use std::ptr::NonNull;

use std::sync::Arc;

use rt_handle::raw::{JobControl, PoolId};
use rt_handle::Job;
use rt_queue::Priority;

use crate::shared::Shared;

use crate::ids::WorkId;
use crate::observe::task_span::TaskSpan;

/// One queue entry.
pub(crate) enum Entry {
    /// A spawned task: one heap allocation shared with its handle (or none,
    /// for `execute`), and the `tracing` context it was spawned in (nothing
    /// without the `tracing` feature).
    Task(Job, TaskSpan),
    /// Work on the stack of a thread that waits for it: the second half of
    /// a `join`, or a closure handed to the pool from outside it (`install`).
    Frame(FrameRef),
    /// A ticket for a task of a scope spawned from outside the pool: the
    /// worker that takes it runs a task of the runtime's scope inbox, if
    /// one is left (`scope_inbox.rs`).
    ScopeTicket,
}

impl Entry {
    /// Records the runtime owning `shared` and the class `priority` as the
    /// task's owner (`JobControl::set_owner`); nothing for a frame. Called
    /// by the push, after the task was counted as submitted.
    #[inline(always)]
    pub(crate) fn set_owner(&self, shared: &Arc<Shared>, priority: Priority) {
        if let Entry::Task(job, _) = self {
            job.set_owner(PoolId::of(shared), priority);
        }
    }
}

/// What the taker of a frame's entry does with it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum FrameAction {
    /// Run the frame's work (on a worker, inside the unit the worker opened
    /// for it), then set its latch.
    Run,
    /// Hand it back to its owner unrun (`stop` drained it): set its latch
    /// with no result; the owner runs the work itself.
    GiveBack,
}

/// Work on some thread's stack: a thin pointer and the one function that
/// runs it or gives it back (rayon's `JobRef`). The thread that owns the
/// frame does not return (and so keeps the frame alive) until the frame has
/// been run or given back, exactly once: by the one taker of the entry.
pub(crate) struct FrameRef {
    frame: NonNull<()>,
    execute: unsafe fn(NonNull<()>, FrameAction),
}

// SAFETY: a `FrameRef` is a unique permission to run (or give back) work
// whose owner waits for it on another thread; the frames it points at are
// `Sync` where they are shared and hand their closure and result across
// threads only through their latch (see `stack_job.rs` and `install.rs`).
unsafe impl Send for FrameRef {}

impl FrameRef {
    /// # Safety
    ///
    /// `frame` must stay valid until `execute` has been called on it once,
    /// and `execute` must accept it.
    pub(crate) unsafe fn new(
        frame: NonNull<()>,
        execute: unsafe fn(NonNull<()>, FrameAction),
    ) -> Self {
        Self { frame, execute }
    }

    /// The frame's identity while it is queued or runs.
    pub(crate) fn id(&self) -> WorkId {
        WorkId::of_frame(self.frame)
    }

    /// Runs or gives back the frame's work: the entry's one use.
    pub(crate) fn execute(self, action: FrameAction) {
        // SAFETY: `new`'s contract; this consumes the only reference.
        unsafe { (self.execute)(self.frame, action) }
    }
}

impl Entry {
    /// The identity of the work: a task's allocation, or a frame's address
    /// (`None` for a ticket).
    pub(crate) fn id(&self) -> Option<WorkId> {
        match self {
            Entry::Task(job, _) => Some(WorkId::of_task(job.id())),
            Entry::Frame(frame) => Some(frame.id()),
            Entry::ScopeTicket => None,
        }
    }
}

impl fmt::Debug for Entry {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Entry::Task(job, _) => f.debug_tuple("Task").field(job).finish(),
            Entry::Frame(frame) => f.debug_tuple("Frame").field(&frame.id()).finish(),
            Entry::ScopeTicket => f.write_str("ScopeTicket"),
        }
    }
}
