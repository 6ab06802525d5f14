//! Identities of queued and running work, each a newtype rather than a
//! bare number: what a joiner looks for on its deque, what a worker
//! publishes about the unit it runs, who runs a shared `join` half.

use std::num::NonZeroUsize;
use std::ptr::NonNull;

use rt_handle::raw::{RunnerTag, TaskId};

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

/// The runner tag of worker `index`: what it records in the state word of
/// a task it runs, and in a shared `join` half it runs, for joiners that
/// look for it (its index + 1, since a tag is never 0).
pub(crate) fn runner_tag(index: usize) -> RunnerTag {
    RunnerTag::new(index + 1).expect("worker indexes fit a runner tag")
}

/// The worker index a runner tag stands for.
pub(crate) fn runner_index(tag: RunnerTag) -> usize {
    tag.get() - 1
}
