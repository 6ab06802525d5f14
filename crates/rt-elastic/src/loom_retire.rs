//! Loom model of the grow/retire race: a task submitted while the pool's
//! last worker is retiring (its keep-alive ran out) must still run.
//!
//! What runs is the pool itself, built with its builder and driven through
//! its public API: `spawn` (admission under the pool's lock, `State::decide`,
//! starting a worker with the task as its first, or queueing it), the
//! worker loop (`worker.rs`: run, pop, keep-alive exit) and `shutdown`.
//! Under `--cfg loom` the pool's mutex, condition variables, atomics and
//! threads are loom's (`sync.rs`), and so are the task cell's (rt-handle).
//! Time is not modelled: the keep-alive is zero, so a worker with nothing
//! queued retires at once, and the interleavings are those of the lock.
//!
//! Interleavings covered: the second submission deciding before the worker
//! has finished its first task (queued, then popped by that worker), after
//! it found the queue empty and retired (a new worker is started for it),
//! and between (the worker's `live` count and the queue are read under one
//! lock, so there is no in-between); shutdown racing the retirement.
//!
//! A task left queued with no worker to run it shows as a deadlock of the
//! joining thread.
//!
//! Run: `cargo xtask loom`.

use std::time::Duration;

use loom::thread;

use crate::ElasticPool;

#[test]
fn a_task_submitted_while_the_last_worker_retires_runs() {
    let mut builder = loom::model::Builder::new();
    builder.preemption_bound = Some(3);
    builder.check(|| {
        let pool = std::sync::Arc::new(
            ElasticPool::builder()
                .core_threads(0)
                .max_threads(1)
                .keep_alive(Duration::ZERO)
                .build()
                .unwrap(),
        );
        let first = pool.spawn(|| 1);
        let submitter = {
            let pool = pool.clone();
            thread::spawn(move || pool.spawn(|| 2).join())
        };
        assert_eq!(first.join(), Ok(1));
        assert_eq!(submitter.join().unwrap(), Ok(2));
        pool.shutdown();
        let m = pool.metrics();
        assert_eq!((m.submitted, m.completed), (2, 2));
    });
}
