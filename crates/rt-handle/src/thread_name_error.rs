//! The thread-setting failure every executor's build shares.

use thiserror::Error;

/// A thread name (or name prefix) the OS cannot take: it contains a NUL
/// byte, which `std::thread::Builder` rejects with a panic. What
/// [`check_thread_name`](crate::raw::check_thread_name) returns; each
/// executor's own build error turns it into its `InvalidThreadName`.
///
/// ```
/// use rt_handle::raw::{check_thread_name, ThreadNameError};
///
/// let error: ThreadNameError = check_thread_name("bad\0name").unwrap_err();
/// assert_eq!(error.name, "bad\0name");
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("thread name {name:?} contains a NUL byte")]
pub struct ThreadNameError {
    /// The name as configured.
    pub name: String,
}
