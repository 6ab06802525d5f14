//! Everything about the pool that changes, behind its one mutex, and the
//! admission rule of the core/maximum executor.

use std::task::Waker;

use rt_handle::{Metrics, RunOutcome};

use crate::config::Config;
use crate::queue::PriorityQueue;
use crate::sync::thread::JoinHandle as ThreadHandle;

/// What to do with a task offered to the pool.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Decision {
    /// Start a new worker that runs this task first.
    Start,
    /// Append it to the queue (a live worker will take it).
    Queue,
    /// Accept it and cancel it at once: `stop` was called, and a task of
    /// this pool submitted it.
    Cancel,
    /// Refuse it: the pool is shut down.
    Shutdown,
    /// Refuse it for now: the queue is full and the pool is at its maximum.
    Saturated,
}

/// Task counters, updated under the pool's lock.
#[derive(Debug, Default, Clone, Copy)]
pub(crate) struct Counts {
    pub(crate) submitted: u64,
    pub(crate) completed: u64,
    pub(crate) panicked: u64,
    pub(crate) cancelled: u64,
}

impl Counts {
    /// The counters in the shape every executor reports them.
    pub(crate) fn metrics(&self, hook_panics: u64) -> Metrics {
        Metrics {
            submitted: self.submitted,
            completed: self.completed,
            panicked: self.panicked,
            cancelled: self.cancelled,
            hook_panics,
            ..Metrics::default()
        }
    }

    pub(crate) fn record(&mut self, outcome: RunOutcome) {
        match outcome {
            RunOutcome::Completed => self.completed += 1,
            RunOutcome::Panicked => self.panicked += 1,
            RunOutcome::Cancelled => self.cancelled += 1,
            // A stale queue entry: a worker that joined the task ran it
            // inline and counted it then.
            RunOutcome::Stale => {}
        }
    }
}

/// The pool's mutable state. Every field is read and written under
/// `Shared::state`; no user code ever runs while it is locked.
#[derive(Debug)]
pub(crate) struct State {
    pub(crate) queue: PriorityQueue,
    /// Workers that count toward the pool size: started (or being started)
    /// and not yet decided to exit.
    pub(crate) live: usize,
    /// Live workers waiting for work on `Shared::work`.
    pub(crate) idle: usize,
    /// Tasks running right now.
    pub(crate) running: usize,
    /// The most workers that were ever live at once.
    pub(crate) largest: usize,
    /// Worker threads reserved and not yet finished (their last hook run):
    /// `live` plus the workers that decided to exit but are still winding down.
    pub(crate) threads: usize,
    /// Threads reserved whose `std::thread::spawn` has not returned yet.
    pub(crate) starting: usize,
    /// The index the next worker gets: indexes are never reused.
    pub(crate) next_index: usize,
    /// Submitters blocked on `Shared::space` because the pool is saturated.
    pub(crate) blocked: usize,
    /// `stop` calls still cancelling the tasks they took off the queue.
    pub(crate) cancelling: usize,
    /// Set by `shutdown` and `stop`: no more submissions from outside.
    pub(crate) closed: bool,
    /// Set by `stop`: nothing more starts.
    pub(crate) stopping: bool,
    pub(crate) counts: Counts,
    /// Join handles of worker threads; finished ones are pruned as new
    /// workers start, the rest joined by `shutdown`.
    pub(crate) handles: Vec<ThreadHandle<()>>,
    /// Wakers of async submitters refused because the pool was saturated
    /// (`Executor::wake_when_capacity`), woken (after the lock is released)
    /// when a task leaves the queue, a worker leaves the pool, or the pool
    /// closes.
    pub(crate) capacity_wakers: Vec<Waker>,
}

impl State {
    pub(crate) fn new() -> Self {
        Self {
            queue: PriorityQueue::new(),
            live: 0,
            idle: 0,
            running: 0,
            largest: 0,
            threads: 0,
            starting: 0,
            next_index: 0,
            blocked: 0,
            cancelling: 0,
            closed: false,
            stopping: false,
            counts: Counts::default(),
            handles: Vec::new(),
            capacity_wakers: Vec::new(),
        }
    }

    /// The admission rule of the core/maximum executor, for a task offered
    /// by a worker of this pool (`member`) or by anyone else.
    ///
    /// 1. Below `core` workers (or with none at all), start a worker for it.
    /// 2. Otherwise queue it, if the queue has a free place.
    /// 3. Otherwise (the queue is full) start a worker for it, below `max`.
    /// 4. Otherwise the pool is saturated.
    ///
    /// A task submitted by a task of this pool is never refused (it is
    /// queued even past the bound), so tasks that spawn tasks cannot
    /// deadlock a saturated pool, and work spawned while the pool drains
    /// after `shutdown` is still run. `may_start` is false right after the
    /// OS refused a thread: then only the queue is considered.
    pub(crate) fn decide(&self, config: &Config, member: bool, may_start: bool) -> Decision {
        if self.closed {
            return match (member, self.stopping) {
                (false, _) => Decision::Shutdown,
                (true, true) => Decision::Cancel,
                (true, false) => Decision::Queue,
            };
        }
        if may_start && (self.live < config.core || self.live == 0) {
            return Decision::Start;
        }
        if self.live > 0 && (member || !config.is_full(self.queue.len())) {
            return Decision::Queue;
        }
        if may_start && self.live < config.max {
            return Decision::Start;
        }
        Decision::Saturated
    }

    /// Counts a new worker before its thread is started, and gives it its
    /// index.
    pub(crate) fn reserve_worker(&mut self) -> usize {
        self.live += 1;
        self.threads += 1;
        self.starting += 1;
        let index = self.next_index;
        self.next_index += 1;
        index
    }

    /// Whether a live worker that is idle may time out now: above `core`
    /// workers, or any worker with `core_timeout`.
    pub(crate) fn may_time_out(&self, config: &Config) -> bool {
        config.core_timeout || self.live > config.core
    }

    /// True once a shutdown or stop has finished: every worker thread has
    /// run its last hook, and every task taken off the queue by `stop` has
    /// been cancelled. Accepted tasks are never left in the queue then: a
    /// queued task always has a live worker that will take it.
    pub(crate) fn is_terminated(&self) -> bool {
        self.closed && self.threads == 0 && self.starting == 0 && self.cancelling == 0
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    fn config(core: usize, max: usize, capacity: Option<usize>) -> Config {
        Config {
            core,
            max,
            capacity,
            keep_alive: Duration::from_secs(1),
            core_timeout: false,
            thread_name: "t".into(),
            stack_size: None,
        }
    }

    fn queued(state: &mut State, n: usize) {
        for _ in 0..n {
            state
                .queue
                .push(rt_handle::Priority::Normal, rt_handle::Job::detached(|| {}));
        }
    }

    #[test]
    fn starts_workers_up_to_core_then_queues_then_grows_then_saturates() {
        let config = config(1, 2, Some(1));
        let mut state = State::new();
        assert_eq!(state.decide(&config, false, true), Decision::Start);
        state.reserve_worker();
        assert_eq!(state.decide(&config, false, true), Decision::Queue);
        queued(&mut state, 1);
        assert_eq!(state.decide(&config, false, true), Decision::Start);
        assert_eq!(state.decide(&config, false, false), Decision::Saturated);
        state.reserve_worker();
        assert_eq!(state.decide(&config, false, true), Decision::Saturated);
        assert_eq!(state.decide(&config, true, true), Decision::Queue);
        state.queue.drain();
    }

    #[test]
    fn an_unbounded_queue_never_grows_the_pool_past_core() {
        let config = config(1, 4, None);
        let mut state = State::new();
        state.reserve_worker();
        queued(&mut state, 100);
        assert_eq!(state.decide(&config, false, true), Decision::Queue);
        state.queue.drain();
    }

    #[test]
    fn a_pool_with_no_core_starts_one_worker_when_it_has_none() {
        let config = config(0, 2, None);
        let mut state = State::new();
        assert_eq!(state.decide(&config, false, true), Decision::Start);
        state.reserve_worker();
        assert_eq!(state.decide(&config, false, true), Decision::Queue);
    }

    #[test]
    fn after_close_only_members_are_accepted_and_after_stop_they_are_cancelled() {
        let config = config(1, 1, None);
        let mut state = State::new();
        state.reserve_worker();
        state.closed = true;
        assert_eq!(state.decide(&config, false, true), Decision::Shutdown);
        assert_eq!(state.decide(&config, true, true), Decision::Queue);
        state.stopping = true;
        assert_eq!(state.decide(&config, true, true), Decision::Cancel);
    }
}
