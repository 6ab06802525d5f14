//! Scopes (rayon's `scope`, `scope_fifo`, `in_place_scope` and their
//! `Scope` and `ScopeFifo`): rt-core's scopes, whose spawned closures are
//! handed the scope, as rayon's are.
//!
//! A [`Scope`] is a reference to the rt-core scope it wraps, with its
//! lifetimes made the one `'scope` of rayon's signature. A
//! [`ScopeFifo`] also refers to a queue of its jobs in spawn order: each
//! `spawn_fifo` queues its job there and spawns one rt-core task that runs
//! the oldest job of that queue, so that whatever order the tasks run in
//! (newest first, on the worker that spawned them), the jobs run oldest
//! first, as rayon's do.

use std::fmt;
use std::marker::PhantomData;

use crossbeam_deque::{Injector, Steal};
use rt_core::{BroadcastContext, Runtime};

/// A scope in which tasks that borrow from outside it may be spawned, all
/// finished when the scope ends (rayon's `Scope`).
pub struct Scope<'scope> {
    inner: &'scope rt_core::Scope<'scope, 'scope>,
}

/// A scope whose spawned tasks start in the order they were spawned, as
/// far as one thread runs them (rayon's `ScopeFifo`).
pub struct ScopeFifo<'scope> {
    inner: &'scope rt_core::Scope<'scope, 'scope>,
    jobs: &'scope FifoJobs<'scope>,
}

/// A `ScopeFifo`'s jobs, in spawn order.
type FifoJobs<'scope> = Injector<Box<dyn FnOnce(&ScopeFifo<'scope>) + Send + 'scope>>;

/// Erases the lifetime of rt-core's scope reference to the `'scope` of
/// rayon's signature.
///
/// # Safety
///
/// The result must be used only while rt-core's scope runs, that is, by
/// the scope's body and by the tasks spawned in it, which rt-core's scope
/// waits for before it returns. [`Scope`] and [`ScopeFifo`] reach their
/// users only by reference, from that body and those tasks, and keep the
/// reference private.
unsafe fn extend<'s, 'scope>(
    inner: &'s rt_core::Scope<'s, 'scope>,
) -> &'scope rt_core::Scope<'scope, 'scope> {
    // SAFETY: only the lifetimes change; see the contract.
    unsafe { &*std::ptr::from_ref(inner).cast::<rt_core::Scope<'scope, 'scope>>() }
}

impl<'scope> Scope<'scope> {
    /// The rayon scope of rt-core's scope `inner`.
    pub(crate) fn new<'s>(inner: &'s rt_core::Scope<'s, 'scope>) -> Self {
        // SAFETY: the `Scope` reaches only the scope's body, by reference,
        // and is copied into its tasks (see `extend`).
        Self {
            inner: unsafe { extend(inner) },
        }
    }

    /// Spawns `body` into the scope: it runs on the pool (at the priority
    /// of the code that opened the scope), may borrow anything that
    /// outlives the scope, and has finished when the scope ends. A panic
    /// of `body` makes the scope panic once all its tasks have finished.
    pub fn spawn<BODY>(&self, body: BODY)
    where
        BODY: FnOnce(&Scope<'scope>) + Send + 'scope,
    {
        let inner = self.inner;
        inner.execute(move || body(&Scope { inner }));
    }

    /// Runs `body` once on every thread of the scope's pool, within the
    /// scope: the scope ends after every thread ran it.
    pub fn spawn_broadcast<BODY>(&self, body: BODY)
    where
        BODY: Fn(&Scope<'scope>, BroadcastContext<'_>) + Send + Sync + 'scope,
    {
        let inner = self.inner;
        // One task of the scope waits for the broadcast, on the pool.
        inner.execute(move || {
            rt_core::broadcast(|context| body(&Scope { inner }, context));
        });
    }
}

impl<'scope> ScopeFifo<'scope> {
    /// Spawns `body` into the scope, to start after the jobs this thread
    /// spawned into it before (see [`Scope::spawn`] for the rest).
    pub fn spawn_fifo<BODY>(&self, body: BODY)
    where
        BODY: FnOnce(&ScopeFifo<'scope>) + Send + 'scope,
    {
        self.jobs.push(Box::new(body));
        let (inner, jobs) = (self.inner, self.jobs);
        inner.execute(move || {
            let job = oldest(jobs).expect("every fifo task has a job queued before it");
            job(&ScopeFifo { inner, jobs });
        });
    }

    /// Runs `body` once on every thread of the scope's pool, within the
    /// scope.
    pub fn spawn_broadcast<BODY>(&self, body: BODY)
    where
        BODY: Fn(&ScopeFifo<'scope>, BroadcastContext<'_>) + Send + Sync + 'scope,
    {
        let (inner, jobs) = (self.inner, self.jobs);
        inner.execute(move || {
            rt_core::broadcast(|context| body(&ScopeFifo { inner, jobs }, context));
        });
    }
}

/// The oldest job of a FIFO queue, if any.
fn oldest<T>(queue: &Injector<T>) -> Option<T> {
    loop {
        match queue.steal() {
            Steal::Success(job) => return Some(job),
            Steal::Empty => return None,
            Steal::Retry => std::hint::spin_loop(),
        }
    }
}

/// Runs `op` on a worker: here if this thread is one, else on the global
/// pool, as rayon's `scope` does.
fn in_worker<OP, R>(op: OP) -> R
where
    OP: FnOnce() -> R + Send,
    R: Send,
{
    if rt_core::current_thread_index().is_some() {
        op()
    } else {
        Runtime::global().install(op)
    }
}

/// Creates a scope on the current pool (the global one, from a thread
/// that is not a worker): `op` runs on a worker of it, and every task
/// spawned into the scope has finished when this returns (rayon's
/// `scope`). A panic of `op`, or of a task, resumes here once every task
/// has finished.
///
/// ```
/// let mut left = 0;
/// let mut right = 0;
/// rayon_core::scope(|s| {
///     s.spawn(|_| left = (1..=50).sum());
///     s.spawn(|s| {
///         s.spawn(|_| right = (51..=100).sum()); // nested, same scope
///     });
/// });
/// assert_eq!(left + right, 5050);
/// ```
pub fn scope<'scope, OP, R>(op: OP) -> R
where
    OP: FnOnce(&Scope<'scope>) -> R + Send,
    R: Send,
{
    in_worker(|| rt_core::scope(|inner| op(&Scope::new(inner))))
}

/// [`scope`] whose `spawn_fifo`s start in spawn order (rayon's
/// `scope_fifo`).
pub fn scope_fifo<'scope, OP, R>(op: OP) -> R
where
    OP: FnOnce(&ScopeFifo<'scope>) -> R + Send,
    R: Send,
{
    in_worker(|| in_place_scope_fifo_on(None, op))
}

/// [`scope`] whose body runs right here, on the calling thread, and whose
/// tasks run on the current pool (the global one, from a thread that is
/// not a worker): the body may block on its tasks' progress (rayon's
/// `in_place_scope`).
pub fn in_place_scope<'scope, OP, R>(op: OP) -> R
where
    OP: FnOnce(&Scope<'scope>) -> R,
{
    rt_core::scope(|inner| op(&Scope::new(inner)))
}

/// [`in_place_scope`] whose `spawn_fifo`s start in spawn order (rayon's
/// `in_place_scope_fifo`).
pub fn in_place_scope_fifo<'scope, OP, R>(op: OP) -> R
where
    OP: FnOnce(&ScopeFifo<'scope>) -> R,
{
    in_place_scope_fifo_on(None, op)
}

/// A FIFO scope whose body runs here, on `runtime`, or on the current pool.
pub(crate) fn in_place_scope_fifo_on<'scope, OP, R>(runtime: Option<&Runtime>, op: OP) -> R
where
    OP: FnOnce(&ScopeFifo<'scope>) -> R,
{
    let jobs = FifoJobs::new();
    match runtime {
        Some(runtime) => runtime.in_place_scope(|inner| run_fifo(inner, &jobs, op)),
        None => rt_core::scope(|inner| run_fifo(inner, &jobs, op)),
    }
}

/// The body of a FIFO scope: `op`, handed the rayon scope of rt-core's
/// scope `inner` and of the queue `jobs`.
fn run_fifo<'s, 'scope, OP, R>(
    inner: &'s rt_core::Scope<'s, 'scope>,
    jobs: &FifoJobs<'scope>,
    op: OP,
) -> R
where
    OP: FnOnce(&ScopeFifo<'scope>) -> R,
{
    // Why this is sound: the queue lives in the frame of the call that opened the
    // scope, which outlives the scope's tasks (rt-core's scope returns
    // after every task finished), and the `ScopeFifo` reaches only the
    // body and the tasks (see `extend`).
    // SAFETY: the queue outlives every task of the scope (above).
    let (inner, jobs) = unsafe { (extend(inner), &*std::ptr::from_ref(jobs)) };
    op(&ScopeFifo { inner, jobs })
}

impl fmt::Debug for Scope<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Scope").field("inner", self.inner).finish()
    }
}

impl fmt::Debug for ScopeFifo<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ScopeFifo")
            .field("inner", self.inner)
            .field("queued", &self.jobs.len())
            .finish()
    }
}

/// Neither `Scope` nor `ScopeFifo` may lose its `'scope` (invariance comes
/// from rt-core's scope type; this only documents it).
const _: PhantomData<fn(&'static ()) -> &'static ()> = PhantomData;
