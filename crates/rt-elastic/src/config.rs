//! The validated configuration a pool runs with.

use std::time::Duration;

/// What the builder checked and the pool reads, never changed after build.
#[derive(Debug, Clone)]
pub(crate) struct Config {
    /// Workers kept even when idle (unless `core_timeout`).
    pub(crate) core: usize,
    /// The most workers the pool ever has; at least 1 and at least `core`.
    pub(crate) max: usize,
    /// The bound on queued tasks; `None` is unbounded.
    pub(crate) capacity: Option<usize>,
    /// How long a worker that may time out stays idle before it exits.
    pub(crate) keep_alive: Duration,
    /// Whether core workers time out too.
    pub(crate) core_timeout: bool,
    /// Worker `i` is named `{thread_name}-{i}`.
    pub(crate) thread_name: String,
    pub(crate) stack_size: Option<usize>,
}

impl Config {
    /// True when a bounded queue holding `queued` tasks has no free place.
    pub(crate) fn is_full(&self, queued: usize) -> bool {
        self.capacity.is_some_and(|capacity| queued >= capacity)
    }
}
