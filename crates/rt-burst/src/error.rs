//! Why an item was not accepted, with the item given back.

use std::fmt;

use thiserror::Error;

/// The error of [`BurstPool::send`](crate::BurstPool::send) and
/// [`BurstPool::send_burst`](crate::BurstPool::send_burst): the item (or, for
/// a burst, the items that were not accepted) comes back, nothing is lost.
///
/// Its `Debug` does not need `T: Debug`: it prints only the variant.
///
/// ```
/// use rt_burst::SendError;
///
/// let err = SendError::Full(7u32);
/// assert!(err.is_full());
/// assert_eq!(format!("{err:?}"), "Full(..)");
/// assert_eq!(err.into_inner(), 7);
/// ```
#[derive(Error, Clone, PartialEq, Eq)]
pub enum SendError<T> {
    /// Every worker's queue is full (or the pool has no worker yet).
    #[error("every worker's queue is full")]
    Full(T),
    /// The pool was shut down.
    #[error("the burst pool is shut down")]
    Closed(T),
}

impl<T> SendError<T> {
    /// The item that was not accepted.
    pub fn into_inner(self) -> T {
        match self {
            SendError::Full(item) | SendError::Closed(item) => item,
        }
    }

    /// True for [`SendError::Full`].
    pub fn is_full(&self) -> bool {
        matches!(self, SendError::Full(_))
    }

    /// True for [`SendError::Closed`].
    pub fn is_closed(&self) -> bool {
        matches!(self, SendError::Closed(_))
    }

    /// Applies `f` to the item, keeping the variant.
    pub(crate) fn map<U>(self, f: impl FnOnce(T) -> U) -> SendError<U> {
        match self {
            SendError::Full(item) => SendError::Full(f(item)),
            SendError::Closed(item) => SendError::Closed(f(item)),
        }
    }
}

impl<T> fmt::Debug for SendError<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SendError::Full(_) => f.write_str("Full(..)"),
            SendError::Closed(_) => f.write_str("Closed(..)"),
        }
    }
}
