//! rayon: `ThreadPool::scope` with `spawn`, the way rayon users fan out.
//! `ThreadPool::scope` runs its body on a worker of the pool, so in the
//! workloads of tasks "from outside" rayon's are spawned from inside it.

use std::ops::Range;

use super::Strategy;
use crate::common::latch::LATCH;
use crate::common::workloads::TaskFn;

struct Rayon {
    pool: rayon::ThreadPool,
}

pub fn new(workers: usize) -> Box<dyn Strategy> {
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(workers)
        .build()
        .unwrap();
    Box::new(Rayon { pool })
}

impl Strategy for Rayon {
    fn name(&self) -> &'static str {
        "rayon"
    }

    fn detached(&self, range: Range<usize>, task: TaskFn) {
        self.pool.scope(|s| {
            for i in range {
                s.spawn(move |_| task(i));
            }
        });
    }

    /// rayon has no join handles: each task sends its result through a
    /// one-slot channel, the usual way to get a value out of `spawn`.
    fn joined(&self, n: usize, task: TaskFn) {
        let receivers: Vec<_> = (0..n)
            .map(|i| {
                let (tx, rx) = crossbeam_channel::bounded(1);
                self.pool.spawn(move || {
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

    fn chain(&self, links: usize, task: TaskFn) -> bool {
        fn link(i: usize, links: usize, task: TaskFn) {
            task(i);
            if i + 1 < links {
                rayon::spawn(move || link(i + 1, links, task));
            } else {
                LATCH.count_down();
            }
        }
        LATCH.reset(1);
        self.pool.spawn(move || link(0, links, task));
        LATCH.wait();
        true
    }

    fn nested(&self, outer: usize, inner: usize, task: TaskFn) {
        self.pool.scope(|s| {
            s.spawn(move |s| {
                for c in 0..outer {
                    s.spawn(move |s| {
                        for l in 0..inner {
                            s.spawn(move |_| task(c * inner + l));
                        }
                    });
                }
            });
        });
    }
}
