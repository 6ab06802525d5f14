//! The two error types: building an executor, and joining a task.

use std::any::Any;

pub use rt_handle::PanicMessage;

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
///
/// The same shape as `rt_handle::JoinError`: `Send + Sync + 'static` and an
/// [`Error`](std::error::Error); equal when the variants are and, for
/// panics, the messages are; a panic keeps its payload
/// ([`into_panic`](Self::into_panic)), which a clone does not (see
/// [`PanicMessage`]).
///
/// ```
/// use rt_fair::{ExecutorBuilder, JoinError};
///
/// let executor = ExecutorBuilder::new().with_queue(0, 1).build()?;
/// let queue = executor.queue(0).unwrap();
/// let task = queue.spawn(async { std::panic::panic_any::<u16>(413) });
/// # let prev = std::panic::take_hook(); std::panic::set_hook(Box::new(|_| {}));
/// let error: JoinError = executor.block_on(task).unwrap_err();
/// # std::panic::set_hook(prev);
/// assert!(error.is_panic());
/// assert_eq!(error.into_panic().downcast_ref::<u16>(), Some(&413));
/// # Ok::<(), rt_fair::BuildError>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum JoinError {
    /// The task panicked. The [`PanicMessage`] displays the panic message
    /// (or a placeholder when the payload was not a string) and keeps the
    /// payload. Only with the default panic mode: with
    /// `with_panic_propagation(true)` the payload leaves `run_until`
    /// instead, and the handle reports this with the message alone (its
    /// `into_panic` gives the message as a `String`).
    #[error("task panicked: {0}")]
    Panicked(PanicMessage),
    /// The task was aborted with [`JoinHandle::abort`](crate::JoinHandle::abort),
    /// or the executor was dropped before the task finished.
    #[error("task was aborted")]
    Aborted,
}

impl JoinError {
    /// True for [`JoinError::Panicked`].
    pub fn is_panic(&self) -> bool {
        matches!(self, JoinError::Panicked(_))
    }

    /// True for [`JoinError::Aborted`].
    pub fn is_aborted(&self) -> bool {
        matches!(self, JoinError::Aborted)
    }

    /// The payload the task panicked with, to resume with
    /// [`std::panic::resume_unwind`] or downcast; for a message without a
    /// payload, its text as a `String`.
    ///
    /// # Panics
    ///
    /// If the error is not [`JoinError::Panicked`]; see
    /// [`try_into_panic`](Self::try_into_panic).
    pub fn into_panic(self) -> Box<dyn Any + Send> {
        self.try_into_panic().unwrap_or_else(|error| {
            panic!("`JoinError::into_panic` on an error that is not a panic: {error}")
        })
    }

    /// The payload the task panicked with, as
    /// [`into_panic`](Self::into_panic); the error itself back if it is not
    /// a panic.
    pub fn try_into_panic(self) -> Result<Box<dyn Any + Send>, JoinError> {
        match self {
            JoinError::Panicked(message) => Ok(message.into_payload()),
            other => Err(other),
        }
    }
}
