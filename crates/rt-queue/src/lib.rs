//! Priority classes and per-priority work-stealing queues.
//!
//! Every task has a [`Priority`]: `High`, `Normal` or `Background`. For each
//! class there is one global [`Injector`](https://docs.rs/crossbeam-deque/0.8/crossbeam_deque/struct.Injector.html) that takes
//! submissions from outside the pool, and every worker owns one local deque per
//! class, which other workers can steal from:
//!
//! ```text
//!            external submitters
//!                   │ push(priority)
//!      ┌────────────┼────────────────┐
//!      ▼            ▼                ▼
//!  [High inj]  [Normal inj]  [Background inj]      GlobalQueues
//!      │  steal_batch_and_pop        │              (shared, Sync)
//!      ▼                             ▼
//!  worker 0: [H][N][B]   worker 1: [H][N][B]  ...   WorkerQueues
//!               ▲  ▲  single steal, High first        (one per worker)
//!               └──┴──────── from peers ────────┘
//! ```
//!
//! # Search order
//!
//! [`WorkerQueues::find`] scans, for each priority from High to Background,
//! the worker's own deque and then that priority's injector (Normal and
//! Background in batches that amortise the trip; High one task at a time, so
//! that queued High work stays visible to every worker instead of waiting in
//! one busy worker's deque). Only when all six
//! are empty does it try a single steal from each peer, High first, starting
//! at a different victim each call. So a High task submitted to a busy pool is
//! taken by the first worker that finishes its current task, never after a
//! batch of Normal work that worker already moved to its own deque. `find`
//! reports the [`TaskSource`] so a runtime can count peer steals.
//!
//! # Classes that never had work cost nothing
//!
//! Every push first records its class in one byte shared by all the queues
//! ([`GlobalQueues::classes_seen`], a [`ClassSet`]; a load, and a
//! read-modify-write only the first time a class is used). A scan skips
//! the classes not in it, so a runtime whose tasks all share one class
//! looks at one deque and one injector per scan, not three of each.
//! [`WorkerQueues::find_among`] looks only at some classes (those more
//! urgent than the task a worker is running, say), taking one task at a
//! time.
//!
//! # Draining
//!
//! [`GlobalQueues::drain`] hands every queued task to its caller (a
//! runtime cancelling its queued work). A batch that a worker is moving
//! from an injector into its own deque is in neither while it moves; each
//! worker flags its batches, and a drain waits for a flagged batch to land
//! and then takes it from the deque (the flag and the drain's own flag are
//! a Dekker pair of `SeqCst` fences: see `take_batch`).
//!
//! # Weighted classes
//!
//! Under [`PriorityPolicy::Weighted`] a worker asks its [`ClassShares`] for
//! the order to look in ([`WorkerQueues::find_in`]) instead of High first:
//! EEVDF with the three classes as the entities, charging each class the
//! run time of its tasks divided by its weight, so that classes with work
//! share the worker's CPU time in proportion to their weights, and a class
//! that was idle rejoins at the current virtual time (no banked credit,
//! which also keeps a returning High class at the front). The definitions
//! and the guarantee: `WEIGHTED_SHARES.md` beside this crate's sources.
//!
//! This crate is generic over the task type and knows nothing of threads,
//! sleeping or shutdown; `rt-core` builds the runtime on top of it.
//!
//! # EEVDF
//!
//! [`ClassShares`] is built on [`eevdf::Eevdf`], the workspace's one
//! implementation of EEVDF over weighted entities (rt-fair's queues use it
//! too): exact integer arithmetic (virtual runtimes as exact fractions, so
//! nothing is rounded, carried or rebased), its policies as parameters (how
//! long a request is, the rejoin credit). Its design and the reasons for
//! its arithmetic: `EEVDF.md` beside this crate's sources.

// Where other crates' pages link to this one when this crate's pages are
// not beside theirs (docs.rs, or `cargo doc --no-deps`, which does not wait
// for them): without it such a link would be left unresolved.
#![doc(html_root_url = "https://docs.rs/rt-queue/latest")]
#![warn(missing_docs)]

mod class_set;
pub mod eevdf;
mod per_class;
mod policy;
mod priority;
mod queues;

pub use class_set::ClassSet;
pub use per_class::PerClass;
pub use policy::{ClassShares, PriorityPolicy};
pub use priority::Priority;
pub use queues::{work_queues, work_queues_up_to, Found, GlobalQueues, TaskSource, WorkerQueues};

#[cfg(test)]
mod tests;
