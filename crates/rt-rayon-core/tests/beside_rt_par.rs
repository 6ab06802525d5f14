//! rayon, patched onto rt, and rt's own parallel iterators (rt-par) in one
//! program: one pool, rt's global runtime, whichever starts it; each runs
//! inside the other, with the right results.

use std::collections::HashSet;
use std::sync::Mutex;

use rt_testkit::without_hanging;

/// rayon's side: the sum of `f` over `0..n`.
mod with_rayon {
    use rayon::prelude::*;

    pub fn sum(n: u64, f: impl Fn(u64) -> u64 + Sync + Send) -> u64 {
        (0..n).into_par_iter().map(f).sum()
    }
}

/// rt-par's side: the sum of `f` over `0..n`.
mod with_rt_par {
    use rt_par::prelude::*;

    pub fn sum(n: u64, f: impl Fn(u64) -> u64 + Sync + Send) -> u64 {
        (0..n).into_par_iter().map(f).sum()
    }
}

/// The worker indexes rayon's iterator and rt-par's run on, nested both
/// ways, and their sums.
#[test]
fn rayon_and_rt_par_share_the_global_runtime_nested_both_ways() {
    without_hanging(|| {
        let global = rt_core::Runtime::global();
        assert_eq!(rayon::current_num_threads(), global.threads());
        let rayon_workers = Mutex::new(HashSet::new());
        let rt_par_workers = Mutex::new(HashSet::new());

        // rayon outside, rt-par inside.
        let sum = with_rayon::sum(64, |i| {
            rayon_workers
                .lock()
                .unwrap()
                .insert(global.current_thread_index());
            with_rt_par::sum(100, |j| {
                rt_par_workers
                    .lock()
                    .unwrap()
                    .insert(global.current_thread_index());
                i * j
            })
        });
        assert_eq!(sum, (0..64u64).sum::<u64>() * (0..100u64).sum::<u64>());

        // rt-par outside, rayon inside.
        let sum = with_rt_par::sum(64, |i| {
            with_rayon::sum(100, |j| {
                rayon_workers
                    .lock()
                    .unwrap()
                    .insert(global.current_thread_index());
                i + j
            })
        });
        assert_eq!(
            sum,
            64 * (0..100u64).sum::<u64>() + 100 * (0..64u64).sum::<u64>()
        );

        // Every piece ran on a worker of the one global runtime.
        for workers in [rayon_workers, rt_par_workers] {
            let workers = workers.into_inner().unwrap();
            assert!(!workers.is_empty());
            // A compensating worker (rt starts one while every worker
            // waits) has an index from `threads()` up.
            assert!(workers.iter().all(Option::is_some), "{workers:?}");
        }
    });
}

/// rayon's `join` and rt's `join` are one mechanism: a rayon join inside
/// rt's `install` runs on that runtime's workers, and rt's join inside a
/// rayon pool's `install` on that pool's.
#[test]
fn a_rayon_pool_is_an_rt_runtime_and_an_rt_runtime_runs_rayon_code() {
    without_hanging(|| {
        let rt = rt_core::Runtime::new(2).unwrap();
        let (a, b) = rt.install(|| rayon::join(|| rt.current_thread_index(), || 7));
        assert!(a.is_some());
        assert_eq!(b, 7);

        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(2)
            .build()
            .unwrap();
        let (a, b) = pool.install(|| rt_core::join(|| pool.current_thread_index(), || 8));
        assert!(a.is_some());
        assert_eq!(b, 8);
        let (as_runtime, as_pool) = pool.install(|| {
            (
                pool.runtime().current_thread_index(),
                pool.current_thread_index(),
            )
        });
        assert!(as_pool.is_some());
        assert_eq!(as_runtime, as_pool);
    });
}
