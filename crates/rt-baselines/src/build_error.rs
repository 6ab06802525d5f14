//! Why a baseline executor could not be built.

use std::io;

use thiserror::Error;

/// Why a baseline executor could not be built
/// ([`GlobalQueuePool::new`](crate::GlobalQueuePool::new)). Any worker
/// threads already started are shut down again before this is returned.
///
/// ```
/// use rt_baselines::{BuildError, GlobalQueuePool};
///
/// assert!(matches!(GlobalQueuePool::new(0), Err(BuildError::ZeroThreads)));
/// ```
#[derive(Debug, Error)]
#[non_exhaustive]
pub enum BuildError {
    /// A pool needs at least one worker thread.
    #[error("a pool needs at least one worker thread (got 0)")]
    ZeroThreads,
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
