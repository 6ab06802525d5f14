//! Counters of a pool, read without stopping it.

/// One worker's counters, from [`BurstPool::stats`](crate::BurstPool::stats).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct WorkerStats {
    /// Items this worker took and ran its handler on, whether or not the
    /// handler panicked.
    pub handled: u64,
    /// How many of those made the handler panic (each caught; the worker
    /// carried on with the next item).
    pub panics: u64,
    /// Items waiting in this worker's queue.
    pub queued: usize,
    /// True when the worker is parked (or about to park) with nothing queued.
    pub parked: bool,
}

/// A snapshot of every worker's counters, indexed like
/// [`BurstPool::spawn_worker`](crate::BurstPool::spawn_worker)'s return
/// values. Each worker is read under its own queue lock; the snapshot is
/// exact once the pool is shut down.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct BurstStats {
    /// Per worker, in spawn order.
    pub workers: Vec<WorkerStats>,
}

impl BurstStats {
    /// Items handled by all workers together (panicked ones included).
    pub fn handled(&self) -> u64 {
        self.workers.iter().map(|w| w.handled).sum()
    }

    /// Handler panics caught in all workers together.
    pub fn panics(&self) -> u64 {
        self.workers.iter().map(|w| w.panics).sum()
    }

    /// Items waiting in all queues together.
    pub fn queued(&self) -> usize {
        self.workers.iter().map(|w| w.queued).sum()
    }

    /// Workers parked right now.
    pub fn parked(&self) -> usize {
        self.workers.iter().filter(|w| w.parked).count()
    }
}
