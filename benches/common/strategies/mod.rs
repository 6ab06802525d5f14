//! Every strategy a benchmark table compares, behind one small trait.

mod elastic;
mod executor;
mod qubit;
mod qubit_dynamic;
mod rayon_pool;
mod threadpool_pool;
mod tokio_pool;

use std::ops::Range;

use super::workloads::TaskFn;

/// One way of running a batch of tasks. Pools are created once and reused
/// for every round, as an application would.
pub trait Strategy {
    fn name(&self) -> &'static str;

    /// Runs `task(i)` for every `i` in `range`, submitted from this thread
    /// without per-task handles (each system's fire-and-forget call:
    /// `execute`, rayon's `spawn`; tokio's `spawn` with its handle dropped),
    /// and waits until all have run.
    fn detached(&self, range: Range<usize>, task: TaskFn);

    /// Runs `task(i)` for `i` in `0..n`, keeping a handle per task (or the
    /// peer's closest equivalent) and joining each.
    fn joined(&self, n: usize, task: TaskFn);

    /// One task spawns `outer` children from inside the pool; each child
    /// spawns `inner` tasks `task(i)`. Waits until all have run.
    fn nested(&self, outer: usize, inner: usize, task: TaskFn);

    /// Runs `width` tasks, then one task `task(width)` that depends on all of
    /// them, with the dependency handled by hand: wait, then submit.
    fn fan_out_join(&self, width: usize, task: TaskFn) {
        self.detached(0..width, task);
        self.detached(width..width + 1, task);
    }

    /// The same graph through `rt_dag::run_graph`; `false` when the strategy
    /// does not implement the workspace's `Executor` trait.
    fn graph(&self, _width: usize, _task: TaskFn) -> bool {
        false
    }

    /// Runs `task(i)` for `i` in `0..links`, each task spawning the next
    /// from inside the pool; waits for the last. `false` when the strategy
    /// has no way to spawn from inside its tasks.
    fn chain(&self, _links: usize, _task: TaskFn) -> bool {
        false
    }
}

/// The strategy every ratio is computed against.
pub const REFERENCE: &str = "rt";

/// Builds a strategy's pool with the given number of workers.
type Constructor = fn(usize) -> Box<dyn Strategy>;

/// Every strategy's name and constructor, in table column order.
const CONSTRUCTORS: [(&str, Constructor); 11] = [
    ("inline", |_| executor::single_threaded()),
    ("thread per task", |_| executor::thread_per_task()),
    ("global queue", executor::global_queue),
    (REFERENCE, executor::runtime),
    ("rt bounded", executor::runtime_bounded),
    ("rayon", rayon_pool::new),
    ("threadpool", threadpool_pool::new),
    ("qubit fixed", qubit::new),
    ("tokio", tokio_pool::new),
    ("elastic", elastic::new),
    ("qubit dynamic", qubit_dynamic::new),
];

/// Every strategy whose name `keep` accepts, each pool with `workers`
/// threads, in table column order. Strategies left out are never built, so
/// their threads cannot disturb the others.
pub fn all(workers: usize, keep: &dyn Fn(&str) -> bool) -> Vec<Box<dyn Strategy>> {
    CONSTRUCTORS
        .iter()
        .filter(|(name, _)| keep(name))
        .map(|(name, make)| {
            let s = make(workers);
            debug_assert_eq!(s.name(), *name);
            s
        })
        .collect()
}
