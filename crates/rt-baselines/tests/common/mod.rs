//! Helpers shared by the integration tests: a trait over the three
//! strategies, a gate to hold tasks back, and a watchdog that turns a
//! deadlock into a failure instead of a hung test run.

// Each test file uses a different subset of these helpers.
#![allow(dead_code, unused_macros, unused_imports)]

use std::sync::mpsc::{self, RecvTimeoutError};
use std::sync::Arc;
use std::thread;
use std::time::Duration;

use rt_baselines::{GlobalQueuePool, SingleThreaded, ThreadPerTask};
use rt_handle::Executor;
pub use rt_testkit::{wait_until, Gate};

/// Far beyond anything a passing test needs; only a deadlock gets here.
const DEADLINE: Duration = Duration::from_secs(60);

/// What the generic tests need beyond [`Executor`]: the inherent shutdown
/// methods, which the trait does not have.
pub trait Strategy: Executor + Sized + 'static {
    fn shut_down(&self);
    fn shutting_down(&self) -> bool;
}

impl Strategy for GlobalQueuePool {
    fn shut_down(&self) {
        self.shutdown();
    }
    fn shutting_down(&self) -> bool {
        self.is_shutdown()
    }
}

impl Strategy for ThreadPerTask {
    fn shut_down(&self) {
        self.shutdown();
    }
    fn shutting_down(&self) -> bool {
        self.is_shutdown()
    }
}

impl Strategy for SingleThreaded {
    fn shut_down(&self) {
        self.shutdown();
    }
    fn shutting_down(&self) -> bool {
        self.is_shutdown()
    }
}

/// Generates one test per strategy that passes a fresh executor to the
/// generic check `$check`, so that `results_come_back::on_thread_per_task`
/// reads as a sentence. The global queue pool gets two workers.
macro_rules! on_every_strategy {
    ($($check:ident),+ $(,)?) => {$(
        mod $check {
            #[test]
            fn on_a_global_queue_pool() {
                super::$check(rt_baselines::GlobalQueuePool::new(2).unwrap());
            }

            #[test]
            fn on_thread_per_task() {
                super::$check(rt_baselines::ThreadPerTask::new());
            }

            #[test]
            fn on_a_single_threaded_executor() {
                super::$check(rt_baselines::SingleThreaded::new());
            }
        }
    )+};
}

/// Runs `f` on a helper thread and returns its result, failing the test if
/// it has not finished by the deadline (a deadlock) and re-raising its panic.
pub fn without_deadlock<R, F>(what: &str, f: F) -> R
where
    F: FnOnce() -> R + Send + 'static,
    R: Send + 'static,
{
    let (done_tx, done_rx) = mpsc::channel();
    let runner = thread::spawn(move || {
        let result = f();
        let _ = done_tx.send(());
        result
    });
    match done_rx.recv_timeout(DEADLINE) {
        Ok(()) | Err(RecvTimeoutError::Disconnected) => runner
            .join()
            .unwrap_or_else(|panic| std::panic::resume_unwind(panic)),
        Err(RecvTimeoutError::Timeout) => panic!("{what} never finished: deadlock"),
    }
}

/// A one-worker pool whose worker is stuck on `gate` until it opens, so that
/// anything spawned meanwhile stays queued. Returns once the worker is
/// inside the blocking task.
pub fn blocked_pool(gate: &Arc<Gate>) -> GlobalQueuePool {
    let pool = GlobalQueuePool::new(1).unwrap();
    let started = Arc::new(Gate::default());
    let (gate, signal) = (Arc::clone(gate), Arc::clone(&started));
    drop(pool.spawn(move || {
        signal.open();
        gate.wait();
    }));
    started.wait();
    pool
}
