//! What a task of a group, or a group, reports instead of a value.

use std::fmt;

use rt_handle::PanicMessage;
use thiserror::Error;

/// A task of a [`TaskGroup`](crate::TaskGroup), named in errors: its
/// number in its group (from 0, in the order spawned) and its group's.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct TaskId {
    pub(crate) group: u64,
    pub(crate) index: u64,
}

impl TaskId {
    /// The task's number in its group: 0 for the first spawned.
    pub fn index(self) -> u64 {
        self.index
    }
}

impl fmt::Display for TaskId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "task {} of task group {}", self.index, self.group)
    }
}

/// Why [`TaskHandle::join`](crate::TaskHandle::join) gives no value.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[non_exhaustive]
pub enum TaskError {
    /// The task's closure panicked. The [`PanicMessage`] keeps the payload
    /// (`into_payload`, to re-raise with [`std::panic::resume_unwind`]).
    #[error("{task} panicked: {message}")]
    Panicked {
        /// The task.
        task: TaskId,
        /// Its panic.
        message: PanicMessage,
    },
    /// The task never ran: `prerequisite`, a task it was spawned after,
    /// did not complete (it panicked, was skipped, or was rejected). Its
    /// closure was dropped unrun, and the tasks spawned after it are
    /// skipped in turn.
    #[error("{task} was skipped: {prerequisite}, which it waits for, did not complete")]
    Skipped {
        /// The task.
        task: TaskId,
        /// The prerequisite that did not complete (the first found).
        prerequisite: TaskId,
    },
    /// The executor refused the task's job (it is shut down) or dropped it
    /// unrun: the closure never ran.
    #[error("{task} was rejected by the executor")]
    Rejected {
        /// The task.
        task: TaskId,
    },
    /// A task asked to join itself, which would never return.
    #[error("{task} cannot join itself")]
    JoinedItself {
        /// The task.
        task: TaskId,
    },
}

/// A misuse of a [`TaskGroup`](crate::TaskGroup), or a failure that no
/// handle reports.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[non_exhaustive]
pub enum TaskGroupError {
    /// A prerequisite passed to [`spawn_after`](crate::TaskGroup::spawn_after)
    /// is a task of another group (or of a group whose scope has ended):
    /// nothing was spawned.
    #[error("{task} is not a task of task group {group}")]
    ForeignTask {
        /// The prerequisite.
        task: TaskId,
        /// The group it was used with.
        group: u64,
    },
    /// [`wait_for_all`](crate::TaskGroup::wait_for_all) was called from
    /// inside a task of the same group, which counts among the tasks it
    /// would wait for: it would never return.
    #[error("{task} cannot wait for all the tasks of its own group, itself included")]
    WaitInsideTask {
        /// The task that called it.
        task: TaskId,
    },
    /// A task whose handle was dropped without being joined panicked:
    /// nobody else will see it.
    #[error("{task}, whose handle was dropped, panicked: {message}")]
    Panicked {
        /// The task.
        task: TaskId,
        /// Its panic, with the payload.
        message: PanicMessage,
    },
}
