//! A worker thread's life: its first task, the loop that takes queued tasks,
//! the keep-alive wait, and its exit.

use std::sync::Arc;
use std::time::Instant;

use rt_handle::executor_support::membership::Member;
use rt_handle::executor_support::unpoison;
use rt_handle::{Job, RunOutcome};

use crate::handoff::Handoff;
use crate::hooks::contain;
use crate::shared::{wake_capacity_waiters, Shared, ELASTIC};
use crate::state::State;
use crate::sync::MutexGuard;

/// The body of every worker thread. `handoff` carries the task that made
/// the pool start this worker, if one did (prestarted workers have none).
pub(crate) fn run(shared: Arc<Shared>, index: usize, handoff: Option<Arc<Handoff>>) {
    let member = Member::new(shared.pool_id(), &ELASTIC, index);
    member.enter(|| {
        shared.hook(&shared.hooks.before_worker_start, index);
        let first = handoff.map(|handoff| handoff.take());
        Worker {
            shared: &shared,
            index,
        }
        .work(first);
        // Outside the loop, a task the hook submits is an outside
        // submission: refused if the pool is shut down, rather than queued
        // for nobody; but the thread is still one of the pool's (a shutdown
        // called here must not wait for it).
        member.set_working(false);
        shared.hook(&shared.hooks.after_worker_stop, index);
    });
    shared.thread_finished();
}

struct Worker<'a> {
    shared: &'a Shared,
    index: usize,
}

impl Worker<'_> {
    /// Runs `first`, then queued tasks, until the pool is closed and the
    /// queue is empty, or until this worker may time out and has been idle
    /// for the keep-alive.
    fn work(&self, first: Option<Job>) {
        let shared = self.shared;
        let mut state = shared.lock();
        let mut task = first;
        // When this worker's keep-alive ends, counted from when it last
        // found nothing to do; `None` while it is busy.
        let mut idle_until: Option<Option<Instant>> = None;
        loop {
            if let Some(job) = task.take() {
                state = self.run(state, job);
                idle_until = None;
            }
            if let Some(job) = state.queue.pop() {
                shared.after_pop(&state);
                if !state.capacity_wakers.is_empty() {
                    wake_capacity_waiters(state);
                    state = shared.lock();
                }
                task = Some(job);
                continue;
            }
            if state.closed {
                break;
            }
            let deadline = *idle_until.get_or_insert_with(|| {
                // `None` (never) for a keep-alive too long to represent.
                Instant::now().checked_add(shared.config.keep_alive)
            });
            let timeout = match deadline {
                Some(deadline) if state.may_time_out(&shared.config) => {
                    let now = Instant::now();
                    if now >= deadline {
                        break;
                    }
                    Some(deadline - now)
                }
                _ => None,
            };
            state.idle += 1;
            state = match timeout {
                Some(timeout) => unpoison(shared.work.wait_timeout(state, timeout)).0,
                None => unpoison(shared.work.wait(state)),
            };
            state.idle -= 1;
        }
        state.live -= 1;
        shared.after_worker_change(&state);
        wake_capacity_waiters(state);
    }

    /// Runs `job` with the lock released and counts how it ended; after
    /// `stop`, cancels it instead.
    fn run<'s>(&'s self, mut state: MutexGuard<'s, State>, job: Job) -> MutexGuard<'s, State> {
        let shared = self.shared;
        if state.stopping {
            state.counts.cancelled += 1;
            drop(state);
            job.cancel();
            return shared.lock();
        }
        state.running += 1;
        drop(state);
        let outcome = self.run_unlocked(job);
        let mut state = shared.lock();
        state.running -= 1;
        state.counts.record(outcome);
        state
    }

    fn run_unlocked(&self, job: Job) -> RunOutcome {
        let (shared, index) = (self.shared, self.index);
        let hooks = &shared.hooks;
        shared.hook(&hooks.before_task, index);
        let outcome = match &hooks.panic_handler {
            None => job.run(),
            Some(handler) => job.run_reporting(|message| {
                if !contain(|| handler(index, message)) {
                    shared.count_hook_panic();
                }
            }),
        };
        shared.hook(&hooks.after_task, index);
        outcome
    }
}
