//! tokio's multi-thread runtime: `spawn` of a synchronous body, awaited
//! through its `JoinHandle` (or counted down, for detached tasks).

use std::ops::Range;

use super::Strategy;
use crate::common::latch::LATCH;
use crate::common::workloads::TaskFn;

struct Tokio {
    rt: tokio::runtime::Runtime,
}

pub fn new(workers: usize) -> Box<dyn Strategy> {
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(workers)
        .build()
        .unwrap();
    Box::new(Tokio { rt })
}

impl Strategy for Tokio {
    fn name(&self) -> &'static str {
        "tokio"
    }

    fn detached(&self, range: Range<usize>, task: TaskFn) {
        LATCH.reset(range.len());
        for i in range {
            drop(self.rt.spawn(async move {
                task(i);
                LATCH.count_down();
            }));
        }
        LATCH.wait();
    }

    fn joined(&self, n: usize, task: TaskFn) {
        let handles: Vec<_> = (0..n)
            .map(|i| self.rt.spawn(async move { task(i) }))
            .collect();
        self.rt.block_on(async {
            for h in handles {
                h.await.unwrap();
            }
        });
    }

    fn chain(&self, links: usize, task: TaskFn) -> bool {
        fn link(i: usize, links: usize, task: TaskFn) {
            task(i);
            if i + 1 < links {
                drop(tokio::spawn(async move { link(i + 1, links, task) }));
            } else {
                LATCH.count_down();
            }
        }
        LATCH.reset(1);
        drop(self.rt.spawn(async move { link(0, links, task) }));
        LATCH.wait();
        true
    }

    fn nested(&self, outer: usize, inner: usize, task: TaskFn) {
        LATCH.reset(outer * inner);
        drop(self.rt.spawn(async move {
            for c in 0..outer {
                drop(tokio::spawn(async move {
                    for l in 0..inner {
                        drop(tokio::spawn(async move {
                            task(c * inner + l);
                            LATCH.count_down();
                        }));
                    }
                }));
            }
        }));
        LATCH.wait();
    }
}
