//! Helpers shared by the integration tests (included with `mod support;`).
#![allow(dead_code, unused_imports)] // each test file uses a subset

use std::panic::{catch_unwind, resume_unwind, AssertUnwindSafe};
use std::sync::mpsc;
use std::thread;
use std::time::Duration;

pub use rt_testkit::{quietly, Gate, Latch};

/// Longer than any of these tests takes, even under miri or a sanitizer.
pub const WATCHDOG: Duration = Duration::from_secs(120);

/// Runs `test` on its own thread and fails if it does not finish in time,
/// so a regression that hangs fails the test instead of stalling CI.
pub fn without_hanging<R: Send + 'static>(test: impl FnOnce() -> R + Send + 'static) -> R {
    let (done_tx, done_rx) = mpsc::channel();
    let runner = thread::spawn(move || {
        let outcome = catch_unwind(AssertUnwindSafe(test));
        let _ = done_tx.send(outcome);
    });
    match done_rx.recv_timeout(WATCHDOG) {
        Ok(Ok(value)) => {
            runner.join().unwrap();
            value
        }
        Ok(Err(panic)) => resume_unwind(panic),
        Err(_) => panic!("the test did not finish within {WATCHDOG:?}: it hangs"),
    }
}

/// Blocks every worker of `rt` on `gate`; returns once all of them are
/// inside a blocking task, so later submissions queue up behind them.
pub fn occupy_all_workers(rt: &rt_core::Runtime, gate: &Gate) -> Vec<rt_core::JoinHandle<()>> {
    let started = Latch::new(rt.threads());
    let handles = (0..rt.threads())
        .map(|_| {
            let (gate, started) = (gate.clone(), started.clone());
            rt.spawn_with_priority(rt_core::Priority::High, move || {
                started.count_down();
                gate.wait();
            })
        })
        .collect();
    started.wait();
    handles
}
