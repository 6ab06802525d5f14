//! Waiting for every worker thread to have exited.

use std::time::Duration;

use rt_handle::support::{unpoison, Termination};

use crate::sync::Mutex;

/// Counts workers that have left their loop; waiters return once all have.
pub(crate) struct WorkerExits {
    /// (workers started, workers exited).
    counts: Mutex<(usize, usize)>,
    all_exited: Termination,
}

impl WorkerExits {
    pub(crate) fn new(workers: usize) -> Self {
        Self {
            counts: Mutex::new((workers, 0)),
            all_exited: Termination::new(),
        }
    }

    /// Fewer workers were started than planned.
    pub(crate) fn set_workers(&self, workers: usize) {
        let mut counts = unpoison(self.counts.lock());
        counts.0 = workers;
        if counts.1 >= counts.0 {
            self.all_exited.set();
        }
    }

    /// A compensating worker is about to start.
    pub(crate) fn add_worker(&self) {
        unpoison(self.counts.lock()).0 += 1;
    }

    /// A compensating worker counted by `add_worker` did not start after all.
    pub(crate) fn remove_worker(&self) {
        let mut counts = unpoison(self.counts.lock());
        counts.0 -= 1;
        if counts.1 >= counts.0 {
            self.all_exited.set();
        }
    }

    pub(crate) fn mark_exited(&self) {
        let mut counts = unpoison(self.counts.lock());
        counts.1 += 1;
        if counts.1 >= counts.0 {
            self.all_exited.set();
        }
    }

    pub(crate) fn wait(&self) {
        self.all_exited.wait();
    }

    /// False if the workers were still running when `timeout` passed.
    pub(crate) fn wait_timeout(&self, timeout: Duration) -> bool {
        self.all_exited.wait_timeout(timeout)
    }
}
