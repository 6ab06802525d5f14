//! Why a delayed-task scheduler could not be built.

use std::io;

use rt_handle::raw::ThreadNameError;
use thiserror::Error;

/// Why a delayed-task scheduler could not be built
/// ([`Builder::build`](crate::Builder::build),
/// [`DelayedTaskScheduler::new`](crate::DelayedTaskScheduler::new)).
///
/// ```
/// use rt_timer::{BuildError, DelayedTaskScheduler};
///
/// let refused = DelayedTaskScheduler::builder().thread_name("bad\0name").build();
/// assert!(matches!(refused, Err(BuildError::InvalidThreadName { .. })));
/// ```
#[derive(Debug, Error)]
#[non_exhaustive]
pub enum BuildError {
    /// A thread name (or name prefix) the OS cannot take: it contains a
    /// NUL byte.
    #[error("thread name {name:?} contains a NUL byte")]
    InvalidThreadName {
        /// The name as configured.
        name: String,
    },
    /// The operating system refused to start a worker thread.
    #[error("the OS refused to start worker thread {index}: {source}")]
    Spawn {
        /// Index of the worker that could not be started.
        index: usize,
        /// The error from `std::thread::Builder::spawn`.
        #[source]
        source: io::Error,
    },
}

impl From<ThreadNameError> for BuildError {
    fn from(error: ThreadNameError) -> Self {
        Self::InvalidThreadName { name: error.name }
    }
}
