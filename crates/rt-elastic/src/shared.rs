//! The state every worker and every handle of one pool share, and the
//! operations on it: offering a task, starting a worker, closing, stopping,
//! waiting for the end.

use std::io;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::Arc;
use std::task::Waker;
use std::time::Duration;

use rt_handle::raw::Wait;
use rt_handle::raw::{drop_quietly, unpoison, Termination, ThreadSettings};
use rt_handle::raw::{Discarded, JobControl, PoolId};
use rt_handle::{Job, Priority, SubmitError};

use crate::config::Config;
use crate::current;
use crate::handoff::Handoff;
use crate::hooks::{self, Hooks, WorkerHook};
use crate::state::{Decision, State};
use crate::sync::{has_finished, thread, AtomicU64, Condvar, Mutex, MutexGuard, Ordering};

/// How long a blocked submitter waits before trying again to start a worker
/// the OS refused: it will not be told when threads become available.
const SPAWN_RETRY: Duration = Duration::from_millis(10);

/// Times a blocking submitter that finds the pool saturated yields and
/// looks again before it sleeps on `space`. A worker frees a place every
/// time it takes a task, so under a steady overload a place is usually free
/// again within a yield; sleeping at once would cost a futex wake-up and a
/// context switch per task (measured: about twice the cost per task with
/// 1,024 queue places on two cores).
const SATURATED_YIELDS: u32 = 8;

/// The body of a worker thread (`worker::run`), given to [`Shared::new`] by
/// the builder: this file starts worker threads but does not depend on the
/// worker's file, which depends on this one.
pub(crate) type WorkerMain = fn(Arc<Shared>, usize, Option<Arc<Handoff>>);

pub(crate) struct Shared {
    pub(crate) config: Config,
    pub(crate) hooks: Hooks,
    state: Mutex<State>,
    /// Idle workers wait here for a task (or for their keep-alive to end).
    pub(crate) work: Condvar,
    /// Submitters wait here while the pool is saturated.
    space: Condvar,
    /// Set once a shutdown or stop has finished.
    terminated: Termination,
    /// Hooks and panic-handler calls that panicked (each was caught).
    hook_panics: AtomicU64,
    /// What each worker thread runs.
    worker_main: WorkerMain,
}

impl Shared {
    pub(crate) fn new(config: Config, hooks: Hooks, worker_main: WorkerMain) -> Self {
        Self {
            config,
            hooks,
            state: Mutex::new(State::new()),
            work: Condvar::new(),
            space: Condvar::new(),
            terminated: Termination::new(),
            hook_panics: AtomicU64::new(0),
            worker_main,
        }
    }

    pub(crate) fn lock(&self) -> MutexGuard<'_, State> {
        unpoison(self.state.lock())
    }

    /// This pool's identity in its workers' frames and its tasks' owners.
    pub(crate) fn pool_id(self: &Arc<Self>) -> PoolId {
        PoolId::of(self)
    }

    /// Offers `payload` (a closure, or a job) to the pool. It is turned into
    /// a [`Job`] by `into_job` only once the pool has accepted it, so that a
    /// refusal can hand the caller's own value back.
    pub(crate) fn offer<P>(
        self: &Arc<Self>,
        priority: Priority,
        payload: P,
        into_job: impl FnOnce(P) -> Job,
        waiting: Wait,
    ) -> Result<(), SubmitError<P>> {
        let member = current::is_working_for(self.pool_id());
        let mut may_start = true;
        let mut yields = 0;
        let mut state = self.lock();
        loop {
            match state.decide(&self.config, member, may_start) {
                Decision::Queue => {
                    // Wrapping a closure only allocates: no user code runs
                    // under the lock.
                    let job = into_job(payload);
                    // A worker of this pool joining it may run it inline.
                    job.set_owner(self.pool_id(), priority);
                    state.queue.push(priority, job);
                    state.counts.submitted += 1;
                    let wake = state.idle > 0;
                    drop(state);
                    if wake {
                        self.work.notify_one();
                    }
                    return Ok(());
                }
                Decision::Start => {
                    let index = state.reserve_worker();
                    drop(state);
                    let handoff = Arc::new(Handoff::default());
                    if self.start_worker(index, Some(handoff.clone())).is_ok() {
                        // The new worker waits for this job. `into_job`
                        // (`Job::new`, `Job::detached` or the identity) only
                        // allocates, so it cannot fail to arrive.
                        let job = into_job(payload);
                        job.set_owner(self.pool_id(), priority);
                        handoff.put(job);
                        return Ok(());
                    }
                    // The OS refused the thread: try the queue alone.
                    may_start = false;
                    state = self.lock();
                }
                Decision::Cancel => {
                    state.counts.submitted += 1;
                    state.counts.cancelled += 1;
                    drop(state);
                    into_job(payload).cancel();
                    return Ok(());
                }
                Decision::Shutdown => return Err(SubmitError::Shutdown(payload)),
                Decision::Saturated => {
                    if waiting == Wait::Never {
                        return Err(SubmitError::Saturated(payload));
                    }
                    if yields < SATURATED_YIELDS {
                        yields += 1;
                        drop(state);
                        thread::yield_now();
                        state = self.lock();
                        continue;
                    }
                    state.blocked += 1;
                    state = if may_start {
                        unpoison(self.space.wait(state))
                    } else {
                        unpoison(self.space.wait_timeout(state, SPAWN_RETRY)).0
                    };
                    state.blocked -= 1;
                    may_start = true;
                }
            }
        }
    }

    /// Has `waker` woken once a submission refused as saturated may be
    /// accepted (a task left the queue, a worker left the pool, or the pool
    /// closed and a retry reports `Shutdown`); at once if the pool is not
    /// saturated now. Registered under the lock that every such change
    /// takes, so none is missed between a refusal and the registration.
    pub(crate) fn wake_when_capacity(self: &Arc<Self>, waker: &Waker) {
        let member = current::is_working_for(self.pool_id());
        let mut state = self.lock();
        if state.decide(&self.config, member, true) != Decision::Saturated {
            drop(state);
            waker.wake_by_ref();
        } else if !state.capacity_wakers.iter().any(|w| w.will_wake(waker)) {
            state.capacity_wakers.push(waker.clone());
        }
    }

    /// Starts the thread of worker `index`, reserved with
    /// [`State::reserve_worker`]. With a `handoff`, the worker runs the job
    /// put there first. On failure the reservation is undone.
    pub(crate) fn start_worker(
        self: &Arc<Self>,
        index: usize,
        handoff: Option<Arc<Handoff>>,
    ) -> io::Result<()> {
        let name = format!("{}-{index}", self.config.thread_name);
        let has_first_task = handoff.is_some();
        let shared = Arc::clone(self);
        let worker_main = self.worker_main;
        // Loom's `thread::Builder` under loom (`crate::sync`), so not
        // `ThreadSettings::builder`, which makes a std one.
        let spawned = ThreadSettings::new(name, self.config.stack_size).and_then(|settings| {
            let builder = thread::Builder::new().name(settings.name);
            match settings.stack_size {
                Some(bytes) => builder.stack_size(bytes),
                None => builder,
            }
            .spawn(move || worker_main(shared, index, handoff))
        });
        let mut state = self.lock();
        state.starting -= 1;
        let result = match spawned {
            Ok(handle) => {
                state.largest = state.largest.max(state.live);
                if has_first_task {
                    state.counts.submitted += 1;
                }
                state.handles.retain(|h| !has_finished(h));
                state.handles.push(handle);
                Ok(())
            }
            Err(error) => {
                state.live -= 1;
                state.threads -= 1;
                Err(error)
            }
        };
        self.after_worker_change(&state);
        wake_capacity_waiters(state);
        result
    }

    /// A worker left the pool (it exited, or never started): a blocked
    /// submitter may now start one, and a shutdown may be complete.
    pub(crate) fn after_worker_change(&self, state: &State) {
        if state.blocked > 0 {
            self.space.notify_one();
        }
        if state.is_terminated() {
            self.terminated.set();
        }
    }

    /// A task left the queue: one blocked submitter may now have room.
    pub(crate) fn after_pop(&self, state: &State) {
        if state.blocked > 0 {
            self.space.notify_one();
        }
    }

    /// The last thing a worker thread does.
    pub(crate) fn thread_finished(&self) {
        let mut state = self.lock();
        state.threads -= 1;
        self.after_worker_change(&state);
    }

    /// Refuses further submissions from outside and wakes every idle worker
    /// (to drain and exit) and every blocked submitter (to give up).
    pub(crate) fn close(&self) {
        let mut state = self.lock();
        state.closed = true;
        self.wake_everyone(&state);
        wake_capacity_waiters(state);
    }

    /// Closes the pool and cancels every queued task; returns how many.
    ///
    /// A queued entry whose task a joiner already ran inline is not
    /// counted (the joiner counted the task).
    pub(crate) fn stop(&self) -> usize {
        let mut state = self.lock();
        state.closed = true;
        state.stopping = true;
        let jobs = state.queue.drain();
        state.cancelling += 1;
        self.wake_everyone(&state);
        wake_capacity_waiters(state);
        // Cancelling drops each closure, which runs user code: not under
        // the lock. `discard` says who ended the task: this call, its
        // handle earlier (counted in the metrics as the entry's end, not
        // in this call's return), or a joiner that ran it inline (counted
        // by the joiner).
        let (mut cancelled, mut counted) = (0, 0);
        for job in jobs {
            match job.discard() {
                Discarded::Cancelled => cancelled += 1,
                Discarded::AlreadyCancelled => counted += 1,
                Discarded::Stale => {}
            }
        }
        let mut state = self.lock();
        state.counts.cancelled += (cancelled + counted) as u64;
        state.cancelling -= 1;
        self.after_worker_change(&state);
        cancelled
    }

    fn wake_everyone(&self, state: &State) {
        self.work.notify_all();
        self.space.notify_all();
        if state.is_terminated() {
            self.terminated.set();
        }
    }

    pub(crate) fn wait_termination(&self) {
        self.terminated.wait();
    }

    pub(crate) fn wait_termination_timeout(&self, timeout: Duration) -> bool {
        self.terminated.wait_timeout(timeout)
    }

    /// Runs a hook for worker `index`, counting a panic in it.
    pub(crate) fn hook(&self, hook: &Option<WorkerHook>, index: usize) {
        if !hooks::call(hook, index) {
            self.count_hook_panic();
        }
    }

    pub(crate) fn count_hook_panic(&self) {
        self.hook_panics.fetch_add(1, Ordering::Relaxed);
    }

    pub(crate) fn hook_panics(&self) -> u64 {
        self.hook_panics.load(Ordering::Relaxed)
    }
}

/// Takes the wakers of the async submitters waiting for room, releases the
/// lock, then wakes them: a place may be free (or the pool closed). Each
/// inside `catch_unwind`: a waker is the async runtime's code, and this may
/// run on a worker.
pub(crate) fn wake_capacity_waiters(mut state: MutexGuard<'_, State>) {
    let wakers = std::mem::take(&mut state.capacity_wakers);
    drop(state);
    for waker in wakers {
        drop_quietly(catch_unwind(AssertUnwindSafe(|| waker.wake())));
    }
}
