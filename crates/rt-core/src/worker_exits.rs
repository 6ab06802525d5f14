//! Waiting for every worker thread to have exited.

use std::time::{Duration, Instant};

use crate::sync::{lock, Condvar, Mutex};

/// Counts workers that have left their loop; `wait` returns once all have.
pub(crate) struct WorkerExits {
    workers: Mutex<usize>,
    exited: Mutex<usize>,
    all_exited: Condvar,
}

impl WorkerExits {
    pub(crate) fn new(workers: usize) -> Self {
        Self {
            workers: Mutex::new(workers),
            exited: Mutex::new(0),
            all_exited: Condvar::new(),
        }
    }

    /// Fewer workers were started than planned.
    pub(crate) fn set_workers(&self, workers: usize) {
        *lock(&self.workers) = workers;
        self.all_exited.notify_all();
    }

    pub(crate) fn mark_exited(&self) {
        *lock(&self.exited) += 1;
        self.all_exited.notify_all();
    }

    fn done(&self, exited: usize) -> bool {
        exited >= *lock(&self.workers)
    }

    pub(crate) fn wait(&self) {
        let mut exited = lock(&self.exited);
        while !self.done(*exited) {
            exited = self
                .all_exited
                .wait(exited)
                .unwrap_or_else(|poisoned| poisoned.into_inner());
        }
    }

    /// False if the workers were still running when `timeout` passed.
    pub(crate) fn wait_timeout(&self, timeout: Duration) -> bool {
        let deadline = Instant::now().checked_add(timeout);
        let mut exited = lock(&self.exited);
        while !self.done(*exited) {
            let left = match deadline {
                Some(d) => d.saturating_duration_since(Instant::now()),
                None => Duration::MAX,
            };
            if left.is_zero() {
                return false;
            }
            exited = self
                .all_exited
                .wait_timeout(exited, left)
                .unwrap_or_else(|poisoned| poisoned.into_inner())
                .0;
        }
        true
    }
}
