//! The fork-join calls the driver makes, and nothing deeper: every other
//! module reaches the runtime through this one.
//!
//! `join_context`, `current_num_threads`, `Runtime::global` and
//! `with_priority` are being added to `rt-core`; until they land they are
//! shims here, written against exactly those names, so that switching to
//! the real ones changes this file alone:
//!
//! * [`join_context`] calls `rt_core::join` and tells each half whether it
//!   runs on another thread than the caller (compared by thread id);
//! * [`current_num_threads`] is the thread count of the current worker's
//!   runtime when that runtime was built here ([`count_workers`]: the
//!   global one, `ThreadPoolBuilder`'s), else the machine's available
//!   parallelism (the real one answers for any runtime, and
//!   `count_workers` can then return its builder unchanged);
//! * [`global`] is a runtime started on first use, with one worker per
//!   available core, and [`in_runtime`] runs an operation on a worker:
//!   directly on a worker, else on the global runtime;
//! * [`with_priority`] runs `op` directly: the shim cannot change the class
//!   the forked halves are queued at (the real one queues them at
//!   `priority`).
//!
//! [`offer_pending_work`] is what the driver calls between chunks of a
//! sequential fold: an empty `join`, which gives the runtime the chance to
//! hand the oldest pending half of the current task to an idle worker.

use std::cell::Cell;
use std::sync::OnceLock;
use std::thread;

use rt_core::{Priority, Runtime};

/// What a half of [`join_context`] learns about where it runs.
#[derive(Debug, Clone, Copy)]
pub(crate) struct FnContext {
    migrated: bool,
}

impl FnContext {
    /// Whether this half runs on another thread than the one that called
    /// [`join_context`] (it was stolen).
    #[inline]
    pub(crate) fn migrated(&self) -> bool {
        self.migrated
    }
}

/// `rt_core::join` whose halves learn whether they were stolen.
#[inline]
pub(crate) fn join_context<A, B, RA, RB>(a: A, b: B) -> (RA, RB)
where
    A: FnOnce(FnContext) -> RA + Send,
    B: FnOnce(FnContext) -> RB + Send,
    RA: Send,
    RB: Send,
{
    let caller = thread::current().id();
    rt_core::join(
        || a(FnContext { migrated: false }),
        move || {
            b(FnContext {
                migrated: thread::current().id() != caller,
            })
        },
    )
}

thread_local! {
    /// The thread count of this worker's runtime, if built by [`count_workers`].
    static WORKERS_OF_THIS_RUNTIME: Cell<Option<usize>> = const { Cell::new(None) };
}

/// The number of workers the current parallel operation can use.
pub(crate) fn current_num_threads() -> usize {
    static AVAILABLE: OnceLock<usize> = OnceLock::new();
    WORKERS_OF_THIS_RUNTIME.with(Cell::get).unwrap_or_else(|| {
        *AVAILABLE.get_or_init(|| thread::available_parallelism().map_or(1, |n| n.get()))
    })
}

/// Makes the workers of the runtime `builder` builds know its thread count
/// (`threads`), for [`current_num_threads`].
pub(crate) fn count_workers(builder: rt_core::Builder, threads: usize) -> rt_core::Builder {
    builder.before_worker_start(move |_| WORKERS_OF_THIS_RUNTIME.with(|t| t.set(Some(threads))))
}

/// The runtime that runs parallel iterators called outside any runtime.
pub(crate) fn global() -> &'static Runtime {
    static GLOBAL: OnceLock<Runtime> = OnceLock::new();
    GLOBAL.get_or_init(|| {
        let threads = current_num_threads();
        count_workers(Runtime::builder().threads(threads), threads)
            .thread_name("rt-par-global")
            .build()
            .expect("start the global runtime")
    })
}

/// Runs `op` on a worker: right here on a worker, else on the global
/// runtime.
#[inline]
pub(crate) fn in_runtime<R: Send>(op: impl FnOnce() -> R + Send) -> R {
    if rt_core::current_worker().is_some() {
        op()
    } else {
        global().install(op)
    }
}

/// Runs `op` so that the halves it forks are queued at `priority`.
pub(crate) fn with_priority<R: Send>(priority: Priority, op: impl FnOnce() -> R + Send) -> R {
    let _ = priority;
    in_runtime(op)
}

/// Gives an idle worker the chance to take pending work of this task.
#[inline]
pub(crate) fn offer_pending_work() {
    rt_core::join(|| (), || ());
}

/// [`with_priority`] for an operation that must stay on this thread: on a
/// worker `with_priority` runs `op` right here, so `op` need not be `Send`;
/// off the pool `op` runs directly, without a priority.
pub(crate) fn with_priority_here<R>(priority: Priority, op: impl FnOnce() -> R) -> R {
    if rt_core::current_worker().is_none() {
        return op();
    }
    let op = StaysHere(op);
    with_priority(priority, move || StaysHere(op.run())).0
}

/// A value that never leaves the thread that made it.
struct StaysHere<T>(T);

impl<R, F: FnOnce() -> R> StaysHere<F> {
    fn run(self) -> R {
        (self.0)()
    }
}

// SAFETY: a `StaysHere` is only handed to `with_priority` on a worker,
// which runs the operation on the calling thread (its contract), so
// neither the operation nor its result crosses threads.
unsafe impl<T> Send for StaysHere<T> {}
