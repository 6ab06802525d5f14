//! Helpers shared by the integration tests.
#![allow(dead_code)] // each test file uses a different part

use std::cell::Cell;
use std::rc::Rc;
use std::time::{Duration, Instant};

/// Burns CPU on this thread for `d` of wall time.
pub fn spin(d: Duration) {
    let start = Instant::now();
    while start.elapsed() < d {
        std::hint::spin_loop();
    }
}

/// Sets its flag when dropped: proves that a task's future was dropped.
pub struct DropFlag(pub Rc<Cell<bool>>);

impl DropFlag {
    pub fn new() -> (Self, Rc<Cell<bool>>) {
        let flag = Rc::new(Cell::new(false));
        (Self(Rc::clone(&flag)), flag)
    }
}

impl Drop for DropFlag {
    fn drop(&mut self) {
        self.0.set(true);
    }
}

/// A tokio current-thread runtime with timers, to host `run_until`.
pub fn tokio_host() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_current_thread()
        .enable_time()
        .build()
        .expect("build a tokio current-thread runtime")
}
