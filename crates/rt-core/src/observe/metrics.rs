//! Task counters: kept per worker, summed only when asked.

use rt_handle::raw::CancelListener;
use rt_handle::{Metrics, RunOutcome};
use rt_queue::Priority;

use crate::sync::{AtomicU64, Ordering};

/// One worker's counters, on a cache line of their own so that counting a
/// task never touches a line another core writes.
#[derive(Default)]
#[repr(align(128))]
pub(crate) struct WorkerCounters {
    pub(crate) completed: AtomicU64,
    pub(crate) panicked: AtomicU64,
    pub(crate) cancelled: AtomicU64,
    pub(crate) stolen: AtomicU64,
    /// Tasks spawned by tasks running on this worker (into its own deque),
    /// counted before the push.
    pub(crate) spawned: AtomicU64,
    pub(crate) hook_panics: AtomicU64,
    pub(crate) nudged_wakes: AtomicU64,
    /// 1 while this worker runs a task: the `running` gauge of the stats.
    pub(crate) running: AtomicU64,
    /// CPU time (ns) of the tasks this worker ran, per priority class
    /// (measured under a weighted policy, or when asked for).
    pub(crate) cpu_ns: [AtomicU64; Priority::COUNT],
}

/// Tasks that ended off the workers: cancelled by `stop` while queued,
/// run by a thread waiting at the end of a scope it opened outside the
/// pool (`scope.rs`), cancelled at spawn (a token already cancelled), or
/// cancelled while queued through their handles or tokens, counted by the
/// canceller (the runtime's [`CancelListener`]). Any thread may count here,
/// so the counts are RMWs.
///
/// Also the gauge of tasks cancelled that way whose queue entries are still
/// queued, per class: `Runtime::stats` takes them off the queue lengths.
#[derive(Default)]
pub(crate) struct OffWorkerCounts {
    completed: AtomicU64,
    panicked: AtomicU64,
    cancelled: AtomicU64,
    /// Per class: tasks a canceller counted (`cancelled_while_queued`)
    /// whose entries no worker or drain has taken yet
    /// (`cancelled_entry_taken`). Never below 0: the entry is taken only
    /// after the count (`JOIN_STATE.md`, "Who counts a cancellation").
    stale_entries: [AtomicU64; Priority::COUNT],
}

impl CancelListener for OffWorkerCounts {
    fn cancelled_while_queued(&self, class: Priority) {
        // Relaxed: a gauge, read racily (`stale_entries`).
        self.stale_entries[class.index()].fetch_add(1, Ordering::Relaxed);
        // Release, in `count`: the canceller read the task's owner with
        // Acquire, which the submitter wrote with Release after counting
        // the submission, so a snapshot that sees this count (with
        // Acquire, before it reads the submissions) sees the submission.
        self.count(RunOutcome::Cancelled, 1);
    }

    fn cancelled_entry_taken(&self, class: Priority) {
        // Relaxed: as above. After the increment: the entry's taker waited
        // for the canceller's count (and so this gauge's increment).
        self.stale_entries[class.index()].fetch_sub(1, Ordering::Relaxed);
    }
}

impl OffWorkerCounts {
    /// Tasks of `class` cancelled while queued whose stale entries are
    /// still queued (a racy gauge, as the queue lengths are).
    pub(crate) fn stale_entries(&self, class: Priority) -> usize {
        let n = self.stale_entries[class.index()].load(Ordering::Relaxed);
        // Never below 0 (see the field); a value that wrapped would read
        // as 0 all the same.
        if n > i64::MAX as u64 {
            0
        } else {
            usize::try_from(n).unwrap_or(usize::MAX)
        }
    }

    /// Counts `n` tasks that ended with `outcome` (`Stale` counts nothing).
    pub(crate) fn count(&self, outcome: RunOutcome, n: u64) {
        let counter = match outcome {
            RunOutcome::Completed => &self.completed,
            RunOutcome::Panicked => &self.panicked,
            RunOutcome::Cancelled => &self.cancelled,
            RunOutcome::Stale => return,
        };
        // Release pairs with the Acquire loads of `snapshot`, as `bump`'s (`worker/mod.rs`).
        counter.fetch_add(n, Ordering::Release);
    }
}

/// Sums per-worker counters into a snapshot, with the tasks that ended off
/// the workers (`off_workers`); `external` is the number of external
/// submissions.
///
/// Why `submitted >= completed + panicked + cancelled` holds in every
/// snapshot: every task is counted as submitted *before* it becomes visible
/// in a queue (`spawned` before the local push, the gate's count before the
/// injector push), so the count happens-before the pop of whoever finishes
/// the task, hence before that worker's Release bump of a completion
/// counter. The completion counters are read first, with Acquire, and the
/// submission counters after, so a snapshot that sees a completion also sees
/// its submission.
pub(crate) fn snapshot<'a>(
    workers: impl Iterator<Item = &'a WorkerCounters> + Clone,
    off_workers: &OffWorkerCounts,
    external: impl FnOnce() -> u64,
) -> Metrics {
    let mut m = Metrics {
        completed: off_workers.completed.load(Ordering::Acquire),
        panicked: off_workers.panicked.load(Ordering::Acquire),
        cancelled: off_workers.cancelled.load(Ordering::Acquire),
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
