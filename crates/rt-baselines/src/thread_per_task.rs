//! One fresh OS thread per task: no queue at all, every task pays for a
//! thread start.

use std::fmt;
use std::sync::Arc;

use rt_handle::{Executor, Job, Priority};

use rt_handle::raw::PoolId;

use crate::membership::{self, key_of};
use crate::sync::{thread, unpoison, Condvar, Mutex, MutexGuard};

/// Runs each submitted task on a newly spawned OS thread, named
/// `thread-per-task`. Priorities are accepted and ignored: every task starts
/// at once, and the OS scheduler decides.
///
/// A panicking task is caught on its own thread (its handle reports
/// [`JoinError::Panicked`](rt_handle::JoinError::Panicked)); nothing else is
/// affected.
///
/// If the OS refuses to start a thread, the job is dropped, which completes
/// its handle with [`JoinError::Rejected`](rt_handle::JoinError::Rejected):
/// the task is never silently lost, and `submit` still reports success
/// because there is no job left to hand back.
///
/// ```
/// use rt_baselines::ThreadPerTask;
///
/// let executor = ThreadPerTask::new();
/// let handle = executor.spawn(|| std::thread::current().name().map(str::to_owned));
/// assert_eq!(handle.join(), Ok(Some("thread-per-task".to_owned())));
/// executor.shutdown();
/// ```
pub struct ThreadPerTask {
    shared: Arc<Shared>,
}

struct Shared {
    state: Mutex<State>,
    /// Signalled when the last task thread finishes after shutdown began.
    all_finished: Condvar,
}

struct State {
    closed: bool,
    /// Task threads that have been started (or are being started) and have
    /// not yet finished their task.
    running: usize,
}

impl Shared {
    fn lock(&self) -> MutexGuard<'_, State> {
        unpoison(self.state.lock())
    }

    fn key(&self) -> PoolId {
        key_of(self)
    }
}

/// Counts one task thread as running until it is dropped: at the end of the
/// thread, or with the thread's closure if the OS never started it.
struct Running(Arc<Shared>);

impl Drop for Running {
    fn drop(&mut self) {
        let mut state = self.0.lock();
        state.running -= 1;
        if state.running == 0 && state.closed {
            drop(state);
            self.0.all_finished.notify_all();
        }
    }
}

/// Everything a task thread owns. Fields drop in declaration order, so a job
/// that never ran is rejected before its thread stops counting as running,
/// and `shutdown` never returns ahead of a handle's completion.
struct TaskThread {
    job: Job,
    running: Running,
}

impl TaskThread {
    fn run(self) {
        let TaskThread { job, running } = self;
        membership::working_for(running.0.key(), || job.run());
        drop(running);
    }
}

impl ThreadPerTask {
    /// An executor that has started no threads yet.
    ///
    /// ```
    /// use rt_baselines::ThreadPerTask;
    ///
    /// let executor = ThreadPerTask::new();
    /// assert_eq!(executor.spawn(|| 2 + 2).join(), Ok(4));
    /// ```
    pub fn new() -> Self {
        Self {
            shared: Arc::new(Shared {
                state: Mutex::new(State {
                    closed: false,
                    running: 0,
                }),
                all_finished: Condvar::new(),
            }),
        }
    }

    rt_handle::inherent_spawn_methods!();

    /// Stops accepting new work and waits until every task thread has run
    /// its task, including tasks those tasks spawn meanwhile.
    ///
    /// Later submissions from outside are refused: their handles report
    /// [`JoinError::Rejected`](rt_handle::JoinError::Rejected) at once.
    /// Idempotent; [`Drop`] calls it. The task threads are detached, so the
    /// wait ends when the last task has finished, not when its OS thread has
    /// been torn down.
    ///
    /// Called from one of this executor's own tasks, it only starts the
    /// shutdown and returns without waiting, since that task is one of the
    /// threads it would wait for.
    ///
    /// ```
    /// use rt_baselines::ThreadPerTask;
    /// use rt_handle::JoinError;
    ///
    /// let executor = ThreadPerTask::new();
    /// let running = executor.spawn(|| 5);
    /// executor.shutdown();
    /// assert_eq!(running.join(), Ok(5));
    /// assert_eq!(executor.spawn(|| 6).join(), Err(JoinError::Rejected));
    /// ```
    pub fn shutdown(&self) {
        let mut state = self.shared.lock();
        state.closed = true;
        if membership::is_member(self.shared.key()) {
            return;
        }
        while state.running > 0 {
            state = unpoison(self.shared.all_finished.wait(state));
        }
    }

    /// True once [`shutdown`](Self::shutdown) has begun.
    ///
    /// ```
    /// use rt_baselines::ThreadPerTask;
    ///
    /// let executor = ThreadPerTask::new();
    /// assert!(!executor.is_shutdown());
    /// executor.shutdown();
    /// assert!(executor.is_shutdown());
    /// ```
    pub fn is_shutdown(&self) -> bool {
        self.shared.lock().closed
    }
}

impl Default for ThreadPerTask {
    fn default() -> Self {
        Self::new()
    }
}

impl Executor for ThreadPerTask {
    fn submit(&self, _priority: Priority, job: Job) -> Result<(), Job> {
        {
            let mut state = self.shared.lock();
            if state.closed && !membership::is_member(self.shared.key()) {
                return Err(job);
            }
            // Counted before the thread exists, so a shutdown that starts
            // right now still waits for this task.
            state.running += 1;
        }
        let task = TaskThread {
            job,
            running: Running(Arc::clone(&self.shared)),
        };
        // On failure `spawn` drops the closure, and with it the task: the job
        // is rejected and stops counting as running (see `TaskThread`).
        let _detached = thread::Builder::new()
            .name("thread-per-task".to_owned())
            .spawn(move || task.run());
        Ok(())
    }
}

impl Drop for ThreadPerTask {
    fn drop(&mut self) {
        self.shutdown();
    }
}

impl fmt::Debug for ThreadPerTask {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let state = self.shared.lock();
        f.debug_struct("ThreadPerTask")
            .field("running", &state.running)
            .field("shut_down", &state.closed)
            .finish()
    }
}
