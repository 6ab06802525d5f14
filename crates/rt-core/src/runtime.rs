//! The `Runtime` handle: spawning, shutdown and metrics.

use std::fmt;
use std::sync::{Arc, Mutex, PoisonError};
use std::thread::JoinHandle as ThreadHandle;
use std::time::Duration;

use rt_handle::{
    BuildError, CancellationContext, CancellationToken, Executor, Job, JoinHandle, SubmitError,
};
use rt_queue::Priority;

use crate::shared::{Refusal, Shared};
use crate::sync::Ordering;
use crate::worker::{is_worker_of, push_local};
use crate::{Builder, Metrics, PoolStats};

/// The handle [`Runtime::spawn_tracked`] returns. Every [`JoinHandle`] is
/// tracked: [`status`](JoinHandle::status) reports `Queued`, `Running`,
/// `Finished`, `Panicked` or `Cancelled`, and [`cancel`](JoinHandle::cancel)
/// succeeds only while the task has not started.
pub type TrackedHandle<T> = JoinHandle<T>;

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

    /// Like [`spawn_with_priority`](Self::spawn_with_priority), named for the
    /// executor-service vocabulary: the returned [`TrackedHandle`] reports the
    /// task's [`TaskStatus`](rt_handle::TaskStatus) and can cancel it before
    /// it starts.
    pub fn spawn_tracked<F, T>(&self, priority: Priority, f: F) -> TrackedHandle<T>
    where
        F: FnOnce() -> T + Send + 'static,
        T: Send + 'static,
    {
        self.spawn_with_priority(priority, f)
    }

    /// Spawns `f` at [`Priority::Normal`] unless the runtime is shut down or
    /// its bounded queue is full; then the closure comes back in the error.
    /// Called from a task on this runtime it always succeeds (the task goes
    /// to the worker's own deque).
    ///
    /// ```
    /// use rt_core::{Runtime, SubmitError};
    ///
    /// let rt = Runtime::new(1)?;
    /// rt.shutdown();
    /// match rt.try_spawn(|| 1) {
    ///     Err(SubmitError::Shutdown(f)) => assert_eq!(f(), 1), // handed back
    ///     _ => unreachable!(),
    /// }
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn try_spawn<F, T>(&self, f: F) -> Result<JoinHandle<T>, SubmitError<F>>
    where
        F: FnOnce() -> T + Send + 'static,
        T: Send + 'static,
    {
        if is_worker_of(&self.shared) {
            return Ok(self.spawn(f));
        }
        match self.shared.admit() {
            Ok(()) => {
                let (job, handle) = Job::new(f);
                self.shared.push_admitted(Priority::Normal, job);
                Ok(handle)
            }
            Err(refusal) => Err(refused(refusal, f)),
        }
    }

    /// Runs `f` at [`Priority::Normal`] without a handle or a result slot
    /// (one allocation for the closure and a state word). A panic in it is
    /// caught, counted in [`Metrics::panicked`], and passed to the builder's
    /// [`panic_handler`](Builder::panic_handler) if one is set.
    ///
    /// Blocks while a bounded queue is full. After shutdown the closure
    /// comes back as [`SubmitError::Shutdown`]: nothing is dropped silently.
    pub fn execute<F>(&self, f: F) -> Result<(), SubmitError<F>>
    where
        F: FnOnce() + Send + 'static,
    {
        if is_worker_of(&self.shared) {
            return push_local(&self.shared, Priority::Normal, Job::detached(f))
                .map_err(|_| unreachable!("a worker of this runtime always pushes locally"));
        }
        loop {
            match self.shared.admit() {
                Ok(()) => {
                    self.shared
                        .push_admitted(Priority::Normal, Job::detached(f));
                    return Ok(());
                }
                Err(Refusal::Shutdown) => return Err(SubmitError::Shutdown(f)),
                Err(Refusal::Saturated) => self.shared.wait_for_space(),
            }
        }
    }

    /// Like [`execute`](Self::execute), but never blocks: a full bounded
    /// queue hands the closure back as [`SubmitError::Saturated`].
    pub fn try_execute<F>(&self, f: F) -> Result<(), SubmitError<F>>
    where
        F: FnOnce() + Send + 'static,
    {
        if is_worker_of(&self.shared) {
            return self.execute(f);
        }
        match self.shared.admit() {
            Ok(()) => {
                self.shared
                    .push_admitted(Priority::Normal, Job::detached(f));
                Ok(())
            }
            Err(refusal) => Err(refused(refusal, f)),
        }
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

    /// Stops accepting new tasks and cancels every task still queued: their
    /// handles report [`JoinError::Cancelled`](rt_handle::JoinError::Cancelled)
    /// and their bodies never run. Tasks already running finish; tasks they
    /// spawn from now on are cancelled too. Returns the number of queued
    /// tasks this call cancelled. Every accepted task is thus either run or
    /// reported cancelled, in its handle and in [`Metrics::cancelled`].
    ///
    /// Returns without waiting; follow with
    /// [`wait_termination`](Self::wait_termination) or
    /// [`shutdown`](Self::shutdown) to wait for the workers.
    pub fn stop(&self) -> usize {
        self.shared.stopping.store(true, Ordering::SeqCst);
        self.shared.begin_shutdown();
        self.shared.cancel_queued()
    }

    /// Blocks until [`shutdown`](Self::shutdown) or [`stop`](Self::stop)
    /// (called earlier, or from another thread) has finished: every accepted
    /// task ran or was cancelled, and every worker exited. Without a shutdown
    /// it waits until one happens.
    pub fn wait_termination(&self) {
        self.shared.exits.wait();
    }

    /// Like [`wait_termination`](Self::wait_termination), for at most
    /// `timeout`; true if the runtime terminated in time.
    pub fn wait_termination_timeout(&self, timeout: Duration) -> bool {
        self.shared.exits.wait_timeout(timeout)
    }

    /// True once [`shutdown`](Self::shutdown) or [`stop`](Self::stop) has
    /// been called.
    pub fn is_shutdown(&self) -> bool {
        self.shared.gate.is_closed()
    }

    /// Configuration and live gauges (queued tasks per priority, running
    /// tasks, idle workers) with the [`Metrics`]. Reads counters only; it
    /// never stops or locks the workers.
    pub fn stats(&self) -> PoolStats {
        let shared = &*self.shared;
        PoolStats {
            threads: self.threads(),
            queue_capacity: shared.capacity.as_ref().map(|c| c.limit()),
            thread_name: shared.thread_name.clone(),
            queued: Priority::SCAN_ORDER.map(|p| shared.queues.len(p)),
            running: shared
                .counters
                .iter()
                .map(|c| c.running.load(Ordering::Relaxed) as usize)
                .sum(),
            idle_workers: shared.idle.sleepers(),
            metrics: shared.metrics(),
        }
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

fn refused<F>(refusal: Refusal, f: F) -> SubmitError<F> {
    match refusal {
        Refusal::Saturated => SubmitError::Saturated(f),
        Refusal::Shutdown => SubmitError::Shutdown(f),
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
            .field(
                "queue_capacity",
                &self.shared.capacity.as_ref().map(|c| c.limit()),
            )
            .field("hooks", &self.shared.hooks)
            .field("shut_down", &self.is_shutdown())
            .field("metrics", &self.metrics())
            .finish()
    }
}
