//! Task counters: kept per worker, summed only when asked.

use crate::sync::{AtomicU64, Ordering};

/// A snapshot of a runtime's task counters.
///
/// While the runtime runs, the fields are read one after another, so they
/// are a near-instant view rather than an atomic one; completions are read
/// before submissions, so `submitted >= completed + panicked + cancelled`
/// always holds. After [`Runtime::shutdown`](crate::Runtime::shutdown) it is
/// exact: `submitted == completed + panicked + cancelled`.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
pub struct Metrics {
    /// Tasks accepted: from outside the pool, plus those spawned by tasks.
    /// Tasks refused after shutdown are not counted.
    pub submitted: u64,
    /// Tasks whose body returned.
    pub completed: u64,
    /// Tasks whose body panicked (the panic was caught).
    pub panicked: u64,
    /// Tasks that never ran because they were cancelled before starting.
    pub cancelled: u64,
    /// Tasks a worker took from a peer's deque by stealing.
    pub stolen: u64,
    /// Lifecycle hooks and panic-handler calls that panicked (each panic was
    /// caught; the worker carried on).
    pub hook_panics: u64,
    /// Woken workers that the kernel had queued behind a busy worker and
    /// that worker moved to another CPU (Linux only; see the crate docs).
    pub nudged_wakes: u64,
}

impl Metrics {
    /// Tasks accepted but not yet finished (as of the snapshot).
    pub fn pending(&self) -> u64 {
        self.submitted - (self.completed + self.panicked + self.cancelled)
    }
}

/// One worker's counters, on a cache line of their own so that counting a
/// task never touches a line another core writes.
#[derive(Default)]
#[repr(align(128))]
pub(crate) struct WorkerCounters {
    pub(crate) completed: AtomicU64,
    pub(crate) panicked: AtomicU64,
    pub(crate) cancelled: AtomicU64,
    pub(crate) stolen: AtomicU64,
    /// Tasks spawned by tasks running on this worker (into its own deque).
    pub(crate) spawned: AtomicU64,
    pub(crate) hook_panics: AtomicU64,
    pub(crate) nudged_wakes: AtomicU64,
    /// 1 while this worker runs a task: the `running` gauge of the stats.
    pub(crate) running: AtomicU64,
}

/// Adds one to a counter that only the calling worker writes: a plain load
/// and store, no read-modify-write. Release makes the task's earlier effects
/// visible to a snapshot that sees the new count.
#[inline]
pub(crate) fn bump(counter: &AtomicU64) {
    counter.store(counter.load(Ordering::Relaxed) + 1, Ordering::Release);
}

/// Adds `n` to a counter that only the calling worker writes.
#[inline]
pub(crate) fn add(counter: &AtomicU64, n: u64) {
    counter.store(counter.load(Ordering::Relaxed) + n, Ordering::Release);
}

/// Sums per-worker counters into a snapshot. `cancelled_elsewhere` counts
/// tasks cancelled off the workers (by `stop`); `external` is the number of
/// external submissions, read last (see [`Metrics`] for why).
pub(crate) fn snapshot<'a>(
    workers: impl Iterator<Item = &'a WorkerCounters> + Clone,
    cancelled_elsewhere: u64,
    external: impl FnOnce() -> u64,
) -> Metrics {
    let mut m = Metrics {
        cancelled: cancelled_elsewhere,
        ..Metrics::default()
    };
    for w in workers.clone() {
        m.completed += w.completed.load(Ordering::Acquire);
        m.panicked += w.panicked.load(Ordering::Acquire);
        m.cancelled += w.cancelled.load(Ordering::Acquire);
        m.stolen += w.stolen.load(Ordering::Acquire);
        m.hook_panics += w.hook_panics.load(Ordering::Acquire);
        m.nudged_wakes += w.nudged_wakes.load(Ordering::Acquire);
    }
    for w in workers {
        m.submitted += w.spawned.load(Ordering::Acquire);
    }
    m.submitted += external();
    m
}
