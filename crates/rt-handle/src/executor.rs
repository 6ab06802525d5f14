//! The one trait every execution strategy implements, and the spawn helpers
//! written once on top of it.

use std::sync::Arc;
use std::task::Waker;

use rt_queue::Priority;

use crate::{CancellationContext, CancellationToken, Job, JoinHandle, SubmitError};

/// Something that runs [`Job`]s: the work-stealing runtime, every baseline,
/// and anything else that can take a job at a priority.
///
/// Implementors write only [`submit`](Executor::submit); the `spawn` family
/// is provided, so code generic over `E: Executor` (a DAG scheduler, a
/// benchmark) works with every strategy. Concrete executors also offer the
/// same methods inherently, so users need not import this trait.
///
/// An executor whose `submit` blocks while a bounded queue is full also
/// overrides [`try_submit`](Executor::try_submit) and
/// [`wake_when_capacity`](Executor::wake_when_capacity), so that async code
/// (`rt_dag::run_graph_async`) can wait for room without blocking its
/// thread: try, and on [`SubmitError::Saturated`] register the task's waker
/// and try once more (a place freed in between is then seen by the second
/// try; one freed later wakes the waker).
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

    /// Queues `job` at `priority` without waiting for room: a full bounded
    /// queue hands it back as [`SubmitError::Saturated`], a shut-down
    /// executor as [`SubmitError::Shutdown`].
    ///
    /// The default calls [`submit`](Executor::submit) and reports a
    /// refusal as `Shutdown`: right for every executor whose `submit` never
    /// waits for room. One whose `submit` does wait overrides this (and
    /// [`wake_when_capacity`](Executor::wake_when_capacity)).
    ///
    /// ```
    /// use rt_handle::{Executor, Job, Priority};
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
    /// let (job, handle) = Job::new(|| 3);
    /// assert!(Inline.try_submit(Priority::Normal, job).is_ok());
    /// assert_eq!(handle.join(), Ok(3));
    /// ```
    fn try_submit(&self, priority: Priority, job: Job) -> Result<(), SubmitError<Job>> {
        self.submit(priority, job).map_err(SubmitError::Shutdown)
    }

    /// Asks to have `waker` woken once a [`try_submit`](Executor::try_submit)
    /// that was refused as [`SubmitError::Saturated`] may succeed: a place
    /// in the queue was freed, or the executor is shutting down (a retry
    /// then reports `Shutdown`). The waker is woken once, and may be woken
    /// when there is still no room (another submitter took the place): the
    /// caller tries again and, refused again, registers again.
    ///
    /// The default wakes `waker` at once: an executor whose `try_submit`
    /// never reports `Saturated` has nothing to wait for.
    fn wake_when_capacity(&self, waker: &Waker) {
        waker.wake_by_ref();
    }

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
    /// reports [`JoinError::Cancelled`](crate::JoinError::Cancelled): from
    /// the moment [`cancel`](CancellationToken::cancel) returns for a task
    /// queued by then (the token keeps its queued tasks). An executor may
    /// override it to end a task whose token is cancelled already without
    /// queueing it (the work-stealing runtime's inherent method does).
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
    fn try_submit(&self, priority: Priority, job: Job) -> Result<(), SubmitError<Job>> {
        (**self).try_submit(priority, job)
    }
    fn wake_when_capacity(&self, waker: &Waker) {
        (**self).wake_when_capacity(waker)
    }
}

impl<E: Executor + ?Sized> Executor for Arc<E> {
    fn submit(&self, priority: Priority, job: Job) -> Result<(), Job> {
        (**self).submit(priority, job)
    }
    fn try_submit(&self, priority: Priority, job: Job) -> Result<(), SubmitError<Job>> {
        (**self).try_submit(priority, job)
    }
    fn wake_when_capacity(&self, waker: &Waker) {
        (**self).wake_when_capacity(waker)
    }
}

impl<E: Executor + ?Sized> Executor for Box<E> {
    fn submit(&self, priority: Priority, job: Job) -> Result<(), Job> {
        (**self).submit(priority, job)
    }
    fn try_submit(&self, priority: Priority, job: Job) -> Result<(), SubmitError<Job>> {
        (**self).try_submit(priority, job)
    }
    fn wake_when_capacity(&self, waker: &Waker) {
        (**self).wake_when_capacity(waker)
    }
}

/// Emits the inherent `spawn`, `spawn_with_priority` and `spawn_cancellable`
/// methods of an [`Executor`] type, delegating to the trait, so that users
/// of the type need not import the trait. Use it inside the type's `impl`:
///
/// ```
/// use rt_handle::{Executor, Job, Priority};
///
/// /// Runs every job at once on the caller's thread.
/// struct Inline;
///
/// impl Executor for Inline {
///     fn submit(&self, _: Priority, job: Job) -> Result<(), Job> {
///         job.run();
///         Ok(())
///     }
/// }
///
/// impl Inline {
///     rt_handle::inherent_spawn_methods!();
/// }
///
/// // No `use rt_handle::Executor` needed at the call site.
/// assert_eq!(Inline.spawn(|| 4).join(), Ok(4));
/// ```
#[macro_export]
macro_rules! inherent_spawn_methods {
    () => {
        /// Runs `f` at `Priority::Normal`; the handle delivers its result.
        /// If the executor refuses the task (it is shut down), the handle
        /// reports `JoinError::Rejected` at once.
        pub fn spawn<F, T>(&self, f: F) -> $crate::JoinHandle<T>
        where
            F: FnOnce() -> T + Send + 'static,
            T: Send + 'static,
        {
            <Self as $crate::Executor>::spawn(self, f)
        }

        /// Runs `f` at `priority`; queued High tasks start before queued
        /// Normal ones, which start before Background ones.
        pub fn spawn_with_priority<F, T>(
            &self,
            priority: $crate::Priority,
            f: F,
        ) -> $crate::JoinHandle<T>
        where
            F: FnOnce() -> T + Send + 'static,
            T: Send + 'static,
        {
            <Self as $crate::Executor>::spawn_with_priority(self, priority, f)
        }

        /// Runs `f` at `priority` unless `token` is cancelled before it
        /// starts; then `f` never runs and the handle reports
        /// `JoinError::Cancelled`. A running body sees later cancellation
        /// through its `CancellationContext`.
        pub fn spawn_cancellable<F, T>(
            &self,
            priority: $crate::Priority,
            token: &$crate::CancellationToken,
            f: F,
        ) -> $crate::JoinHandle<T>
        where
            F: FnOnce(&$crate::CancellationContext) -> T + Send + 'static,
            T: Send + 'static,
        {
            <Self as $crate::Executor>::spawn_cancellable(self, priority, token, f)
        }
    };
}
