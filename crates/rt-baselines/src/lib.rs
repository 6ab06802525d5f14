//! Three deliberately simple execution strategies behind the workspace's
//! [`Executor`](rt_handle::Executor) trait, to measure the real runtime
//! against and to stand in for it where its machinery is not wanted.
//!
//! ```text
//!  GlobalQueuePool                ThreadPerTask             SingleThreaded
//!
//!  spawn ─┐                       spawn ──▶ new thread      spawn ──▶ run now,
//!         ▼                       spawn ──▶ new thread                on the
//!  ┌─ Mutex ─────────────┐        spawn ──▶ new thread                caller's
//!  │ [High][Normal][Bg]  │                                            thread
//!  └─────────────────────┘
//!     │ Condvar │ notify_one
//!     ▼    ▼    ▼
//!  worker worker worker
//! ```
//!
//! * [`GlobalQueuePool`]: a fixed set of workers sharing one mutex-guarded
//!   FIFO per priority. It is *the* baseline for the work-stealing runtime:
//!   same priorities and worker count, but every push and pop contends on one
//!   lock. Where it keeps up (few, long tasks), stealing buys nothing; where
//!   it falls behind (many small tasks, nested spawns), the gap is what the
//!   runtime's per-worker queues are worth.
//! * [`ThreadPerTask`]: a new OS thread for every task, no queue. The right
//!   baseline for "do I need a pool at all?": fine for a handful of long,
//!   blocking tasks, ruinous for many small ones.
//! * [`SingleThreaded`]: runs each task inline, inside `spawn`. The floor for
//!   per-task overhead (one allocation, no synchronisation to speak of) and
//!   the "no parallelism" reference that speed-ups are computed against. It
//!   is also handy in tests, being fully deterministic.
//!
//! All three share the runtime's semantics: a panicking task becomes
//! [`JoinError::Panicked`](rt_handle::JoinError::Panicked) and never takes a
//! thread down; a task whose token was cancelled before it started never
//! runs; `shutdown` (also run on drop) refuses new work, finishes the work it
//! already accepted, including work spawned by that work, then waits for its
//! threads, except when called from one of its own tasks, where it starts the
//! shutdown without waiting.
//!
//! ```
//! use std::sync::Arc;
//! use rt_baselines::{GlobalQueuePool, SingleThreaded, ThreadPerTask};
//! use rt_handle::Executor;
//!
//! /// Sums 0..n by spawning one task per number, on any strategy.
//! fn sum<E: Executor>(executor: &E, n: u64) -> u64 {
//!     let handles: Vec<_> = (0..n).map(|i| executor.spawn(move || i)).collect();
//!     handles.into_iter().map(|h| h.join().unwrap()).sum()
//! }
//!
//! assert_eq!(sum(&GlobalQueuePool::new(2)?, 100), 4950);
//! assert_eq!(sum(&ThreadPerTask::new(), 10), 45);
//! assert_eq!(sum(&SingleThreaded::new(), 100), 4950);
//! # Ok::<(), rt_baselines::BuildError>(())
//! ```

// Where other crates' pages link to this one when this crate's pages are
// not beside theirs (docs.rs, or `cargo doc --no-deps`, which does not wait
// for them): without it such a link would be left unresolved.
#![doc(html_root_url = "https://docs.rs/rt-baselines/latest")]
#![warn(missing_docs)]
#![forbid(unsafe_code)]

mod build_error;
mod global_queue;
mod membership;
mod single_threaded;
mod sync;
mod thread_per_task;

pub use build_error::BuildError;
pub use global_queue::GlobalQueuePool;
pub use single_threaded::SingleThreaded;
pub use thread_per_task::ThreadPerTask;
