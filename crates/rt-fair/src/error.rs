//! The two error types: building an executor, and joining a task.

pub use rt_handle::PanicMessage;

/// Why [`FairExecutorBuilder::build`](crate::FairExecutorBuilder::build) refused a
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

/// Why a [`JoinHandle`](crate::JoinHandle) has no value to return: the
/// same `JoinError` as every executor of the workspace
/// (`rt_handle::JoinError`). A task aborted with
/// [`JoinHandle::abort`](crate::JoinHandle::abort), or still alive when the
/// executor was dropped, is [`JoinError::Cancelled`]; a panic is
/// [`JoinError::Panicked`] with its payload.
///
/// ```
/// use rt_fair::{FairExecutorBuilder, JoinError};
///
/// let executor = FairExecutorBuilder::new().with_queue(0, 1).build()?;
/// let queue = executor.queue(0).unwrap();
/// let task = queue.spawn(async { std::panic::panic_any::<u16>(413) });
/// # let prev = std::panic::take_hook(); std::panic::set_hook(Box::new(|_| {}));
/// let error: JoinError = executor.block_on(task).unwrap_err();
/// # std::panic::set_hook(prev);
/// assert!(error.is_panic());
/// assert_eq!(error.into_panic().downcast_ref::<u16>(), Some(&413));
/// # Ok::<(), rt_fair::BuildError>(())
/// ```
pub use rt_handle::JoinError;
