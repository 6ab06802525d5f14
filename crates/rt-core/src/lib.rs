//! The work-stealing runtime: a fixed set of workers that run tasks by
//! priority, steal from each other when idle, and sleep without polling.
//!
//! ```text
//!   Runtime::spawn ─┬─ from a worker of this runtime ──► that worker's own deque
//!                   └─ from any other thread ─► SubmitGate ─► injector[priority]
//!                                                  │
//!                        IdleSignal::notify_one ◄──┘ (rings only if a worker sleeps)
//!
//!   worker loop:  find (own deque → injector, per priority H→N→B; then peers)
//!                   ├─ found ─► run, count, repeat
//!                   └─ empty ─► spin, yield ─► register on IdleSignal
//!                               ─► re-check gate and queues ─► park / exit
//! ```
//!
//! # Search order
//!
//! For each priority from High to Background a worker looks in its own deque
//! and then in that priority's global injector (taking a batch); only when
//! all are empty does it try one steal from each peer, High first, from a
//! rotating start (see [`rt_queue`]). A High task therefore starts as soon as
//! any worker finishes its current task.
//!
//! # The doorbell
//!
//! An idle worker spins briefly, then *registers* on the `IdleSignal`,
//! issues a `SeqCst` fence, and re-checks every queue before it parks. A
//! pusher makes its task visible, issues a `SeqCst` fence, and reads the
//! number of registered workers: only if it is non-zero does it take the lock
//! and wake exactly one. Between two `SeqCst` fences one must come first, so
//! either the worker's re-check sees the task or the pusher sees the
//! registration: no wake-up is lost, and a push into a busy pool costs a
//! fence and a load. An idle runtime parks every worker and uses no CPU.
//! Details: `IDLE_SIGNAL.md`.
//!
//! # Wake placement
//!
//! Linux places a woken worker on its waker's CPU or its last one; when
//! both are busy it can wait there behind a running worker for milliseconds
//! while another CPU is idle. A worker that finishes a task while a peer it
//! knows was rung over 200 µs ago has not run yet narrows that peer's CPU
//! affinity to exclude its own CPU, which moves the peer at once if it was
//! stacked there; the peer restores its affinity when it runs. On this
//! project's 2-vCPU VM this took bursts after idle from 3.5 ms (as slow as
//! inline) to 2.0 ms. Off with [`Builder::move_stacked_wakes`]; details:
//! `WAKE_PLACEMENT.md`.
//!
//! # Shutdown
//!
//! External submissions pass a `SubmitGate`: one word holding a `CLOSED`
//! bit and the number of submitters between their check and their push.
//! `shutdown` closes the gate and wakes every worker. A worker exits only
//! when the gate reads exactly `CLOSED` (no push in flight), every queue is
//! empty after it registered as idle, and *every* worker is registered idle,
//! so no task is running that could still spawn. That last worker wakes the
//! others, and all exit; `shutdown` joins them. Every accepted task, and
//! every task it spawned, has run by then. Details: `SHUTDOWN.md`.
//!
//! # Example
//!
//! ```
//! use rt_core::{CancellationToken, JoinError, Priority, Runtime};
//!
//! let rt = Runtime::new(2)?;
//! let squares: Vec<_> = (0..10u64).map(|i| rt.spawn(move || i * i)).collect();
//! let sum: u64 = squares.into_iter().map(|h| h.join().unwrap()).sum();
//! assert_eq!(sum, 285);
//!
//! let token = CancellationToken::new();
//! token.cancel();
//! let skipped = rt.spawn_cancellable(Priority::Background, &token, |_ctx| ());
//! assert_eq!(skipped.join(), Err(JoinError::Cancelled));
//!
//! let panicked = rt.spawn(|| -> u8 { panic!("oops") });
//! assert_eq!(panicked.join(), Err(JoinError::Panicked("oops".into())));
//!
//! rt.shutdown();
//! let m = rt.metrics();
//! assert_eq!(m.submitted, m.completed + m.panicked + m.cancelled);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

#![warn(missing_docs)]

mod builder;
mod hooks;
mod idle_signal;
mod metrics;
mod queue_capacity;
mod runtime;
mod shared;
mod stats;
mod submit_gate;
mod submitter;
mod sync;
mod wake_placement;
mod worker;
mod worker_exits;

#[cfg(all(test, not(loom)))]
mod protocol_tests;

#[cfg(all(test, loom))]
mod loom_idle_signal;
#[cfg(all(test, loom))]
mod loom_shutdown;

pub use builder::{Builder, DEFAULT_THREAD_NAME, MAX_THREADS};
pub use metrics::Metrics;
pub use runtime::{Runtime, TrackedHandle};
pub use stats::PoolStats;
pub use submitter::RuntimeSubmitter;
pub use worker::current_worker;

pub use rt_handle::{
    BuildError, CancellationContext, CancellationToken, Executor, JoinError, JoinHandle,
    ProvidesSubmitter, SubmitError, Submitter, TaskStatus,
};
pub use rt_queue::Priority;
