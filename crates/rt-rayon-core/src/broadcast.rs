//! Broadcasts (rayon's `broadcast` and `spawn_broadcast`): rt-core's.

use std::panic::{catch_unwind, AssertUnwindSafe};

use rt_core::BroadcastContext;

use crate::registry;

/// Runs `op` once on every thread of the current pool (the global one,
/// from a thread that is not a worker) and returns the results in thread
/// order (rayon's `broadcast`). A thread runs it when it next looks for
/// work, or while it waits inside a join or a scope; if `op` panics on
/// any thread, the panic resumes here once every thread ran it.
///
/// ```
/// let pool = rayon_core::ThreadPoolBuilder::new().num_threads(3).build().unwrap();
/// let indexes = pool.install(|| rayon_core::broadcast(|ctx| ctx.index()));
/// assert_eq!(indexes, [0, 1, 2]);
/// ```
pub fn broadcast<OP, R>(op: OP) -> Vec<R>
where
    OP: Fn(BroadcastContext<'_>) -> R + Sync,
    R: Send,
{
    rt_core::broadcast(op)
}

/// Runs `op` once on every thread of the current pool without waiting
/// (rayon's `spawn_broadcast`). A panic goes to the pool's panic handler,
/// as a [`spawn`](crate::spawn)'s does.
pub fn spawn_broadcast<OP>(op: OP)
where
    OP: Fn(BroadcastContext<'_>) + Send + Sync + 'static,
{
    rt_core::spawn_broadcast(guarded(op));
}

/// `op`, with its panics handed to the pool's panic handler.
pub(crate) fn guarded<OP>(op: OP) -> impl Fn(BroadcastContext<'_>) + Send + Sync + 'static
where
    OP: Fn(BroadcastContext<'_>) + Send + Sync + 'static,
{
    move |context| {
        if let Err(payload) = catch_unwind(AssertUnwindSafe(|| op(context))) {
            registry::handle_panic(payload);
        }
    }
}
