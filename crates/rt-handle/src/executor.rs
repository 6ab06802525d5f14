//! The one trait every execution strategy implements, and the spawn helpers
//! written once on top of it.

use std::sync::Arc;

use rt_queue::Priority;

use crate::{CancellationContext, CancellationToken, Job, JoinHandle};

/// Something that runs [`Job`]s: the work-stealing runtime, every baseline,
/// and anything else that can take a job at a priority.
///
/// Implementors write only [`submit`](Executor::submit); the `spawn` family
/// is provided, so code generic over `E: Executor` (a DAG scheduler, a
/// benchmark) works with every strategy. Concrete executors also offer the
/// same methods inherently, so users need not import this trait.
///
/// ```
/// use rt_handle::{Executor, Job};
/// use rt_queue::Priority;
///
/// /// Runs every job at once on the caller's thread.
/// struct Inline;
///
/// impl Executor for Inline {
///     fn submit(&self, _priority: Priority, job: Job) -> Result<(), Job> {
///         job.run();
///         Ok(())
///     }
/// }
///
/// assert_eq!(Inline.spawn(|| 1 + 1).join(), Ok(2));
/// ```
pub trait Executor: Send + Sync {
    /// Queues `job` at `priority`. An executor that cannot accept it (it is
    /// shut down) hands the job back; the caller then rejects it.
    fn submit(&self, priority: Priority, job: Job) -> Result<(), Job>;

    /// Spawns `f` at [`Priority::Normal`].
    fn spawn<F, T>(&self, f: F) -> JoinHandle<T>
    where
        F: FnOnce() -> T + Send + 'static,
        T: Send + 'static,
        Self: Sized,
    {
        self.spawn_with_priority(Priority::Normal, f)
    }

    /// Spawns `f` at `priority`. If the executor refuses it, the handle
    /// reports [`JoinError::Rejected`](crate::JoinError::Rejected) at once.
    fn spawn_with_priority<F, T>(&self, priority: Priority, f: F) -> JoinHandle<T>
    where
        F: FnOnce() -> T + Send + 'static,
        T: Send + 'static,
        Self: Sized,
    {
        let (job, handle) = Job::new(f);
        if let Err(job) = self.submit(priority, job) {
            job.reject();
        }
        handle
    }

    /// Spawns a body that receives a [`CancellationContext`]. If `token` is
    /// cancelled before the task starts, the body never runs and the handle
    /// reports [`JoinError::Cancelled`](crate::JoinError::Cancelled).
    fn spawn_cancellable<F, T>(
        &self,
        priority: Priority,
        token: &CancellationToken,
        f: F,
    ) -> JoinHandle<T>
    where
        F: FnOnce(&CancellationContext) -> T + Send + 'static,
        T: Send + 'static,
        Self: Sized,
    {
        let (job, handle) = Job::cancellable(token, f);
        if let Err(job) = self.submit(priority, job) {
            job.reject();
        }
        handle
    }
}

impl<E: Executor + ?Sized> Executor for &E {
    fn submit(&self, priority: Priority, job: Job) -> Result<(), Job> {
        (**self).submit(priority, job)
    }
}

impl<E: Executor + ?Sized> Executor for Arc<E> {
    fn submit(&self, priority: Priority, job: Job) -> Result<(), Job> {
        (**self).submit(priority, job)
    }
}

impl<E: Executor + ?Sized> Executor for Box<E> {
    fn submit(&self, priority: Priority, job: Job) -> Result<(), Job> {
        (**self).submit(priority, job)
    }
}
