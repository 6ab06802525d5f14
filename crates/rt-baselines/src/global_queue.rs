//! The "one mutex, one condition variable" pool: the textbook design that a
//! work-stealing runtime has to beat.

use std::collections::VecDeque;
use std::fmt;
use std::sync::Arc;

use crate::BuildError;
use rt_handle::{Executor, Job, Priority};

use rt_handle::raw::PoolId;

use crate::membership::{self, key_of};
use crate::sync::{thread, unpoison, Condvar, Mutex, MutexGuard};

/// A fixed set of worker threads sharing one mutex-guarded queue per
/// priority, woken through one condition variable. No stealing, no per-worker
/// queues: every push and every pop takes the same lock.
///
/// Workers take the oldest High task first, then the oldest Normal one, then
/// the oldest Background one. Workers are named `global-queue-{i}`.
///
/// A panicking task is caught (its handle reports
/// [`JoinError::Panicked`](rt_handle::JoinError::Panicked)) and the worker
/// goes on with the next task.
///
/// [`shutdown`](Self::shutdown) (or dropping the pool) stops new submissions,
/// runs everything already queued, including tasks those tasks spawn while
/// the pool drains, and joins the workers.
///
/// ```
/// use rt_baselines::GlobalQueuePool;
///
/// let pool = GlobalQueuePool::new(2)?;
/// let handles: Vec<_> = (0..4).map(|i| pool.spawn(move || i * i)).collect();
/// let squares: Vec<i32> = handles.into_iter().map(|h| h.join().unwrap()).collect();
/// assert_eq!(squares, [0, 1, 4, 9]);
/// pool.shutdown();
/// # Ok::<(), rt_baselines::BuildError>(())
/// ```
pub struct GlobalQueuePool {
    shared: Arc<Shared>,
    /// Taken and joined by the first `shutdown` outside the pool; holding the
    /// lock while joining makes a concurrent second `shutdown` wait too.
    workers: Mutex<Vec<thread::JoinHandle<()>>>,
    threads: usize,
}

/// What the workers and the submitters share.
struct Shared {
    state: Mutex<State>,
    /// Signalled once per push when a worker is idle, and to everyone on
    /// shutdown.
    work_available: Condvar,
}

struct State {
    /// One FIFO per priority, indexed by [`Priority::index`].
    queues: [VecDeque<Job>; Priority::COUNT],
    closed: bool,
    /// Workers that are waiting on `work_available` (or were woken and have
    /// not yet retaken the lock). While it is zero every worker will look at
    /// the queues again before sleeping, so a push need not notify anyone.
    idle: usize,
}

impl State {
    fn pop(&mut self) -> Option<Job> {
        Priority::ALL
            .iter()
            .find_map(|priority| self.queues[priority.index()].pop_front())
    }

    fn queued(&self) -> [usize; Priority::COUNT] {
        std::array::from_fn(|index| self.queues[index].len())
    }
}

impl Shared {
    fn lock(&self) -> MutexGuard<'_, State> {
        unpoison(self.state.lock())
    }

    fn key(&self) -> PoolId {
        key_of(self)
    }

    /// Refuses further outside submissions and wakes every worker, so that
    /// those with nothing left to do notice and exit.
    fn close(&self) {
        self.lock().closed = true;
        self.work_available.notify_all();
    }

    /// A worker's whole life: run queued tasks until the pool is closed and
    /// every queue is empty.
    fn work(&self) {
        membership::working_for(self.key(), || self.work_as_member());
    }

    fn work_as_member(&self) {
        let mut state = self.lock();
        loop {
            if let Some(job) = state.pop() {
                drop(state);
                // `run` catches a panicking body, so the worker survives it.
                job.run();
                state = self.lock();
            } else if state.closed {
                // Nobody outside can push any more, and a task of ours that
                // still pushes runs on a worker that has not reached this
                // point, which will find its child before it exits.
                return;
            } else {
                state.idle += 1;
                state = unpoison(self.work_available.wait(state));
                state.idle -= 1;
            }
        }
    }
}

impl GlobalQueuePool {
    /// Starts a pool with `threads` workers.
    ///
    /// Fails with [`BuildError::ZeroThreads`] for `0`, and with
    /// [`BuildError::Spawn`] when the OS refuses a thread; in that case the
    /// workers already started are shut down and joined first.
    ///
    /// ```
    /// use rt_baselines::GlobalQueuePool;
    /// use rt_baselines::BuildError;
    ///
    /// assert!(matches!(GlobalQueuePool::new(0), Err(BuildError::ZeroThreads)));
    /// let pool = GlobalQueuePool::new(3)?;
    /// assert_eq!(pool.threads(), 3);
    /// # Ok::<(), BuildError>(())
    /// ```
    pub fn new(threads: usize) -> Result<Self, BuildError> {
        if threads == 0 {
            return Err(BuildError::ZeroThreads);
        }
        let shared = Arc::new(Shared {
            state: Mutex::new(State {
                queues: [VecDeque::new(), VecDeque::new(), VecDeque::new()],
                closed: false,
                idle: 0,
            }),
            work_available: Condvar::new(),
        });
        let mut workers = Vec::with_capacity(threads);
        for index in 0..threads {
            let worker_shared = Arc::clone(&shared);
            let spawned = thread::Builder::new()
                .name(format!("global-queue-{index}"))
                .spawn(move || worker_shared.work());
            match spawned {
                Ok(handle) => workers.push(handle),
                Err(source) => {
                    shared.close();
                    join_all(&mut workers);
                    return Err(BuildError::Spawn { index, source });
                }
            }
        }
        Ok(Self {
            shared,
            workers: Mutex::new(workers),
            threads,
        })
    }

    /// The number of worker threads.
    ///
    /// ```
    /// use rt_baselines::GlobalQueuePool;
    ///
    /// assert_eq!(GlobalQueuePool::new(2)?.threads(), 2);
    /// # Ok::<(), rt_baselines::BuildError>(())
    /// ```
    pub fn threads(&self) -> usize {
        self.threads
    }

    rt_handle::inherent_spawn_methods!();

    /// Stops accepting new work, runs every task already queued (and every
    /// task those tasks spawn meanwhile), then joins the workers.
    ///
    /// Later submissions from outside the pool are refused: their handles
    /// report [`JoinError::Rejected`](rt_handle::JoinError::Rejected) at once.
    /// Idempotent; [`Drop`] calls it.
    ///
    /// Called from one of the pool's own tasks, it only starts the shutdown
    /// and returns without waiting, since a worker cannot join itself; the
    /// workers still drain the queues and exit on their own, and a later call
    /// from outside (or the drop of the pool) joins them.
    ///
    /// ```
    /// use rt_baselines::GlobalQueuePool;
    /// use rt_handle::JoinError;
    ///
    /// let pool = GlobalQueuePool::new(2)?;
    /// let queued = pool.spawn(|| 5);
    /// pool.shutdown();
    /// assert_eq!(queued.join(), Ok(5));
    /// assert_eq!(pool.spawn(|| 6).join(), Err(JoinError::Rejected));
    /// # Ok::<(), rt_baselines::BuildError>(())
    /// ```
    pub fn shutdown(&self) {
        self.shared.close();
        if membership::is_member(self.shared.key()) {
            return;
        }
        let mut workers = unpoison(self.workers.lock());
        join_all(&mut workers);
    }

    /// True once [`shutdown`](Self::shutdown) has begun.
    ///
    /// ```
    /// use rt_baselines::GlobalQueuePool;
    ///
    /// let pool = GlobalQueuePool::new(1)?;
    /// assert!(!pool.is_shutdown());
    /// pool.shutdown();
    /// assert!(pool.is_shutdown());
    /// # Ok::<(), rt_baselines::BuildError>(())
    /// ```
    pub fn is_shutdown(&self) -> bool {
        self.shared.lock().closed
    }
}

fn join_all(workers: &mut Vec<thread::JoinHandle<()>>) {
    for worker in workers.drain(..) {
        // A worker cannot panic: `Job::run` never unwinds, and the loop
        // around it does nothing that could. Were it to happen anyway, the
        // panic has already been reported, and re-raising it here (often
        // inside `Drop`) would only risk an abort.
        let _ = worker.join();
    }
}

impl Executor for GlobalQueuePool {
    fn submit(&self, priority: Priority, job: Job) -> Result<(), Job> {
        let mut state = self.shared.lock();
        if state.closed && !membership::is_member(self.shared.key()) {
            return Err(job);
        }
        state.queues[priority.index()].push_back(job);
        let wake = state.idle > 0;
        // Notify after unlocking, so the woken worker does not immediately
        // block on the lock we still hold.
        drop(state);
        if wake {
            self.shared.work_available.notify_one();
        }
        Ok(())
    }
}

impl Drop for GlobalQueuePool {
    fn drop(&mut self) {
        self.shutdown();
    }
}

impl fmt::Debug for GlobalQueuePool {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let state = self.shared.lock();
        f.debug_struct("GlobalQueuePool")
            .field("threads", &self.threads)
            .field("queued", &state.queued())
            .field("idle", &state.idle)
            .field("shut_down", &state.closed)
            .finish()
    }
}
