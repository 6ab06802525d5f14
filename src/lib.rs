// The crate's front page, in `front_page.md`: where to start, coming
// from rayon, tokio or std, and the crates it re-exports.
#![doc = include_str!("front_page.md")]
#![warn(missing_docs)]

// Each crate is a module of the facade that re-exports all of it, with
// its items documented inline: the facade's pages hold every item, so
// their links resolve before any crate is published. (A crate re-exported
// whole, `pub use rt_core as runtime`, would be inlined with a sidebar link
// to an "all items" page that only a crate has.) No module is named
// `core`, `alloc` or `std`: after `use rt::*` those names still mean the
// standard crates.

/// Reference strategies the benchmarks measure the runtime against: a
/// global-queue pool, a thread per task, and inline execution. A
/// measurement aid, not for production.
///
/// All of crate `rt-baselines`, whose own documentation (`cargo doc -p rt-baselines
/// --open`) also explains its mechanism.
#[cfg(feature = "baselines")]
pub mod baselines {
    #[doc(inline)]
    pub use rt_baselines::*;
}

/// Round-robin dispatch of bursts to parked workers that each own a handler
/// and a queue: a burst wakes each worker it feeds once.
///
/// All of crate `rt-burst`, whose own documentation (`cargo doc -p rt-burst
/// --open`) also explains its mechanism.
pub mod burst {
    #[doc(inline)]
    pub use rt_burst::*;
}

pub mod dag {
    //! Task graphs, pipelines and limits, run on any executor: crate
    //! `rt-dag`, whose own front page follows.
    //!
    // rt-dag's own crate page (`dag.md` links to its `src/lib.md`), shown
    // here rather than a pointer to it; its examples run as rt-dag's doc
    // tests, not again as the facade's.
    #![cfg_attr(not(doctest), doc = include_str!("dag.md"))]
    #[doc(inline)]
    pub use rt_dag::*;
}

/// A core/max thread pool for blocking work (I/O, database calls): it
/// grows while its bounded queue overflows and retires threads after a
/// keep-alive. What tokio's `spawn_blocking` is, as a pool of its own.
///
/// All of crate `rt-elastic`, whose own documentation (`cargo doc -p rt-elastic
/// --open`) also explains its mechanism.
pub mod elastic {
    #[doc(inline)]
    pub use rt_elastic::*;
}

/// A single-threaded async executor whose weighted queues are scheduled by
/// EEVDF, to run inside tokio (or standalone) and keep foreground latency
/// flat under background load.
///
/// All of crate `rt-fair`, whose own documentation (`cargo doc -p rt-fair
/// --open`) also explains its mechanism.
pub mod fair {
    #[doc(inline)]
    pub use rt_fair::*;
}

/// What every executor shares: `JoinHandle` (also a `Future`), `JoinError`,
/// `CancellationToken`, `Job`, the `Executor` trait and `Metrics`.
///
/// All of crate `rt-handle`, whose own documentation (`cargo doc -p rt-handle
/// --open`) also explains its mechanism.
pub mod handle {
    // Item by item rather than by glob: the executors' own plumbing
    // (`rt_handle::raw`) is not part of the facade.
    #[doc(inline)]
    pub use rt_handle::{
        CancelOnDrop, CancellationContext, CancellationToken, Executor, Job, JoinError, JoinHandle,
        Metrics, PanicMessage, Priority, ProvidesSubmitter, RunOutcome, ScopedJoinHandle,
        SubmitError, Submitter, TaskStatus, NON_STRING_PAYLOAD,
    };
}

/// Rayon-compatible parallel iterators on the runtime; `use rt::prelude::*`
/// brings their traits.
///
/// All of crate `rt-par`, whose own documentation (`cargo doc -p rt-par
/// --open`) also explains its mechanism.
pub mod par {
    #[doc(inline)]
    pub use rt_par::*;
}

/// The priority classes: [`Priority`], the policy
/// that chooses between them ([`PriorityPolicy`]:
/// strict or weighted) and a value per class
/// ([`PerClass`]). The same three items are at the
/// crate root. (The queues themselves, crate `rt-queue`, are the runtime's
/// own machinery: `cargo doc -p rt-queue --open` explains them.)
pub mod queue {
    #[doc(inline)]
    pub use rt_queue::{PerClass, Priority, PriorityPolicy};
}

/// The work-stealing runtime: `Runtime` and its `Builder`, fork-join
/// (`join`, `scope`), the global runtime, statistics, latency histograms
/// and execution traces. Its main items are also at the crate root
/// (`rt::Runtime`, `rt::join`, ...).
///
/// All of crate `rt-core`, whose own documentation (`cargo doc -p rt-core
/// --open`) also explains its mechanism.
pub mod runtime {
    #[doc(inline)]
    pub use rt_core::*;
}

/// Callbacks at deadlines from one timer thread, run there or handed to any
/// executor at their deadline: `DelayedTaskScheduler`.
///
/// All of crate `rt-timer`, whose own documentation (`cargo doc -p rt-timer
/// --open`) also explains its mechanism.
pub mod timer {
    #[doc(inline)]
    pub use rt_timer::*;
}

// The runtime's build error: each executor's module has its own
// (`rt::elastic::BuildError`, `rt::timer::BuildError`, ...).
pub use rt_core::{
    checkpoint, current_num_threads, current_thread_index, join, scope, spawn, spawn_with_priority,
    with_priority, BuildError, Builder, PoolStats, Runtime, Scope, Trace,
};
pub use rt_handle::{
    CancelOnDrop, CancellationContext, CancellationToken, Executor, Job, JoinError, JoinHandle,
    Metrics, PanicMessage, RunOutcome, ScopedJoinHandle, SubmitError, TaskStatus,
};
pub use rt_queue::{PerClass, Priority, PriorityPolicy};

/// The glob to use: `use rt::prelude::*` brings the parallel iterators'
/// methods (`par_iter`, `map`, `sum`, `par_sort`, ...), so that code such
/// as `v.par_iter().map(f).sum()` runs on this runtime, and no name: the
/// traits come in unnamed (`as _`), so the glob never clashes with std's,
/// tokio's or rayon's names. To name a trait (in a bound, an `impl`), use
/// [`rt::iter`](crate::iter): `rt::iter::ParallelIterator`.
///
/// ```
/// use rt::prelude::*;
///
/// let sum: u64 = (1..=100u64).into_par_iter().map(|x| x * x).sum();
/// assert_eq!(sum, 338_350);
///
/// fn evens(v: &[u32]) -> impl rt::iter::ParallelIterator<Item = &u32> {
///     v.par_iter().filter(|x| *x % 2 == 0)
/// }
/// assert_eq!(evens(&[1, 2, 3, 4]).count(), 2);
/// ```
pub mod prelude {
    pub use rt_par::iter::{
        FromParallelIterator as _, IndexedParallelIterator as _, IntoParallelIterator as _,
        IntoParallelRefIterator as _, IntoParallelRefMutIterator as _, ParallelBridge as _,
        ParallelDrainFull as _, ParallelDrainRange as _, ParallelExtend as _,
        ParallelIterator as _,
    };
    pub use rt_par::slice::{ParallelSlice as _, ParallelSliceMut as _};
    pub use rt_par::str::ParallelString as _;
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

/// The guide's examples (`docs/GUIDE.md`), compiled and run as doc tests.
#[doc = include_str!("../docs/GUIDE.md")]
#[cfg(doctest)]
pub struct GuideDoctests;
