//! The type-erased unit of work that executors queue.

use std::fmt;
use std::sync::Arc;

use crate::detached_cell::DetachedCell;
use crate::panic_message::drop_quietly;
use crate::task_cell::{Runnable, TaskCell};
use crate::{CancellationContext, CancellationToken, JoinError, JoinHandle, RunOutcome};

/// A task with its type erased: what an [`Executor`](crate::Executor) queues.
///
/// A `Job` and its [`JoinHandle`] share one heap allocation holding the
/// closure, the state word and the result slot. The executor calls
/// [`run`](Job::run) exactly once; the result goes to the handle.
///
/// A job is never silently lost: dropping a `Job` that has not run completes
/// its handle with [`JoinError::Rejected`], so a joiner never waits for a task
/// that nobody will run.
///
/// ```
/// use rt_handle::{Job, RunOutcome};
///
/// let (job, handle) = Job::new(|| 6 * 7);
/// assert_eq!(job.run(), RunOutcome::Completed);
/// assert_eq!(handle.join(), Ok(42));
/// ```
pub struct Job {
    task: Option<Arc<dyn Runnable>>,
}

impl Job {
    /// Wraps `f` into a job and the handle that receives its result.
    pub fn new<F, T>(f: F) -> (Job, JoinHandle<T>)
    where
        F: FnOnce() -> T + Send + 'static,
        T: Send + 'static,
    {
        Self::from_body(move || Ok(f()))
    }

    /// Like [`new`](Job::new), but the body is skipped, and the handle
    /// reports [`JoinError::Cancelled`], if `token` is cancelled by the time
    /// the job starts. The body receives a [`CancellationContext`] to notice
    /// a later cancellation itself.
    pub fn cancellable<F, T>(token: &CancellationToken, f: F) -> (Job, JoinHandle<T>)
    where
        F: FnOnce(&CancellationContext) -> T + Send + 'static,
        T: Send + 'static,
    {
        let context = token.context();
        Self::from_body(move || {
            if context.is_cancelled() {
                Err(JoinError::Cancelled)
            } else {
                Ok(f(&context))
            }
        })
    }

    /// A fire-and-forget job: no handle and no result slot, only the closure
    /// and a state word. A panic in it is caught; its message goes to the
    /// `report` of [`run_reporting`](Job::run_reporting).
    ///
    /// ```
    /// use rt_handle::{Job, RunOutcome};
    ///
    /// let job = Job::detached(|| panic!("lost?"));
    /// let mut seen = String::new();
    /// # let prev = std::panic::take_hook(); std::panic::set_hook(Box::new(|_| {}));
    /// assert_eq!(job.run_reporting(|msg| seen = msg.to_owned()), RunOutcome::Panicked);
    /// # std::panic::set_hook(prev);
    /// assert_eq!(seen, "lost?");
    /// ```
    pub fn detached<F>(f: F) -> Job
    where
        F: FnOnce() + Send + 'static,
    {
        Job {
            task: Some(Arc::new(DetachedCell::new(f))),
        }
    }

    fn from_body<F, T>(body: F) -> (Job, JoinHandle<T>)
    where
        F: FnOnce() -> Result<T, JoinError> + Send + 'static,
        T: Send + 'static,
    {
        let cell = Arc::new(TaskCell::new(body));
        let handle = JoinHandle::new(cell.clone());
        (Job { task: Some(cell) }, handle)
    }

    /// Runs the task on the calling thread, unless it was cancelled while
    /// queued. A panic in the body (or in dropping its captures or an
    /// unjoined result) is caught and never unwinds out of `run`.
    #[inline]
    pub fn run(self) -> RunOutcome {
        self.run_reporting(|_| {})
    }

    /// Like [`run`](Job::run); if the job is [detached](Job::detached) and
    /// panics, `report` receives the panic message (a job with a handle
    /// reports its panic through the handle instead).
    #[inline]
    pub fn run_reporting(mut self, mut report: impl FnMut(&str)) -> RunOutcome {
        let task = self.take();
        let outcome = task.run(&mut report);
        // If the handle is already gone, this drops the result, whose `Drop`
        // could panic; the worker calling `run` must survive that.
        drop_quietly(task);
        outcome
    }

    /// Completes the job as [`JoinError::Cancelled`] without running it.
    /// False when it had already started or finished.
    pub fn cancel(mut self) -> bool {
        let task = self.take();
        let cancelled = task.finish_unrun(JoinError::Cancelled);
        drop_quietly(task);
        cancelled
    }

    /// Completes the job as [`JoinError::Rejected`] without running it: what
    /// an executor does with a job it cannot accept. Dropping the job does
    /// the same.
    pub fn reject(self) {
        drop(self);
    }

    /// True once the job has completed: run, cancelled or rejected.
    pub fn is_finished(&self) -> bool {
        self.task.as_ref().is_some_and(|t| t.is_finished())
    }

    fn take(&mut self) -> Arc<dyn Runnable> {
        self.task
            .take()
            .expect("a job holds its task until consumed")
    }
}

impl Drop for Job {
    fn drop(&mut self) {
        if let Some(task) = self.task.take() {
            task.finish_unrun(JoinError::Rejected);
            drop_quietly(task);
        }
    }
}

impl fmt::Debug for Job {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Job")
            .field("finished", &self.is_finished())
            .finish()
    }
}
