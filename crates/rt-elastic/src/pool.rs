//! The `ElasticPool` handle: submitting, shutting down, stopping, stats.

use std::fmt;
use std::sync::Arc;
use std::task::Waker;
use std::time::Duration;

use rt_handle::raw::Wait;
use rt_handle::{Executor, Job, Metrics, Priority, SubmitError};

use crate::shared::Shared;
use crate::ElasticStats;

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
/// assert_eq!((stats.metrics.completed, stats.live_workers), (2, 0));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
///
/// This is the pool for what tokio calls `spawn_blocking`: work that waits
/// on I/O, locks or other processes, kept off the CPU runtime's workers.
#[doc(alias = "spawn_blocking")]
pub struct ElasticPool {
    pub(crate) shared: Arc<Shared>,
}

impl ElasticPool {
    /// The configured core size.
    pub fn core_threads(&self) -> usize {
        self.shared.config.core
    }

    /// The configured maximum size.
    pub fn max_threads(&self) -> usize {
        self.shared.config.max
    }

    // `spawn`, `spawn_with_priority`, `spawn_cancellable`. A task that
    // starts a new worker runs on it at once, whatever its priority. These
    // block while the pool is saturated (bounded queue full and
    // `max_threads` workers live), unless called from one of this pool's
    // tasks; after `shutdown` the handle reports `Rejected` at once.
    rt_handle::inherent_spawn_methods!();

    // `try_spawn`, `execute`, `try_execute`: see `offer`.
    rt_handle::service_methods!();

    /// The pool's one submission path (`Shared::offer`): every spawn and
    /// submission method goes through it.
    fn offer<P>(
        &self,
        priority: Priority,
        payload: P,
        into_job: impl FnOnce(P) -> Job,
        wait: Wait,
    ) -> Result<(), SubmitError<P>> {
        self.shared.offer(priority, payload, into_job, wait)
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
        if crate::current::is_thread_of(self.shared.pool_id()) {
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

    /// Configuration, gauges and the [`Metrics`], the counters read
    /// together under the pool's lock.
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
            metrics: state.counts.metrics(hook_panics),
        }
    }

    /// A snapshot of the task counters; exact once the pool has
    /// terminated: `submitted == completed + panicked + cancelled`.
    ///
    /// ```
    /// use rt_elastic::ElasticPool;
    ///
    /// let pool = ElasticPool::builder().core_threads(1).build()?;
    /// pool.spawn(|| ()).join()?;
    /// pool.shutdown();
    /// let m = pool.metrics();
    /// assert_eq!((m.submitted, m.completed), (1, 1));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn metrics(&self) -> Metrics {
        let hook_panics = self.shared.hook_panics();
        self.shared.lock().counts.metrics(hook_panics)
    }
}

impl Executor for ElasticPool {
    /// Queues `job` (or starts a worker for it), blocking while the pool is
    /// saturated; hands it back after shutdown.
    fn submit(&self, priority: Priority, job: Job) -> Result<(), Job> {
        self.offer(priority, job, |job| job, Wait::Block)
            .map_err(SubmitError::into_inner)
    }

    /// Queues `job` (or starts a worker for it) unless the pool is
    /// saturated (`Saturated`) or shut down (`Shutdown`); never blocks.
    fn try_submit(&self, priority: Priority, job: Job) -> Result<(), SubmitError<Job>> {
        self.offer(priority, job, |job| job, Wait::Never)
    }

    /// Wakes `waker` when a task leaves the full queue, a worker leaves the
    /// pool, or the pool shuts down; at once if it is not saturated.
    fn wake_when_capacity(&self, waker: &Waker) {
        self.shared.wake_when_capacity(waker);
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
