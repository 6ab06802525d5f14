//! How work enters a runtime: the one submission path ([`submit`]), the
//! gate that closes at shutdown, the bound on queued external tasks, the
//! count of workers that exited, and the weak submission handle. Protocol
//! and proof of the gate: `SHUTDOWN.md`.
//!
//! A submission from a worker of the runtime (a task spawning a task, a
//! `join` sharing a half) goes to that worker's own deque and is always
//! accepted: it belongs to work accepted earlier. From any other thread it
//! passes the gate (and a bounded queue) onto the injector of its priority.
//! What is submitted becomes a queue entry only once accepted, so a refusal
//! hands the caller's own value back.

pub(crate) mod capacity;
pub(crate) mod exits;
pub(crate) mod gate;
pub(crate) mod submitter;

#[cfg(all(test, not(loom)))]
mod gate_tests;
#[cfg(all(test, loom))]
mod loom_shutdown;

use std::sync::Arc;

use rt_handle::executor_support::{JobControl, PoolId, Stamp, Wait};
use rt_handle::{Job, JoinHandle, SubmitError};
use rt_queue::Priority;

use crate::fork_join::scope_inbox::InboxTask;
use crate::observe::task_span::TaskSpan;
use crate::shared::{ScopeWaiter, Shared};
use crate::submit::gate::{after_leave, Submission};
use crate::worker;
use crate::worker::entry::Entry;

/// The runtime's one submission path: `payload` (a closure, a job, an
/// installed frame) becomes an entry through `make` once accepted. From a
/// worker of this runtime it goes to that worker's deque; from any other
/// thread it passes the gate, waiting for room in a bounded queue unless
/// `wait` says not to, onto the injector of `priority`.
#[inline]
pub(crate) fn submit<P>(
    shared: &Arc<Shared>,
    priority: Priority,
    kind: Submission,
    payload: P,
    wait: Wait,
    make: impl FnOnce(P) -> Entry,
) -> Result<(), SubmitError<P>> {
    worker::with_local(shared, |local| match local {
        Some(worker) => {
            worker.push(priority, make(payload));
            Ok(())
        }
        None => external(shared, payload, wait, kind, |payload| {
            shared.queues.push(priority, make(payload))
        }),
    })
}

/// A task's queue entry: the job stamped with this runtime's identity (so
/// that a worker of this runtime joining it may run it inline or help) and,
/// if submissions are timed, with the time; and the `tracing` context it
/// was spawned in.
#[inline]
pub(crate) fn task_entry(shared: &Arc<Shared>, job: Job) -> Entry {
    job.set_owner(PoolId::of(shared));
    if shared.records_runs() {
        if let Some(stamp) = Stamp::new(shared.now_ns()) {
            job.set_stamp(stamp);
        }
    }
    Entry::Task(job, TaskSpan::here())
}

/// Submits `job` as a task of this runtime (`submit` with the job as its
/// own task entry).
#[inline]
pub(crate) fn submit_job(
    shared: &Arc<Shared>,
    priority: Priority,
    job: Job,
    wait: Wait,
) -> Result<(), SubmitError<Job>> {
    submit(shared, priority, Submission::Task, job, wait, |job| {
        task_entry(shared, job)
    })
}

/// Spawns a job with its handle, blocking while a bounded queue is full; a
/// refused job completes its handle as `Rejected` at once.
#[inline]
pub(crate) fn spawn_job<T>(
    shared: &Arc<Shared>,
    priority: Priority,
    (job, handle): (Job, JoinHandle<T>),
) -> JoinHandle<T> {
    if let Err(refused) = submit_job(shared, priority, job, Wait::Block) {
        // Dropping the job rejects it: the handle says so.
        drop(refused.into_inner());
    }
    handle
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
    let job = match worker::with_local(shared, |local| match local {
        Some(worker) => {
            worker.push(priority, task_entry(shared, job));
            None
        }
        None => Some(job),
    }) {
        None => return Ok(()),
        Some(job) => job,
    };
    let submitted = match waiter {
        ScopeWaiter::Worker => {
            let submitted = external(shared, job, Wait::Block, Submission::Task, |job| {
                let Entry::Task(job, span) = task_entry(shared, job) else {
                    unreachable!("a task's entry is a task");
                };
                shared.scope_inbox.push(InboxTask {
                    priority,
                    job,
                    span,
                });
                shared.queues.push(priority, Entry::ScopeTicket);
            });
            wake_waiter();
            submitted
        }
        ScopeWaiter::Thread => external(shared, job, Wait::Block, Submission::Task, |job| {
            shared.queues.push(priority, task_entry(shared, job))
        }),
    };
    submitted.map_err(SubmitError::into_inner)
}

/// An external submission: passes the gate (and a bounded queue, per
/// `wait`), then counts it (if it is a task) and `push`es it.
fn external<P>(
    shared: &Shared,
    payload: P,
    wait: Wait,
    kind: Submission,
    push: impl FnOnce(P),
) -> Result<(), SubmitError<P>> {
    loop {
        if !gate::admit(&shared.gate, &shared.idle) {
            return Err(SubmitError::Shutdown(payload));
        }
        let Some(capacity) = &shared.capacity else {
            break;
        };
        if capacity.try_reserve() {
            break;
        }
        after_leave(&shared.idle, shared.gate.leave_refused());
        if wait == Wait::Never {
            return Err(SubmitError::Saturated(payload));
        }
        capacity.wait_for_space(|| shared.gate.is_closed());
    }
    gate::publish(&shared.gate, &shared.idle, kind, || push(payload));
    Ok(())
}
