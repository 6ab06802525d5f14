//! The one-way "terminated" flag behind every executor's `wait_termination`.

use std::fmt;
use std::time::{Duration, Instant};

use crate::poison::unpoison;
use crate::sync::{Condvar, Mutex};

/// A flag that goes from "running" to "terminated" once, with waits for it.
///
/// An executor sets it when its shutdown has finished (every accepted task
/// ran or was cancelled, every worker exited), and implements
/// `wait_termination` and `wait_termination_timeout` with [`wait`] and
/// [`wait_timeout`].
///
/// [`wait`]: Termination::wait
/// [`wait_timeout`]: Termination::wait_timeout
///
/// ```
/// use std::time::Duration;
/// use rt_handle::raw::Termination;
///
/// let t = Termination::new();
/// assert!(!t.wait_timeout(Duration::from_millis(1)));
/// t.set();
/// t.wait();
/// assert!(t.is_set() && t.wait_timeout(Duration::ZERO));
/// ```
pub struct Termination {
    terminated: Mutex<bool>,
    changed: Condvar,
}

impl Termination {
    /// A flag that is not set.
    pub fn new() -> Self {
        Self {
            terminated: Mutex::new(false),
            changed: Condvar::new(),
        }
    }

    /// Sets the flag and wakes every waiter. Idempotent.
    pub fn set(&self) {
        *unpoison(self.terminated.lock()) = true;
        self.changed.notify_all();
    }

    /// Whether the flag is set.
    pub fn is_set(&self) -> bool {
        *unpoison(self.terminated.lock())
    }

    /// Blocks until the flag is set.
    pub fn wait(&self) {
        let mut terminated = unpoison(self.terminated.lock());
        while !*terminated {
            terminated = unpoison(self.changed.wait(terminated));
        }
    }

    /// Blocks until the flag is set or `timeout` has passed; true if it is
    /// set. A timeout too long to represent waits without a limit.
    pub fn wait_timeout(&self, timeout: Duration) -> bool {
        let deadline = Instant::now().checked_add(timeout);
        let mut terminated = unpoison(self.terminated.lock());
        while !*terminated {
            let left = match deadline {
                Some(deadline) => deadline.saturating_duration_since(Instant::now()),
                None => Duration::MAX,
            };
            if left.is_zero() {
                return false;
            }
            terminated = unpoison(self.changed.wait_timeout(terminated, left)).0;
        }
        true
    }
}

impl Default for Termination {
    fn default() -> Self {
        Self::new()
    }
}

impl fmt::Debug for Termination {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Termination")
            .field("terminated", &self.is_set())
            .finish()
    }
}
