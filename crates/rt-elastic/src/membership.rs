//! Which pool, if any, the current thread is a worker of.
//!
//! Two questions need it. A submission from a task of this pool is never
//! refused or blocked (see `State::decide`), and `shutdown` called on one of
//! the pool's own threads must not wait for that thread to exit. A
//! thread-local answers both without touching shared state.

use std::cell::Cell;
use std::sync::Arc;

use crate::shared::Shared;

/// The pool this thread works for and its index in it.
#[derive(Debug, Clone, Copy)]
struct Membership {
    /// The address of the pool's shared state: unique while the pool is
    /// alive, and the worker holds an `Arc` to it, so it is.
    pool: usize,
    index: usize,
    /// True while the worker runs its loop (hooks and tasks included),
    /// false while its `after_worker_stop` hook runs.
    working: bool,
}

thread_local! {
    static CURRENT: Cell<Option<Membership>> = const { Cell::new(None) };
}

fn key(shared: &Arc<Shared>) -> usize {
    Arc::as_ptr(shared).addr()
}

fn current() -> Option<Membership> {
    CURRENT.try_with(Cell::get).ok().flatten()
}

/// Marks the current thread as worker `index` of the pool; the mark is
/// removed when the guard drops, even by unwinding.
pub(crate) fn enter(shared: &Arc<Shared>, index: usize) -> Guard {
    CURRENT.with(|c| {
        c.set(Some(Membership {
            pool: key(shared),
            index,
            working: true,
        }))
    });
    Guard
}

/// The mark of a worker thread (see [`enter`]).
#[derive(Debug)]
pub(crate) struct Guard;

impl Guard {
    /// The worker left its loop: from now on it submits like any other
    /// thread (so after shutdown it is refused), but it is still one of the
    /// pool's threads.
    pub(crate) fn stop_working(&self) {
        let _ = CURRENT.try_with(|c| {
            if let Some(m) = c.get() {
                c.set(Some(Membership {
                    working: false,
                    ..m
                }));
            }
        });
    }
}

impl Drop for Guard {
    fn drop(&mut self) {
        let _ = CURRENT.try_with(|c| c.set(None));
    }
}

/// True when the current thread is a worker of this pool inside its loop.
pub(crate) fn is_working_for(shared: &Arc<Shared>) -> bool {
    current().is_some_and(|m| m.working && m.pool == key(shared))
}

/// True when the current thread is one of this pool's worker threads.
pub(crate) fn is_thread_of(shared: &Arc<Shared>) -> bool {
    current().is_some_and(|m| m.pool == key(shared))
}

/// The index of the elastic-pool worker the calling thread is, in whichever
/// pool it belongs to; `None` on any other thread (and in the
/// `after_worker_stop` hook, which runs after the worker left its loop).
///
/// ```
/// use rt_elastic::ElasticPool;
///
/// let pool = ElasticPool::builder().core_threads(1).build()?;
/// assert_eq!(rt_elastic::current_worker(), None);
/// assert_eq!(pool.spawn(rt_elastic::current_worker).join()?, Some(0));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn current_worker() -> Option<usize> {
    current().filter(|m| m.working).map(|m| m.index)
}
