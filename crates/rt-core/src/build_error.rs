//! Why a runtime could not be built.

use std::io;

use rt_handle::raw::ThreadNameError;
use thiserror::Error;

/// Why a runtime could not be built ([`Builder::build`](crate::Builder::build),
/// [`Runtime::new`](crate::Runtime::new),
/// [`Builder::build_global`](crate::Builder::build_global)). Any worker
/// threads already started are shut down again before this is returned.
///
/// ```
/// use rt_core::{BuildError, Runtime};
///
/// assert!(matches!(Runtime::new(0), Err(BuildError::ZeroThreads)));
/// ```
#[derive(Debug, Error)]
#[non_exhaustive]
pub enum BuildError {
    /// A runtime needs at least one worker thread.
    #[error("a pool needs at least one worker thread (got 0)")]
    ZeroThreads,
    /// More worker threads were asked for than the runtime accepts.
    #[error("{requested} worker threads requested; at most {max} are allowed")]
    TooManyThreads {
        /// The configured thread count.
        requested: usize,
        /// The largest thread count the runtime accepts.
        max: usize,
    },
    /// A weighted priority policy gave a class a zero weight (it would
    /// never be owed any time).
    #[error("priority class {class} has weight 0; weights must be positive")]
    ZeroWeight {
        /// The class with the zero weight.
        class: rt_queue::Priority,
    },
    /// A bounded queue needs room for at least one task.
    #[error("a bounded queue needs a capacity of at least 1 (got 0)")]
    ZeroCapacity,
    /// `build_global` was called after the global runtime was configured
    /// or first used: it exists once per process.
    #[error("the global runtime has already been built (configure it once, before its first use)")]
    GlobalAlreadyBuilt,
    /// The thread asked to be adopted as a worker
    /// (`use_current_thread`) is a worker of a runtime already: a thread
    /// is the worker of one runtime at most.
    #[error(
        "the current thread is already a worker of a runtime; it cannot be adopted by another"
    )]
    AlreadyAWorker,
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
