//! What `FairExecutor::stats` reports, and the counters behind it.

use std::time::Duration;

use crate::histogram::Histogram;

/// A snapshot of the executor's counters, one entry per queue in the order
/// the queues were added. See [`FairExecutor::stats`](crate::FairExecutor::stats).
#[derive(Debug, Clone, PartialEq)]
pub struct Stats<K> {
    /// Per-queue counters, in the order of the builder's `with_queue` calls.
    pub queues: Vec<QueueStats<K>>,
}

impl<K: PartialEq> Stats<K> {
    /// The counters of the queue with this key.
    pub fn queue(&self, key: K) -> Option<&QueueStats<K>> {
        self.queues.iter().find(|q| q.key == key)
    }
}

/// Counters of one queue since the executor was built.
#[derive(Debug, Clone, PartialEq)]
pub struct QueueStats<K> {
    /// The queue's key.
    pub key: K,
    /// The queue's weight.
    pub weight: u32,
    /// Times a task of this queue was polled.
    pub polls: u64,
    /// Tasks spawned onto this queue.
    pub spawned: u64,
    /// Tasks that ran to their end: returned, or panicked (counted in
    /// `panicked` too).
    pub finished: u64,
    /// Of the finished tasks, those that panicked.
    pub panicked: u64,
    /// Tasks aborted before they finished (not including the tasks still
    /// alive when the executor is dropped, which are never counted here),
    /// also those whose handle reports [`JoinError::Panicked`](crate::JoinError::Panicked)
    /// because the future's destructor panicked when it was aborted.
    pub aborted: u64,
    /// CPU time the executor charged to this queue: the wall time of its
    /// polls on the executor's thread, including the executor's own
    /// bookkeeping between polls. This is what the weights divide.
    pub cpu_time: Duration,
    /// Time from a task becoming runnable (spawned or woken) to its poll.
    pub queue_delay: DelayStats,
}

impl<K> QueueStats<K> {
    /// Tasks alive: spawned, and neither finished nor aborted.
    pub fn live(&self) -> u64 {
        self.spawned - self.finished - self.aborted
    }
}

/// Percentiles of a delay distribution (to 0.1%: kept as an HdrHistogram,
/// not as samples).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct DelayStats {
    /// Number of delays recorded.
    pub samples: u64,
    /// Median.
    pub p50: Duration,
    /// 90th percentile.
    pub p90: Duration,
    /// 99th percentile.
    pub p99: Duration,
    /// Largest delay recorded (exact).
    pub max: Duration,
}

/// The live counters of one queue, kept on the executor's thread.
#[derive(Debug, Clone)]
pub(crate) struct Counters {
    pub(crate) polls: u64,
    pub(crate) spawned: u64,
    pub(crate) finished: u64,
    pub(crate) panicked: u64,
    pub(crate) aborted: u64,
    pub(crate) cpu_ns: u64,
    pub(crate) delay: Histogram,
}

impl Counters {
    pub(crate) fn new() -> Self {
        Self {
            polls: 0,
            spawned: 0,
            finished: 0,
            panicked: 0,
            aborted: 0,
            cpu_ns: 0,
            delay: Histogram::new(),
        }
    }

    pub(crate) fn snapshot<K>(&self, key: K, weight: u32) -> QueueStats<K> {
        let d = |q: f64| Duration::from_nanos(self.delay.quantile(q));
        QueueStats {
            key,
            weight,
            polls: self.polls,
            spawned: self.spawned,
            finished: self.finished,
            panicked: self.panicked,
            aborted: self.aborted,
            cpu_time: Duration::from_nanos(self.cpu_ns),
            queue_delay: DelayStats {
                samples: self.delay.count(),
                p50: d(0.50),
                p90: d(0.90),
                p99: d(0.99),
                max: Duration::from_nanos(self.delay.max()),
            },
        }
    }
}
