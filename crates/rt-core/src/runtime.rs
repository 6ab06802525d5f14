//! The `Runtime` handle: spawning, shutdown and metrics.

use std::fmt;
use std::sync::{Arc, Mutex, PoisonError};
use std::thread::JoinHandle as ThreadHandle;

use rt_handle::{BuildError, CancellationContext, CancellationToken, Executor, Job, JoinHandle};
use rt_queue::Priority;

use crate::shared::Shared;
use crate::worker::{is_worker_of, push_local};
use crate::{Builder, Metrics};

/// A fixed set of worker threads running tasks by priority, with work
/// stealing. See the [crate docs](crate) for how it works.
///
/// ```
/// use rt_core::{Priority, Runtime};
///
/// let rt = Runtime::new(2)?;
/// let a = rt.spawn(|| 20);
/// let b = rt.spawn_with_priority(Priority::High, || 22);
/// assert_eq!(a.join()? + b.join()?, 42);
/// rt.shutdown();
/// assert_eq!(rt.metrics().completed, 2);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub struct Runtime {
    pub(crate) shared: Arc<Shared>,
    /// Taken (and joined) by the first `shutdown` from outside the pool.
    pub(crate) workers: Mutex<Vec<ThreadHandle<()>>>,
}

impl Runtime {
    /// Starts a runtime with `threads` workers and default settings.
    ///
    /// # Errors
    ///
    /// [`BuildError::ZeroThreads`] for zero; [`BuildError::Spawn`] if the OS
    /// refuses a thread.
    pub fn new(threads: usize) -> Result<Self, BuildError> {
        Builder::new().threads(threads).build()
    }

    /// A [`Builder`] to configure threads, names and stack size.
    pub fn builder() -> Builder {
        Builder::new()
    }

    /// Number of worker threads.
    pub fn threads(&self) -> usize {
        self.shared.queues.workers()
    }

    /// Runs `f` at [`Priority::Normal`].
    ///
    /// Called from a task running on this runtime, the new task goes to that
    /// worker's own deque (idle peers steal it); otherwise to the global
    /// queue. After [`shutdown`](Self::shutdown) the handle reports
    /// [`JoinError::Rejected`](rt_handle::JoinError::Rejected) at once.
    pub fn spawn<F, T>(&self, f: F) -> JoinHandle<T>
    where
        F: FnOnce() -> T + Send + 'static,
        T: Send + 'static,
    {
        Executor::spawn(self, f)
    }

    /// Runs `f` at `priority`: queued High tasks start before queued Normal
    /// ones, which start before Background ones.
    pub fn spawn_with_priority<F, T>(&self, priority: Priority, f: F) -> JoinHandle<T>
    where
        F: FnOnce() -> T + Send + 'static,
        T: Send + 'static,
    {
        Executor::spawn_with_priority(self, priority, f)
    }

    /// Runs `f` at `priority` unless `token` is cancelled before it starts,
    /// in which case `f` never runs and the handle reports
    /// [`JoinError::Cancelled`](rt_handle::JoinError::Cancelled). A running
    /// body sees later cancellation through its [`CancellationContext`].
    pub fn spawn_cancellable<F, T>(
        &self,
        priority: Priority,
        token: &CancellationToken,
        f: F,
    ) -> JoinHandle<T>
    where
        F: FnOnce(&CancellationContext) -> T + Send + 'static,
        T: Send + 'static,
    {
        Executor::spawn_cancellable(self, priority, token, f)
    }

    /// Stops accepting new tasks, runs every task already accepted
    /// (including tasks those tasks spawn), then joins the workers.
    ///
    /// Idempotent; `Drop` calls it. Spawning afterwards never blocks or
    /// panics: the handle reports `Rejected` at once. Called from inside one
    /// of this runtime's own tasks it cannot wait for its own worker: it
    /// starts the shutdown and returns at once, and the first `shutdown` (or
    /// the drop) from outside the pool does the joining.
    pub fn shutdown(&self) {
        self.shared.begin_shutdown();
        if is_worker_of(&self.shared) {
            return;
        }
        // Holding the lock while joining makes a concurrent second caller
        // wait until the workers have really exited.
        let mut workers = self.workers.lock().unwrap_or_else(PoisonError::into_inner);
        for handle in workers.drain(..) {
            // Workers catch every task panic; a worker thread that still
            // died has nothing left to report here.
            let _ = handle.join();
        }
    }

    /// True once [`shutdown`](Self::shutdown) has been called.
    pub fn is_shutdown(&self) -> bool {
        self.shared.gate.is_closed()
    }

    /// A snapshot of the task counters; exact once shut down.
    pub fn metrics(&self) -> Metrics {
        self.shared.metrics()
    }

    /// Number of workers idle (parked, or about to park) right now.
    pub fn idle_workers(&self) -> usize {
        self.shared.idle.sleepers()
    }
}

impl Executor for Runtime {
    #[inline]
    fn submit(&self, priority: Priority, job: Job) -> Result<(), Job> {
        match push_local(&self.shared, priority, job) {
            Ok(()) => Ok(()),
            Err(job) => self.shared.submit_external(priority, job),
        }
    }
}

impl Default for Runtime {
    /// A runtime with one worker per available CPU.
    ///
    /// # Panics
    ///
    /// If the OS refuses to start a worker thread; use [`Runtime::builder`]
    /// to handle that as an error.
    fn default() -> Self {
        Builder::new()
            .build()
            .expect("failed to start the default runtime")
    }
}

impl Drop for Runtime {
    fn drop(&mut self) {
        self.shutdown();
    }
}

impl fmt::Debug for Runtime {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Runtime")
            .field("threads", &self.threads())
            .field("thread_name", &self.shared.thread_name)
            .field("shut_down", &self.is_shutdown())
            .field("metrics", &self.metrics())
            .finish()
    }
}
