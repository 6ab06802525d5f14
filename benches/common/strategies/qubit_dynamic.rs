//! qubit-thread-pool's dynamic `ThreadPool` (its core/maximum pool, the
//! peer of the elastic pool) through qubit-executor's `ExecutorService`:
//! `submit` (detached) and `submit_callable` (handle).
//!
//! Configured like the `elastic` column: core = workers, maximum =
//! 2 × workers, a bounded queue of 1,024 tasks. When that pool is saturated it
//! *rejects* a task (`SubmissionError::Saturated`) instead of blocking the
//! submitter, so this adapter supplies the policy: from outside the pool it
//! yields and retries (the closest equivalent of the elastic pool's blocking
//! `spawn`); from inside a task it runs the task inline (a caller-runs
//! policy), because workers retrying against a queue that only workers drain
//! could wait for each other forever.

use std::convert::Infallible;
use std::ops::Range;
use std::thread;

use qubit_executor::service::{ExecutorService, SubmissionError};
use qubit_thread_pool::ThreadPool;

use super::Strategy;
use crate::common::latch::LATCH;
use crate::common::workloads::TaskFn;

/// The bound on queued tasks: the same as `elastic` and `rt bounded`.
const QUEUE_CAPACITY: usize = 1_024;

struct QubitDynamic {
    pool: &'static ThreadPool,
}

pub fn new(workers: usize) -> Box<dyn Strategy> {
    let pool = ThreadPool::builder()
        .core_pool_size(workers)
        .maximum_pool_size(workers * 2)
        .queue_capacity(QUEUE_CAPACITY)
        .thread_name_prefix("bench-qd")
        .build()
        .unwrap();
    Box::new(QubitDynamic {
        pool: Box::leak(Box::new(pool)),
    })
}

/// What to do when the pool refuses a task because it is saturated.
#[derive(Clone, Copy)]
enum WhenSaturated {
    /// Yield and submit again (from the benchmark thread).
    Retry,
    /// Run it on this thread (from inside a pool task).
    RunInline,
}

/// Submits the detached `body`, applying `policy` while the pool is saturated.
fn submit<F>(pool: &'static ThreadPool, policy: WhenSaturated, body: F)
where
    F: Fn() -> Result<(), Infallible> + Copy + Send + 'static,
{
    loop {
        match pool.submit(body) {
            Ok(()) => return,
            Err(SubmissionError::Saturated) => match policy {
                WhenSaturated::Retry => thread::yield_now(),
                WhenSaturated::RunInline => {
                    let _ = body();
                    return;
                }
            },
            Err(other) => panic!("qubit dynamic pool refused a task: {other}"),
        }
    }
}

fn counted(i: usize, task: TaskFn) -> impl Fn() -> Result<(), Infallible> + Copy + Send + 'static {
    move || {
        task(i);
        LATCH.count_down();
        Ok(())
    }
}

impl Strategy for QubitDynamic {
    fn name(&self) -> &'static str {
        "qubit dynamic"
    }

    fn detached(&self, range: Range<usize>, task: TaskFn) {
        LATCH.reset(range.len());
        for i in range {
            submit(self.pool, WhenSaturated::Retry, counted(i, task));
        }
        LATCH.wait();
    }

    fn joined(&self, n: usize, task: TaskFn) {
        let handles: Vec<_> = (0..n)
            .map(|i| {
                let body = move || {
                    task(i);
                    Ok::<(), Infallible>(())
                };
                loop {
                    match self.pool.submit_callable(body) {
                        Ok(handle) => break handle,
                        Err(SubmissionError::Saturated) => thread::yield_now(),
                        Err(other) => panic!("qubit dynamic pool refused a task: {other}"),
                    }
                }
            })
            .collect();
        for h in handles {
            h.get().unwrap();
        }
    }

    fn nested(&self, outer: usize, inner: usize, task: TaskFn) {
        let pool = self.pool;
        LATCH.reset(outer * inner);
        let child = move |c: usize| {
            move || {
                for l in 0..inner {
                    submit(pool, WhenSaturated::RunInline, counted(c * inner + l, task));
                }
                Ok::<(), Infallible>(())
            }
        };
        submit(pool, WhenSaturated::Retry, move || {
            for c in 0..outer {
                submit(pool, WhenSaturated::RunInline, child(c));
            }
            Ok::<(), Infallible>(())
        });
        LATCH.wait();
    }
}
