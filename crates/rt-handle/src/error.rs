//! Why a task did not produce a value.

use thiserror::Error;

/// The error a [`JoinHandle`](crate::JoinHandle) returns instead of the
/// task's value.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum JoinError {
    /// The task's body panicked. The message is the panic payload when it was
    /// a `&str` or a `String`; otherwise a note saying it was not a string.
    /// The worker that ran the task caught the panic and keeps working.
    #[error("task panicked: {0}")]
    Panicked(String),
    /// The task was cancelled before it started, so its body never ran.
    #[error("task was cancelled before it started")]
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
}
