//! The fork-join calls the driver makes beyond a plain `rt_core::join`,
//! which adapters call directly.
//!
//! * [`join_context`] is `rt_core::join_context`: each half learns whether
//!   it runs on another thread than the caller (`FnContext::migrated`);
//! * [`current_num_threads`] is the worker count of the current runtime
//!   (of the global one off the pool);
//! * [`in_runtime`] runs an operation on a worker: directly on a worker,
//!   else on the global runtime;
//! * [`with_priority`] queues what an operation forks at a priority;
//! * [`checkpoint`] is what the driver calls between chunks of a
//!   sequential fold: the runtime may hand the oldest pending half of the
//!   current task to an idle worker, and runs queued work more urgent than
//!   the iterator's priority first.

pub(crate) use rt_core::{checkpoint, current_num_threads, join_context, with_priority};

use rt_core::{Priority, Runtime};

/// Runs `op` on a worker: right here on a worker, else on the global
/// runtime.
#[inline]
pub(crate) fn in_runtime<R: Send>(op: impl FnOnce() -> R + Send) -> R {
    if rt_core::current_thread_index().is_some() {
        op()
    } else {
        Runtime::global().install(op)
    }
}

/// [`with_priority`] for an operation that must stay on this thread: on a
/// worker `with_priority` runs `op` right here, so `op` need not be `Send`;
/// off the pool `op` runs directly, without a priority.
pub(crate) fn with_priority_here<R>(priority: Priority, op: impl FnOnce() -> R) -> R {
    if rt_core::current_thread_index().is_none() {
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

// SAFETY: a `StaysHere` is only handed to `rt_core::with_priority` on a
// worker, which runs the operation on the calling thread (its documented
// contract), so neither the operation nor its result crosses threads.
unsafe impl<T> Send for StaysHere<T> {}
