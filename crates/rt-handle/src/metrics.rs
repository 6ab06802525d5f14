//! The task counters every executor reports, in one shape.

/// A snapshot of an executor's task counters.
///
/// Each accepted task is counted once in `submitted` and, when it ends, once
/// in exactly one of `completed`, `panicked` and `cancelled`, however it ran
/// (a task cancelled while queued is counted once, whether by its canceller
/// or when its queue entry is taken).
/// While the executor runs, the fields are read one after another: a
/// near-instant view, not an atomic one, but every executor reads them so
/// that `submitted >= completed + panicked + cancelled` holds in every
/// snapshot. After shutdown it is exact:
/// `submitted == completed + panicked + cancelled`.
///
/// ```
/// use rt_handle::Metrics;
///
/// let m = Metrics { submitted: 5, completed: 3, cancelled: 1, ..Metrics::default() };
/// assert_eq!(m.pending(), 1);
/// assert_eq!(m.finished(), 4);
/// ```
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
pub struct Metrics {
    /// Tasks accepted: from outside the executor, plus those spawned by its
    /// own tasks. Tasks refused (after shutdown, or by a full queue) are not
    /// counted.
    pub submitted: u64,
    /// Tasks whose body returned.
    pub completed: u64,
    /// Tasks whose body panicked (the panic was caught).
    pub panicked: u64,
    /// Tasks that never ran because they were cancelled before starting.
    /// An executor that registers a cancel listener (the work-stealing
    /// runtime does) counts a task cancelled through its handle or its
    /// token while it was queued before that `cancel` returns; others
    /// count it when they take its queue entry.
    pub cancelled: u64,
    /// Tasks a worker took from a peer's deque by stealing (0 for executors
    /// without work stealing).
    pub stolen: u64,
    /// Lifecycle hooks and panic-handler calls that panicked (each panic was
    /// caught; the worker carried on).
    pub hook_panics: u64,
    /// Woken workers that the kernel had queued behind a busy worker and
    /// that worker moved to another CPU (only the runtime, on Linux, with
    /// `move_stacked_wakes` on; see its docs).
    pub nudged_wakes: u64,
}

impl Metrics {
    /// Tasks that have ended: `completed + panicked + cancelled`.
    pub fn finished(&self) -> u64 {
        self.completed + self.panicked + self.cancelled
    }

    /// Tasks accepted but not yet finished, as of the snapshot. Never
    /// panics: a snapshot that (against the executors' promise) saw more
    /// finished than submitted tasks reports 0.
    pub fn pending(&self) -> u64 {
        self.submitted.saturating_sub(self.finished())
    }
}
