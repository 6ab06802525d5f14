//! The `Runtime` handle: spawning, shutdown and metrics.

use std::fmt;
use std::sync::Arc;
use std::task::Waker;
use std::time::Duration;

use rt_handle::raw::Wait;
use rt_handle::{
    CancellationContext, CancellationToken, Executor, Job, JoinHandle, Metrics, SubmitError,
};
use rt_queue::{PerClass, Priority};

use crate::observe::stats::{PoolStats, WorkerStats};
use crate::shared::Shared;
use crate::submit::{cancel_at_spawn, spawn_job, submit_task};
use crate::sync::Ordering;
use crate::worker::{self, adopted, is_thread_of, WorkerContext};

/// A fixed set of worker threads running tasks by priority, with work
/// stealing.
///
/// How it works: the [crate docs](crate).
///
/// # Waiting across runtimes
///
/// A worker that waits for work of another runtime (an
/// [`install`](Self::install) into it, a join of one of its tasks) cannot
/// help that work along, and while it waits the chain it waits for may
/// queue work back on this runtime. So a runtime keeps one worker free:
/// when its last free worker is about to park in a wait (for another
/// runtime, or a join with nothing to help with), a *compensating* thread
/// takes over its share of the queued work. `a.install(|| b.install(||
/// a.install(f)))` completes with one thread each, as in rayon.
///
/// Compensating threads are workers of the runtime: they are named
/// `{thread_name}-{index}` with an index from [`threads`](Self::threads)
/// upwards, which [`current_thread_index`](crate::current_thread_index) returns on them,
/// run the worker hooks, and stay parked once the wait is over, until the
/// runtime ends. `threads()` counts only the configured workers;
/// [`PoolStats::compensating_threads`] counts the compensating threads
/// running, and [`PoolStats::workers`] lists every thread started. At most
/// [`MAX_COMPENSATING_THREADS`](crate::MAX_COMPENSATING_THREADS) are
/// started; beyond that, a wait parks without compensation, so only a
/// cycle of waits through more than that many threads of one runtime, all
/// waiting at once, can deadlock. Blocking on a lock, a channel or I/O is
/// not a wait in this sense. The rule and its proof: the crate's
/// `idle/COMPENSATION.md`.
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
#[doc(alias("ThreadPool", "Pool"))]
pub struct Runtime {
    pub(crate) shared: Arc<Shared>,
}

// A panic in a caller of `Runtime`'s methods leaves the runtime usable: its
// shared state changes by atomic steps or under locks whose poisoning is
// ignored, and tasks' panics are caught where they run.
impl std::panic::UnwindSafe for Runtime {}
impl std::panic::RefUnwindSafe for Runtime {}

impl Runtime {
    /// Number of worker threads, as configured. Compensating threads,
    /// started while workers wait on other runtimes (see "Waiting across
    /// runtimes" above), are not counted; [`PoolStats`] shows them.
    #[doc(alias("num_threads", "max_count"))]
    pub fn threads(&self) -> usize {
        self.shared.threads()
    }

    // `spawn`, `spawn_with_priority` and `spawn_cancellable`: the
    // `Executor` trait's, whose implementation below holds this runtime's
    // way of spawning.
    rt_handle::inherent_spawn_methods! {
        /// Runs `f` at [`Priority::Normal`]; the handle delivers its result
        /// (join it, or await it). A task spawned from a task running on this
        /// runtime goes to that worker's own deque (idle peers steal it); from
        /// any other thread to the injector of its priority, waiting while a
        /// bounded queue is full. After `shutdown` the handle reports
        /// [`JoinError::Rejected`](crate::JoinError::Rejected) at once.
        ///
        /// ```
        /// let rt = rt_core::Runtime::new(2)?;
        /// assert_eq!(rt.spawn(|| 6 * 7).join(), Ok(42));
        /// # Ok::<(), rt_core::BuildError>(())
        /// ```
        fn spawn;
        /// Runs `f` at `priority`: queued High tasks start before queued
        /// Normal ones, which start before Background ones (under the strict
        /// policy; see [`Builder::priority_policy`](crate::Builder::priority_policy)).
        fn spawn_with_priority;
        /// Runs `f` at `priority` unless `token` is cancelled before it starts;
        /// then `f` never runs and the handle reports
        /// [`JoinError::Cancelled`](crate::JoinError::Cancelled). A running body
        /// sees later cancellation through its [`CancellationContext`].
        ///
        /// A task still queued when [`token.cancel()`](CancellationToken::cancel)
        /// returns has been cancelled by it: its handle says `Cancelled`, and
        /// [`metrics`](Self::metrics) and [`stats`](Self::stats) count it, at
        /// once. With a token cancelled already, the task is not queued at all:
        /// the handle says `Cancelled` and the metrics count it as submitted and
        /// cancelled before this returns (after shutdown it is rejected, as any
        /// spawn).
        ///
        /// ```
        /// use rt_core::{CancellationToken, Priority, Runtime, TaskStatus};
        ///
        /// let rt = Runtime::new(1)?;
        /// let token = CancellationToken::new();
        /// token.cancel();
        /// let h = rt.spawn_cancellable(Priority::Normal, &token, |_| 1);
        /// assert_eq!(h.status(), TaskStatus::Cancelled);
        /// assert_eq!(rt.metrics().cancelled, 1);
        /// # Ok::<(), rt_core::BuildError>(())
        /// ```
        fn spawn_cancellable;
    }

    /// Like [`spawn`](Self::spawn), but never blocks: a shut-down runtime,
    /// or a full bounded queue, hands the closure back untouched in the
    /// error. A task of this runtime spawning onto it is accepted until
    /// `stop`.
    pub fn try_spawn<F, T>(&self, f: F) -> Result<JoinHandle<T>, SubmitError<F>>
    where
        F: FnOnce() -> T + Send + 'static,
        T: Send + 'static,
    {
        let mut handle = None;
        submit_task(&self.shared, Priority::Normal, f, Wait::Never, |f| {
            let (job, h) = Job::new(f);
            handle = Some(h);
            job
        })?;
        Ok(handle.expect("an accepted closure was made into a job"))
    }

    /// Runs `f` at [`Priority::Normal`] without a handle or a result slot
    /// (one allocation for the closure and a state word). A panic in it is
    /// caught, counted in the metrics' `panicked`, and passed to the
    /// builder's `panic_handler` if one is set. Blocks while a bounded
    /// queue is full, unless called from one of this runtime's tasks; after
    /// shutdown the closure comes back as
    /// [`SubmitError::Shutdown`](crate::SubmitError::Shutdown): nothing is
    /// dropped silently.
    pub fn execute<F>(&self, f: F) -> Result<(), SubmitError<F>>
    where
        F: FnOnce() + Send + 'static,
    {
        self.execute_with(f, Wait::Block)
    }

    /// Like [`execute`](Self::execute), but never blocks: a full bounded
    /// queue hands the closure back as
    /// [`SubmitError::Saturated`](crate::SubmitError::Saturated).
    pub fn try_execute<F>(&self, f: F) -> Result<(), SubmitError<F>>
    where
        F: FnOnce() + Send + 'static,
    {
        self.execute_with(f, Wait::Never)
    }

    fn execute_with<F>(&self, f: F, wait: Wait) -> Result<(), SubmitError<F>>
    where
        F: FnOnce() + Send + 'static,
    {
        submit_task(&self.shared, Priority::Normal, f, wait, Job::detached)
    }

    /// Submits a job made elsewhere (`Executor::submit`, a `Submitter`).
    fn submit_job(&self, priority: Priority, job: Job, wait: Wait) -> Result<(), SubmitError<Job>> {
        submit_task(&self.shared, priority, job, wait, |job| job)
    }

    /// Stops accepting new tasks, runs every task already accepted
    /// (including tasks those tasks spawn), then joins the workers.
    ///
    /// Idempotent; `Drop` calls it. Spawning afterwards never blocks or
    /// panics: the handle reports `Rejected` at once. Called from inside one
    /// of this runtime's own tasks it cannot wait for its own worker: it
    /// starts the shutdown and returns at once, and the first `shutdown` (or
    /// the drop) from outside the pool does the joining.
    ///
    /// It blocks until running tasks finish: on an async runtime's thread,
    /// call it through `spawn_blocking` (so does dropping the last
    /// `Runtime`).
    pub fn shutdown(&self) {
        self.shared.begin_shutdown();
        // On the thread the runtime adopted (`Builder::use_current_thread`),
        // outside its calls into the runtime, the adoption ends first: it
        // is then an outside thread, which may wait.
        adopted::release(&self.shared);
        if is_thread_of(&self.shared) {
            return;
        }
        self.shared.exits().join();
        // Every worker has exited, and none left work queued, unless none
        // ever ran (a spawn handler dropped them all, or the adopted thread
        // was the only worker): such tasks can never run now, and are
        // cancelled, as `stop` cancels them.
        if !self.shared.queues().is_empty() {
            self.shared.stop();
        }
    }

    /// Stops accepting new tasks and returns at once, without waiting:
    /// the workers run every task already accepted (and the tasks those
    /// spawn), then exit on their own, and nobody joins their threads
    /// (tokio's `shutdown_background`; what dropping a rayon `ThreadPool`
    /// does). The handle is consumed: nothing is left to wait with.
    ///
    /// ```
    /// let rt = rt_core::Runtime::new(2)?;
    /// let handle = rt.spawn(|| 6 * 7);
    /// rt.shutdown_background();
    /// assert_eq!(handle.join(), Ok(42)); // accepted before: it still runs
    /// # Ok::<(), rt_core::BuildError>(())
    /// ```
    pub fn shutdown_background(self) {
        self.shared.begin_shutdown();
        adopted::release(&self.shared);
        self.shared.exits().detach();
        // Not `Drop`, which waits for the workers: the last of them drops
        // the shared state when it exits.
        let this = std::mem::ManuallyDrop::new(self);
        // SAFETY: `this` is never used again, nor dropped: the `Arc` is
        // moved out once, and dropped here.
        drop(unsafe { std::ptr::read(&this.shared) });
    }

    /// The index of the calling thread among this runtime's workers, if it
    /// is one (rayon's `ThreadPool::current_thread_index`); `None` on any
    /// other thread, a worker of another runtime included.
    ///
    /// ```
    /// let rt = rt_core::Runtime::new(2)?;
    /// assert_eq!(rt.current_thread_index(), None);
    /// assert!(rt.install(|| rt.current_thread_index()).is_some_and(|i| i < 2));
    /// # Ok::<(), rt_core::BuildError>(())
    /// ```
    pub fn current_thread_index(&self) -> Option<usize> {
        worker::with_local(&self.shared, |worker| worker.map(WorkerContext::index))
    }

    /// Whether the calling worker of this runtime has tasks waiting in its
    /// own deques (rayon's `ThreadPool::current_thread_has_pending_tasks`);
    /// `None` on any other thread. A racy look: other workers may take
    /// them at any moment.
    pub fn current_thread_has_pending_tasks(&self) -> Option<bool> {
        worker::with_local(&self.shared, |worker| {
            worker.map(WorkerContext::has_pending_tasks)
        })
    }

    /// Stops accepting new tasks and cancels every task still queued: their
    /// handles report [`JoinError::Cancelled`](rt_handle::JoinError::Cancelled)
    /// and their bodies never run. Tasks already running finish; tasks they
    /// spawn from now on are cancelled too. Every accepted task is thus
    /// either run or reported cancelled, in its handle and in
    /// [`Metrics::cancelled`].
    ///
    /// Returns exactly the number of tasks this call cancelled: the tasks
    /// queued when it was called that will never run because of it, which
    /// is what `metrics().cancelled` grows by. A task a busy worker takes
    /// while `stop` drains the queues may still run (it is then not
    /// counted); tasks that running tasks spawn after `stop` returned are
    /// cancelled and counted in the metrics, not here; and a task already
    /// cancelled through its handle or its token was counted in the
    /// metrics when it was cancelled, and is counted again neither there
    /// nor here. A second `stop` returns 0. Once the workers have exited
    /// ([`wait_termination`](Self::wait_termination), or
    /// [`shutdown`](Self::shutdown)),
    /// `submitted == completed + panicked + cancelled` exactly.
    ///
    /// Work that a running caller waits for is not cancelled: the halves of
    /// a [`join`](crate::join()) and the closures of an
    /// [`install`](Self::install) run on the thread that waits for them, and
    /// the tasks of a [`scope`](crate::scope()) that is still running,
    /// including tasks spawned into it after `stop`, run before the scope
    /// returns, like the rest of the caller's computation.
    ///
    /// ```
    /// use std::sync::atomic::{AtomicUsize, Ordering};
    ///
    /// let rt = rt_core::Runtime::new(1)?;
    /// let ran = AtomicUsize::new(0);
    /// rt.scope(|s| {
    ///     for _ in 0..8 {
    ///         s.spawn(|| ran.fetch_add(1, Ordering::Relaxed));
    ///     }
    ///     assert_eq!(rt.stop(), 0); // nothing of the scope is cancelled
    /// });
    /// assert_eq!(ran.load(Ordering::Relaxed), 8);
    /// assert!(rt.spawn(|| ()).join().unwrap_err().is_rejected());
    /// # Ok::<(), rt_core::BuildError>(())
    /// ```
    ///
    /// Returns without waiting; follow with
    /// [`wait_termination`](Self::wait_termination) or
    /// [`shutdown`](Self::shutdown) to wait for the workers.
    #[doc(alias = "shutdown_now")]
    pub fn stop(&self) -> usize {
        self.shared.stop()
    }

    /// Blocks until [`shutdown`](Self::shutdown) or [`stop`](Self::stop)
    /// (called earlier, or from another thread) has finished: every accepted
    /// task ran or was cancelled, and every worker exited. Without a shutdown
    /// it waits until one happens. It blocks its thread: not on an async
    /// runtime's thread.
    ///
    /// # Panics
    ///
    /// On a worker of this runtime (inside one of its tasks), which would
    /// wait for its own exit: use
    /// [`wait_termination_timeout`](Self::wait_termination_timeout) there,
    /// or wait on another thread.
    #[track_caller]
    pub fn wait_termination(&self) {
        assert!(
            !is_thread_of(&self.shared),
            "Runtime::wait_termination called on a worker of the same runtime, \
             which would wait for its own exit"
        );
        self.shared.exits().wait();
    }

    /// Like [`wait_termination`](Self::wait_termination), for at most
    /// `timeout`; true if the runtime terminated in time.
    pub fn wait_termination_timeout(&self, timeout: Duration) -> bool {
        self.shared.exits().wait_timeout(timeout)
    }

    /// True once [`shutdown`](Self::shutdown) or [`stop`](Self::stop) has
    /// been called.
    pub fn is_shutdown(&self) -> bool {
        self.shared.gate().is_closed()
    }

    /// Configuration and live gauges (queued tasks per priority, running
    /// tasks, idle workers) with the [`Metrics`]. Reads counters only; it
    /// never stops or locks the workers. A task cancelled while queued is
    /// out of [`PoolStats::queued`] and in [`Metrics::cancelled`] from the
    /// moment its `cancel` returned.
    pub fn stats(&self) -> PoolStats {
        let shared = &*self.shared;
        PoolStats {
            threads: self.threads(),
            queue_capacity: shared.capacity().map(|c| c.limit()),
            thread_name: shared.thread_name().to_owned(),
            queued: PerClass::from_fn(|p| shared.queued(p)),
            running: shared
                .counters()
                .iter()
                .map(|c| c.running.load(Ordering::Relaxed) as usize)
                .sum(),
            idle_workers: shared.idle().sleepers(),
            compensating_threads: shared.idle().compensating(),
            policy: shared.policy(),
            cpu_time: shared.measures_cpu_time().then(|| {
                PerClass::from_fn(|p| {
                    Duration::from_nanos(
                        shared
                            .counters()
                            .iter()
                            .map(|c| c.cpu_ns[p.index()].load(Ordering::Relaxed))
                            .sum(),
                    )
                })
            }),
            latency: shared.latency().map(crate::observe::latency::merge),
            workers: shared.counters()[..shared.idle().workers_started()]
                .iter()
                .enumerate()
                .map(|(index, c)| WorkerStats {
                    finished: [&c.completed, &c.panicked, &c.cancelled]
                        .iter()
                        .map(|n| n.load(Ordering::Relaxed))
                        .sum(),
                    stolen: c.stolen.load(Ordering::Relaxed),
                    queued: shared.queues().worker_len(index),
                    running: c.running.load(Ordering::Relaxed) != 0,
                    busy: shared.measures_cpu_time().then(|| {
                        Duration::from_nanos(
                            c.cpu_ns.iter().map(|n| n.load(Ordering::Relaxed)).sum(),
                        )
                    }),
                })
                .collect(),
            metrics: shared.metrics(),
        }
    }

    /// Starts recording an execution trace: every task the workers run
    /// (when it was submitted and by which task, when and where it ran,
    /// how the worker got it, how it ended) and when workers were idle,
    /// into a buffer of `events_per_worker` events per worker, allocated
    /// when the trace starts. A request above
    /// [`MAX_TRACE_EVENTS_PER_WORKER`](crate::MAX_TRACE_EVENTS_PER_WORKER)
    /// is clamped to it. Events that do not fit are counted in
    /// [`Trace::dropped`](crate::Trace::dropped); a worker never waits for
    /// room. Returns false, and changes nothing, if a trace is already
    /// being recorded.
    ///
    /// ```
    /// let rt = rt_core::Runtime::new(2)?;
    /// rt.start_trace(10_000);
    /// rt.install(|| rt_core::scope(|s| { s.spawn(|| 1); s.spawn(|| 2); }));
    /// let trace = rt.stop_trace();
    /// assert_eq!(trace.tasks.len(), 2);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn start_trace(&self, events_per_worker: usize) -> bool {
        let started = self.shared.trace().start(events_per_worker);
        if started {
            self.shared.trace_started();
        }
        started
    }

    /// Stops the trace started by [`start_trace`](Self::start_trace) and
    /// returns it (empty if none was running). Tasks still running finish
    /// unrecorded.
    pub fn stop_trace(&self) -> crate::Trace {
        let stopped_at = self.shared.now_ns();
        let (events, dropped) = self.shared.trace().stop();
        self.shared.trace_stopped();
        crate::Trace::assemble(self.threads(), events, dropped, stopped_at)
    }

    /// A snapshot of the task counters; exact once shut down. A task
    /// cancelled while queued (through its handle or its token) is counted
    /// in `cancelled` before that `cancel` returns, once; every snapshot
    /// has `submitted >= completed + panicked + cancelled`.
    #[doc(alias("queued_count", "active_count", "panic_count"))]
    pub fn metrics(&self) -> Metrics {
        self.shared.metrics()
    }

    /// Number of workers idle (parked, or about to park) right now.
    pub fn idle_workers(&self) -> usize {
        self.shared.idle().sleepers()
    }
}

impl Executor for Runtime {
    /// Queues `job`, blocking while a bounded queue is full; hands it back
    /// after shutdown.
    #[inline]
    fn submit(&self, priority: Priority, job: Job) -> Result<(), Job> {
        self.submit_job(priority, job, Wait::Block)
            .map_err(SubmitError::into_inner)
    }

    /// Spawns straight through the runtime's submission path (what
    /// `submit` does, without handing a refused job back to be rejected).
    #[inline]
    fn spawn_with_priority<F, T>(&self, priority: Priority, f: F) -> JoinHandle<T>
    where
        F: FnOnce() -> T + Send + 'static,
        T: Send + 'static,
    {
        spawn_job(&self.shared, priority, Job::new(f))
    }

    /// As [`Runtime::spawn_cancellable`]: a task whose token is cancelled
    /// already is ended and counted at once, not queued.
    fn spawn_cancellable<F, T>(
        &self,
        priority: Priority,
        token: &CancellationToken,
        f: F,
    ) -> JoinHandle<T>
    where
        F: FnOnce(&CancellationContext) -> T + Send + 'static,
        T: Send + 'static,
    {
        let (job, handle) = Job::cancellable(token, f);
        if token.is_cancelled() {
            cancel_at_spawn(&self.shared, job);
            return handle;
        }
        spawn_job(&self.shared, priority, (job, handle))
    }

    /// Queues `job` unless the bounded queue is full (`Saturated`) or the
    /// runtime is shut down (`Shutdown`); never blocks. From one of this
    /// runtime's tasks it is always accepted until `stop` (it goes to the
    /// worker's own deque, which takes no place).
    fn try_submit(&self, priority: Priority, job: Job) -> Result<(), SubmitError<Job>> {
        self.submit_job(priority, job, Wait::Never)
    }

    /// Wakes `waker` when a worker takes a task from a full bounded queue,
    /// or when the runtime shuts down; at once if a place is free or the
    /// queue is unbounded.
    ///
    /// ```
    /// use std::task::Waker;
    /// use rt_core::{Executor, Priority, Runtime};
    /// use rt_handle::Job;
    ///
    /// let rt = Runtime::builder().threads(1).queue_capacity(1).build()?;
    /// let (job, handle) = Job::new(|| 5);
    /// match rt.try_submit(Priority::Normal, job) {
    ///     Ok(()) => {}
    ///     // Full: an async caller registers its task's waker, tries once
    ///     // more, and returns `Pending` if refused again.
    ///     Err(refused) => {
    ///         rt.wake_when_capacity(Waker::noop());
    ///         rt.submit(Priority::Normal, refused.into_inner()).unwrap();
    ///     }
    /// }
    /// assert_eq!(handle.join(), Ok(5));
    /// # Ok::<(), rt_core::BuildError>(())
    /// ```
    fn wake_when_capacity(&self, waker: &Waker) {
        match self.shared.capacity() {
            Some(capacity) => capacity.wake_when_space(waker),
            None => waker.wake_by_ref(),
        }
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
            .field("thread_name", &self.shared.thread_name())
            .field("queue_capacity", &self.shared.capacity().map(|c| c.limit()))
            .field("hooks", self.shared.hooks())
            .field("shut_down", &self.is_shutdown())
            .field("metrics", &self.metrics())
            .finish()
    }
}
