// The crate's front page, in `front_page.md`: where to start, coming
// from rayon, tokio or std, and the crates it re-exports.
#![doc = include_str!("front_page.md")]
#![warn(missing_docs)]

pub use rt_baselines as baselines;
pub use rt_burst as burst;
pub use rt_core as core;
pub use rt_dag as dag;
pub use rt_elastic as elastic;
pub use rt_fair as fair;
pub use rt_handle as handle;
pub use rt_queue as queue;
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

/// The README's examples, compiled and run as doc tests so they stay true.
#[doc = include_str!("../README.md")]
#[cfg(doctest)]
pub struct ReadmeDoctests;
