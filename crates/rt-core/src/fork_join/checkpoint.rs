//! `checkpoint`: where a long computation on a worker lets the runtime act
//! between two `join`s.

use crate::fork_join::join;
use crate::worker;

/// Lets the runtime act in the middle of a long computation on a worker:
/// a loop that runs for a while between two [`join`](crate::join())s
/// calls it now and then (rt-par's parallel iterators do, between chunks of
/// about 20 µs, at least one item each).
///
/// * If the running task has no `join` half where thieves can take it, its
///   oldest pending half is shared, as a `join` would share it.
/// * If a task more urgent than the running code is queued anywhere in the
///   runtime (a High task while a Normal task runs; a Normal or High task
///   inside [`with_priority`](crate::with_priority)`(Background, ..)`), one
///   such task runs here and now, before `checkpoint` returns. More urgent
///   work thus waits at most for the stretch between two checkpoints on
///   whichever worker reaches one first, not for the whole computation.
///   Tasks it spawns and does not join go to the runtime's queues, not to
///   the interrupted computation. Under a weighted priority policy
///   ([`PriorityPolicy::Weighted`](crate::PriorityPolicy)) the classes
///   share the workers by weight at task boundaries instead, and no task
///   runs here.
///
/// * Background work gives its CPU to the OS scheduler here if its worker
///   has not for 200 µs, so that threads outside the runtime get a CPU
///   (every `join` of Background work does the same).
///
/// Returns true if it ran a more urgent task. Off the pool, or in a
/// worker's hook, it does nothing and returns false.
///
/// A task run at a checkpoint interrupts the computation on the same
/// thread: it must not wait for that computation to finish (a `join` of
/// its handle would wait for itself, and panics as a self-join does).
///
/// ```
/// use rt_core::Priority;
///
/// let rt = rt_core::Runtime::new(1)?;
/// let urgent = std::sync::OnceLock::new();
/// let ran_urgent_first = rt.install(|| {
///     rt_core::with_priority(Priority::Background, || {
///         rt_core::scope(|s| {
///             // A High task, queued while a Background computation runs.
///             s.spawn_with_priority(Priority::High, || urgent.set(()).unwrap());
///             rt_core::checkpoint()
///         })
///     })
/// });
/// assert!(ran_urgent_first && urgent.get().is_some());
/// # Ok::<(), rt_core::BuildError>(())
/// ```
pub fn checkpoint() -> bool {
    worker::with_current(|worker| match worker {
        Some(worker) if worker.in_unit() => {
            join::offer_pending(worker);
            if worker.priority() == rt_queue::Priority::Background {
                worker.yield_cpu_if_due();
            }
            worker.run_more_urgent()
        }
        _ => false,
    })
}
