//! Why a task did not produce a value.

use std::any::Any;

use thiserror::Error;

use crate::PanicMessage;

/// The error a [`JoinHandle`](crate::JoinHandle) returns instead of the
/// task's value.
///
/// It is `Send + Sync + 'static` and an [`Error`](std::error::Error), so
/// `?` takes it into `Box<dyn Error + Send + Sync>` and the error-reporting
/// crates. Two errors are equal when they are the same variant and, for
/// panics, their messages are equal. A clone of a panic keeps its message
/// but not its payload (see [`PanicMessage`]).
///
/// ```
/// use rt_handle::{Job, JoinError};
///
/// let (job, handle) = Job::new(|| -> u32 { std::panic::panic_any(413_u16) });
/// # let prev = std::panic::take_hook(); std::panic::set_hook(Box::new(|_| {}));
/// job.run();
/// # std::panic::set_hook(prev);
/// let error = handle.join().unwrap_err();
/// assert!(error.is_panic());
/// assert_eq!(error.to_string(), "task panicked: task panicked with a non-string payload");
/// let payload = error.into_panic(); // or std::panic::resume_unwind(error.into_panic())
/// assert_eq!(payload.downcast_ref::<u16>(), Some(&413));
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum JoinError {
    /// The task's body panicked. The [`PanicMessage`] displays the panic's
    /// message (the payload when it was a `&str` or a `String`, otherwise
    /// [`NON_STRING_PAYLOAD`](crate::NON_STRING_PAYLOAD)) and keeps the
    /// payload itself ([`JoinError::into_panic`]). The worker that ran the
    /// task caught the panic and keeps working.
    #[error("task panicked: {0}")]
    Panicked(PanicMessage),
    /// The task was cancelled: before it started, so its body never ran
    /// (the thread pools' tasks); or, for an async task (rt-fair's), aborted
    /// or dropped with its executor between two polls.
    #[error("task was cancelled")]
    Cancelled,
    /// The executor did not accept the task (it had been shut down), so its
    /// body never ran.
    #[error("task was rejected: the executor is shut down")]
    Rejected,
}

impl JoinError {
    /// True for [`JoinError::Panicked`].
    pub fn is_panic(&self) -> bool {
        matches!(self, JoinError::Panicked(_))
    }

    /// True for [`JoinError::Cancelled`].
    pub fn is_cancelled(&self) -> bool {
        matches!(self, JoinError::Cancelled)
    }

    /// True for [`JoinError::Rejected`].
    pub fn is_rejected(&self) -> bool {
        matches!(self, JoinError::Rejected)
    }

    /// The payload the task panicked with (tokio's `JoinError::into_panic`):
    /// resume it with [`std::panic::resume_unwind`], or downcast it. For a
    /// [`PanicMessage`] without a payload (made from text, or a clone), its
    /// text as a `String`.
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

    /// The payload the task panicked with, as [`into_panic`](Self::into_panic);
    /// the error itself back if it is not a panic.
    ///
    /// ```
    /// use rt_handle::JoinError;
    ///
    /// assert_eq!(JoinError::Cancelled.try_into_panic().unwrap_err(), JoinError::Cancelled);
    /// ```
    pub fn try_into_panic(self) -> Result<Box<dyn Any + Send>, JoinError> {
        match self {
            JoinError::Panicked(message) => Ok(message.into_payload()),
            other => Err(other),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn assert_send_sync_error<E: std::error::Error + Send + Sync + 'static>() {}

    #[test]
    fn a_join_error_is_a_send_sync_error() {
        assert_send_sync_error::<JoinError>();
    }

    #[test]
    fn panics_compare_by_message_whatever_the_payload() {
        let caught = JoinError::Panicked(PanicMessage::from_payload(Box::new("boom")));
        assert_eq!(caught, JoinError::Panicked("boom".into()));
        assert_ne!(caught, JoinError::Panicked("bang".into()));
    }
}
