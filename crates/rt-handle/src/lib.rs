//! Join handles, cancellation, the type-erased job and the executor trait.
//!
//! Every execution strategy in this workspace (the work-stealing runtime, the
//! baselines, the DAG scheduler's targets) speaks the same two types:
//!
//! * a [`Job`], the unit an [`Executor`] queues and runs once, and
//! * a [`JoinHandle<T>`], through which the spawner gets the job's result.
//!
//! They share **one heap allocation** per task, its *cell*, and each holds
//! one thin pointer to it. The cell begins with a header that does not
//! depend on the task's types; after it come the closure, then its output:
//!
//! ```text
//!   Job ──────┐  one pointer each  ┌──────── JoinHandle<T>
//!  (queued)   ▼                    ▼         (caller)
//!        ┌─ Header ─────────────────────┐
//!        │ state   AtomicUsize          │  RUNNING | COMPLETE | WAITER | outcome | owners
//!        │ vtable  &'static VTable ─────┼─► run, call, drop_body, take_output,
//!        │ owner, stamp                 │   drop_output, scope, dealloc
//!        │ waiter  a joiner's thread or waker
//!        ├──────────────────────────────┤
//!        │ scope   (a scope's task)     │
//!        │ stage   Pending(F)           │
//!        │       → Empty (running)      │  owned by the runner
//!        │       → Value(T) | Panicked  │  owned by the joiner
//!        └──────────────────────────────┘
//! ```
//!
//! What needs the task's types (running the closure, moving the output
//! out, freeing the cell with its layout) goes through the header's vtable,
//! one static table per cell type, as in tokio's and async-task's tasks;
//! the protocol around it is written once, on the header.
//!
//! The runner (a worker calling [`Job::run`], or a canceller) claims the task
//! by setting `RUNNING`, stores the body's output (its value or its panic),
//! then sets `COMPLETE` with the outcome's bit and unparks the joiner if it
//! had set `WAITER`. [`JoinHandle::join`] spins briefly,
//! then registers its thread and parks. A panic in the body is caught and
//! becomes [`JoinError::Panicked`], which keeps the panic's payload
//! ([`JoinError::into_panic`]); it never unwinds into the worker. The full
//! protocol and why its orderings suffice are in `JOIN_STATE.md` beside this
//! crate's sources.
//!
//! ```
//! use rt_handle::{CancellationToken, Job, JoinError, RunOutcome};
//!
//! let token = CancellationToken::new();
//! let (job, handle) = Job::cancellable(&token, |_ctx| "never");
//! token.cancel();
//! assert_eq!(job.run(), RunOutcome::Cancelled);
//! assert_eq!(handle.join(), Err(JoinError::Cancelled));
//! ```

// Where other crates' pages link to this one when this crate's pages are
// not beside theirs (docs.rs, or `cargo doc --no-deps`, which does not wait
// for them): without it such a link would be left unresolved.
#![doc(html_root_url = "https://docs.rs/rt-handle/latest")]
#![warn(missing_docs)]

mod body_wrapper;
mod cancel;
mod completion;
mod detached_cell;
mod error;
mod executor;
mod header;
mod ids;
mod metrics;
mod offer;
mod outcome;
mod panic_message;
mod poison;
pub mod raw;
mod recycle;
mod status;
mod submit_error;
mod submitter;
mod sync;
mod task_cell;
mod termination;
mod thread_name_error;
mod token;
mod waiter;

pub use cancel::{CancellationContext, CancellationToken};
pub use error::JoinError;
pub use executor::Executor;
pub use metrics::Metrics;
pub use outcome::RunOutcome;
pub use panic_message::{PanicMessage, NON_STRING_PAYLOAD};
pub use rt_queue::Priority;
pub use status::TaskStatus;
pub use submit_error::SubmitError;
pub use submitter::{ProvidesSubmitter, Submitter};
pub use task_cell::Job;
pub use task_cell::{CancelOnDrop, JoinHandle, ScopedJoinHandle};

/// The smallest stack an executor gives its threads, in bytes: a requested
/// size below it (even 0) is raised to it. A worker's loop with a few levels
/// of fork-join and a panicking task whose backtrace is printed needs about
/// 48 KiB in a debug build (measured on x86-64 Linux); the operating
/// system's own minimum (16 KiB for Linux threads) is not enough, and a
/// thread that overflows its stack aborts the whole process. The minimum
/// leaves room for sanitizers and small tasks on top.
pub const MIN_STACK_SIZE: usize = 128 << 10;

#[cfg(all(test, not(loom)))]
mod tests;
#[cfg(all(test, not(loom)))]
mod token_tests;

#[cfg(all(test, loom))]
mod loom_cancel;
#[cfg(all(test, loom))]
mod loom_claim;
#[cfg(all(test, loom))]
mod loom_join;
#[cfg(all(test, loom))]
mod loom_ownership;
#[cfg(all(test, loom))]
mod loom_support;
#[cfg(all(test, loom))]
mod loom_told;
#[cfg(all(test, loom))]
mod loom_waker;
