//! The state the scheduler, its handles and its timer thread share: one
//! mutex-guarded deadline heap and two condition variables.

use std::collections::BinaryHeap;
use std::sync::OnceLock;
use std::thread::{self, ThreadId};
use std::time::{Duration, Instant};

use rt_handle::raw::{unpoison, JobControl, PoolId, TaskId, Termination};
use rt_handle::Job;

use crate::entry::{Dispatch, Entry};
use crate::sync::{Condvar, Mutex, MutexGuard};

pub(crate) struct Shared {
    state: Mutex<State>,
    /// The timer thread waits here: until the earliest deadline, or without
    /// a timeout while the heap is empty. Rung for a new earliest entry, an
    /// earliest entry cancelled, `shutdown` and `stop`.
    pub(crate) wake: Condvar,
    /// Set when the timer thread has finished; `wait_termination` waits
    /// for it.
    terminated: Termination,
    /// Set by the timer thread when it starts; lets `shutdown` and `Drop`
    /// called from inside a callback avoid waiting for their own thread.
    timer_thread: OnceLock<ThreadId>,
}

pub(crate) struct State {
    pub(crate) heap: BinaryHeap<Entry>,
    next_seq: u64,
    pub(crate) shutdown: bool,
    /// Successful cancellations since the heap was last swept. An upper bound
    /// on the cancelled entries still in the heap (a callback cancelled on
    /// its executor counts, though it has left the heap), used only to decide
    /// when sweeping pays: cancelled entries far in the future would
    /// otherwise hold their memory until their deadline.
    cancelled_since_sweep: usize,
}

/// Fewer cancellations than this never trigger a sweep: for a small heap
/// the O(n) pass costs more than the memory it frees.
const MIN_SWEEP: usize = 64;

impl Shared {
    pub(crate) fn new() -> Self {
        Self {
            state: Mutex::new(State {
                heap: BinaryHeap::new(),
                next_seq: 0,
                shutdown: false,
                cancelled_since_sweep: 0,
            }),
            wake: Condvar::new(),
            terminated: Termination::new(),
            timer_thread: OnceLock::new(),
        }
    }

    pub(crate) fn lock(&self) -> MutexGuard<'_, State> {
        unpoison(self.state.lock())
    }

    /// Queues a job built from `f` by `make` to fire at `deadline`, or hands
    /// `f` back untouched if the scheduler is shut down. The job is built
    /// under the lock, after the check, so that a refusal can return `f`.
    pub(crate) fn push<F, R>(
        &self,
        deadline: Instant,
        dispatch: Dispatch,
        f: F,
        make: impl FnOnce(F) -> (Job, R),
    ) -> Result<R, F> {
        let mut state = self.lock();
        if state.shutdown {
            return Err(f);
        }
        let (job, made) = make(f);
        // A join of it on the timer thread then reaches the timer thread's
        // `TIMER` kind (`timer_thread.rs`), which refuses a wait that could
        // never end. An
        // executor it is handed to may record itself instead.
        // Its class is the target's business: the timer registers no
        // cancel listener, so the class recorded here is never read.
        job.set_owner(PoolId::of_state(self), rt_handle::Priority::Normal);
        let seq = state.next_seq;
        state.next_seq += 1;
        let entry = Entry {
            deadline,
            seq,
            job,
            dispatch,
        };
        // Only a new earliest entry changes how long the timer must sleep.
        let earliest = state.heap.peek().is_none_or(|top| entry.fires_before(top));
        state.heap.push(entry);
        drop(state);
        if earliest {
            self.wake.notify_one();
        }
        Ok(made)
    }

    /// Called after a handle cancelled its job. Sweeps cancelled entries out
    /// of the heap once they may be half of it (so memory follows the live
    /// entries, at amortised O(1) per cancellation). If the earliest entry
    /// is now a cancelled one, wakes the timer thread, which drops it at
    /// once instead of sleeping until its deadline (and, after `shutdown`,
    /// exits as soon as nothing live is left).
    pub(crate) fn note_cancelled(&self) {
        let mut state = self.lock();
        state.cancelled_since_sweep += 1;
        let swept = if state.cancelled_since_sweep >= MIN_SWEEP
            && state.cancelled_since_sweep * 2 >= state.heap.len()
        {
            state.cancelled_since_sweep = 0;
            let (cancelled, live): (Vec<Entry>, Vec<Entry>) = std::mem::take(&mut state.heap)
                .into_vec()
                .into_iter()
                .partition(Entry::is_cancelled);
            state.heap = BinaryHeap::from(live);
            cancelled
        } else {
            Vec::new()
        };
        let top_cancelled = state.heap.peek().is_some_and(Entry::is_cancelled);
        drop(state);
        if top_cancelled {
            self.wake.notify_one();
        }
        drop(swept); // outside the lock: a captured value's `Drop` may call back in
    }

    /// Closes the scheduler to new entries; accepted ones still fire.
    pub(crate) fn shutdown(&self) {
        self.lock().shutdown = true;
        self.wake.notify_one();
    }

    /// Closes the scheduler and cancels every entry still in the heap;
    /// returns how many this call cancelled (entries cancelled earlier
    /// through their handles are not counted again).
    pub(crate) fn stop(&self) -> usize {
        let entries = {
            let mut state = self.lock();
            state.shutdown = true;
            state.cancelled_since_sweep = 0;
            std::mem::take(&mut state.heap)
        };
        self.wake.notify_one();
        entries
            .into_iter()
            .map(Entry::cancel)
            .filter(|&c| c)
            .count()
    }

    /// Number of entries still waiting for their deadline, not counting
    /// cancelled ones.
    pub(crate) fn pending(&self) -> usize {
        self.lock()
            .heap
            .iter()
            .filter(|entry| !entry.is_cancelled())
            .count()
    }

    /// True when a live (not cancelled) entry for task `id` is still in the
    /// heap: it has not fired yet.
    pub(crate) fn holds_live(&self, id: TaskId) -> bool {
        self.lock()
            .heap
            .iter()
            .any(|entry| entry.job.id() == id && !entry.is_cancelled())
    }

    pub(crate) fn is_shutdown(&self) -> bool {
        self.lock().shutdown
    }

    pub(crate) fn is_terminated(&self) -> bool {
        self.terminated.is_set()
    }

    /// Marks the timer thread as finished and wakes every waiter. If it
    /// finished abnormally (a bug, not a callback: those are caught), the
    /// entries left are rejected rather than left waiting forever.
    pub(crate) fn terminate(&self) {
        let leftover = {
            let mut state = self.lock();
            state.shutdown = true;
            std::mem::take(&mut state.heap)
        };
        self.terminated.set();
        drop(leftover);
    }

    pub(crate) fn wait_termination(&self) {
        self.terminated.wait();
    }

    pub(crate) fn wait_termination_timeout(&self, timeout: Duration) -> bool {
        self.terminated.wait_timeout(timeout)
    }

    pub(crate) fn register_timer_thread(&self) {
        let _ = self.timer_thread.set(thread::current().id());
    }

    /// True on this scheduler's timer thread, i.e. inside one of its callbacks.
    pub(crate) fn on_timer_thread(&self) -> bool {
        self.timer_thread.get() == Some(&thread::current().id())
    }
}
