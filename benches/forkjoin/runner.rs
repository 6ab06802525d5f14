//! One case (workload × system) inside its own process: the system's pool,
//! started once, and one checked, timed round.

use std::num::NonZero;
use std::time::{Duration, Instant};

use rt::Runtime;

use super::systems::{System, Workload};
use super::{fib, nqueens, quicksort, skynet, uts};

/// Stack size of every pool's threads: UTS T3 is 1,572 levels deep, and a
/// worker that waits in a join may run other tasks on top of its stack.
pub const STACK: usize = 256 << 20;

/// The pool a system runs on, started once per process.
enum Pool {
    Sequential,
    Rayon(rayon::ThreadPool),
    Chili(chili::ThreadPool),
    /// Leaked so that tasks can reach it to spawn.
    Rt(&'static Runtime),
}

impl Pool {
    fn new(system: System, workers: usize) -> Pool {
        match system {
            System::Sequential => Pool::Sequential,
            System::RayonJoin | System::RayonScope => Pool::Rayon(
                rayon::ThreadPoolBuilder::new()
                    .num_threads(workers)
                    .stack_size(STACK)
                    .build()
                    .expect("start the rayon pool"),
            ),
            // `thread_count` counts the thread that opens the scope: chili
            // starts `workers - 1` threads. Its threads take their stack
            // size from `RUST_MIN_STACK` (set by `main`).
            System::Chili => Pool::Chili(chili::ThreadPool::with_config(chili::Config {
                thread_count: Some(NonZero::new(workers).expect("at least one worker")),
                ..Default::default()
            })),
            System::RtJoin | System::RtScope | System::RtSpawn => Pool::Rt(Box::leak(Box::new(
                Runtime::builder()
                    .threads(workers)
                    .stack_size(STACK)
                    .thread_name("forkjoin-rt")
                    .build()
                    .expect("start the runtime"),
            ))),
        }
    }
}

/// One case in its process: the pool, the quicksort input, the buffer.
pub struct Runner {
    workload: Workload,
    system: System,
    pool: Pool,
    input: Vec<u64>,
    buffer: Vec<u64>,
}

impl Runner {
    pub fn new(workload: Workload, system: System, workers: usize) -> Runner {
        let input = match workload {
            Workload::Quicksort => quicksort::input(),
            _ => Vec::new(),
        };
        Runner {
            workload,
            system,
            pool: Pool::new(system, workers),
            buffer: input.clone(),
            input,
        }
    }

    /// Runs one round and checks its result (panics on a mismatch);
    /// returns the time of the workload alone (no input copy, no check).
    pub fn round(&mut self) -> Duration {
        match self.workload {
            Workload::UtsT1 | Workload::UtsT3 => {
                let tree = self.workload.uts_tree().expect("a UTS workload has a tree");
                timed(|| self.uts(tree), |counts| uts::check(tree, counts))
            }
            Workload::Fib => timed(|| self.fib(), fib::check),
            Workload::Skynet => timed(|| self.skynet(), skynet::check),
            Workload::Nqueens => timed(|| self.nqueens(), nqueens::check),
            Workload::Quicksort => {
                self.buffer.copy_from_slice(&self.input);
                let took = timed(|| self.quicksort(), |()| ());
                quicksort::check(&self.buffer);
                took
            }
        }
    }

    fn uts(&self, tree: &'static uts::Tree) -> uts::Counts {
        let root = uts::Node::root(tree);
        match (&self.pool, self.system) {
            (Pool::Sequential, _) => uts::sequential(tree, root),
            (Pool::Rayon(p), System::RayonScope) => p.install(|| uts::rayon_scope(tree, root)),
            (Pool::Rayon(p), _) => p.install(|| uts::rayon_join(tree, root)),
            (Pool::Chili(p), _) => uts::chili(tree, root, &mut p.scope()),
            (Pool::Rt(rt), System::RtJoin) => rt.install(|| uts::rt_join(tree, root)),
            (Pool::Rt(rt), System::RtScope) => rt.install(|| uts::rt_scope(tree, root)),
            (&Pool::Rt(rt), _) => rt
                .spawn(move || uts::rt_spawn(rt, tree, root))
                .join()
                .expect("the UTS root task failed"),
        }
    }

    fn fib(&self) -> u64 {
        // Opaque, so that no system's call can be folded at compile time.
        let n = std::hint::black_box(fib::N);
        match (&self.pool, self.system) {
            (Pool::Sequential, _) => fib::sequential(n),
            (Pool::Rayon(p), System::RayonScope) => p.install(|| fib::rayon_scope(n)),
            (Pool::Rayon(p), _) => p.install(|| fib::rayon_join(n)),
            (Pool::Chili(p), _) => fib::chili(n, &mut p.scope()),
            (Pool::Rt(rt), System::RtJoin) => rt.install(|| fib::rt_join(n)),
            (Pool::Rt(rt), System::RtScope) => rt.install(|| fib::rt_scope(n)),
            (&Pool::Rt(rt), _) => rt
                .spawn(move || fib::rt_spawn(rt, n))
                .join()
                .expect("the fib root task failed"),
        }
    }

    fn skynet(&self) -> u64 {
        let size = std::hint::black_box(skynet::LEAVES);
        match &self.pool {
            Pool::Sequential => skynet::sequential(0, size),
            Pool::Rayon(p) => p.install(|| skynet::rayon_join(0, size)),
            Pool::Chili(p) => skynet::chili(0, size, &mut p.scope()),
            Pool::Rt(rt) => rt.install(|| skynet::rt_join(0, size)),
        }
    }

    fn nqueens(&self) -> u64 {
        let board = nqueens::Board::empty(std::hint::black_box(nqueens::N));
        match &self.pool {
            Pool::Sequential => nqueens::sequential(board),
            Pool::Rayon(p) => p.install(|| nqueens::rayon_join(board)),
            Pool::Chili(p) => nqueens::chili(board, &mut p.scope()),
            Pool::Rt(rt) => rt.install(|| nqueens::rt_join(board)),
        }
    }

    fn quicksort(&mut self) {
        let v = &mut self.buffer[..];
        match (&self.pool, self.system) {
            (Pool::Sequential, _) => quicksort::sequential(v),
            (Pool::Rayon(p), _) => p.install(|| quicksort::rayon_join(v)),
            (Pool::Chili(p), _) => quicksort::chili(v, &mut p.scope()),
            (Pool::Rt(rt), System::RtJoin) => rt.install(|| quicksort::rt_join(v)),
            (Pool::Rt(rt), System::RtScope) => rt.install(|| quicksort::rt_scope(v)),
            (&Pool::Rt(rt), _) => {
                // `spawn` takes `'static` closures: move the buffer into the
                // root task and take it back from its result.
                let mut owned = std::mem::take(&mut self.buffer);
                owned = rt
                    .spawn(move || {
                        quicksort::rt_spawn(rt, &mut owned);
                        owned
                    })
                    .join()
                    .expect("the quicksort root task failed");
                self.buffer = owned;
            }
        }
    }
}

/// The time `run` takes; then `check` looks at what it returned (untimed).
fn timed<R>(run: impl FnOnce() -> R, check: impl FnOnce(R)) -> Duration {
    let started = Instant::now();
    let result = run();
    let took = started.elapsed();
    check(result);
    took
}
