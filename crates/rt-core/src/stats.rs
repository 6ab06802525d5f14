//! A cheap snapshot of a runtime's configuration and live gauges.

use rt_queue::Priority;

use rt_handle::Metrics;

/// What [`Runtime::stats`](crate::Runtime::stats) returns: configuration,
/// gauges read without stopping anything (each a racy but recent value), and
/// the [`Metrics`] counters.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PoolStats {
    /// Number of worker threads.
    pub threads: usize,
    /// The bound on externally submitted queued tasks, if any.
    pub queue_capacity: Option<usize>,
    /// Prefix of the worker thread names.
    pub thread_name: String,
    /// Tasks waiting in the queues, indexed by [`Priority::index`].
    pub queued: [usize; Priority::COUNT],
    /// Tasks running right now.
    pub running: usize,
    /// Workers parked (or about to park) for lack of work.
    pub idle_workers: usize,
    /// The task counters.
    pub metrics: Metrics,
}

impl PoolStats {
    /// Tasks waiting at `priority`.
    pub fn queued_at(&self, priority: Priority) -> usize {
        self.queued[priority.index()]
    }

    /// Tasks waiting at any priority.
    pub fn queued_total(&self) -> usize {
        self.queued.iter().sum()
    }
}
