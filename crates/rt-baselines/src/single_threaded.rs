//! No scheduler at all: every task runs inside the `submit` call that
//! received it.

use std::fmt;

use rt_handle::{Executor, Job, Priority};

use rt_handle::raw::PoolId;

use crate::membership::{self, key_of};
use crate::sync::{unpoison, AtomicUsize, Condvar, Mutex, Ordering};

/// Set in `SingleThreaded::state` once shutdown has begun.
const CLOSED: usize = 1;
/// One running task, counted in `SingleThreaded::state` above the flag bit.
const ONE_TASK: usize = 2;

/// Runs each task inline, on the caller's thread, before `spawn` returns.
/// Tasks spawned from inside a task run inline too, nested on the same stack
/// (so a chain of thousands of nested spawns needs a deep stack). Priorities
/// are accepted and ignored.
///
/// A panicking task is caught (its handle reports
/// [`JoinError::Panicked`](rt_handle::JoinError::Panicked)) and `spawn`
/// returns normally.
///
/// ```
/// use rt_baselines::SingleThreaded;
///
/// let executor = SingleThreaded::new();
/// let caller = std::thread::current().id();
/// let handle = executor.spawn(move || std::thread::current().id() == caller);
/// assert!(handle.is_finished(), "the task ran before spawn returned");
/// assert_eq!(handle.join(), Ok(true));
/// ```
pub struct SingleThreaded {
    /// `CLOSED` plus `ONE_TASK` per task running right now. One word, so
    /// that checking for shutdown and registering a task are one atomic step
    /// and no task can slip past a shutdown that is waiting for zero.
    state: AtomicUsize,
    /// Only for `shutdown`, which may have to wait for tasks that other
    /// threads are running inline; the fast path never touches it.
    wait_lock: Mutex<()>,
    all_finished: Condvar,
}

impl SingleThreaded {
    /// A new executor, accepting work.
    ///
    /// ```
    /// use rt_baselines::SingleThreaded;
    ///
    /// let executor = SingleThreaded::new();
    /// assert_eq!(executor.spawn(|| 2 + 2).join(), Ok(4));
    /// ```
    pub fn new() -> Self {
        Self {
            state: AtomicUsize::new(0),
            wait_lock: Mutex::new(()),
            all_finished: Condvar::new(),
        }
    }

    rt_handle::inherent_spawn_methods!();

    /// Stops accepting new work and waits for the tasks that other threads
    /// are running inline right now, including tasks those tasks spawn
    /// meanwhile (which still run).
    ///
    /// Later submissions from outside are refused: their handles report
    /// [`JoinError::Rejected`](rt_handle::JoinError::Rejected) at once.
    /// Idempotent; [`Drop`] calls it.
    ///
    /// Called from inside one of this executor's tasks, it only starts the
    /// shutdown and returns without waiting, since the calling task is one of
    /// those it would wait for.
    ///
    /// ```
    /// use rt_baselines::SingleThreaded;
    /// use rt_handle::JoinError;
    ///
    /// let executor = SingleThreaded::new();
    /// executor.shutdown();
    /// assert_eq!(executor.spawn(|| 6).join(), Err(JoinError::Rejected));
    /// ```
    pub fn shutdown(&self) {
        self.state.fetch_or(CLOSED, Ordering::AcqRel);
        if membership::is_member(self.key()) {
            return;
        }
        let mut guard = unpoison(self.wait_lock.lock());
        // Checked under `wait_lock`, which the last task takes before it
        // notifies, so its notification cannot fall between this check and
        // the wait.
        while self.state.load(Ordering::Acquire) != CLOSED {
            guard = unpoison(self.all_finished.wait(guard));
        }
    }

    /// True once [`shutdown`](Self::shutdown) has begun.
    ///
    /// ```
    /// use rt_baselines::SingleThreaded;
    ///
    /// let executor = SingleThreaded::new();
    /// assert!(!executor.is_shutdown());
    /// executor.shutdown();
    /// assert!(executor.is_shutdown());
    /// ```
    pub fn is_shutdown(&self) -> bool {
        self.state.load(Ordering::Acquire) & CLOSED != 0
    }

    fn key(&self) -> PoolId {
        key_of(self)
    }

    /// Ends one task's registration, waking a waiting shutdown if it was the
    /// last one.
    fn finish_task(&self) {
        let before = self.state.fetch_sub(ONE_TASK, Ordering::AcqRel);
        if before == CLOSED | ONE_TASK {
            drop(unpoison(self.wait_lock.lock()));
            self.all_finished.notify_all();
        }
    }
}

impl Default for SingleThreaded {
    fn default() -> Self {
        Self::new()
    }
}

impl Executor for SingleThreaded {
    fn submit(&self, _priority: Priority, job: Job) -> Result<(), Job> {
        // Register first, then look at the flag we registered against: a
        // shutdown that sets CLOSED after this sees our count and waits.
        let before = self.state.fetch_add(ONE_TASK, Ordering::AcqRel);
        if before & CLOSED != 0 && !membership::is_member(self.key()) {
            self.finish_task();
            return Err(job);
        }
        membership::working_for(self.key(), || job.run());
        self.finish_task();
        Ok(())
    }
}

impl Drop for SingleThreaded {
    fn drop(&mut self) {
        self.shutdown();
    }
}

impl fmt::Debug for SingleThreaded {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let state = self.state.load(Ordering::Acquire);
        f.debug_struct("SingleThreaded")
            .field("running", &(state / ONE_TASK))
            .field("shut_down", &(state & CLOSED != 0))
            .finish()
    }
}
