//! A snapshot of a pool's configuration, gauges and counters.

use rt_handle::{Metrics, Priority};

/// What [`ElasticPool::stats`](crate::ElasticPool::stats) returns:
/// configuration, gauges and the [`Metrics`], the same shape as the
/// runtime's `PoolStats`. All of it is read under the pool's lock in one go,
/// so the fields are consistent with each other (a snapshot of one instant).
///
/// A worker counts a task just *after* completing its handle, so right
/// after a `join` returns the counters may not include that task yet. They
/// are exact once the pool has terminated:
/// `submitted == completed + panicked + cancelled`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ElasticStats {
    /// The configured core size.
    pub core_threads: usize,
    /// The configured maximum size.
    pub max_threads: usize,
    /// The bound on queued tasks; `None` when the queue is unbounded.
    pub queue_capacity: Option<usize>,
    /// Workers in the pool now: running a task, waiting for one, or being
    /// started. Workers that decided to exit are no longer counted.
    pub live_workers: usize,
    /// Live workers waiting for a task.
    pub idle_workers: usize,
    /// The most workers that were ever live at the same time.
    pub largest_pool_size: usize,
    /// Tasks waiting in the queue, all priorities together.
    pub queued: usize,
    /// Tasks waiting in the queue per priority, indexed by
    /// [`Priority::index`].
    pub queued_by_priority: [usize; Priority::COUNT],
    /// Tasks running now.
    pub running: usize,
    /// The task counters (`stolen` and `nudged_wakes` are always 0: this
    /// pool neither steals nor moves its workers).
    pub metrics: Metrics,
}

impl ElasticStats {
    /// Tasks waiting at `priority`.
    pub fn queued_at(&self, priority: Priority) -> usize {
        self.queued_by_priority[priority.index()]
    }
}
