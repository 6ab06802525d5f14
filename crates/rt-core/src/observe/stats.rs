//! A cheap snapshot of a runtime's configuration and live gauges.

use std::time::Duration;

use rt_queue::{PerClass, Priority, PriorityPolicy};

use crate::observe::latency::ClassLatency;

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
    /// Tasks waiting in the queues, per class (`queued[Priority::High]`,
    /// or `queued.high`). A task cancelled while queued (through its handle
    /// or its token) leaves this count when its `cancel` returns, although
    /// its queue entry stays in the queue until a worker takes it and skips
    /// it: the queue lengths less those stale entries, per class. A racy
    /// gauge, as every one here; never below 0.
    pub queued: PerClass<usize>,
    /// Tasks running right now.
    pub running: usize,
    /// Workers parked (or about to park) for lack of work.
    pub idle_workers: usize,
    /// Compensating threads running right now: threads beyond
    /// [`threads`](Self::threads) that keep one worker free while the
    /// others wait (see the runtime's docs, "Waiting across runtimes").
    pub compensating_threads: usize,
    /// How workers choose between priority classes.
    pub policy: PriorityPolicy,
    /// CPU time used by the tasks of each class so far, per class (wall
    /// time from a task's start to its end on its
    /// worker, including work it helped with while it waited). `None`
    /// unless measured: always under a weighted policy, under the strict
    /// one with [`Builder::measure_cpu_time`](crate::Builder::measure_cpu_time).
    pub cpu_time: Option<PerClass<Duration>>,
    /// Queue delay and run time percentiles per class, if recorded
    /// ([`Builder::record_latency`](crate::Builder::record_latency)).
    pub latency: Option<PerClass<ClassLatency>>,
    /// The task counters.
    pub metrics: Metrics,
    /// Each worker's own numbers, by worker index: the core workers, then
    /// every compensating thread started so far.
    pub workers: Vec<WorkerStats>,
}

/// One worker's numbers in [`PoolStats::workers`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WorkerStats {
    /// Tasks it finished (completed, panicked or cancelled).
    pub finished: u64,
    /// Tasks it took from another worker's deque.
    pub stolen: u64,
    /// Entries waiting in its own deques. Unlike [`PoolStats::queued`], it
    /// still counts the stale entry of a task cancelled while queued, until
    /// the worker takes it (which deque holds an entry is not tracked).
    pub queued: usize,
    /// Whether it runs a task right now.
    pub running: bool,
    /// The time it spent running tasks, if measured (as for
    /// [`PoolStats::cpu_time`]).
    pub busy: Option<Duration>,
}

impl PoolStats {
    /// Tasks waiting at `priority`.
    pub fn queued_at(&self, priority: Priority) -> usize {
        self.queued[priority]
    }

    /// CPU time used by the tasks of `priority`, if measured.
    pub fn cpu_time_at(&self, priority: Priority) -> Option<Duration> {
        self.cpu_time.map(|t| t[priority])
    }

    /// Tasks waiting at any priority.
    pub fn queued_total(&self) -> usize {
        self.queued.iter().sum()
    }
}
