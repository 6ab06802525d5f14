//! How a worker gets its next task: scan, search for a while, then sleep on
//! the doorbell until rung. Written once, over a [`WorkSource`], so that the
//! runtime's workers and the loom models run the very same loop (the models
//! replace the queues, which loom cannot run, by counts).

use crate::idle::{IdleSignal, Wake};

/// Rounds of busy-waiting (with growing pauses) after a scan finds nothing,
/// before yielding: work that arrives within a few microseconds is picked up
/// without the cost of parking and being woken. Under loom each extra round
/// is only more interleavings of the same scan, so there is none.
#[cfg(not(loom))]
const SPIN_ROUNDS: u32 = 8;
#[cfg(loom)]
const SPIN_ROUNDS: u32 = 0;
/// Rounds of `yield_now` after spinning and before parking. Yielding lets a
/// submitting thread that shares our core run and push more work.
#[cfg(not(loom))]
const YIELD_ROUNDS: u32 = 4;
#[cfg(loom)]
const YIELD_ROUNDS: u32 = 1;

/// What the loop needs from its surroundings.
pub(crate) trait WorkSource {
    /// A task taken from a queue.
    type Task;

    /// Takes the next task, if any queue has one.
    fn find(&self) -> Option<Self::Task>;

    /// Whether some queue holds a task right now (takes nothing): the
    /// re-check after registering as idle.
    fn sees_work(&self) -> bool;

    /// Whether the runtime is shut down with no submission in flight, so
    /// that an idle worker may exit once every worker is idle.
    fn may_exit(&self) -> bool;

    /// The worker stopped searching and is about to sleep: time to give
    /// back what it keeps only while busy (recycled task cells).
    fn going_idle(&self) {}
}

/// Whether the worker asking for its next task is already counted in the
/// doorbell's `searching`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Counted {
    /// Not yet: it scans once before it counts itself.
    No,
    /// Yes: a compensating worker just started, counted as searching by
    /// the wait that made it live (`IdleSignal::begin_wait`).
    AsSearching,
}

/// Returns worker `me`'s next task from `source`, searching and then
/// sleeping while there is none; `None` once the runtime has terminated
/// (shut down, drained, every worker idle). Protocol: `IDLE_SIGNAL.md`.
pub(crate) fn next_task<S: WorkSource>(
    idle: &IdleSignal,
    me: usize,
    source: &S,
    counted: Counted,
) -> Option<S::Task> {
    if counted == Counted::No {
        if let Some(task) = source.find() {
            return Some(task);
        }
        idle.start_searching();
    }
    // Searching: spin, yield, then sleep until rung; every way out of this
    // loop with a task goes through `found_work`.
    loop {
        if let Some(task) = search(source) {
            idle.found_work();
            return Some(task);
        }
        idle.stop_searching();
        source.going_idle();
        // Register, then re-check the gate and the queues, and only then
        // park.
        idle.register(me);
        let may_exit = source.may_exit();
        if source.sees_work() {
            idle.unregister(me);
            continue;
        }
        if may_exit && idle.try_terminate() {
            return None;
        }
        if idle.sleep(me) == Wake::Terminated {
            return None;
        }
    }
}

/// Scans, spinning and then yielding for a short while before giving up.
#[inline]
#[cfg_attr(loom, allow(clippy::absurd_extreme_comparisons))] // no spin rounds under loom
fn search<S: WorkSource>(source: &S) -> Option<S::Task> {
    for round in 0..SPIN_ROUNDS + YIELD_ROUNDS {
        if let Some(found) = source.find() {
            return Some(found);
        }
        if round < SPIN_ROUNDS {
            for _ in 0..(1u32 << round) {
                std::hint::spin_loop();
            }
        } else {
            crate::sync::yield_now();
        }
    }
    None
}
