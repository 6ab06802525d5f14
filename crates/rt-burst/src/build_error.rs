//! Why a burst pool could not be built.

use thiserror::Error;

/// Why a burst pool could not be built
/// ([`Builder::build`](crate::Builder::build)).
#[derive(Debug, Error)]
#[non_exhaustive]
pub enum BuildError {
    /// A bounded queue needs room for at least one task.
    #[error("a bounded queue needs a capacity of at least 1 (got 0)")]
    ZeroCapacity,
}
