//! `QueueHandle`: spawning onto one queue.

use std::fmt;
use std::future::Future;
use std::rc::Weak;

use crate::core::Core;
use crate::join::JoinHandle;

/// Spawns tasks onto one queue of an executor; from
/// [`FairExecutor::queue`](crate::FairExecutor::queue). Cheap to clone; stays on the
/// executor's thread (`!Send`), and does not keep the executor alive.
#[derive(Clone)]
pub struct QueueHandle {
    pub(crate) core: Weak<Core>,
    pub(crate) queue: usize,
}

impl QueueHandle {
    /// Spawns `future` at the back of this queue and returns its handle.
    /// The future need not be `Send`: it is only ever polled on the
    /// executor's thread. It starts running when the executor runs
    /// (`run_until`, `block_on`); spawning from inside a task is fine.
    ///
    /// If the executor has been dropped, the future is dropped at once and
    /// the handle returns [`JoinError::Cancelled`](crate::JoinError::Cancelled).
    pub fn spawn<F>(&self, future: F) -> JoinHandle<F::Output>
    where
        F: Future + 'static,
        F::Output: 'static,
    {
        match self.core.upgrade() {
            Some(core) => JoinHandle::spawn(&core, self.queue, future),
            None => JoinHandle::aborted(),
        }
    }

    /// The position of this queue in the builder's order (0-based).
    pub fn index(&self) -> usize {
        self.queue
    }
}

impl fmt::Debug for QueueHandle {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("QueueHandle")
            .field("queue", &self.queue)
            .field("executor_alive", &(self.core.strong_count() > 0))
            .finish()
    }
}
