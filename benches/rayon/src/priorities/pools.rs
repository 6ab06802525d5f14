//! Where each setup of part B runs its interactive jobs and its batch.
//!
//! * The jobs alone, and one pool: rayon's global pool of 2 workers; the
//!   jobs and the batch call rayon from their own threads.
//! * Two pools, as the Lighthouse Ethereum client has them since
//!   sigp/lighthouse PRs #7924 and #8075 (`common/task_executor/src/
//!   rayon_manager.rs`): a high-priority pool of 80% of the CPUs and a
//!   low-priority one of 25%, each `(cpus × percent / 100).max(1)`
//!   threads (integer division: rounded down, at least 1), so 1 and 1 on
//!   2 CPUs; jobs `install`ed into the first, the batch into the second.
//! * rt (the patched build only): rayon's global pool, which is rt's
//!   global runtime of 2 workers; the batch inside
//!   `rt::with_priority(Priority::Background, …)`, the jobs inside
//!   `rt::with_priority(Priority::High, …)`.

use super::Setup;
use crate::backend;

/// The pools of a setup.
pub enum Pools {
    /// rayon's global pool.
    Global,
    /// Lighthouse's two pools.
    Two {
        high: rayon::ThreadPool,
        low: rayon::ThreadPool,
    },
    /// rt's global runtime, with priority classes.
    #[cfg(feature = "rt")]
    Classes,
}

/// Lighthouse's share of `cpus` for a pool of `percent`%.
fn lighthouse_threads(cpus: usize, percent: usize) -> usize {
    (cpus * percent / 100).max(1)
}

/// The high- and low-priority pools' sizes (the machine is taken to have
/// [`backend::WORKERS`] CPUs, as the other setups' pool has).
pub fn two_pool_sizes() -> (usize, usize) {
    (
        lighthouse_threads(backend::WORKERS, 80),
        lighthouse_threads(backend::WORKERS, 25),
    )
}

impl Pools {
    /// Starts the pools of `setup`.
    pub fn new(setup: Setup) -> Pools {
        match setup {
            Setup::Alone | Setup::OnePool => {
                backend::global_pool();
                Pools::Global
            }
            Setup::TwoPools => {
                let (high, low) = two_pool_sizes();
                let pool = |threads: usize, name: &'static str| {
                    rayon::ThreadPoolBuilder::new()
                        .num_threads(threads)
                        .thread_name(move |i| format!("{name}-{i}"))
                        .build()
                        .expect("start a rayon pool")
                };
                Pools::Two {
                    high: pool(high, "high"),
                    low: pool(low, "low"),
                }
            }
            #[cfg(feature = "rt")]
            Setup::Rt => {
                backend::global_pool();
                Pools::Classes
            }
            #[cfg(not(feature = "rt"))]
            Setup::Rt => panic!("the rt setup runs only in the build with rt's rayon-core"),
        }
    }

    /// Runs an interactive job's rayon code and returns its result.
    pub fn interactive<R: Send>(&self, job: impl FnOnce() -> R + Send) -> R {
        match self {
            Pools::Global => job(),
            Pools::Two { high, .. } => high.install(job),
            #[cfg(feature = "rt")]
            Pools::Classes => rt::with_priority(rt::Priority::High, job),
        }
    }

    /// Runs the batch's rayon code and returns its result.
    pub fn batch<R: Send>(&self, batch: impl FnOnce() -> R + Send) -> R {
        match self {
            Pools::Global => batch(),
            Pools::Two { low, .. } => low.install(batch),
            #[cfg(feature = "rt")]
            Pools::Classes => rt::with_priority(rt::Priority::Background, batch),
        }
    }
}
