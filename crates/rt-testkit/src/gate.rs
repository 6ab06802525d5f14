//! `Gate`: threads wait at it until the test opens it.

use std::sync::{Arc, Condvar, Mutex};

/// A one-way door shared by its clones: [`wait`](Gate::wait) blocks until
/// somebody calls [`open`](Gate::open); it never closes again.
#[derive(Clone, Debug, Default)]
pub struct Gate(Arc<(Mutex<bool>, Condvar)>);

impl Gate {
    /// A closed gate.
    pub fn new() -> Self {
        Self::default()
    }

    /// Opens the gate and releases every waiter, present and future.
    pub fn open(&self) {
        let (open, opened) = &*self.0;
        *open.lock().unwrap() = true;
        opened.notify_all();
    }

    /// Blocks until the gate is open.
    pub fn wait(&self) {
        let (open, opened) = &*self.0;
        let mut is_open = open.lock().unwrap();
        while !*is_open {
            is_open = opened.wait(is_open).unwrap();
        }
    }

    /// Whether the gate has been opened.
    pub fn is_open(&self) -> bool {
        *self.0 .0.lock().unwrap()
    }
}
