//! A count-down latch for "wait until all N tasks ran", the same for every
//! strategy that has no natural way to wait for detached tasks.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;
use std::thread::{self, Thread};

/// One process-wide latch: benchmark runs happen one after another, so a
/// static avoids an `Arc` clone (a contended reference count) per task.
pub static LATCH: Latch = Latch::new();

pub struct Latch {
    remaining: AtomicUsize,
    waiter: Mutex<Option<Thread>>,
}

impl Latch {
    pub const fn new() -> Self {
        Self {
            remaining: AtomicUsize::new(0),
            waiter: Mutex::new(None),
        }
    }

    /// Arms the latch for `n` count-downs, to be awaited by this thread.
    pub fn reset(&self, n: usize) {
        *self.waiter.lock().unwrap() = Some(thread::current());
        self.remaining.store(n, Ordering::Release);
    }

    pub fn count_down(&self) {
        if self.remaining.fetch_sub(1, Ordering::AcqRel) == 1 {
            if let Some(t) = self.waiter.lock().unwrap().as_ref() {
                t.unpark();
            }
        }
    }

    /// Spins briefly, then parks until the count reaches zero.
    pub fn wait(&self) {
        for _ in 0..1_000 {
            if self.remaining.load(Ordering::Acquire) == 0 {
                return;
            }
            std::hint::spin_loop();
        }
        while self.remaining.load(Ordering::Acquire) != 0 {
            thread::park();
        }
    }
}
