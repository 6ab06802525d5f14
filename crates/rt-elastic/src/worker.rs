//! A worker thread's life: its first task, the loop that takes queued tasks,
//! the keep-alive wait, and its exit.

use std::sync::Arc;
use std::time::Instant;

use rt_handle::raw::{unpoison, JobControl, Joining, RunnerTag};
use rt_handle::{Job, RunOutcome};

use crate::current::{Frame, ELASTIC};
use crate::handoff::Handoff;
use crate::hooks::contain;
use crate::shared::{wake_capacity_waiters, Shared};
use crate::state::State;
use crate::sync::MutexGuard;

/// The body of every worker thread. `handoff` carries the task that made
/// the pool start this worker, if one did (prestarted workers have none).
pub(crate) fn run(shared: Arc<Shared>, index: usize, handoff: Option<Arc<Handoff>>) {
    // Unique among the pool's workers (indexes only grow), the tag marks the
    // tasks this worker runs, for a join that must not wait for a task
    // below it.
    let tag = RunnerTag::new(index + 1).expect("worker indexes fit a runner tag");
    let joiner = InlineJoin {
        shared: &shared,
        tag,
    };
    // Before anything on this thread can wait through it.
    ELASTIC.register();
    let join = |joining: Joining<'_>| joiner.join(joining);
    let frame = Frame::new(shared.pool_id(), index, tag, &join);
    frame.enter(|| {
        shared.hook(&shared.hooks.before_worker_start, index);
        let first = handoff.map(|handoff| handoff.take());
        Worker {
            shared: &shared,
            index,
            tag,
        }
        .work(first);
        // Outside the loop, a task the hook submits is an outside
        // submission: refused if the pool is shut down, rather than queued
        // for nobody; but the thread is still one of the pool's (a shutdown
        // called here must not wait for it).
        frame.leave_loop();
        shared.hook(&shared.hooks.after_worker_stop, index);
    });
    shared.thread_finished();
}

struct Worker<'a> {
    shared: &'a Shared,
    index: usize,
    /// Recorded in the state word of every task this worker runs.
    tag: RunnerTag,
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
            drop(state);
            // `Cancelled`, or `Stale` if a joiner ran the task inline.
            let outcome = job.discard().outcome();
            let mut state = shared.lock();
            state.counts.record(outcome);
            return state;
        }
        state.running += 1;
        drop(state);
        // A stale entry (a joiner ran the task inline) returns `Stale`,
        // which counts nothing.
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
            None => job.run_as(Some(self.tag), |_| {}, None),
            Some(handler) => job.run_as(
                Some(self.tag),
                |message| {
                    if !contain(|| handler(index, message)) {
                        shared.count_hook_panic();
                    }
                },
                None,
            ),
        };
        shared.hook(&hooks.after_task, index);
        outcome
    }
}

/// How a blocking join on an elastic worker helps: a task of this pool that
/// has not started runs at once, inline, on the joining worker (as on
/// rt-core's workers), instead of the worker blocking for a task that may
/// be queued behind it with no other worker to take it (a task that spawns
/// a task and joins it, on a pool of one worker). Reached through the
/// worker's frame (`current.rs`, [`ELASTIC`]) for a task whose owner is
/// this pool.
struct InlineJoin<'a> {
    shared: &'a Shared,
    /// Recorded in the state word of a task this worker runs inline.
    tag: RunnerTag,
}

impl InlineJoin<'_> {
    /// Runs `task` here if it has not started, and counts it (its queue
    /// entry, when taken, is then `Stale`). A task that already runs on
    /// another worker is left to it: the join then blocks as usual. After
    /// `stop` nothing more starts: the task is cancelled instead, and its
    /// queue entry counts it.
    fn join(&self, joining: Joining<'_>) {
        let task = joining.task();
        if task.is_finished() {
            return;
        }
        if self.shared.lock().stopping {
            task.cancel();
            return;
        }
        // The task runs nested inside the joining task, and inside its
        // `before_task`/`after_task` hooks: it gets none of its own (as on
        // rt-core). It has a handle (it is being joined), so a panic goes
        // to the handle, not to the panic handler.
        if let Some(outcome) = task.run_inline(self.tag, None) {
            self.shared.lock().counts.record(outcome);
        }
    }
}
