//! Loom model of a join on an elastic worker (`worker.rs`, `InlineJoin`):
//! a task that spawns a task into its own pool and joins it races the
//! worker started for that task. Whoever claims the task runs it, exactly
//! once, and it is counted exactly once: by the joiner that ran it inline
//! (the worker's entry is then `Stale`), or by the worker (the joiner
//! then waits for it).
//!
//! What runs is the pool itself, through its public API, with loom's
//! mutex, condition variables, atomics and threads (`sync.rs`) and loom's
//! task cell (rt-handle): the admission that starts a second worker for the
//! child (`core_threads(2)`), the hand-off of its first task, the inline
//! claim and the worker's run, and `shutdown`.
//!
//! Run: `cargo xtask loom`.

use std::sync::Arc;

use crate::ElasticPool;

#[test]
fn a_task_joined_by_the_task_that_spawned_it_runs_and_is_counted_once() {
    let mut builder = loom::model::Builder::new();
    builder.preemption_bound = Some(3);
    builder.check(|| {
        let pool = Arc::new(
            ElasticPool::builder()
                .core_threads(2)
                .max_threads(2)
                .build()
                .unwrap(),
        );
        let inner = pool.clone();
        let out = pool.spawn(move || inner.spawn(|| 7).join()).join();
        assert_eq!(out, Ok(Ok(7)));
        pool.shutdown();
        let m = pool.metrics();
        assert_eq!((m.submitted, m.completed, m.cancelled), (2, 2, 0));
    });
}
