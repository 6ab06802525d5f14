//! Helpers shared by the integration tests (included with `mod support;`).
#![allow(dead_code)]

use std::sync::{Arc, Condvar, Mutex};
use std::time::{Duration, Instant};

use rt_burst::BurstPool;

/// A one-shot gate: handlers `wait` on it until the test `open`s it.
#[derive(Clone, Default)]
pub struct Gate(Arc<(Mutex<bool>, Condvar)>);

impl Gate {
    pub fn new() -> Self {
        Self::default()
    }

    pub fn open(&self) {
        *self.0 .0.lock().unwrap() = true;
        self.0 .1.notify_all();
    }

    pub fn wait(&self) {
        let mut open = self.0 .0.lock().unwrap();
        while !*open {
            open = self.0 .1.wait(open).unwrap();
        }
    }
}

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

/// Polls `condition` every millisecond; fails the test after 10 s.
pub fn wait_until(what: &str, mut condition: impl FnMut() -> bool) {
    let deadline = Instant::now() + Duration::from_secs(10);
    while !condition() {
        assert!(Instant::now() < deadline, "timed out waiting until {what}");
        std::thread::sleep(Duration::from_millis(1));
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
