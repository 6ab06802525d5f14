//! qubit-thread-pool's `FixedThreadPool` through qubit-executor's
//! `ExecutorService`: `submit` (detached) and `submit_callable` (handle).

use std::convert::Infallible;
use std::ops::Range;

use qubit_executor::service::ExecutorService;
use qubit_thread_pool::FixedThreadPool;

use super::Strategy;
use crate::common::latch::LATCH;
use crate::common::workloads::TaskFn;

struct Qubit {
    pool: &'static FixedThreadPool,
}

pub fn new(workers: usize) -> Box<dyn Strategy> {
    Box::new(Qubit {
        pool: Box::leak(Box::new(FixedThreadPool::new(workers).unwrap())),
    })
}

fn submit_counted(pool: &'static FixedThreadPool, i: usize, task: TaskFn) {
    pool.submit(move || {
        task(i);
        LATCH.count_down();
        Ok::<(), Infallible>(())
    })
    .unwrap();
}

impl Strategy for Qubit {
    fn name(&self) -> &'static str {
        "qubit fixed"
    }

    fn detached(&self, range: Range<usize>, task: TaskFn) {
        LATCH.reset(range.len());
        for i in range {
            submit_counted(self.pool, i, task);
        }
        LATCH.wait();
    }

    fn joined(&self, n: usize, task: TaskFn) {
        let handles: Vec<_> = (0..n)
            .map(|i| {
                self.pool
                    .submit_callable(move || {
                        task(i);
                        Ok::<(), Infallible>(())
                    })
                    .unwrap()
            })
            .collect();
        for h in handles {
            h.get().unwrap();
        }
    }

    fn nested(&self, outer: usize, inner: usize, task: TaskFn) {
        let pool = self.pool;
        LATCH.reset(outer * inner);
        pool.submit(move || {
            for c in 0..outer {
                pool.submit(move || {
                    for l in 0..inner {
                        submit_counted(pool, c * inner + l, task);
                    }
                    Ok::<(), Infallible>(())
                })
                .unwrap();
            }
            Ok::<(), Infallible>(())
        })
        .unwrap();
        LATCH.wait();
    }
}
