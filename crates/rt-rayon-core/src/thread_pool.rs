//! A pool of its own threads (rayon's `ThreadPool`): an rt-core runtime
//! and its registry.

use std::fmt;
use std::mem::ManuallyDrop;

use rt_core::{BroadcastContext, Runtime, Yield};

use crate::scope::{in_place_scope_fifo_on, scope, scope_fifo, Scope, ScopeFifo};
use crate::spawn::{spawn_fifo_on, spawn_on};

/// A pool of threads of its own, built by
/// [`ThreadPoolBuilder`](crate::ThreadPoolBuilder): an rt-core
/// [`Runtime`], with rt's scheduling and priorities (rayon's
/// `ThreadPool`). Dropping it lets its threads finish the work already
/// queued and exit, without waiting for them.
///
/// ```
/// let pool = rayon_core::ThreadPoolBuilder::new().num_threads(2).build().unwrap();
/// let (a, b) = pool.join(|| 1 + 1, || 2 + 2);
/// assert_eq!((a, b), (2, 4));
/// assert_eq!(pool.current_num_threads(), 2);
/// ```
pub struct ThreadPool {
    /// Handed to `shutdown_background` when the pool is dropped. The
    /// pool's registry lives in its workers' hooks and thread-locals.
    runtime: ManuallyDrop<Runtime>,
}

impl ThreadPool {
    pub(crate) fn from_runtime(runtime: Runtime) -> Self {
        Self {
            runtime: ManuallyDrop::new(runtime),
        }
    }

    /// The rt-core runtime this pool is: for rt's own API on it
    /// (priorities, metrics, traces).
    pub fn runtime(&self) -> &Runtime {
        &self.runtime
    }

    /// Runs `op` on one of the pool's threads and returns its result:
    /// inside `op`, [`join`](crate::join), [`scope`](crate::scope) and
    /// rayon's parallel iterators use this pool. Called on a thread of this
    /// pool, `op` runs right here. A panic of `op` resumes here.
    pub fn install<OP, R>(&self, op: OP) -> R
    where
        OP: FnOnce() -> R + Send,
        R: Send,
    {
        self.runtime.install(op)
    }

    /// Runs `op` once on every thread of the pool and returns the results
    /// in thread order (see [`broadcast`](crate::broadcast)).
    pub fn broadcast<OP, R>(&self, op: OP) -> Vec<R>
    where
        OP: Fn(BroadcastContext<'_>) -> R + Sync,
        R: Send,
    {
        self.runtime.broadcast(op)
    }

    /// The number of threads in the pool.
    pub fn current_num_threads(&self) -> usize {
        self.runtime.threads()
    }

    /// The calling thread's index in this pool, if it is one of its
    /// threads; `None` on any other thread.
    pub fn current_thread_index(&self) -> Option<usize> {
        self.runtime.current_thread_index()
    }

    /// Whether the calling thread, a thread of this pool, has tasks waiting
    /// in its own queue; `None` on any other thread.
    pub fn current_thread_has_pending_tasks(&self) -> Option<bool> {
        self.runtime.current_thread_has_pending_tasks()
    }

    /// [`join`](crate::join) on this pool.
    pub fn join<A, B, RA, RB>(&self, oper_a: A, oper_b: B) -> (RA, RB)
    where
        A: FnOnce() -> RA + Send,
        B: FnOnce() -> RB + Send,
        RA: Send,
        RB: Send,
    {
        self.install(|| crate::join(oper_a, oper_b))
    }

    /// [`scope`](crate::scope) on this pool: `op` runs on one of its threads.
    pub fn scope<'scope, OP, R>(&self, op: OP) -> R
    where
        OP: FnOnce(&Scope<'scope>) -> R + Send,
        R: Send,
    {
        self.install(|| scope(op))
    }

    /// [`scope_fifo`](crate::scope_fifo) on this pool.
    pub fn scope_fifo<'scope, OP, R>(&self, op: OP) -> R
    where
        OP: FnOnce(&ScopeFifo<'scope>) -> R + Send,
        R: Send,
    {
        self.install(|| scope_fifo(op))
    }

    /// A scope whose body runs on the calling thread and whose tasks run
    /// on this pool (see [`in_place_scope`](crate::in_place_scope)).
    pub fn in_place_scope<'scope, OP, R>(&self, op: OP) -> R
    where
        OP: FnOnce(&Scope<'scope>) -> R,
    {
        self.runtime.in_place_scope(|inner| op(&Scope::new(inner)))
    }

    /// [`in_place_scope_fifo`](crate::in_place_scope_fifo) on this pool.
    pub fn in_place_scope_fifo<'scope, OP, R>(&self, op: OP) -> R
    where
        OP: FnOnce(&ScopeFifo<'scope>) -> R,
    {
        in_place_scope_fifo_on(Some(&self.runtime), op)
    }

    /// Runs `op` on the pool without waiting for it (see
    /// [`spawn`](crate::spawn)).
    pub fn spawn<OP>(&self, op: OP)
    where
        OP: FnOnce() + Send + 'static,
    {
        spawn_on(&self.runtime, op);
    }

    /// Runs `op` on the pool without waiting for it, in FIFO order with the
    /// calling thread's other `spawn_fifo`s (see
    /// [`spawn_fifo`](crate::spawn_fifo)).
    pub fn spawn_fifo<OP>(&self, op: OP)
    where
        OP: FnOnce() + Send + 'static,
    {
        spawn_fifo_on(&self.runtime, op);
    }

    /// Runs `op` once on every thread of the pool without waiting (see
    /// [`spawn_broadcast`](crate::spawn_broadcast)).
    pub fn spawn_broadcast<OP>(&self, op: OP)
    where
        OP: Fn(BroadcastContext<'_>) + Send + Sync + 'static,
    {
        self.runtime.spawn_broadcast(crate::broadcast::guarded(op));
    }

    /// [`yield_now`](crate::yield_now), if called on a thread of this pool;
    /// `None` elsewhere.
    pub fn yield_now(&self) -> Option<Yield> {
        self.runtime.yield_now()
    }

    /// [`yield_local`](crate::yield_local), if called on a thread of this
    /// pool; `None` elsewhere.
    pub fn yield_local(&self) -> Option<Yield> {
        self.runtime.yield_local()
    }
}

impl Drop for ThreadPool {
    fn drop(&mut self) {
        // SAFETY: the runtime is taken once, here, and never used again.
        let runtime = unsafe { ManuallyDrop::take(&mut self.runtime) };
        runtime.shutdown_background();
    }
}

impl fmt::Debug for ThreadPool {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ThreadPool")
            .field("num_threads", &self.current_num_threads())
            .field("runtime", &*self.runtime)
            .finish()
    }
}
