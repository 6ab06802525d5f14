//! Tasks nobody waits for (rayon's `spawn` and `spawn_fifo`): rt-core
//! tasks whose handles are dropped, their panics caught where they run and
//! handed to the pool's panic handler.
//!
//! `spawn_fifo` on a worker keeps the worker's FIFO jobs in a queue of the
//! thread's own, oldest first, and spawns one task per job that runs the
//! oldest job of that queue: the tasks run newest first, the jobs oldest
//! first (rayon's mechanism). From any other thread a spawn goes through
//! the pool's injector, which is FIFO already.

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::Arc;

use crossbeam_deque::{Injector, Steal};
use rt_core::{JoinHandle, Runtime, TaskStatus};

use crate::registry;

/// A job of `spawn_fifo`, waiting in its thread's queue.
type FifoJob = Box<dyn FnOnce() + Send>;

std::thread_local! {
    /// The calling worker's FIFO jobs, oldest first: shared with the
    /// tasks that run them, wherever they are stolen to.
    static FIFO: Arc<Injector<FifoJob>> = Arc::new(Injector::new());
}

/// Runs `func` on the current pool (the global one, from a thread that is
/// not a worker) without waiting for it (rayon's `spawn`). Spawned on a
/// worker, it goes onto that worker's own queue, where the worker takes it
/// newest first and idle workers steal it; it is queued at the priority of
/// the code that spawns it ([`rt_core::current_priority`]).
///
/// A panic of `func` goes to the pool's panic handler
/// ([`ThreadPoolBuilder::panic_handler`](crate::ThreadPoolBuilder::panic_handler));
/// with none, the process aborts, as rayon documents.
///
/// # Panics
///
/// If the pool is shut down (only rt's global runtime can be, through
/// rt's own API): the job would never run.
pub fn spawn<F>(func: F)
where
    F: FnOnce() + Send + 'static,
{
    accepted(rt_core::spawn_with_priority(
        rt_core::current_priority(),
        move || run(func),
    ));
}

/// [`spawn`] onto `runtime`.
pub(crate) fn spawn_on<F>(runtime: &Runtime, func: F)
where
    F: FnOnce() + Send + 'static,
{
    accepted(runtime.spawn_with_priority(rt_core::current_priority(), move || run(func)));
}

/// Runs `func` on the current pool without waiting for it, starting after
/// the jobs this thread `spawn_fifo`ed before, as far as one thread runs
/// them (rayon's `spawn_fifo`); otherwise as [`spawn`].
///
/// # Panics
///
/// As [`spawn`].
pub fn spawn_fifo<F>(func: F)
where
    F: FnOnce() + Send + 'static,
{
    if rt_core::current_thread_index().is_some() {
        let fifo = queue(func);
        spawn(move || run_oldest(&fifo));
    } else {
        spawn(func);
    }
}

/// [`spawn_fifo`] onto `runtime`: through the calling worker's queue if it
/// is one of `runtime`'s, else through `runtime`'s injector.
pub(crate) fn spawn_fifo_on<F>(runtime: &Runtime, func: F)
where
    F: FnOnce() + Send + 'static,
{
    if runtime.current_thread_index().is_some() {
        let fifo = queue(func);
        spawn_on(runtime, move || run_oldest(&fifo));
    } else {
        spawn_on(runtime, func);
    }
}

/// Queues `func` on the calling thread's FIFO queue, which it returns.
fn queue<F>(func: F) -> Arc<Injector<FifoJob>>
where
    F: FnOnce() + Send + 'static,
{
    let fifo = FIFO.with(Arc::clone);
    fifo.push(Box::new(func));
    fifo
}

/// Runs the oldest job of `fifo`: there is one for every task that runs
/// this, since each was queued before its task was spawned.
fn run_oldest(fifo: &Injector<FifoJob>) {
    let job = loop {
        match fifo.steal() {
            Steal::Success(job) => break job,
            Steal::Retry => std::hint::spin_loop(),
            Steal::Empty => unreachable!("every fifo task has a job queued before it"),
        }
    };
    job();
}

/// Runs a job nobody waits for: its panic goes to the pool's handler.
fn run<F: FnOnce()>(func: F) {
    if let Err(payload) = catch_unwind(AssertUnwindSafe(func)) {
        registry::handle_panic(payload);
    }
}

/// A spawn the pool refused would never run: say so rather than drop it.
fn accepted(handle: JoinHandle<()>) {
    assert!(
        handle.status() != TaskStatus::Rejected,
        "rayon-core (rt): spawn on a pool that is shut down; the job would never run"
    );
}
