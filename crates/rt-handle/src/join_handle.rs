//! The caller's side of a task: wait for its result, or cancel it.

use std::fmt;
use std::sync::Arc;

use crate::task_cell::JoinTarget;
use crate::{JoinError, TaskStatus};

/// An owned permission to wait for a task's result.
///
/// Dropping a `JoinHandle` detaches the task: it still runs, and its result
/// is dropped when it finishes.
///
/// ```
/// use rt_handle::{Job, JoinError};
///
/// let (job, handle) = Job::new(|| -> u32 { panic!("boom") });
/// job.run();
/// assert_eq!(handle.join(), Err(JoinError::Panicked("boom".into())));
/// ```
pub struct JoinHandle<T> {
    task: Arc<dyn JoinTarget<T>>,
}

impl<T> JoinHandle<T> {
    pub(crate) fn new(task: Arc<dyn JoinTarget<T>>) -> Self {
        Self { task }
    }

    /// Waits for the task to finish and returns its value, or why there is
    /// none: [`JoinError::Panicked`], [`JoinError::Cancelled`] or
    /// [`JoinError::Rejected`].
    ///
    /// The calling thread spins briefly and then parks; it uses no CPU while
    /// it waits. Joining, from inside a pool, a task that can only run on the
    /// joining worker (a one-thread pool) never returns: give such pools a
    /// second worker, or do not block inside tasks.
    pub fn join(self) -> Result<T, JoinError> {
        self.task.join()
    }

    /// True once the task has finished (run, panicked, cancelled or been
    /// rejected): [`join`](Self::join) will then return without waiting.
    pub fn is_finished(&self) -> bool {
        self.task.is_finished()
    }

    /// The task's state right now.
    pub fn status(&self) -> TaskStatus {
        self.task.status()
    }

    /// Cancels the task if it has not started: its body will never run and
    /// [`join`](Self::join) returns [`JoinError::Cancelled`]. Returns false,
    /// and changes nothing, when the task is already running or finished.
    pub fn cancel(&self) -> bool {
        self.task.cancel()
    }
}

impl<T> fmt::Debug for JoinHandle<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("JoinHandle")
            .field("status", &self.status())
            .finish()
    }
}
