//! The `threadpool` crate: `execute`, and `join` to wait for the queue.

use std::ops::Range;

use super::Strategy;
use crate::common::latch::LATCH;
use crate::common::workloads::TaskFn;

struct ThreadPool {
    pool: &'static threadpool::ThreadPool,
}

pub fn new(workers: usize) -> Box<dyn Strategy> {
    Box::new(ThreadPool {
        pool: Box::leak(Box::new(threadpool::ThreadPool::new(workers))),
    })
}

impl Strategy for ThreadPool {
    fn name(&self) -> &'static str {
        "threadpool"
    }

    fn detached(&self, range: Range<usize>, task: TaskFn) {
        for i in range {
            self.pool.execute(move || task(i));
        }
        self.pool.join();
    }

    /// No join handles: a one-slot channel per task, as users do.
    fn joined(&self, n: usize, task: TaskFn) {
        let receivers: Vec<_> = (0..n)
            .map(|i| {
                let (tx, rx) = crossbeam_channel::bounded(1);
                self.pool.execute(move || {
                    task(i);
                    let _ = tx.send(());
                });
                rx
            })
            .collect();
        for rx in receivers {
            rx.recv().unwrap();
        }
    }

    fn nested(&self, outer: usize, inner: usize, task: TaskFn) {
        let pool = self.pool;
        LATCH.reset(outer * inner);
        pool.execute(move || {
            for c in 0..outer {
                pool.execute(move || {
                    for l in 0..inner {
                        pool.execute(move || {
                            task(c * inner + l);
                            LATCH.count_down();
                        });
                    }
                });
            }
        });
        LATCH.wait();
    }
}
