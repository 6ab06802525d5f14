//! Helpers shared by the integration tests (included with `mod support;`).
#![allow(dead_code)]

use std::sync::{Arc, Condvar, Mutex};
use std::time::{Duration, Instant};

use rt_elastic::{ElasticPool, ElasticStats, JoinHandle};

/// How long a test waits for something that should happen "soon" before it
/// fails. Generous: the assertions are about behaviour, not speed.
pub const PATIENCE: Duration = Duration::from_secs(10);

/// A one-shot gate: tasks `wait` on it until the test `open`s it.
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

/// Counts down to zero; `wait` returns once it is there.
#[derive(Clone)]
pub struct Latch(Arc<(Mutex<usize>, Condvar)>);

impl Latch {
    pub fn new(count: usize) -> Self {
        Self(Arc::new((Mutex::new(count), Condvar::new())))
    }
    pub fn count_down(&self) {
        let mut n = self.0 .0.lock().unwrap();
        *n = n.saturating_sub(1);
        if *n == 0 {
            self.0 .1.notify_all();
        }
    }
    pub fn wait(&self) {
        let mut n = self.0 .0.lock().unwrap();
        while *n > 0 {
            n = self.0 .1.wait(n).unwrap();
        }
    }
}

/// Spawns a task that signals `started` and then blocks on `gate`.
pub fn blocker(pool: &ElasticPool, gate: &Gate, started: &Latch) -> JoinHandle<()> {
    let (gate, started) = (gate.clone(), started.clone());
    pool.spawn(move || {
        started.count_down();
        gate.wait();
    })
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

/// Runs `f` with the panic hook silenced, so expected panics do not clutter
/// the test output.
pub fn quietly<R>(f: impl FnOnce() -> R) -> R {
    static HOOK: Mutex<()> = Mutex::new(());
    let _serial = HOOK.lock().unwrap_or_else(|e| e.into_inner());
    let prev = std::panic::take_hook();
    std::panic::set_hook(Box::new(|_| {}));
    let r = std::panic::catch_unwind(std::panic::AssertUnwindSafe(f));
    std::panic::set_hook(prev);
    r.unwrap_or_else(|p| std::panic::resume_unwind(p))
}
