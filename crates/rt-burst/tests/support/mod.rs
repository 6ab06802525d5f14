//! Helpers shared by the integration tests (included with `mod support;`).
#![allow(dead_code, unused_imports)] // each test file uses a subset

use std::sync::{Arc, Mutex};

use rt_burst::BurstPool;
pub use rt_testkit::{wait_until, Gate};

/// Every (worker, item) pair handled, in the order the handlers ran.
#[derive(Clone, Default)]
pub struct Log<T>(Arc<Mutex<Vec<(usize, T)>>>);

impl<T: Clone> Log<T> {
    pub fn new() -> Self {
        Self(Arc::new(Mutex::new(Vec::new())))
    }

    pub fn record(&self, worker: usize, item: T) {
        self.0.lock().unwrap().push((worker, item));
    }

    pub fn entries(&self) -> Vec<(usize, T)> {
        self.0.lock().unwrap().clone()
    }

    /// The items worker `w` handled, in order.
    pub fn of(&self, worker: usize) -> Vec<T> {
        self.entries()
            .into_iter()
            .filter(|(w, _)| *w == worker)
            .map(|(_, item)| item)
            .collect()
    }
}

/// Waits until every worker of `pool` is parked with nothing queued.
pub fn wait_all_parked<T: Send + 'static>(pool: &BurstPool<T>) {
    wait_until("every worker is parked", || {
        let stats = pool.stats();
        stats.parked() == pool.workers() && stats.queued() == 0
    });
}

/// Waits until no worker is parked and nothing is queued: each worker is
/// inside its handler.
pub fn wait_all_busy<T: Send + 'static>(pool: &BurstPool<T>) {
    wait_until("every worker is inside its handler", || {
        let stats = pool.stats();
        stats.parked() == 0 && stats.queued() == 0
    });
}
