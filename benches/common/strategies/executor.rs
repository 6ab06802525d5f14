//! One adapter for everything that implements the workspace's `Executor`
//! trait: the runtime and the three baselines. Tasks without handles are
//! submitted fire-and-forget (`execute` below), as rayon's `spawn` and
//! threadpool's `execute` are; tasks with handles through `spawn`.

use std::ops::Range;

use rt::baselines::{GlobalQueuePool, SingleThreaded, ThreadPerTask};
use rt::{Executor, Job, Priority, Runtime};

use super::Strategy;
use crate::common::latch::LATCH;
use crate::common::workloads::TaskFn;

struct ExecutorStrategy<E: Executor + 'static> {
    name: &'static str,
    exec: &'static E,
}

pub fn runtime(workers: usize) -> Box<dyn Strategy> {
    let rt = Runtime::builder()
        .threads(workers)
        .thread_name("bench-rt")
        .build()
        .unwrap();
    leak("rt", rt)
}

/// The runtime with a bounded queue of 1,024 external tasks: what the
/// service surface costs (counting, one-at-a-time injector pops, and
/// blocking the submitter while the queue is full).
pub fn runtime_bounded(workers: usize) -> Box<dyn Strategy> {
    let rt = Runtime::builder()
        .threads(workers)
        .thread_name("bench-rtb")
        .queue_capacity(1_024)
        .build()
        .unwrap();
    leak("rt bounded", rt)
}

pub fn global_queue(workers: usize) -> Box<dyn Strategy> {
    leak("global queue", GlobalQueuePool::new(workers).unwrap())
}

pub fn thread_per_task() -> Box<dyn Strategy> {
    leak("thread per task", ThreadPerTask::new())
}

pub fn single_threaded() -> Box<dyn Strategy> {
    leak("inline", SingleThreaded::new())
}

/// Pools live for the whole benchmark process: leaking them gives tasks a
/// `&'static` handle to spawn through, with no reference count to bump.
pub(super) fn leak<E: Executor + 'static>(name: &'static str, exec: E) -> Box<dyn Strategy> {
    Box::new(ExecutorStrategy {
        name,
        exec: Box::leak(Box::new(exec)),
    })
}

impl<E: Executor + 'static> Strategy for ExecutorStrategy<E> {
    fn name(&self) -> &'static str {
        self.name
    }

    fn detached(&self, range: Range<usize>, task: TaskFn) {
        LATCH.reset(range.len());
        for i in range {
            execute(self.exec, move || {
                task(i);
                LATCH.count_down();
            });
        }
        LATCH.wait();
    }

    fn joined(&self, n: usize, task: TaskFn) {
        let handles: Vec<_> = (0..n).map(|i| self.exec.spawn(move || task(i))).collect();
        for h in handles {
            h.join().unwrap();
        }
    }

    fn nested(&self, outer: usize, inner: usize, task: TaskFn) {
        let exec = self.exec;
        LATCH.reset(outer * inner);
        execute(exec, move || {
            for c in 0..outer {
                execute(exec, move || {
                    for l in 0..inner {
                        execute(exec, move || {
                            task(c * inner + l);
                            LATCH.count_down();
                        });
                    }
                });
            }
        });
        LATCH.wait();
    }

    fn graph(&self, width: usize, task: TaskFn) -> bool {
        crate::common::graph::fan_out_join(self.exec, width, task)
    }

    fn chain(&self, links: usize, task: TaskFn) -> bool {
        fn link<E: Executor>(exec: &'static E, i: usize, links: usize, task: TaskFn) {
            task(i);
            if i + 1 < links {
                execute(exec, move || link(exec, i + 1, links, task));
            } else {
                LATCH.count_down();
            }
        }
        let exec = self.exec;
        LATCH.reset(1);
        execute(exec, move || link(exec, 0, links, task));
        LATCH.wait();
        true
    }
}

/// Fire and forget, as the peers' `spawn` (rayon) and `execute`
/// (threadpool, qubit) are: the closure as a job without a handle or a
/// result slot (`Runtime::execute` for the runtime), through the
/// `Executor` trait so that every executor here is measured the same way.
fn execute<E: Executor>(exec: &E, f: impl FnOnce() + Send + 'static) {
    if exec.submit(Priority::Normal, Job::detached(f)).is_err() {
        panic!("the benchmark's pools never shut down while it runs");
    }
}
