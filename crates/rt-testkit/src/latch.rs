//! `Latch`: counts down to zero, then lets waiters through.

use std::sync::{Arc, Condvar, Mutex};

/// A countdown shared by its clones: [`wait`](Latch::wait) returns once
/// [`count_down`](Latch::count_down) has been called `count` times.
#[derive(Clone, Debug)]
pub struct Latch(Arc<(Mutex<usize>, Condvar)>);

impl Latch {
    /// A latch that opens after `count` count-downs (at once for 0).
    pub fn new(count: usize) -> Self {
        Self(Arc::new((Mutex::new(count), Condvar::new())))
    }

    /// One step towards zero; further calls at zero change nothing.
    pub fn count_down(&self) {
        let (count, reached_zero) = &*self.0;
        let mut n = count.lock().unwrap();
        *n = n.saturating_sub(1);
        if *n == 0 {
            reached_zero.notify_all();
        }
    }

    /// Blocks until the count is zero.
    pub fn wait(&self) {
        let (count, reached_zero) = &*self.0;
        let mut n = count.lock().unwrap();
        while *n > 0 {
            n = reached_zero.wait(n).unwrap();
        }
    }
}
