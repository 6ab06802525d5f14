//! Where a task is in its life, as seen through its handle.

/// The state of a task, as [`JoinHandle::status`](crate::JoinHandle::status)
/// reports it at the moment of the call.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum TaskStatus {
    /// Accepted and waiting in a queue; it can still be cancelled.
    Queued,
    /// Its body is running on some thread.
    Running,
    /// Its body returned a value.
    Finished,
    /// Its body panicked.
    Panicked,
    /// It was cancelled before its body started; the body never ran.
    Cancelled,
    /// The executor refused it; the body never ran.
    Rejected,
}

impl TaskStatus {
    /// True for every state in which the task will not change again.
    pub fn is_terminal(self) -> bool {
        !matches!(self, TaskStatus::Queued | TaskStatus::Running)
    }
}
