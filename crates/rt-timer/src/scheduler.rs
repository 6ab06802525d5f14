//! The `DelayedTaskScheduler` handle: scheduling, shutdown and stop.

use std::fmt;
use std::sync::Arc;
use std::thread::JoinHandle as ThreadHandle;
use std::time::{Duration, Instant};

use rt_handle::{Executor, Job, ProvidesSubmitter, SubmitError};
use rt_queue::Priority;

use crate::entry::{deadline_after, Dispatch};
use crate::shared::Shared;
use crate::ScheduledHandle;

/// Runs callbacks at or after their deadlines, from one timer thread and a
/// deadline heap. See the [crate docs](crate) for how it works.
///
/// * [`schedule`](Self::schedule) / [`schedule_at`](Self::schedule_at) run
///   the callback on the timer thread: keep it short, since the next
///   callback waits for it.
/// * [`schedule_on`](Self::schedule_on) / [`schedule_at_on`](Self::schedule_at_on)
///   hand it to an executor (an `rt_core::Runtime`, an elastic pool, any
///   [`ProvidesSubmitter`]) at its deadline: for heavy work.
///
/// It is also an [`Executor`]: a submitted job runs as soon as possible on
/// the timer thread, so `JoinHandle`s and `run_graph` work on it; heavy work
/// belongs on `schedule_on`.
///
/// **Dropping the scheduler stops it**: like a Tokio runtime dropping its
/// timers, pending callbacks are cancelled (their handles report
/// [`JoinError::Cancelled`](rt_handle::JoinError::Cancelled)) and the drop
/// waits only for a callback running at that moment, never for a future
/// deadline. To let every accepted callback fire first, call
/// [`shutdown`](Self::shutdown) and then
/// [`wait_termination`](Self::wait_termination) before dropping it.
///
/// ```
/// use std::time::{Duration, Instant};
/// use rt_timer::DelayedTaskScheduler;
///
/// let timer = DelayedTaskScheduler::new()?;
/// let start = Instant::now();
/// let late = timer.schedule(Duration::from_millis(20), move || start.elapsed())?;
/// let soon = timer.schedule(Duration::from_millis(10), move || start.elapsed())?;
/// let (late, soon) = (late.join()?, soon.join()?);
/// assert!(soon >= Duration::from_millis(10) && late >= Duration::from_millis(20));
/// assert!(soon < late);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[doc(alias("Timer", "ScheduledExecutor"))]
pub struct DelayedTaskScheduler {
    shared: Arc<Shared>,
    /// Joined by `Drop` (unless dropped on the timer thread itself).
    thread: Option<ThreadHandle<()>>,
    thread_name: String,
}

impl DelayedTaskScheduler {
    pub(crate) fn from_parts(
        shared: Arc<Shared>,
        thread: ThreadHandle<()>,
        thread_name: String,
    ) -> Self {
        Self {
            shared,
            thread: Some(thread),
            thread_name,
        }
    }

    /// Runs `f` on the timer thread once `delay` has passed.
    ///
    /// # Errors
    ///
    /// [`SubmitError::Shutdown`] with `f` handed back after
    /// [`shutdown`](Self::shutdown) or [`stop`](Self::stop). The scheduler
    /// has no capacity limit, so it never returns `Saturated`.
    #[doc(alias("sleep", "delay", "spawn_after"))]
    pub fn schedule<F, T>(
        &self,
        delay: Duration,
        f: F,
    ) -> Result<ScheduledHandle<T>, SubmitError<F>>
    where
        F: FnOnce() -> T + Send + 'static,
        T: Send + 'static,
    {
        self.schedule_at(deadline_after(Instant::now(), delay), f)
    }

    /// Runs `f` on the timer thread at `deadline`, never before it. A
    /// deadline in the past runs as soon as possible, after the entries
    /// already due. Entries with equal deadlines run in the order they were
    /// scheduled.
    ///
    /// # Errors
    ///
    /// [`SubmitError::Shutdown`], as for [`schedule`](Self::schedule).
    pub fn schedule_at<F, T>(
        &self,
        deadline: Instant,
        f: F,
    ) -> Result<ScheduledHandle<T>, SubmitError<F>>
    where
        F: FnOnce() -> T + Send + 'static,
        T: Send + 'static,
    {
        self.push(deadline, Dispatch::TimerThread, f)
    }

    /// Hands `f` to `executor` at [`Priority::Normal`] once `delay` has
    /// passed, so that it runs on the executor's threads, not the timer's.
    ///
    /// The scheduler keeps only a weak [`Submitter`](rt_handle::Submitter)
    /// of the executor, and never blocks on it: if at the deadline the
    /// executor is gone, shut down or its bounded queue is full, the handle
    /// reports [`JoinError::Rejected`](rt_handle::JoinError::Rejected).
    /// [`ScheduledHandle::cancel`] succeeds until `f` starts on the executor.
    ///
    /// ```
    /// use std::time::Duration;
    /// use rt_core::Runtime;
    /// use rt_timer::DelayedTaskScheduler;
    ///
    /// let rt = Runtime::new(2)?;
    /// let timer = DelayedTaskScheduler::new()?;
    /// let sum = timer.schedule_on(&rt, Duration::from_millis(5), || (1..=100u32).sum::<u32>())?;
    /// assert_eq!(sum.join()?, 5050);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    ///
    /// # Errors
    ///
    /// [`SubmitError::Shutdown`] if this scheduler is shut down; the
    /// executor's state is only looked at when the deadline comes.
    pub fn schedule_on<E, F, T>(
        &self,
        executor: &E,
        delay: Duration,
        f: F,
    ) -> Result<ScheduledHandle<T>, SubmitError<F>>
    where
        E: ProvidesSubmitter + ?Sized,
        F: FnOnce() -> T + Send + 'static,
        T: Send + 'static,
    {
        let deadline = deadline_after(Instant::now(), delay);
        self.schedule_at_on_with_priority(executor, Priority::Normal, deadline, f)
    }

    /// Like [`schedule_on`](Self::schedule_on), at an instant.
    ///
    /// # Errors
    ///
    /// [`SubmitError::Shutdown`] if this scheduler is shut down.
    pub fn schedule_at_on<E, F, T>(
        &self,
        executor: &E,
        deadline: Instant,
        f: F,
    ) -> Result<ScheduledHandle<T>, SubmitError<F>>
    where
        E: ProvidesSubmitter + ?Sized,
        F: FnOnce() -> T + Send + 'static,
        T: Send + 'static,
    {
        self.schedule_at_on_with_priority(executor, Priority::Normal, deadline, f)
    }

    /// Like [`schedule_at_on`](Self::schedule_at_on), submitting at
    /// `priority` (the executor's priority: it does not change when the
    /// timer fires the entry).
    ///
    /// # Errors
    ///
    /// [`SubmitError::Shutdown`] if this scheduler is shut down.
    pub fn schedule_at_on_with_priority<E, F, T>(
        &self,
        executor: &E,
        priority: Priority,
        deadline: Instant,
        f: F,
    ) -> Result<ScheduledHandle<T>, SubmitError<F>>
    where
        E: ProvidesSubmitter + ?Sized,
        F: FnOnce() -> T + Send + 'static,
        T: Send + 'static,
    {
        let dispatch = Dispatch::Executor {
            target: Box::new(executor.submitter()),
            priority,
        };
        self.push(deadline, dispatch, f)
    }

    fn push<F, T>(
        &self,
        deadline: Instant,
        dispatch: Dispatch,
        f: F,
    ) -> Result<ScheduledHandle<T>, SubmitError<F>>
    where
        F: FnOnce() -> T + Send + 'static,
        T: Send + 'static,
    {
        let weak = Arc::downgrade(&self.shared);
        self.shared
            .push(deadline, dispatch, f, |f| {
                let (job, handle) = Job::new(f);
                (job, ScheduledHandle::new(handle, deadline, weak))
            })
            .map_err(SubmitError::Shutdown)
    }

    // `spawn`, `spawn_with_priority`, `spawn_cancellable`: the [`Executor`]
    // face of the scheduler, for code generic over executors. The task runs
    // as soon as possible on the timer thread, after the entries already
    // due; the priority is ignored, since the timer runs entries in
    // deadline order. After shutdown the handle reports `Rejected` at once.
    rt_handle::inherent_spawn_methods!();

    /// Stops accepting callbacks; those already accepted still fire at their
    /// deadlines, and then the timer thread exits.
    ///
    /// Returns at once, unlike `Runtime::shutdown`: a timer's accepted work
    /// may lie hours ahead. Follow with
    /// [`wait_termination`](Self::wait_termination) to wait for it.
    /// Idempotent, and safe to call from inside a callback.
    pub fn shutdown(&self) {
        self.shared.shutdown();
    }

    /// Stops accepting callbacks and cancels every one still waiting for its
    /// deadline: their handles report
    /// [`JoinError::Cancelled`](rt_handle::JoinError::Cancelled) and they
    /// never run. Returns how many this call cancelled. A callback already
    /// running finishes; one already handed to an executor is the
    /// executor's (cancel it through its handle).
    ///
    /// Returns without waiting for a running callback; follow with
    /// [`wait_termination`](Self::wait_termination) to wait for it.
    pub fn stop(&self) -> usize {
        self.shared.stop()
    }

    /// Blocks until a [`shutdown`](Self::shutdown) or [`stop`](Self::stop)
    /// (earlier, or from another thread) has finished: every accepted
    /// callback fired or was cancelled, and the timer thread is exiting.
    /// Without a shutdown it waits until one happens. Called from inside a
    /// callback it would wait for itself: do not.
    pub fn wait_termination(&self) {
        self.shared.wait_termination();
    }

    /// Like [`wait_termination`](Self::wait_termination), for at most
    /// `timeout`; true if the scheduler terminated in time.
    pub fn wait_termination_timeout(&self, timeout: Duration) -> bool {
        self.shared.wait_termination_timeout(timeout)
    }

    /// True once [`shutdown`](Self::shutdown) or [`stop`](Self::stop) has
    /// been called.
    pub fn is_shutdown(&self) -> bool {
        self.shared.is_shutdown()
    }

    /// True once the timer thread has finished its last callback.
    pub fn is_terminated(&self) -> bool {
        self.shared.is_terminated()
    }

    /// Callbacks waiting for their deadline, not counting cancelled ones.
    /// Takes the scheduler's lock and walks the heap: for diagnostics, not
    /// for hot paths.
    pub fn pending(&self) -> usize {
        self.shared.pending()
    }

    /// The timer thread's name.
    pub fn thread_name(&self) -> &str {
        &self.thread_name
    }
}

impl Executor for DelayedTaskScheduler {
    /// Queues `job` to run as soon as possible on the timer thread, after
    /// the entries already due. The priority is ignored: the timer runs
    /// entries in deadline order. Refused after shutdown.
    fn submit(&self, _priority: Priority, job: Job) -> Result<(), Job> {
        self.shared
            .push(Instant::now(), Dispatch::TimerThread, job, |job| (job, ()))
    }
}

impl Drop for DelayedTaskScheduler {
    /// Stops the scheduler (pending callbacks are cancelled) and waits for a
    /// callback running at that moment. Dropped from inside one of its own
    /// callbacks, it stops the scheduler and returns; the timer thread exits
    /// when that callback returns.
    fn drop(&mut self) {
        self.shared.stop();
        if self.shared.on_timer_thread() {
            return; // joining our own thread would never return
        }
        if let Some(thread) = self.thread.take() {
            // The timer thread catches every callback panic; if it still
            // died, `TerminateOnExit` has already released every waiter.
            let _ = thread.join();
        }
    }
}

impl fmt::Debug for DelayedTaskScheduler {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("DelayedTaskScheduler")
            .field("thread_name", &self.thread_name)
            .field("pending", &self.pending())
            .field("shutdown", &self.is_shutdown())
            .field("terminated", &self.is_terminated())
            .finish()
    }
}
