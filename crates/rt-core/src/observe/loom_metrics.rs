//! Loom model of the metrics' promise: a snapshot never sees more finished
//! tasks than submitted ones (`metrics::snapshot`).
//!
//! What runs is the runtime's own code: a spawn from inside the pool is
//! `worker::publish_local`, an external submission `gate::admit`
//! then `gate::publish`, a worker counts a finished task with
//! `worker::bump`, and the observer calls `metrics::snapshot`. The queue is
//! the doorbell model's stand-in (a count with a Release push and an Acquire
//! take, as the real deques give).
//!
//! Interleavings covered: every order of the spawner's count and push, the
//! worker's take and completion count, and the observer's reads of the
//! completion counters and then the submission counters. Counting after the
//! push (the bug this model guards against) lets the observer read the
//! completion before the submission: loom finds that interleaving.
//!
//! And a task cancelled through its handle by a canceller that tells the
//! runtime (rt-handle's real `JoinHandle::cancel`, the runtime's real
//! listener, `OffWorkerCounts`): the owner word, written with Release after
//! the submission count (`Entry::set_owner` inside the push) and read with
//! Acquire before the claim, orders the submission before the
//! cancellation's count. Writing the owner before the count (the bug this
//! model guards against) lets the observer see the cancellation first.
//!
//! Run: `cargo xtask loom`.

use loom::sync::Arc;
use loom::thread;
use rt_handle::raw::{listeners, CancelListener, JobControl, PoolId};
use rt_handle::{Job, Priority};

use crate::idle::loom_idle_signal::StandInQueue;
use crate::idle::IdleSignal;
use crate::observe::metrics::{snapshot, OffWorkerCounts, WorkerCounters};
use crate::shared::gate::{self, Submission, SubmitGate};
use crate::worker::bump;
use crate::worker::publish_local;

struct Pool {
    idle: IdleSignal,
    gate: SubmitGate,
    queue: StandInQueue,
    /// Two workers' counters: 0 spawns, 1 finishes.
    counters: [WorkerCounters; 2],
}

fn observe(pool: &Pool) {
    observe_with(pool, &OffWorkerCounts::default());
}

fn observe_with(pool: &Pool, off_workers: &OffWorkerCounts) {
    let m = snapshot(pool.counters.iter(), off_workers, || pool.gate.accepted());
    assert!(
        m.submitted >= m.finished(),
        "a snapshot saw a task finished before it was submitted: {m:?}"
    );
}

fn finish_one(pool: &Pool) {
    if pool.queue.take() {
        bump(&pool.counters[1].completed);
    }
}

/// A task spawned from inside the pool, stolen and finished by another
/// worker, while a third thread takes a snapshot.
#[test]
fn a_task_spawned_from_inside_is_counted_before_any_snapshot_sees_it_finished() {
    loom::model(|| {
        let pool = Arc::new(Pool {
            idle: IdleSignal::new(2, 2, false),
            gate: SubmitGate::new(),
            queue: StandInQueue::new(),
            counters: Default::default(),
        });
        let spawner = {
            let pool = pool.clone();
            thread::spawn(move || {
                publish_local(
                    Some(&pool.counters[0].spawned),
                    &pool.idle,
                    || pool.queue.push(),
                    || pool.queue.len(),
                )
            })
        };
        let thief = {
            let pool = pool.clone();
            thread::spawn(move || finish_one(&pool))
        };
        observe(&pool);
        spawner.join().unwrap();
        thief.join().unwrap();
    });
}

/// The same for an external submission through the gate.
#[test]
fn a_task_submitted_from_outside_is_counted_before_any_snapshot_sees_it_finished() {
    loom::model(|| {
        let pool = Arc::new(Pool {
            idle: IdleSignal::new(2, 2, false),
            gate: SubmitGate::new(),
            queue: StandInQueue::new(),
            counters: Default::default(),
        });
        let submitter = {
            let pool = pool.clone();
            thread::spawn(move || {
                assert!(gate::admit(&pool.gate, &pool.idle));
                gate::publish(
                    &pool.gate,
                    &pool.idle,
                    Submission::Task,
                    || pool.queue.push(),
                    || pool.queue.len(),
                );
            })
        };
        let worker = {
            let pool = pool.clone();
            thread::spawn(move || finish_one(&pool))
        };
        observe(&pool);
        submitter.join().unwrap();
        worker.join().unwrap();
    });
}

/// An external submission racing a cancel through the task's handle that
/// tells the runtime, while a third thread takes a snapshot.
#[test]
fn a_task_cancelled_and_told_is_counted_as_submitted_before_any_snapshot_sees_it_cancelled() {
    loom::model(|| {
        let pool = Arc::new(Pool {
            idle: IdleSignal::new(1, 1, false),
            gate: SubmitGate::new(),
            queue: StandInQueue::new(),
            counters: Default::default(),
        });
        // The runtime's listener, registered under its own identity.
        let off_workers = std::sync::Arc::new(OffWorkerCounts::default());
        let id = PoolId::of(&off_workers);
        let weak: std::sync::Weak<dyn CancelListener> =
            std::sync::Arc::downgrade(&off_workers) as _;
        listeners::register(id, weak);

        let (job, handle) = Job::new(|| ());
        let submitter = {
            let pool = pool.clone();
            thread::spawn(move || {
                assert!(gate::admit(&pool.gate, &pool.idle));
                gate::publish(
                    &pool.gate,
                    &pool.idle,
                    Submission::Task,
                    || {
                        job.set_owner(id, Priority::Normal);
                        pool.queue.push();
                    },
                    || pool.queue.len(),
                );
                // The entry, taken later: counts nothing if told.
                drop(job);
            })
        };
        let canceller = thread::spawn(move || handle.cancel());
        observe_with(&pool, &off_workers);
        submitter.join().unwrap();
        canceller.join().unwrap();
        observe_with(&pool, &off_workers);
        assert_eq!(off_workers.stale_entries(Priority::Normal), 0);
        listeners::deregister(id);
    });
}
