//! `rt`: a work-stealing CPU task runtime with priorities, cancellation and
//! panic-safe join handles.
//!
//! This crate is a facade: it re-exports the workspace's crates so that one
//! dependency gives you everything. Depend on the `rt-*` crates directly to
//! take only what you need:
//!
//! | crate          | re-exported as   | what it holds                                        |
//! |----------------|------------------|------------------------------------------------------|
//! | `rt-queue`     | [`queue`]        | [`Priority`] and the per-priority work-stealing queues |
//! | `rt-handle`    | [`handle`]       | [`JoinHandle`], [`JoinError`], [`CancellationToken`], [`Job`], the [`Executor`] trait, [`Metrics`] |
//! | `rt-core`      | [`core`]         | the work-stealing [`Runtime`], [`join`], [`scope`]   |
//! | `rt-dag`       | [`dag`]          | task graphs that run on any executor                 |
//! | `rt-elastic`   | [`elastic`]      | a core/max pool that grows and shrinks, for blocking work |
//! | `rt-timer`     | [`timer`]        | callbacks at deadlines, from one timer thread, on any executor |
//! | `rt-burst`     | [`burst`]        | round-robin dispatch of bursts to parked workers with their own queues |
//! | `rt-fair`      | [`fair`]         | a single-threaded async executor with EEVDF weighted fair queues |
//! | `rt-par`       | [`par`], [`prelude`], [`iter`] | rayon-compatible parallel iterators (`par_iter`, `map`, `collect`, `par_sort`, ...) |
//! | `rt-baselines` | [`baselines`]    | a measurement aid, not for production: reference strategies (global-queue pool, thread-per-task, inline) that the benchmarks compare the runtime with |
//!
//! ```
//! use rt::{Priority, Runtime};
//!
//! let rt = Runtime::new(2)?;
//! let urgent = rt.spawn_with_priority(Priority::High, || "first");
//! let normal = rt.spawn(|| 40 + 2);
//! assert_eq!(urgent.join()?, "first");
//! assert_eq!(normal.join()?, 42);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
#![warn(missing_docs)]

pub use rt_baselines as baselines;
pub use rt_burst as burst;
pub use rt_core as core;
pub use rt_dag as dag;
pub use rt_elastic as elastic;
pub use rt_fair as fair;
pub use rt_handle as handle;
pub use rt_par as par;
pub use rt_queue as queue;
pub use rt_timer as timer;

pub use rt_core::{current_worker, join, scope, Builder, PoolStats, Runtime, Scope, Trace};
pub use rt_handle::{
    BuildError, CancelOnDrop, CancellationContext, CancellationToken, Executor, Job, JoinError,
    JoinHandle, Metrics, RunOutcome, ScopedJoinHandle, SubmitError, TaskStatus,
};
pub use rt_queue::{Priority, PriorityPolicy};

/// The parallel iterator traits: `use rt::prelude::*` and rayon code such
/// as `v.par_iter().map(f).sum()` runs on this runtime.
///
/// ```
/// use rt::prelude::*;
///
/// let sum: u64 = (1..=100u64).into_par_iter().map(|x| x * x).sum();
/// assert_eq!(sum, 338_350);
/// ```
pub mod prelude {
    pub use rt_par::prelude::*;
}

/// Parallel iterator traits, adapters and sources (rayon's `rayon::iter`):
/// `rt::iter::repeat`, `repeat_n`, `empty`, `once`.
///
/// ```
/// use rt::prelude::*;
///
/// let v: Vec<u8> = rt::iter::repeat_n(1u8, 3).chain(rt::iter::once(2)).collect();
/// assert_eq!(v, [1, 1, 1, 2]);
/// ```
pub mod iter {
    pub use rt_par::iter::*;
}

/// The README's examples, compiled and run as doc tests so they stay true.
#[doc = include_str!("../README.md")]
#[cfg(doctest)]
pub struct ReadmeDoctests;
