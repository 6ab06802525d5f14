// The crate's front page, in `front_page.md`: where to start, coming
// from rayon, tokio or std, and the crates it re-exports.
#![doc = include_str!("front_page.md")]
#![warn(missing_docs)]

// Each crate under a module of its own, documented inline so that the
// facade's pages hold every item (and its links resolve) before any crate
// is published. No module is named `core`, `alloc` or `std`: after
// `use rt::*` those names still mean the standard crates.
#[doc(inline)]
pub use rt_baselines as baselines;
#[doc(inline)]
pub use rt_burst as burst;
#[doc(inline)]
pub use rt_core as runtime;
#[doc(inline)]
pub use rt_dag as dag;
#[doc(inline)]
pub use rt_elastic as elastic;
#[doc(inline)]
pub use rt_fair as fair;
#[doc(inline)]
pub use rt_handle as handle;
#[doc(inline)]
pub use rt_par as par;
#[doc(inline)]
pub use rt_queue as queue;
#[doc(inline)]
pub use rt_timer as timer;

pub use rt_core::{
    current_num_threads, current_thread_index, current_worker, join, scope, spawn,
    spawn_with_priority, Builder, PoolStats, Runtime, Scope, Trace,
};
pub use rt_handle::{
    BuildError, CancelOnDrop, CancellationContext, CancellationToken, Executor, Job, JoinError,
    JoinHandle, Metrics, PanicMessage, RunOutcome, ScopedJoinHandle, SubmitError, TaskStatus,
};
pub use rt_queue::{PerClass, Priority, PriorityPolicy};

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
