//! Why an elastic pool could not be built.

use std::io;

use rt_handle::raw::ThreadNameError;
use thiserror::Error;

/// Why an elastic pool could not be built
/// ([`ElasticBuilder::build`](crate::ElasticBuilder::build)). Any worker
/// threads already started are shut down again before this is returned.
///
/// ```
/// use rt_elastic::{BuildError, ElasticPool};
///
/// let refused = ElasticPool::builder().core_threads(4).max_threads(2).build();
/// assert!(matches!(refused, Err(BuildError::MaxBelowCore { core: 4, max: 2 })));
/// ```
#[derive(Debug, Error)]
#[non_exhaustive]
pub enum BuildError {
    /// A bounded queue needs room for at least one task.
    #[error("a bounded queue needs a capacity of at least 1 (got 0)")]
    ZeroCapacity,
    /// A pool's maximum thread count is below its core thread count.
    #[error("max_threads ({max}) must be at least core_threads ({core}) and at least 1")]
    MaxBelowCore {
        /// The configured core thread count.
        core: usize,
        /// The configured maximum thread count.
        max: usize,
    },
    /// Core threads may time out, but the keep-alive is zero: they would
    /// exit as soon as they became idle.
    #[error("a zero keep-alive with core_timeout(true) would stop idle core threads at once")]
    ZeroKeepAlive,
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
