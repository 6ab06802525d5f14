//! How work enters a runtime: the submission path, the gate that closes
//! at shutdown, the bound on queued external tasks, the count of workers
//! that exited, and the weak submission handle. Protocol and proof of the
//! gate: `SHUTDOWN.md`.
//!
//! A submission from a worker of the runtime (a task spawning a task, a
//! `join` sharing a half) goes to that worker's own deque and is always
//! accepted: it belongs to work accepted earlier. From any other thread it
//! passes the gate (and a bounded queue) onto the injector of its priority.
//! What is submitted becomes a queue entry only once accepted, so a refusal
//! hands the caller's own value back.

pub(crate) mod capacity;
pub(crate) mod exits;
pub(crate) mod submitter;

#[cfg(all(test, not(loom)))]
mod gate_tests;
#[cfg(all(test, loom))]
mod loom_shutdown;

use std::sync::Arc;

use rt_handle::raw::{JobControl, PoolId, Stamp, Wait};
use rt_handle::{Job, JoinHandle, RunOutcome, SubmitError};
use rt_queue::Priority;

use crate::fork_join::scope_inbox::InboxTask;
use crate::shared::gate::{self, after_leave, Submission};
use crate::shared::{ScopeWaiter, Shared};
use crate::worker::entry::TaskSpan;
use crate::worker::entry::{Entry, FrameRef};
use crate::worker::{bump, local};

/// Submits `payload` (a closure, a job) as a task of the runtime owning
/// `shared`, made into its queue entry by `make` once accepted: on a worker
/// of this runtime onto that worker's deque, from any other thread through
/// the gate (waiting for room in a bounded queue unless `wait` says not to)
/// onto the injector of `priority`. A refusal hands `payload` back.
#[inline]
pub(crate) fn submit_task<P>(
    shared: &Arc<Shared>,
    priority: Priority,
    payload: P,
    wait: Wait,
    make: impl FnOnce(P) -> Job,
) -> Result<(), SubmitError<P>> {
    rt_queue::path_step!();
    if let Some(worker) = local(shared) {
        worker.push(priority, task_entry(shared, make(payload)));
        return Ok(());
    }
    if let Err(refusal) = admit(shared, wait) {
        return Err(refusal.hand_back(payload));
    }
    let entry = task_entry(shared, make(payload));
    publish(shared, priority, Submission::Task, || {
        entry.set_owner(PoolId::of(shared), priority);
        shared.queues().push(priority, entry)
    });
    Ok(())
}

/// Spawns a job with its handle, blocking while a bounded queue is full; a
/// refused job completes its handle as `Rejected` at once.
#[inline]
pub(crate) fn spawn_job<T>(
    shared: &Arc<Shared>,
    priority: Priority,
    (job, handle): (Job, JoinHandle<T>),
) -> JoinHandle<T> {
    rt_queue::path_step!();
    if let Err(refused) = submit_task(shared, priority, job, Wait::Block, |job| job) {
        // Dropping the job rejects it: the handle says so.
        drop(refused.into_inner());
    }
    handle
}

/// Ends at once, without queueing it, a task whose token was cancelled
/// when it was spawned (`Runtime::spawn_cancellable`): the handle says
/// `Cancelled`, and the metrics count the task as submitted and cancelled,
/// in that order (see `metrics::snapshot`). From outside the pool the
/// counts are made while the submitter is inside the gate, as a push would
/// be, so that no shutdown ends between them (`SHUTDOWN.md`); a shut-down
/// runtime rejects the task instead, as any spawn.
pub(crate) fn cancel_at_spawn(shared: &Arc<Shared>, job: Job) {
    if let Some(worker) = local(shared) {
        bump(&worker.counters().spawned);
        // The token may have cancelled it meanwhile (it had no owner: the
        // token did not count it): cancelled either way, counted here.
        job.cancel();
        worker.count(RunOutcome::Cancelled);
        return;
    }
    if !gate::admit(shared.gate(), shared.idle()) {
        // Dropping the job rejects it.
        drop(job);
        return;
    }
    shared.gate().count_accepted();
    job.cancel();
    shared.off_workers().count(RunOutcome::Cancelled, 1);
    // Nothing was pushed: no doorbell; but a shutdown waiting for the gate
    // to be quiet hears of it.
    after_leave(shared.idle(), shared.gate().leave());
}

/// Submits a frame installed from outside the pool (`install`): through
/// the gate onto the injector of `priority`. Not a task: not counted.
pub(crate) fn submit_frame(
    shared: &Arc<Shared>,
    priority: Priority,
    frame: FrameRef,
    wait: Wait,
) -> Result<(), SubmitError<FrameRef>> {
    if let Err(refusal) = admit(shared, wait) {
        return Err(refusal.hand_back(frame));
    }
    publish(shared, priority, Submission::Frame, || {
        shared.queues().push(priority, Entry::Frame(frame))
    });
    Ok(())
}

/// A task's queue entry: the job, stamped with the time if submissions are
/// timed, and the `tracing` context it was spawned in. The entry's owner
/// (this runtime's identity and the class: `Entry::set_owner`) is recorded
/// by the push, after the task was counted as submitted.
#[inline]
fn task_entry(shared: &Arc<Shared>, job: Job) -> Entry {
    rt_queue::path_step!();
    // `observed` first: while nothing observes the runtime (no trace, no
    // latency histograms), one load, and nothing of `observe/` runs.
    if shared.observed() && shared.records_runs() {
        if let Some(stamp) = Stamp::new(shared.now_ns()) {
            job.set_stamp(stamp);
        }
    }
    Entry::Task(job, TaskSpan::here())
}

/// Submits a task of a scope (`scope.rs`). From a worker of this runtime it
/// goes to that worker's deque, as any spawn from inside. From any other
/// thread it passes the gate, as an external submission: if the scope's
/// waiter is a worker, into the scope inbox with a ticket on the injector,
/// so that any worker may run it and the waiter finds it
/// (`scope_inbox.rs`; `wake_waiter` unparks the waiter); if the waiter is
/// the thread that opened the scope outside the pool, onto the injector as
/// a task. A shut-down runtime hands the job back, for the spawner to run
/// at once.
pub(crate) fn submit_scoped(
    shared: &Arc<Shared>,
    priority: Priority,
    job: Job,
    waiter: ScopeWaiter,
    wake_waiter: impl FnOnce(),
) -> Result<(), Job> {
    if let Some(worker) = local(shared) {
        worker.push(priority, task_entry(shared, job));
        return Ok(());
    }
    if let Err(refusal) = admit(shared, Wait::Block) {
        return Err(refusal.hand_back(job).into_inner());
    }
    let Entry::Task(job, span) = task_entry(shared, job) else {
        unreachable!("a task's entry is a task");
    };
    match waiter {
        ScopeWaiter::Worker => {
            publish(shared, priority, Submission::Task, || {
                job.set_owner(PoolId::of(shared), priority);
                shared.scope_inbox().push(InboxTask {
                    priority,
                    job,
                    span,
                });
                shared.queues().push(priority, Entry::ScopeTicket);
            });
            wake_waiter();
        }
        ScopeWaiter::Thread => {
            publish(shared, priority, Submission::Task, || {
                job.set_owner(PoolId::of(shared), priority);
                shared.queues().push(priority, Entry::Task(job, span))
            });
        }
    }
    Ok(())
}

/// Publishes an admitted submission that `push` puts on the injector of
/// `priority` (`gate::publish`); the doorbell reads that injector's length
/// if it has to weigh a ring.
#[inline]
fn publish(shared: &Shared, priority: Priority, kind: Submission, push: impl FnOnce()) {
    rt_queue::path_step!();
    gate::publish(shared.gate(), shared.idle(), kind, push, || {
        shared.queues().injected(priority)
    });
}

/// Why an external submission was refused.
enum Refusal {
    /// The runtime is shut down.
    Shutdown,
    /// The bounded queue is full and the submitter would not wait.
    Saturated,
}

impl Refusal {
    /// The error that hands the submitter's value back.
    fn hand_back<P>(self, payload: P) -> SubmitError<P> {
        match self {
            Refusal::Shutdown => SubmitError::Shutdown(payload),
            Refusal::Saturated => SubmitError::Saturated(payload),
        }
    }
}

/// Passes the gate (and a bounded queue's check, waiting for room unless
/// `wait` says not to) for one external submission; once admitted, the
/// caller publishes it (`gate::publish`), which leaves the gate.
fn admit(shared: &Shared, wait: Wait) -> Result<(), Refusal> {
    rt_queue::path_step!();
    loop {
        if !gate::admit(shared.gate(), shared.idle()) {
            return Err(Refusal::Shutdown);
        }
        let Some(capacity) = shared.capacity() else {
            return Ok(());
        };
        if capacity.try_reserve() {
            return Ok(());
        }
        after_leave(shared.idle(), shared.gate().leave_refused());
        if wait == Wait::Never {
            return Err(Refusal::Saturated);
        }
        capacity.wait_for_space(|| shared.gate().is_closed());
    }
}
