//! The `ElasticPool` handle: submitting, shutting down, stopping, stats.

use std::fmt;
use std::sync::Arc;
use std::time::Duration;

use rt_handle::{
    CancellationContext, CancellationToken, Executor, Job, JoinHandle, Priority, SubmitError,
};

use crate::membership;
use crate::shared::{Shared, Wait};
use crate::{ElasticBuilder, ElasticStats};

/// A thread pool that grows from `core_threads` toward `max_threads` when
/// its bounded queue overflows, and shrinks back after a keep-alive. See the
/// [crate docs](crate) for how it works and when to prefer it to the
/// work-stealing runtime.
///
/// ```
/// use std::time::Duration;
/// use rt_elastic::{ElasticPool, Priority};
///
/// let pool = ElasticPool::builder()
///     .core_threads(1)
///     .max_threads(4)
///     .queue_capacity(2)
///     .keep_alive(Duration::from_millis(50))
///     .build()?;
/// let a = pool.spawn(|| 20);
/// let b = pool.spawn_with_priority(Priority::High, || 22);
/// assert_eq!(a.join()? + b.join()?, 42);
/// pool.shutdown();
/// let stats = pool.stats();
/// assert_eq!((stats.completed, stats.live_workers), (2, 0));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub struct ElasticPool {
    pub(crate) shared: Arc<Shared>,
}

impl ElasticPool {
    /// An [`ElasticBuilder`] to configure the pool.
    pub fn builder() -> ElasticBuilder {
        ElasticBuilder::new()
    }

    /// The configured core size.
    pub fn core_threads(&self) -> usize {
        self.shared.config.core
    }

    /// The configured maximum size.
    pub fn max_threads(&self) -> usize {
        self.shared.config.max
    }

    /// Runs `f` at [`Priority::Normal`].
    ///
    /// Blocks while the pool is saturated (bounded queue full and
    /// `max_threads` workers live), unless called from one of this pool's
    /// tasks. After [`shutdown`](Self::shutdown) the handle reports
    /// [`JoinError::Rejected`](rt_handle::JoinError::Rejected) at once.
    pub fn spawn<F, T>(&self, f: F) -> JoinHandle<T>
    where
        F: FnOnce() -> T + Send + 'static,
        T: Send + 'static,
    {
        Executor::spawn(self, f)
    }

    /// Runs `f` at `priority`: queued High tasks start before queued Normal
    /// ones, which start before Background ones. (A task that starts a new
    /// worker runs on it at once, whatever its priority.)
    ///
    /// ```
    /// use rt_elastic::{ElasticPool, Priority};
    ///
    /// let pool = ElasticPool::builder().core_threads(1).build()?;
    /// assert_eq!(pool.spawn_with_priority(Priority::Background, || 7).join()?, 7);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
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
    ///
    /// ```
    /// use rt_elastic::{CancellationToken, ElasticPool, JoinError, Priority};
    ///
    /// let pool = ElasticPool::builder().core_threads(1).build()?;
    /// let token = CancellationToken::new();
    /// token.cancel();
    /// let skipped = pool.spawn_cancellable(Priority::Normal, &token, |_ctx| ());
    /// assert_eq!(skipped.join(), Err(JoinError::Cancelled));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
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

    /// Spawns `f` at [`Priority::Normal`] unless the pool is shut down or
    /// saturated; then the closure comes back in the error. Never blocks.
    /// Called from one of this pool's tasks it succeeds until
    /// [`stop`](Self::stop).
    ///
    /// ```
    /// use rt_elastic::{ElasticPool, SubmitError};
    ///
    /// let pool = ElasticPool::builder().core_threads(1).build()?;
    /// pool.shutdown();
    /// match pool.try_spawn(|| 1) {
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
        let mut handle = None;
        self.shared.offer(
            Priority::Normal,
            f,
            |f| {
                let (job, h) = Job::new(f);
                handle = Some(h);
                job
            },
            Wait::Never,
        )?;
        Ok(handle.expect("an accepted closure has been wrapped into a job"))
    }

    /// Runs `f` at [`Priority::Normal`] without a handle or a result slot. A
    /// panic in it is caught, counted in
    /// [`ElasticStats::panicked`], and passed to the builder's
    /// [`panic_handler`](ElasticBuilder::panic_handler) if one is set.
    ///
    /// Blocks while the pool is saturated (unless called from one of its
    /// tasks). After shutdown the closure comes back as
    /// [`SubmitError::Shutdown`]: nothing is dropped silently.
    ///
    /// ```
    /// use std::sync::mpsc;
    /// use rt_elastic::ElasticPool;
    ///
    /// let pool = ElasticPool::builder().core_threads(1).build()?;
    /// let (tx, rx) = mpsc::channel();
    /// pool.execute(move || tx.send("done").unwrap())?;
    /// assert_eq!(rx.recv()?, "done");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn execute<F>(&self, f: F) -> Result<(), SubmitError<F>>
    where
        F: FnOnce() + Send + 'static,
    {
        self.shared
            .offer(Priority::Normal, f, Job::detached, Wait::Block)
    }

    /// Like [`execute`](Self::execute), but never blocks: a saturated pool
    /// hands the closure back as [`SubmitError::Saturated`].
    pub fn try_execute<F>(&self, f: F) -> Result<(), SubmitError<F>>
    where
        F: FnOnce() + Send + 'static,
    {
        self.shared
            .offer(Priority::Normal, f, Job::detached, Wait::Never)
    }

    /// Stops accepting new tasks, runs every task already accepted
    /// (including tasks those tasks submit meanwhile), then joins the
    /// workers.
    ///
    /// Idempotent; `Drop` calls it. Submitting afterwards never blocks or
    /// panics: `spawn`'s handle reports `Rejected` at once, and submitters
    /// blocked on a saturated pool give up the same way. Called from one of
    /// this pool's own threads it cannot wait for that thread: it starts the
    /// shutdown and returns, and the first `shutdown` (or the drop) from
    /// outside the pool does the joining.
    ///
    /// ```
    /// use rt_elastic::{ElasticPool, JoinError};
    ///
    /// let pool = ElasticPool::builder().core_threads(1).build()?;
    /// let queued = pool.spawn(|| 5);
    /// pool.shutdown();
    /// assert_eq!(queued.join(), Ok(5));
    /// assert_eq!(pool.spawn(|| 6).join(), Err(JoinError::Rejected));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn shutdown(&self) {
        self.shared.close();
        if membership::is_thread_of(&self.shared) {
            return;
        }
        self.shared.wait_termination();
        let handles = std::mem::take(&mut self.shared.lock().handles);
        for handle in handles {
            // Workers catch every task and hook panic; a worker thread that
            // still died has nothing left to report here.
            let _ = handle.join();
        }
    }

    /// Stops accepting new tasks and cancels every task still queued: their
    /// handles report [`JoinError::Cancelled`](rt_handle::JoinError::Cancelled)
    /// and their bodies never run. Tasks already running finish; tasks they
    /// submit from now on are cancelled too. Returns the number of queued
    /// tasks this call cancelled.
    ///
    /// Returns without waiting; follow with
    /// [`wait_termination`](Self::wait_termination) or
    /// [`shutdown`](Self::shutdown) to wait for the workers.
    pub fn stop(&self) -> usize {
        self.shared.stop()
    }

    /// Blocks until a [`shutdown`](Self::shutdown) or [`stop`](Self::stop)
    /// (called earlier, or from another thread) has finished: every accepted
    /// task ran or was cancelled, and every worker exited. Without a
    /// shutdown it waits until one happens. Do not call it from one of the
    /// pool's own tasks: it would wait for itself.
    pub fn wait_termination(&self) {
        self.shared.wait_termination();
    }

    /// Like [`wait_termination`](Self::wait_termination), for at most
    /// `timeout`; true if the pool terminated in time.
    ///
    /// ```
    /// use std::time::Duration;
    /// use rt_elastic::ElasticPool;
    ///
    /// let pool = ElasticPool::builder().core_threads(1).build()?;
    /// assert!(!pool.wait_termination_timeout(Duration::from_millis(1)));
    /// pool.stop();
    /// assert!(pool.wait_termination_timeout(Duration::from_secs(10)));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn wait_termination_timeout(&self, timeout: Duration) -> bool {
        self.shared.wait_termination_timeout(timeout)
    }

    /// True once [`shutdown`](Self::shutdown) or [`stop`](Self::stop) has
    /// been called.
    pub fn is_shutdown(&self) -> bool {
        self.shared.lock().closed
    }

    /// Configuration, gauges and counters, read together under the pool's
    /// lock.
    pub fn stats(&self) -> ElasticStats {
        let shared = &*self.shared;
        let hook_panics = shared.hook_panics();
        let state = shared.lock();
        let config = &shared.config;
        ElasticStats {
            core_threads: config.core,
            max_threads: config.max,
            queue_capacity: config.capacity,
            live_workers: state.live,
            idle_workers: state.idle,
            largest_pool_size: state.largest,
            queued: state.queue.len(),
            queued_by_priority: state.queue.lens(),
            running: state.running,
            submitted: state.counts.submitted,
            completed: state.counts.completed,
            panicked: state.counts.panicked,
            cancelled: state.counts.cancelled,
            hook_panics,
        }
    }
}

impl Executor for ElasticPool {
    /// Queues `job` (or starts a worker for it), blocking while the pool is
    /// saturated; hands it back after shutdown.
    fn submit(&self, priority: Priority, job: Job) -> Result<(), Job> {
        self.shared
            .offer(priority, job, |job| job, Wait::Block)
            .map_err(SubmitError::into_inner)
    }
}

impl Drop for ElasticPool {
    fn drop(&mut self) {
        self.shutdown();
    }
}

impl fmt::Debug for ElasticPool {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let config = &self.shared.config;
        f.debug_struct("ElasticPool")
            .field("core_threads", &config.core)
            .field("max_threads", &config.max)
            .field("queue_capacity", &config.capacity)
            .field("keep_alive", &config.keep_alive)
            .field("core_timeout", &config.core_timeout)
            .field("thread_name", &config.thread_name)
            .field("hooks", &self.shared.hooks)
            .field("shut_down", &self.is_shutdown())
            .field("stats", &self.stats())
            .finish()
    }
}
