//! What the runtime's queues hold: a heap task, a frame that lives on the
//! stack of a thread waiting for it, or a ticket for a task in the scope
//! inbox. An entry does not know the worker that takes it: work that
//! needs its worker finds it through the worker thread-local
//! (`worker::with_current`), as rayon's jobs do.
//!
//! Also here, what an entry carries besides its work: the identities of
//! work (`WorkId`, a worker's runner tag), and, with the `tracing`
//! feature, the spawner's span context (`TaskSpan`). Nothing here imports
//! another file of the crate.

use std::fmt;
use std::ptr::NonNull;

use std::num::NonZeroUsize;

use rt_handle::raw::{BodyWrapper, JobControl, PoolId, RunnerTag, TaskId};
use rt_handle::Job;
use rt_queue::Priority;

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
    /// Records `owner` (the runtime's identity) and the class `priority` as the
    /// task's owner (`JobControl::set_owner`); nothing for a frame. Called
    /// by the push, after the task was counted as submitted.
    #[inline(always)]
    pub(crate) fn set_owner(&self, owner: PoolId, priority: Priority) {
        rt_queue::path_step!();
        if let Entry::Task(job, _) = self {
            job.set_owner(owner, priority);
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

// Identities of queued and running work, each a newtype rather than a
// bare number: what a joiner looks for on its deque, what a worker
// publishes about the unit it runs, who runs a shared `join` half.

/// Which work an entry is, while it is queued or runs: the address of a
/// task's allocation or of a frame (distinct memory, so distinct ids);
/// what a joiner looks for on its deque, and what a unit is published as.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(crate) struct WorkId(NonZeroUsize);

impl WorkId {
    pub(crate) fn of_task(task: TaskId) -> Self {
        rt_queue::path_step!();
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

/// The runner tag of worker `index`: what it records in the state word of
/// a task it runs, and in a shared `join` half it runs, for joiners that
/// look for it (its index + 1, since a tag is never 0).
pub(crate) fn runner_tag(index: usize) -> RunnerTag {
    rt_queue::path_step!();
    RunnerTag::new(index + 1).expect("worker indexes fit a runner tag")
}

/// The worker index a runner tag stands for.
pub(crate) fn runner_index(tag: RunnerTag) -> usize {
    tag.get() - 1
}

// With the `tracing` feature: each run of a task happens inside a span
// `rt.task` (fields `priority` and `worker`) whose parent is the span that
// was current where the task was spawned, so a request's span follows its
// CPU work onto the pool. Without the feature this is a zero-sized no-op.
//
// The spawner's context (its current span and subscriber) travels in the
// queue entry; the span itself is made only once the task is claimed, by
// whichever thread runs it (through `rt_handle::raw::BodyWrapper`). So a task
// has one span per run, never one for a stale entry or a cancelled task,
// and a task that a joiner claims and runs inline while its entry sits in
// another worker's hands still runs in an `rt.task` span: a child of the
// joiner's span, which is where its spawner's context is anyway.

/// The context a task's span is made in.
#[cfg(feature = "tracing")]
pub(crate) struct TaskSpan {
    parent: tracing::Span,
    dispatch: tracing::Dispatch,
}

/// The context a task's span is made in (nothing: the `tracing` feature is
/// off).
#[cfg(not(feature = "tracing"))]
pub(crate) struct TaskSpan;

impl TaskSpan {
    /// The calling thread's context: where a task is spawned, or where a
    /// joiner runs one inline.
    #[inline]
    pub(crate) fn here() -> Self {
        rt_queue::path_step!();
        #[cfg(feature = "tracing")]
        {
            TaskSpan {
                parent: tracing::Span::current(),
                dispatch: tracing::dispatcher::get_default(tracing::Dispatch::clone),
            }
        }
        #[cfg(not(feature = "tracing"))]
        {
            TaskSpan
        }
    }

    /// Calls `run` with the wrapper that makes the task's span and enters
    /// it around the body (none without the feature).
    #[inline]
    pub(crate) fn wrap<R>(
        &self,
        priority: Priority,
        worker: usize,
        run: impl FnOnce(Option<BodyWrapper<'_>>) -> R,
    ) -> R {
        rt_queue::path_step!();
        #[cfg(feature = "tracing")]
        {
            let enter = |body: &mut dyn FnMut()| {
                let span = tracing::dispatcher::with_default(&self.dispatch, || {
                    tracing::info_span!(
                        parent: &self.parent,
                        "rt.task",
                        priority = %priority,
                        worker = worker
                    )
                });
                span.in_scope(body);
            };
            run(Some(&enter))
        }
        #[cfg(not(feature = "tracing"))]
        {
            let _ = (priority, worker);
            run(None)
        }
    }
}
