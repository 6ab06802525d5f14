//! The work-stealing runtime: a fixed set of workers that run tasks by
//! priority, steal from each other when idle, and sleep without polling.
//!
//! ```text
//!   Runtime::spawn ─┬─ from a worker of this runtime ──► that worker's own deque
//!                   └─ from any other thread ─► gate ─► injector[priority]
//!                                                  │
//!                              doorbell rings ◄────┘ (only if a worker sleeps,
//!                                                     none searches, and no
//!                                                     woken one is on its way
//!                                                     for a short queue)
//!
//!   worker loop:  find (own deque → injector, per priority H→N→B; then peers)
//!                   ├─ found ─► run it as a unit, count, repeat
//!                   └─ empty ─► search (spin, yield) ─► register with the
//!                               doorbell ─► re-check gate and queues ─► park / exit
//! ```
//!
//! The crate's `ARCHITECTURE.md` follows one task from `spawn` to
//! completion, file by file, names every file's job and defines the words
//! used here and in the design documents beside the code:
//! `idle/IDLE_SIGNAL.md` (the doorbell), `idle/COMPENSATION.md` (a free
//! worker for every runtime), `idle/WAKE_PLACEMENT.md`, `submit/SHUTDOWN.md`
//! (the gate and the exit condition), `fork_join/JOIN_HELPING.md` (what a
//! waiting worker may run, and why it cannot deadlock), `fork_join/FORKS.md`
//! (what a fork costs, beside rayon's, chili's and forte's).
//!
//! # Search order
//!
//! For each priority from High to Background a worker looks in its own deque
//! and then in that priority's global injector (taking a batch); only when
//! all are empty does it try one steal from each peer, High first, from a
//! rotating start (see [`rt_queue`]). A High task therefore starts as soon as
//! any worker finishes its current task. That is [`PriorityPolicy::Strict`],
//! the default; under [`PriorityPolicy::Weighted`]
//! ([`Builder::priority_policy`]) each worker looks at the classes in the
//! order its weighted-share scheduler gives (EEVDF over the three classes,
//! charged with each task's measured run time), so no class with work
//! starves; `rt-queue`'s `WEIGHTED_SHARES.md` has the details.
//!
//! A running task is never interrupted, but a long computation can let
//! more urgent work go first: at a [`checkpoint`] (rt-par's iterators
//! reach one every ~20 µs) a queued task of a more urgent class than the
//! running code's runs at once, on that worker.
//!
//! # The doorbell
//!
//! A worker that finds no task counts itself as *searching* while it spins
//! and yields; then it stops searching, *registers* as a sleeper, issues a
//! `SeqCst` fence, and re-checks every queue before it parks. A pusher makes
//! its task visible, issues a `SeqCst` fence, and reads both counts: if a
//! worker is searching, that searcher will find the task (or, if it finds
//! other work and was the last searcher, rings for one more worker); if
//! nobody searches and somebody sleeps, the pusher wakes exactly one
//! sleeper, which counts as searching once it is back from its wait. While
//! a woken worker is on its way, a push leaves a short queue (up to 32
//! tasks per such worker) to it and rings another sleeper for a longer
//! one: a burst of a few tasks costs one wake-up, a long stream wakes the
//! workers side by side. Of two `SeqCst` fences
//! one comes first, so either the sleeper's re-check sees the task or the
//! pusher sees the registration: no wake-up is lost, and a push into a busy
//! pool costs a fence and two loads. An idle runtime parks every worker and
//! uses no CPU. States, steps and proof: `idle/IDLE_SIGNAL.md`; the loom
//! models run the very loop the workers run (`next_task`, `idle/mod.rs`).
//!
//! # Wake placement (opt-in)
//!
//! Linux places a woken worker on its waker's CPU or its last one; when
//! both are busy it can wait there behind a running worker for milliseconds
//! while another CPU is idle. With [`Builder::move_stacked_wakes`] on, a
//! worker that finishes a task while a peer it rang over 200 µs ago has not
//! run narrows that peer's current CPU affinity by its own CPU, which moves
//! the peer at once if it was stacked there; the peer puts its mask back
//! when it runs. Off by default, since it changes the affinity of the
//! pool's threads; details: `idle/WAKE_PLACEMENT.md`.
//!
//! # Shutdown
//!
//! External submissions pass a gate: one word holding a `CLOSED`
//! bit and the number of submitters between their check and their push.
//! `shutdown` closes the gate and wakes every worker. A worker exits only
//! when the gate reads exactly `CLOSED` (no push in flight), every queue is
//! empty after it registered as idle, and *every* worker is registered idle,
//! so no task is running that could still spawn. That last worker wakes the
//! others, and all exit; `shutdown` joins them. Every accepted task, and
//! every task it spawned, has run by then. Details: `submit/SHUTDOWN.md`.
//!
//! # Tasks that wait for tasks
//!
//! [`join`], [`scope`] and a join on a [`JoinHandle`] inside a task never
//! block a worker uselessly and never run unrelated work while they wait:
//! a waiting worker runs only the work it waits for (what it pushed since
//! the wait began, the awaited task itself if it has not started, and the
//! work of the worker running the awaited work); with nothing to do it
//! parks, and if every worker of the runtime is then waiting, a
//! compensating thread keeps the runtime's queued work moving. Details:
//! `fork_join/JOIN_HELPING.md`, `idle/COMPENSATION.md`.
//!
//! # Observing
//!
//! Hooks around tasks, CPU timing (and weighted shares, which use it),
//! latency histograms, the trace and wake placement are all behind one
//! flag, read once per task: with none of them on, a worker pays one load
//! and one branch per task for all of them.
//!
//! # From async code
//!
//! A [`JoinHandle`] is a `Future`: `rt.spawn(work).await` hands CPU work to
//! the pool and resumes when it is done, without blocking the async
//! runtime's thread; [`JoinHandle::cancel_on_drop`] makes a timeout or a
//! `select!` that gives up cancel work still queued. These calls *block*
//! their thread and must not be made on an async runtime's thread:
//! `JoinHandle::join` (await the handle instead), [`Runtime::join`],
//! [`Runtime::scope`] and [`Runtime::install`] from outside the pool (wrap
//! them in a spawned task and await its handle), `rt_dag::run_graph` (await
//! `rt_dag::run_graph_async`), and [`Runtime::shutdown`],
//! [`Runtime::wait_termination`] and dropping the last `Runtime` (call
//! them from `spawn_blocking`, or at the end of `main`).
//!
//! ```
//! # let rt = rt_core::Runtime::new(2)?;
//! let checksum = futures::executor::block_on(async {
//!     // In a tokio handler: `rt.spawn(...).await`.
//!     rt.spawn(|| (0..1_000u64).sum::<u64>()).await
//! })?;
//! assert_eq!(checksum, 499_500);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
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

// Where other crates' pages link to this one when this crate's pages are
// not beside theirs (docs.rs, or `cargo doc --no-deps`, which does not wait
// for them): without it such a link would be left unresolved.
#![doc(html_root_url = "https://docs.rs/rt-core/latest")]
#![warn(missing_docs)]

mod broadcast;
mod build_error;
mod builder;
mod fork_join;
mod global;
mod idle;
mod observe;
mod runtime;
mod shared;
mod submit;
mod sync;
mod worker;

pub use broadcast::{broadcast, spawn_broadcast, BroadcastContext};
pub use build_error::BuildError;
pub use builder::{
    Builder, DEFAULT_STACK_SIZE, DEFAULT_THREAD_NAME, MAX_COMPENSATING_THREADS, MAX_THREADS,
};
pub use fork_join::checkpoint::checkpoint;
pub use fork_join::install::with_priority;
pub use fork_join::join::{join, join_context};
pub use fork_join::scope::{scope, Scope};
pub use fork_join::stack_job::FnContext;
pub use fork_join::yield_now::{yield_local, yield_now, Yield};
pub use global::{
    current_num_threads, current_priority, current_thread_has_pending_tasks, current_thread_index,
    spawn, spawn_with_priority,
};
pub use observe::latency::{ClassLatency, LatencySummary};
pub use observe::stats::{PoolStats, WorkerStats};
pub use observe::trace::{IdleInterval, Source, Trace, TracedTask, MAX_TRACE_EVENTS_PER_WORKER};
pub use runtime::Runtime;
pub use submit::submitter::RuntimeSubmitter;
pub use worker::thread::WorkerThread;

pub use rt_handle::MIN_STACK_SIZE;
pub use rt_handle::{
    CancelOnDrop, CancellationContext, CancellationToken, Executor, JoinError, JoinHandle, Metrics,
    PanicMessage, ProvidesSubmitter, ScopedJoinHandle, SubmitError, Submitter, TaskStatus,
};
pub use rt_queue::{PerClass, Priority, PriorityPolicy};
