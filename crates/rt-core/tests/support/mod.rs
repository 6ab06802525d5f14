//! Helpers shared by the integration tests (included with `mod support;`).
#![allow(dead_code)]

use std::sync::{Arc, Condvar, Mutex};

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
        *n -= 1;
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
