//! Loom model of the metrics' promise: a snapshot never sees more finished
//! tasks than submitted ones (`metrics::snapshot`).
//!
//! What runs is the runtime's own code: a spawn from inside the pool is
//! `worker::publish_local`, an external submission `gate::admit`
//! then `gate::publish`, a worker counts a finished task with
//! `metrics::bump`, and the observer calls `metrics::snapshot`. The queue is
//! the doorbell model's stand-in (a count with a Release push and an Acquire
//! take, as the real deques give).
//!
//! Interleavings covered: every order of the spawner's count and push, the
//! worker's take and completion count, and the observer's reads of the
//! completion counters and then the submission counters. Counting after the
//! push (the bug this model guards against) lets the observer read the
//! completion before the submission: loom finds that interleaving.
//!
//! Run: `cargo xtask loom`.

use loom::sync::Arc;
use loom::thread;

use crate::idle::loom_idle_signal::StandInQueue;
use crate::idle::IdleSignal;
use crate::observe::metrics::{bump, snapshot, OffWorkerCounts, WorkerCounters};
use crate::submit::gate::{self, Submission, SubmitGate};
use crate::worker::publish_local;

struct Pool {
    idle: IdleSignal,
    gate: SubmitGate,
    queue: StandInQueue,
    /// Two workers' counters: 0 spawns, 1 finishes.
    counters: [WorkerCounters; 2],
}

fn observe(pool: &Pool) {
    let m = snapshot(pool.counters.iter(), &OffWorkerCounts::default(), || {
        pool.gate.accepted()
    });
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
