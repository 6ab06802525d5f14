//! Latency histograms per priority class: queue delay (submit to start) and
//! run time, recorded by each worker into its own histograms and merged
//! when `stats()` asks. HdrHistogram, not a histogram of our own.

use std::sync::{Mutex, OnceLock};
use std::time::Duration;

use hdrhistogram::Histogram;
use rt_handle::raw::unpoison;
use rt_queue::{PerClass, Priority};

/// The largest value recorded exactly enough: an hour, in ns (longer
/// values are clamped to it).
const MAX_NS: u64 = 3_600_000_000_000;

/// One worker's histograms, behind a lock only `stats()` contends for;
/// made when the worker records its first task (a compensating worker that
/// never starts costs nothing).
#[derive(Default)]
pub(crate) struct WorkerLatency(OnceLock<Mutex<[ClassHistograms; Priority::COUNT]>>);

struct ClassHistograms {
    queue_delay: Histogram<u64>,
    run_time: Histogram<u64>,
}

fn histogram() -> Histogram<u64> {
    // Three significant digits: 0.1% resolution at every magnitude.
    Histogram::new_with_bounds(1, MAX_NS, 3).expect("valid histogram bounds")
}

fn class_histograms() -> [ClassHistograms; Priority::COUNT] {
    std::array::from_fn(|_| ClassHistograms {
        queue_delay: histogram(),
        run_time: histogram(),
    })
}

impl WorkerLatency {
    /// Records one task: `queue_delay` is `None` when its submission time
    /// is unknown (submitted before recording started).
    pub(crate) fn record(&self, priority: Priority, queue_delay: Option<u64>, run_time: u64) {
        let mut classes = unpoison(self.0.get_or_init(|| Mutex::new(class_histograms())).lock());
        let class = &mut classes[priority.index()];
        if let Some(delay) = queue_delay {
            class.queue_delay.saturating_record(delay.clamp(1, MAX_NS));
        }
        class.run_time.saturating_record(run_time.clamp(1, MAX_NS));
    }
}

/// Merges every worker's histograms into one summary per class.
pub(crate) fn merge(workers: &[WorkerLatency]) -> PerClass<ClassLatency> {
    let mut merged = class_histograms();
    for worker in workers {
        let Some(classes) = worker.0.get() else {
            continue;
        };
        let classes = unpoison(classes.lock());
        for (into, from) in merged.iter_mut().zip(classes.iter()) {
            // Same bounds on both sides: `add` cannot fail.
            let _ = into.queue_delay.add(&from.queue_delay);
            let _ = into.run_time.add(&from.run_time);
        }
    }
    let summary = merged.map(|class| ClassLatency {
        queue_delay: LatencySummary::of(&class.queue_delay),
        run_time: LatencySummary::of(&class.run_time),
    });
    PerClass::from_fn(|p| summary[p.index()])
}

/// Queue delay and run time of one priority class's tasks, in
/// [`PoolStats::latency`](crate::PoolStats::latency).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct ClassLatency {
    /// From submission to the start of the task on a worker.
    pub queue_delay: LatencySummary,
    /// From the start of the task to its end.
    pub run_time: LatencySummary,
}

/// Percentiles of a latency distribution (0.1% resolution).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct LatencySummary {
    /// How many values were recorded.
    pub count: u64,
    /// The median.
    pub p50: Duration,
    /// The 90th percentile.
    pub p90: Duration,
    /// The 99th percentile.
    pub p99: Duration,
    /// The largest value.
    pub max: Duration,
}

impl LatencySummary {
    fn of(h: &Histogram<u64>) -> Self {
        if h.is_empty() {
            return Self::default();
        }
        let at = |q: f64| Duration::from_nanos(h.value_at_quantile(q));
        Self {
            count: h.len(),
            p50: at(0.50),
            p90: at(0.90),
            p99: at(0.99),
            max: Duration::from_nanos(h.max()),
        }
    }
}
