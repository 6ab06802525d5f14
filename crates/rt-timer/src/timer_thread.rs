//! The timer thread: sleeps until the earliest deadline, fires what is due,
//! one entry at a time, and exits after shutdown once the heap is empty.

use std::cell::{Cell, RefCell};
use std::rc::Rc;
use std::sync::Arc;
use std::time::Instant;

use crate::shared::Shared;
use rt_handle::raw::{unpoison, ExecutorKind, JobControl, Joining, PoolId, TaskId};

/// What a wait means on a scheduler's timer thread: the join of a callback
/// of the same scheduler that only this thread can run panics ([`SelfWait`]);
/// every other wait blocks, as anywhere. Registered by each timer thread
/// when it starts.
static TIMER: ExecutorKind = ExecutorKind::new("rt-timer scheduler")
    .with_join(join_on_timer_thread)
    .with_can_help(is_timer_thread);

std::thread_local! {
    /// The guard of the timer thread this thread is (none on other
    /// threads): set by `run` for as long as it runs.
    static CURRENT: RefCell<Option<Rc<SelfWait>>> = const { RefCell::new(None) };
}

/// Resets the thread-local when `run` returns or unwinds.
struct Leave;

impl Drop for Leave {
    fn drop(&mut self) {
        let _ = CURRENT.try_with(|current| current.borrow_mut().take());
    }
}

/// The guard of the timer thread the calling thread is, if any.
fn current_guard() -> Option<Rc<SelfWait>> {
    CURRENT
        .try_with(|current| current.borrow().clone())
        .ok()
        .flatten()
}

/// The join of a task of the scheduler `owner`, on its timer thread.
fn join_on_timer_thread(owner: PoolId, joining: Joining<'_>) -> bool {
    match current_guard() {
        Some(guard) if PoolId::of(&guard.shared) == owner => {
            guard.join(joining);
            true
        }
        _ => false,
    }
}

/// The timer thread offers its waits help (a graph run from a callback
/// hands it work), as it did before this hook.
fn is_timer_thread() -> bool {
    current_guard().is_some()
}

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
///
/// The thread marks itself as its scheduler's timer thread ([`TIMER`]),
/// with a guard that refuses a join that could never return
/// ([`SelfWait`]).
pub(crate) fn run(shared: Arc<Shared>) {
    shared.register_timer_thread();
    TIMER.register();
    let _terminate = TerminateOnExit(&shared);
    let guard = Rc::new(SelfWait {
        shared: Arc::clone(&shared),
        firing: Cell::new(None),
    });
    // Declared after `_terminate`, so the guard's reference to the shared
    // state is let go before the scheduler is marked terminated.
    let _leave = Leave;
    let _ = CURRENT.try_with(|current| *current.borrow_mut() = Some(Rc::clone(&guard)));
    fire_until_done(&shared, &guard);
}

fn fire_until_done(shared: &Shared, guard: &SelfWait) {
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
        guard.firing.set(Some(entry.job.id()));
        entry.fire();
        guard.firing.set(None);
        state = shared.lock();
    }
}

/// What a blocking join on the timer thread meets: the join of a callback
/// of this scheduler that only this thread can run, which would wait for
/// ever, panics instead (as rt-core's self-join does); every other join
/// blocks as it would anywhere.
struct SelfWait {
    shared: Arc<Shared>,
    /// The entry being fired: a callback running here, or one being handed
    /// to its executor (whose `submit` might run it inline).
    firing: Cell<Option<TaskId>>,
}

impl SelfWait {
    /// Called (through [`TIMER`]) for a task this scheduler
    /// accepted, joined on its timer thread. Returning without the task
    /// finished makes the join block as usual: right for a callback already
    /// handed to its executor, which runs it.
    fn join(&self, joining: Joining<'_>) {
        let task = joining.task();
        if task.is_finished() {
            return;
        }
        let id = task.id();
        if self.firing.get() == Some(id) || self.shared.holds_live(id) {
            // Still in the heap (only this thread fires it) or running on
            // this thread below the join: it can never finish first.
            panic!(
                "ScheduledHandle::join (or JoinHandle::join) called on the timer thread for a \
                 callback of the same scheduler that has not run yet (or for the running \
                 callback itself): only the timer thread can run it, so it would wait for \
                 itself forever (join it from another thread, or from a callback given to an \
                 executor with `schedule_on`)"
            );
        }
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
