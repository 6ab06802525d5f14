//! The timer thread: sleeps until the earliest deadline, fires what is due,
//! one entry at a time, and exits after shutdown once the heap is empty.

use std::sync::Arc;
use std::time::Instant;

use crate::shared::Shared;
use rt_handle::executor_support::unpoison;

/// The body of the timer thread.
///
/// Each turn looks at the earliest entry under the lock:
///
/// * none: exit if shut down, else wait on `wake` with no timeout;
/// * cancelled: pop it and drop it (outside the lock);
/// * live, deadline not reached: wait on `wake` until the deadline (a new
///   earlier entry, a cancellation or shutdown rings `wake` sooner);
/// * live, `Instant::now() >= deadline`: pop it, release the lock, fire it.
///
/// A wake-up, timed out or not, only leads to another look: an entry is
/// popped for firing only after `Instant::now()` has reached its deadline,
/// so no callback ever starts early. Entries are popped one at a time so
/// that `stop` can cancel every entry that has not been popped yet.
pub(crate) fn run(shared: Arc<Shared>) {
    shared.register_timer_thread();
    let _terminate = TerminateOnExit(&shared);
    let mut state = shared.lock();
    loop {
        let Some(top) = state.heap.peek() else {
            if state.shutdown {
                drop(state); // before `_terminate` takes the lock
                return;
            }
            state = unpoison(shared.wake.wait(state));
            continue;
        };
        if !top.is_cancelled() {
            let now = Instant::now();
            if now < top.deadline {
                let timeout = top.deadline - now;
                state = unpoison(shared.wake.wait_timeout(state, timeout)).0;
                continue;
            }
        }
        let entry = state
            .heap
            .pop()
            .expect("the heap has the entry just peeked");
        drop(state);
        // Runs the callback, hands it to its executor, or (cancelled) only
        // drops it; never unwinds.
        entry.fire();
        state = shared.lock();
    }
}

/// Marks the scheduler terminated when the timer thread leaves `run`, by
/// returning or, were there a bug, by unwinding: waiters never hang.
struct TerminateOnExit<'a>(&'a Shared);

impl Drop for TerminateOnExit<'_> {
    fn drop(&mut self) {
        self.0.terminate();
    }
}
