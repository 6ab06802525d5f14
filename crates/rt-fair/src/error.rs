//! The two error types: building an executor, and joining a task.

/// Why [`ExecutorBuilder::build`](crate::ExecutorBuilder::build) refused a
/// configuration.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum BuildError {
    /// No queue was added: an executor needs at least one.
    #[error("an executor needs at least one queue")]
    NoQueues,
    /// The queue added in position `index` (0-based) has weight zero.
    #[error("queue #{index} has weight zero; weights must be at least 1")]
    ZeroWeight {
        /// Position of the queue in the order of `with_queue` calls.
        index: usize,
    },
    /// The queue added in position `index` repeats the key of the queue in
    /// position `first`.
    #[error("queue #{index} repeats the key of queue #{first}")]
    DuplicateKey {
        /// Position of the queue that repeats a key.
        index: usize,
        /// Position of the queue that used the key first.
        first: usize,
    },
    /// `with_time_slice(Duration::ZERO)`: a slice must be positive.
    #[error("the time slice must be longer than zero")]
    ZeroTimeSlice,
}

/// Why a [`JoinHandle`](crate::JoinHandle) has no value to return.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum JoinError {
    /// The task panicked; the panic message (or a placeholder when the
    /// payload was not a string). Only with the default panic mode: with
    /// `with_panic_propagation(true)` the panic leaves `run_until` instead,
    /// and the handle reports this too.
    #[error("task panicked: {0}")]
    Panicked(String),
    /// The task was aborted with [`JoinHandle::abort`](crate::JoinHandle::abort),
    /// or the executor was dropped before the task finished.
    #[error("task was aborted")]
    Aborted,
}
