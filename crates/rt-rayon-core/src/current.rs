//! What the calling thread can ask about its pool, and yielding to it.

pub use rt_core::Yield;

/// The number of threads of the current pool (the global one, started if
/// need be, from a thread that is not a worker): rayon's
/// `current_num_threads`.
pub fn current_num_threads() -> usize {
    rt_core::current_num_threads()
}

/// The calling thread's index in its pool, if it is a worker; `None`
/// elsewhere (rayon's `current_thread_index`). A compensating thread (rt
/// starts one while every worker of a pool waits on another pool) has an
/// index from [`current_num_threads`] up.
pub fn current_thread_index() -> Option<usize> {
    rt_core::current_thread_index()
}

/// Whether the calling worker has tasks waiting in its own queue; `None`
/// on a thread that is not a worker (rayon's
/// `current_thread_has_pending_tasks`).
pub fn current_thread_has_pending_tasks() -> Option<bool> {
    rt_core::current_thread_has_pending_tasks()
}

/// The largest number of threads a pool can have
/// ([`rt_core::MAX_THREADS`]); a larger
/// [`num_threads`](crate::ThreadPoolBuilder::num_threads) is clamped to it.
pub fn max_num_threads() -> usize {
    rt_core::MAX_THREADS
}

/// On a worker, runs one other piece of pending work of its pool, if there
/// is one, then returns (rayon's `yield_now`); `None` elsewhere. See
/// [`rt_core::yield_now`] for what it may run.
pub fn yield_now() -> Option<Yield> {
    rt_core::yield_now()
}

/// [`yield_now`], looking only at the calling worker's own queue (rayon's
/// `yield_local`).
pub fn yield_local() -> Option<Yield> {
    rt_core::yield_local()
}
