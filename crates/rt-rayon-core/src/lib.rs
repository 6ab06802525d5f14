//! rayon-core's public API on rt's work-stealing runtime: patch it in,
//! and `rayon`, and every crate in the build that uses it, runs on rt, with
//! rt's priority classes.
//!
//! This crate is named `rayon-core`, at rayon-core's version (1.13.0, the
//! one `rayon` 1.12 depends on), so that one `[patch]` in a program's
//! `Cargo.toml` replaces the real one everywhere in its dependency graph:
//!
//! ```toml
//! [patch.crates-io]
//! rayon-core = { path = "../rt/crates/rt-rayon-core" }
//! # or: rayon-core = { git = "<rt's repository URL>" }
//! ```
//!
//! (cargo uses a patch only when the patching package has the patched
//! package's name and a matching version; `rayon-core = { path = ..,
//! package = "other" }` is ignored with "patch ... was not used".) If the
//! program also depends on rt itself (`rt-cpu`, or `rt-core`), take both
//! from the same place (both by path, or both from the same git
//! repository), so that cargo builds one rt-core: then rayon's pool and
//! rt's are one pool.
//!
//! # How it maps onto rt
//!
//! * **The global pool is rt's global runtime**
//!   ([`rt_core::Runtime::global`]): rayon code anywhere in the program,
//!   rt's own `rt::spawn`/`rt::join`, and rt's parallel iterators share its
//!   workers. It starts on first use with `RAYON_NUM_THREADS` workers if
//!   that is set, else one per CPU; [`ThreadPoolBuilder::build_global`]
//!   configures it before that.
//! * **A [`ThreadPool`] is an rt-core [`Runtime`](rt_core::Runtime)** of its own
//!   threads ([`ThreadPool::runtime`] hands it over for rt's API). A pool a
//!   dependency builds stays a pool of its own threads, as with rayon;
//!   nothing shares it with the global pool.
//! * [`join`], [`join_context`], [`scope`] and the rest are rt-core's: a
//!   fork allocates nothing and shares its second half only when a worker
//!   wants work, and a worker waiting for a half or a scope runs only the
//!   work it waits for.
//!
//! # Priorities for rayon code
//!
//! Run rayon code inside [`rt_core::with_priority`] (re-exported by rt as
//! `rt::with_priority`): its joins, scopes, spawns and parallel iterators
//! are queued at that class.
//!
//! ```
//! use rayon::prelude::*;
//! # let backfill: Vec<u64> = (0..1_000).collect();
//! # let verify = |block: &u64| block.count_ones();
//! # let block_signatures = [1u64, 2, 3];
//! # let verify_signature = |s: &u64| *s > 0;
//! // A batch at Background, request handlers' rayon work at High, one pool:
//! let report = rt_core::with_priority(rt_core::Priority::Background, || {
//!     backfill.par_iter().map(verify).collect::<Vec<_>>() // rayon code, unchanged
//! });
//! // In a request handler, on another thread:
//! let ok = rt_core::with_priority(rt_core::Priority::High, || {
//!     block_signatures.par_iter().all(verify_signature)
//! });
//! assert_eq!(report.len(), 1_000);
//! assert!(ok);
//! ```
//!
//! A task of a more urgent class runs as soon as a worker finishes its
//! current task or reaches a fork (every `join` of less urgent work is a
//! checkpoint, [`rt_core::checkpoint`]), and Background work gives its CPU
//! to the OS every 200 µs at its forks, so that threads outside the pool
//! (the request handlers above) get one too. rayon's parallel iterators fork
//! only while they split, and fold their last pieces (a quarter of the
//! whole, on two threads) without forking; so Background work is told that
//! its halves migrated ([`FnContext::migrated`]), and rayon splits it down
//! to its items (or to `with_min_len`): a High task then waits about one
//! item of the batch per worker. Normal-priority rayon code is split as
//! rayon splits it, and more urgent work gets in between its pieces.
//!
//! # Where it differs from rayon
//!
//! Everything rayon-core 1.13 documents holds, except:
//!
//! * Of the halves a thread's `join`s leave pending, one is offered to
//!   idle threads at a time: the oldest (the largest); the next oldest once
//!   it was taken. rayon offers every second half at once.
//! * A worker waiting in a `join` or at a scope's end runs only the work
//!   it waits for, never unrelated queued jobs (rayon runs any). When every
//!   worker of a pool waits, rt starts a *compensating* thread, so waits
//!   across pools (`a.install(|| b.install(|| a.install(..)))`) complete:
//!   such a thread has an index from [`current_num_threads`] up, runs the
//!   start handler with that index, and is started by rt, not by the spawn
//!   handler.
//! * [`ScopeFifo`] keeps one queue of jobs per scope, not one per thread
//!   and scope: jobs one thread spawns start in its order, as in rayon;
//!   jobs of different threads interleave in spawn order.
//! * A broadcast runs on each of the pool's [`current_num_threads`]
//!   threads, when the thread next looks for work or waits in a join or a
//!   scope; a thread busy with a long job runs it after that job.
//! * Background work sees [`FnContext::migrated`] `true` at every fork
//!   (above).
//! * Dropping a [`ThreadPool`] lets its threads finish the queued work
//!   and exit, without waiting for them, as in rayon. A thread adopted by
//!   [`ThreadPoolBuilder::use_current_thread`] stops being part of the
//!   pool when the pool is dropped on that thread (rayon keeps it).
//! * Threads have no name unless [`ThreadPoolBuilder::thread_name`] gives
//!   one, and rt's default stack size (32 MiB of address space) unless
//!   [`ThreadPoolBuilder::stack_size`] sets one (rayon leaves the
//!   platform's). [`max_num_threads`] is rt's limit, 4096.
//! * A job spawned into a pool that is shut down (only rt's global runtime
//!   can be, through rt's API) panics the caller instead of never running.
//! * [`ThreadPoolBuilder::breadth_first`] (deprecated in rayon) has no
//!   effect.
//!
//! # Proof
//!
//! The crate's tests are rayon-core 1.13's own: its 112 unit and
//! integration tests (`tests/ported_*.rs`, ported to the public API; they
//! pass against the real rayon-core too) and its `compile_fail` doc tests;
//! none is left out. `cargo xtask rayon-compat` runs, with the patch
//! applied, rayon 1.12's own test suite (its unit tests and `tests/`),
//! rayon-core 1.13's `tests/` directory unchanged, and the test suites of
//! indexmap 2.14.2, hashbrown 0.17.2 and ndarray 0.15.6 with their `rayon`
//! features: 1,149 tests, all passing, none skipped (3 are ignored
//! upstream).

#![warn(missing_docs)]
#![deny(missing_debug_implementations)]

mod broadcast;
mod builder;
mod compile_fail;
mod current;
mod error;
mod join;
mod registry;
mod scope;
mod spawn;
mod thread_pool;

pub use broadcast::{broadcast, spawn_broadcast};
#[allow(deprecated)]
pub use builder::{initialize, Configuration};
pub use builder::{ThreadBuilder, ThreadPoolBuilder};
pub use current::{
    current_num_threads, current_thread_has_pending_tasks, current_thread_index, max_num_threads,
    yield_local, yield_now, Yield,
};
pub use error::ThreadPoolBuildError;
pub use join::{join, join_context, FnContext};
pub use rt_core::BroadcastContext;
pub use scope::{in_place_scope, in_place_scope_fifo, scope, scope_fifo, Scope, ScopeFifo};
pub use spawn::{spawn, spawn_fifo};
pub use thread_pool::ThreadPool;
