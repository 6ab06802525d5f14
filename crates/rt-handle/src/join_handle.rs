//! The caller's side of a task: wait for its result, or cancel it.

use std::fmt;
use std::marker::PhantomData;
use std::sync::Arc;

use crate::membership;
use crate::task_cell::JoinTarget;
use crate::{JoinError, TaskCore, TaskStatus};

/// The methods both handles have besides `join`, written once.
macro_rules! handle_methods {
    () => {
        /// True once the task has finished (run, panicked, cancelled or been
        /// rejected): `join` will then return without waiting.
        pub fn is_finished(&self) -> bool {
            self.inner.task().is_finished()
        }

        /// The task's state right now.
        pub fn status(&self) -> TaskStatus {
            self.inner.task().status()
        }

        /// Cancels the task if it has not started: its body will never run
        /// and `join` returns [`JoinError::Cancelled`]. Returns false, and
        /// changes nothing, when the task is already running or finished.
        pub fn cancel(&self) -> bool {
            self.inner.task().cancel()
        }
    };
}

/// An owned permission to wait for a task's result.
///
/// Dropping a `JoinHandle` detaches the task: it still runs, and its result
/// is dropped when it finishes (at once, if it already has).
///
/// ```
/// use rt_handle::{Job, JoinError};
///
/// let (job, handle) = Job::new(|| -> u32 { panic!("boom") });
/// job.run();
/// assert_eq!(handle.join(), Err(JoinError::Panicked("boom".into())));
/// ```
pub struct JoinHandle<T> {
    inner: Handle<'static, T>,
}

impl<T> JoinHandle<T> {
    pub(crate) fn new(task: Arc<dyn JoinTarget<T>>) -> Self {
        Self {
            inner: Handle::new(task),
        }
    }

    /// Waits for the task to finish and returns its value, or why there is
    /// none: [`JoinError::Panicked`], [`JoinError::Cancelled`] or
    /// [`JoinError::Rejected`].
    ///
    /// On a thread that is not a worker of the executor that runs the task,
    /// the calling thread spins briefly and then parks; it uses no CPU while
    /// it waits. Called from a task of the work-stealing runtime on a handle
    /// of the same runtime, it never blocks the worker uselessly: a task
    /// that has not started runs at once on the caller's thread, and while
    /// it runs elsewhere the worker helps with work that belongs to it or to
    /// the caller's own task (never with unrelated work), parking only when
    /// there is none; see the runtime's `JOIN_HELPING.md`.
    ///
    /// It blocks the calling thread: do not call it on the thread of an
    /// async runtime, where it would stall every other future.
    pub fn join(self) -> Result<T, JoinError> {
        self.inner.join()
    }

    handle_methods!();

    /// The type-erased view of the task, for executors that help joiners.
    pub fn core(&self) -> &dyn TaskCore {
        self.inner.task().as_core()
    }
}

impl<T> fmt::Debug for JoinHandle<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("JoinHandle")
            .field("status", &self.status())
            .finish()
    }
}

/// A handle to a task of a scope: like [`JoinHandle`], but the task may
/// borrow data that lives for `'scope`, so the handle cannot outlive the
/// scope either (`std::thread::ScopedJoinHandle`'s shape).
///
/// Dropping it without joining detaches the task; the scope still waits for
/// it, and if it panicked, the scope panics once all its tasks finished.
pub struct ScopedJoinHandle<'scope, T> {
    inner: Handle<'scope, T>,
}

impl<'scope, T> ScopedJoinHandle<'scope, T> {
    pub(crate) fn new(task: Arc<dyn JoinTarget<T> + 'scope>) -> Self {
        Self {
            inner: Handle::new(task),
        }
    }

    /// Waits for the task and returns its value, or why there is none, as
    /// [`JoinHandle::join`] does (and helping in the same way when called
    /// from a task of the same runtime). A panic joined here is the
    /// caller's to handle: the scope does not panic for it.
    pub fn join(self) -> Result<T, JoinError> {
        self.inner.join()
    }

    handle_methods!();
}

impl<T> fmt::Debug for ScopedJoinHandle<'_, T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ScopedJoinHandle")
            .field("status", &self.status())
            .finish()
    }
}

/// What both handles are: the task, until joined or dropped.
struct Handle<'a, T> {
    task: Option<Arc<dyn JoinTarget<T> + 'a>>,
    /// `T` is only ever moved out to the joiner.
    _result: PhantomData<T>,
}

impl<'a, T> Handle<'a, T> {
    fn new(task: Arc<dyn JoinTarget<T> + 'a>) -> Self {
        Self {
            task: Some(task),
            _result: PhantomData,
        }
    }

    fn task(&self) -> &(dyn JoinTarget<T> + 'a) {
        self.task
            .as_deref()
            .expect("a handle holds its task until joined or dropped")
    }

    fn join(mut self) -> Result<T, JoinError> {
        let task = self
            .task
            .take()
            .expect("a handle holds its task until joined or dropped");
        if !task.is_finished() {
            membership::help_join(task.as_core());
        }
        task.join()
    }
}

impl<T> Drop for Handle<'_, T> {
    fn drop(&mut self) {
        if let Some(task) = self.task.take() {
            task.release_handle();
        }
    }
}
