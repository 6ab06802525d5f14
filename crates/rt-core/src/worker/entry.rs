//! What the runtime's queues hold: a heap task, a frame that lives on the
//! stack of a thread waiting for it, or a ticket for a task in the scope
//! inbox.

use std::fmt;
use std::num::NonZeroUsize;
use std::ptr::NonNull;

use rt_handle::executor_support::{JobControl, TaskId};
use rt_handle::Job;

use crate::observe::task_span::TaskSpan;
use crate::worker::WorkerContext;

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

/// Which work an entry is, while it is queued or runs: the address of a
/// task's allocation or of a frame (distinct memory, so distinct ids);
/// what a joiner looks for on its deque, and what a unit is published as.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(crate) struct WorkId(NonZeroUsize);

impl WorkId {
    pub(crate) fn of_task(task: TaskId) -> Self {
        Self(NonZeroUsize::new(task.get()).expect("a task's address is not 0"))
    }

    pub(crate) fn of_frame(frame: NonNull<()>) -> Self {
        Self(frame.addr())
    }

    /// The number, for a word a worker publishes it in.
    pub(crate) fn get(self) -> usize {
        self.0.get()
    }
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
    /// Runs the frame's work on a worker, then sets its latch.
    pub(crate) run: unsafe fn(NonNull<()>, &WorkerContext),
    /// Hands the frame back to its owner unrun (`stop` drained it): sets
    /// its latch with no result, and the owner runs the work itself.
    pub(crate) give_back: unsafe fn(NonNull<()>),
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

    /// The frame's identity while it is queued or runs.
    pub(crate) fn id(&self) -> WorkId {
        WorkId::of_frame(self.frame)
    }

    pub(crate) fn run(self, worker: &WorkerContext) {
        // SAFETY: `new`'s contract; this consumes the only reference.
        unsafe { (self.vtable.run)(self.frame, worker) }
    }

    pub(crate) fn give_back(self) {
        // SAFETY: as in `run`.
        unsafe { (self.vtable.give_back)(self.frame) }
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
