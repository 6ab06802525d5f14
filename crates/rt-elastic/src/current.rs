//! Which elastic-pool worker the calling thread is: this crate's one
//! thread-local, and what a wait means on such a worker (rt-handle's
//! [`ExecutorKind`], [`ELASTIC`]).
//!
//! A worker's frame lives in its thread's `worker::run` for as long as the
//! thread works for the pool. It answers: whether a submission comes from
//! the pool's own worker (accepted while the pool drains), whether
//! `shutdown` is called from one of its threads (which must not wait for
//! itself), [`current_worker`](crate::current_worker), and, for a join of a
//! task of the pool on the worker, how the worker helps: it runs the task
//! inline if it has not started (`worker.rs`, `InlineJoin`).

use std::cell::Cell;
use std::marker::PhantomData;
use std::ptr;

use rt_handle::raw::{ExecutorKind, Joining, PoolId, RunnerTag, TaskRef};

/// What a wait means on an elastic worker: a join of a task of its own
/// pool runs it inline if it has not started; a wait that could never end
/// (the task runs below the join) panics; every other wait blocks the
/// worker, as the pool is for work that blocks. Registered by each worker
/// thread before it runs anything.
pub(crate) static ELASTIC: ExecutorKind = ExecutorKind::new("rt-elastic pool")
    .with_join(join)
    .with_runs_here(runs_here)
    .with_can_help(can_help);

/// "This thread is worker `index` of pool `pool`", for as long as
/// [`enter`](Self::enter) runs.
pub(crate) struct Frame<'a> {
    pool: PoolId,
    index: usize,
    /// Recorded in the state word of every task this worker runs.
    tag: RunnerTag,
    /// False once the worker has left its loop but still runs on the
    /// pool's thread (its stop hook): it then submits like an outsider.
    working: Cell<bool>,
    /// Waits for a task of this pool that the join found unstarted.
    join: &'a dyn Fn(Joining<'_>),
    _not_send: PhantomData<*const ()>,
}

#[cfg(not(loom))]
std::thread_local! {
    /// The frame of the worker this thread is (null on other threads). The
    /// lifetime is erased: the frame is reachable only while its `enter`
    /// runs.
    static CURRENT: Cell<*const Frame<'static>> = const { Cell::new(ptr::null()) };
}

// Under loom, one per loom thread (loom's threads share OS threads).
#[cfg(loom)]
loom::thread_local! {
    static CURRENT: Cell<*const Frame<'static>> = Cell::new(ptr::null());
}

impl<'a> Frame<'a> {
    pub(crate) fn new(
        pool: PoolId,
        index: usize,
        tag: RunnerTag,
        join: &'a dyn Fn(Joining<'_>),
    ) -> Self {
        Self {
            pool,
            index,
            tag,
            working: Cell::new(true),
            join,
            _not_send: PhantomData,
        }
    }

    /// Runs `f` with the calling thread marked as this worker; the mark is
    /// removed when `f` returns or unwinds.
    pub(crate) fn enter<R>(&self, f: impl FnOnce() -> R) -> R {
        struct Leave(*const Frame<'static>);
        impl Drop for Leave {
            fn drop(&mut self) {
                let _ = CURRENT.try_with(|current| current.set(self.0));
            }
        }
        // Only the lifetime is erased: `Leave` puts the previous pointer
        // back before `self` can go away.
        let this = ptr::from_ref(self).cast::<Frame<'static>>();
        // `try_with` fails only while the thread's locals are destroyed;
        // `f` then runs without the mark.
        let Ok(previous) = CURRENT.try_with(|current| current.replace(this)) else {
            return f();
        };
        let _leave = Leave(previous);
        f()
    }

    /// Marks the worker as out of its loop.
    pub(crate) fn leave_loop(&self) {
        self.working.set(false);
    }
}

/// Calls `f` with the frame of the worker the calling thread is, if any.
fn with_frame<R>(f: impl FnOnce(Option<&Frame<'_>>) -> R) -> R {
    let current = CURRENT.try_with(Cell::get).unwrap_or(ptr::null());
    // SAFETY: a non-null pointer is the frame whose `enter` runs on this
    // thread (it resets the pointer before returning or unwinding), so it
    // is valid here; the reference does not escape `f`.
    f(unsafe { current.as_ref() })
}

/// True when the calling thread is a worker of `pool` inside its loop.
pub(crate) fn is_working_for(pool: PoolId) -> bool {
    with_frame(|frame| frame.is_some_and(|f| f.pool == pool && f.working.get()))
}

/// True when the calling thread is one of `pool`'s threads, inside its
/// loop or not.
pub(crate) fn is_thread_of(pool: PoolId) -> bool {
    with_frame(|frame| frame.is_some_and(|f| f.pool == pool))
}

/// The index of the worker the calling thread is, inside its loop.
pub(crate) fn index() -> Option<usize> {
    with_frame(|frame| frame.filter(|f| f.working.get()).map(|f| f.index))
}

/// The join of a task of the pool `owner`, on one of its workers in its
/// loop.
fn join(owner: PoolId, joining: Joining<'_>) -> bool {
    with_frame(|frame| match frame {
        Some(f) if f.pool == owner && f.working.get() => {
            (f.join)(joining);
            true
        }
        _ => false,
    })
}

/// A task runs on this worker while its state word carries this worker's
/// tag.
fn runs_here(owner: PoolId, task: TaskRef<'_>) -> bool {
    with_frame(|frame| frame.is_some_and(|f| f.pool == owner && task.runner() == Some(f.tag)))
}

/// A worker in its loop offers its joins help (as its waits did before
/// this hook: a graph run from it hands it work).
fn can_help() -> bool {
    with_frame(|frame| frame.is_some_and(|f| f.working.get()))
}
