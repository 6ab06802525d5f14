//! What the runtime's queues hold: a heap task, or a frame that lives on
//! the stack of a thread waiting for it.

use std::fmt;
use std::ptr::NonNull;

use rt_handle::Job;

use crate::task_span::TaskSpan;

use crate::worker::WorkerContext;
use crate::worker_slot::WorkerSlot;

/// One queue entry.
pub(crate) enum Entry {
    /// A spawned task: one heap allocation shared with its handle (or none,
    /// for `execute`).
    Task(Job, TaskSpan),
    /// Work on the stack of a thread that waits for it: the second half of
    /// a `join`, or a closure handed to the pool from outside it (`install`).
    Frame(FrameRef),
    /// A ticket for a task of a scope spawned from outside the pool: the
    /// worker that takes it runs a task of the runtime's scope inbox, if
    /// one is left (`scope_inbox.rs`).
    ScopeTicket,
}

/// A pointer to work on some thread's stack, and how to run or give it
/// back. The thread that owns the frame does not return (and so keeps the
/// frame alive) until the frame has been run or given back, through exactly
/// one of the two functions: the one taker of the queue entry calls it.
pub(crate) struct FrameRef {
    frame: NonNull<()>,
    vtable: &'static FrameVTable,
}

pub(crate) struct FrameVTable {
    /// Runs the frame's work on a worker, then tells its owner.
    pub(crate) run: unsafe fn(NonNull<()>, &WorkerContext),
    /// Hands the frame back to its owner unrun (`stop` drained it): the
    /// owner, found through the runtime's worker slots if it waits, runs the
    /// work itself.
    pub(crate) give_back: unsafe fn(NonNull<()>, &[WorkerSlot]),
}

// SAFETY: a `FrameRef` is a unique permission to run (or give back) work
// whose owner waits for it on another thread; the frames it points at are
// `Sync` where they are shared and hand their closure and result across
// threads only through their latch (see `stack_job.rs` and `install.rs`).
unsafe impl Send for FrameRef {}

impl FrameRef {
    /// # Safety
    ///
    /// `frame` must stay valid until `vtable.run` or `vtable.give_back` has
    /// been called on it, and those must accept it.
    pub(crate) unsafe fn new(frame: NonNull<()>, vtable: &'static FrameVTable) -> Self {
        Self { frame, vtable }
    }

    /// The frame's address: its identity while it is queued or runs.
    pub(crate) fn id(&self) -> usize {
        self.frame.as_ptr().addr()
    }

    pub(crate) fn run(self, worker: &WorkerContext) {
        // SAFETY: `new`'s contract; this consumes the only reference.
        unsafe { (self.vtable.run)(self.frame, worker) }
    }

    pub(crate) fn give_back(self, slots: &[WorkerSlot]) {
        // SAFETY: as in `run`.
        unsafe { (self.vtable.give_back)(self.frame, slots) }
    }
}

impl Entry {
    /// The identity of the work: a task's allocation, or a frame's address.
    pub(crate) fn id(&self) -> usize {
        match self {
            Entry::Task(job, _) => job.id(),
            Entry::Frame(frame) => frame.id(),
            Entry::ScopeTicket => 0,
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
