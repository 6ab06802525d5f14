//! Helpers shared by the integration tests (included with `mod support;`).
#![allow(dead_code, unused_imports)] // each test file uses a subset

use std::time::{Duration, Instant};

use rt_elastic::{ElasticPool, ElasticStats, JoinHandle};
pub use rt_testkit::{quietly, without_hanging, Gate, Latch};

/// How long a test waits for something that should happen "soon" before it
/// fails. Generous: the assertions are about behaviour, not speed.
pub const PATIENCE: Duration = Duration::from_secs(10);

/// Spawns a task that signals `started` and then blocks on `gate`.
pub fn blocker(pool: &ElasticPool, gate: &Gate, started: &Latch) -> JoinHandle<()> {
    let (gate, started) = (gate.clone(), started.clone());
    pool.spawn(move || {
        started.count_down();
        gate.wait();
    })
}

/// Spawns a [`blocker`] and waits until it runs: one worker of `pool` is
/// busy until `gate` opens.
pub fn occupy(pool: &ElasticPool, gate: &Gate) -> JoinHandle<()> {
    let started = Latch::new(1);
    let handle = blocker(pool, gate, &started);
    started.wait();
    handle
}

/// Polls `stats()` until `done` holds, failing after [`PATIENCE`].
pub fn eventually(pool: &ElasticPool, what: &str, done: impl Fn(&ElasticStats) -> bool) {
    let deadline = Instant::now() + PATIENCE;
    loop {
        let stats = pool.stats();
        if done(&stats) {
            return;
        }
        assert!(
            Instant::now() < deadline,
            "never happened: {what}; {stats:?}"
        );
        std::thread::sleep(Duration::from_millis(2));
    }
}
