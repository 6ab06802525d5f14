//! The global runtime, and the free functions that run on the runtime of
//! the worker they are called on, or on the global runtime everywhere else
//! (rayon's rules).
//!
//! The global runtime starts on first use (one worker per available CPU, or
//! what [`Builder::build_global`] configured before that), so a program
//! that never uses it pays nothing; it lives until the process exits.

use std::sync::{Arc, OnceLock};

use crate::BuildError;
use rt_handle::{Job, JoinHandle};
use rt_queue::Priority;

use crate::builder::Builder;
use crate::runtime::Runtime;
use crate::shared::Shared;
use crate::submit::spawn_job;
use crate::worker;
use crate::worker::thread::WorkerThread;

static GLOBAL: OnceLock<Runtime> = OnceLock::new();

impl Runtime {
    /// The global runtime, started now if this is its first use: one
    /// worker per available CPU (or as many as the environment variable
    /// `RAYON_NUM_THREADS` says, if it holds a positive number: the global
    /// runtime is rayon's global pool for rayon code run on rt, crate
    /// `rt-rayon-core`), unless [`Builder::build_global`] configured it
    /// before. It is what [`spawn`], [`join`](crate::join()),
    /// [`scope`](crate::scope()) and [`current_num_threads`] use off any
    /// runtime; take it for its [`stats`](Self::stats) or a trace.
    ///
    /// It lives until the process exits; its workers are never joined, so a
    /// task still running when `main` returns is simply stopped with the
    /// process. Calling [`shutdown`](Self::shutdown) on it is allowed and
    /// final: later `spawn`s report `Rejected`, and `join`/`scope` run on
    /// the caller.
    ///
    /// # Panics
    ///
    /// If the OS refuses to start its threads on first use.
    ///
    /// ```
    /// let squares = rt_core::spawn(|| (1..=10u64).map(|i| i * i).sum::<u64>());
    /// assert_eq!(squares.join(), Ok(385));
    /// assert!(rt_core::Runtime::global().metrics().submitted >= 1);
    /// ```
    pub fn global() -> &'static Runtime {
        rt_queue::path_step!();
        GLOBAL.get_or_init(|| {
            let mut builder = Builder::new();
            if let Some(threads) = threads_from_env() {
                builder = builder.threads(threads);
            }
            let runtime = builder.build().expect("failed to start the global runtime");
            runtime.shared.exits().detach();
            runtime
        })
    }
}

/// The worker count `RAYON_NUM_THREADS` asks of the global runtime started
/// on first use, if it holds a positive number: rayon's variable for its
/// global pool, which the global runtime is for rayon code that runs on rt
/// (crate `rt-rayon-core`), so that a program keeps its setting.
fn threads_from_env() -> Option<usize> {
    let value = std::env::var("RAYON_NUM_THREADS").ok()?;
    value.trim().parse().ok().filter(|&n| n > 0)
}

impl Builder {
    /// Builds this configuration as the global runtime ([`Runtime::global`])
    /// instead of returning it: call it at the start of `main`, before
    /// anything uses the global runtime.
    ///
    /// # Errors
    ///
    /// [`BuildError::GlobalAlreadyBuilt`] if the global runtime exists
    /// already (configured by an earlier call, or started by a first use);
    /// the errors of [`build`](Self::build) otherwise.
    ///
    /// ```
    /// # fn main() -> Result<(), rt_core::BuildError> {
    /// rt_core::Runtime::builder().threads(2).thread_name("global").build_global()?;
    /// assert_eq!(rt_core::current_num_threads(), 2);
    /// assert!(rt_core::Runtime::builder().build_global().is_err(), "only once");
    /// # Ok(()) }
    /// ```
    pub fn build_global(self) -> Result<(), BuildError> {
        self.build_global_with(WorkerThread::spawn)
    }

    /// [`build_global`](Self::build_global), starting the workers with
    /// `spawn` as [`build_with`](Self::build_with) does.
    ///
    /// # Errors
    ///
    /// Those of `build_global` and `build_with`.
    pub fn build_global_with<S>(self, spawn: S) -> Result<(), BuildError>
    where
        S: FnMut(WorkerThread) -> std::io::Result<()>,
    {
        if GLOBAL.get().is_some() {
            return Err(BuildError::GlobalAlreadyBuilt);
        }
        let runtime = self.build_with(spawn)?;
        runtime.shared.exits().detach();
        // Another thread may have won the race meanwhile: then ours is
        // dropped (shut down) and the call fails as a late one would.
        GLOBAL
            .set(runtime)
            .map_err(|_| BuildError::GlobalAlreadyBuilt)
    }
}

/// Calls `f` with the shared state of the runtime whose worker this thread
/// is, or of the global runtime.
fn with_current<R>(f: impl FnOnce(&Arc<Shared>) -> R) -> R {
    rt_queue::path_step!();
    worker::with_current(|worker| match worker {
        Some(worker) => f(worker.shared()),
        None => f(&Runtime::global().shared),
    })
}

/// Spawns `f` at [`Priority::Normal`] on the runtime of the worker this is
/// called on (onto that worker's own deque), or on the
/// [global runtime](Runtime::global) from any other thread: rayon's and
/// tokio's `spawn`. The handle delivers the result; if the runtime refuses
/// the task (it is shut down), the handle reports `Rejected` at once.
///
/// ```
/// let handle = rt_core::spawn(|| 6 * 7);
/// assert_eq!(handle.join(), Ok(42));
/// ```
pub fn spawn<F, T>(f: F) -> JoinHandle<T>
where
    F: FnOnce() -> T + Send + 'static,
    T: Send + 'static,
{
    rt_queue::path_step!();
    spawn_with_priority(Priority::Normal, f)
}

/// [`spawn`] at `priority`.
///
/// ```
/// use rt_core::Priority;
///
/// let urgent = rt_core::spawn_with_priority(Priority::High, || "first");
/// assert_eq!(urgent.join(), Ok("first"));
/// ```
pub fn spawn_with_priority<F, T>(priority: Priority, f: F) -> JoinHandle<T>
where
    F: FnOnce() -> T + Send + 'static,
    T: Send + 'static,
{
    rt_queue::path_step!();
    with_current(|shared| spawn_job(shared, priority, Job::new(f)))
}

/// The number of workers of the runtime this is called on, or of the
/// [global runtime](Runtime::global) (starting it) from any other thread:
/// rayon's `current_num_threads`. Compensating threads are not counted
/// (see [`Runtime::threads`]).
///
/// ```
/// let rt = rt_core::Runtime::new(3)?;
/// assert_eq!(rt.install(rt_core::current_num_threads), 3);
/// assert!(rt_core::current_num_threads() >= 1); // the global runtime's
/// # Ok::<(), rt_core::BuildError>(())
/// ```
pub fn current_num_threads() -> usize {
    with_current(|shared| shared.threads())
}

/// The priority of the code running on the calling worker: the class its
/// `join` halves and scope tasks are queued at (the class of the task it
/// runs in, or of the enclosing [`with_priority`](crate::with_priority));
/// [`Priority::Normal`] on a thread that is not a worker.
///
/// ```
/// use rt_core::Priority;
///
/// assert_eq!(rt_core::current_priority(), Priority::Normal);
/// let rt = rt_core::Runtime::new(1)?;
/// let inside = rt.install(|| rt_core::with_priority(Priority::Background, rt_core::current_priority));
/// assert_eq!(inside, Priority::Background);
/// # Ok::<(), rt_core::BuildError>(())
/// ```
pub fn current_priority() -> Priority {
    worker::with_current(|worker| worker.map_or(Priority::Normal, |w| w.priority()))
}

/// Whether the worker this is called on has tasks waiting in its own
/// deques, in whichever runtime it belongs to (rayon's
/// `current_thread_has_pending_tasks`); `None` on a thread that is not a
/// worker. A racy look: other workers may take them at any moment.
///
/// ```
/// assert_eq!(rt_core::current_thread_has_pending_tasks(), None);
/// let rt = rt_core::Runtime::new(1)?;
/// let pending = rt.install(|| {
///     let _queued = rt_core::spawn(|| ());
///     rt_core::current_thread_has_pending_tasks()
/// });
/// assert_eq!(pending, Some(true));
/// # Ok::<(), rt_core::BuildError>(())
/// ```
pub fn current_thread_has_pending_tasks() -> Option<bool> {
    worker::with_current(|worker| worker.map(|w| w.has_pending_tasks()))
}

/// The index of the worker this is called on, in its runtime; `None` on a
/// thread that is not a worker: rayon's `current_thread_index`. Indexes run
/// from 0 to [`current_num_threads`] − 1, and beyond for a compensating
/// thread (see [`Runtime`]'s docs). For the index among one given
/// runtime's workers only, see [`Runtime::current_thread_index`].
///
/// ```
/// assert_eq!(rt_core::current_thread_index(), None);
/// let rt = rt_core::Runtime::new(2)?;
/// assert!(rt.install(rt_core::current_thread_index).is_some_and(|i| i < 2));
/// let inside = rt.spawn(rt_core::current_thread_index).join().unwrap();
/// assert!(matches!(inside, Some(0) | Some(1)));
/// # Ok::<(), rt_core::BuildError>(())
/// ```
pub fn current_thread_index() -> Option<usize> {
    worker::current_index()
}
