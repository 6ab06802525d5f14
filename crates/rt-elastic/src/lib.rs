//! An elastic thread pool: `core_threads` workers started lazily, growth
//! toward `max_threads` when a bounded queue overflows, and shrinking back
//! after a keep-alive. The classic core/maximum executor, behind the same
//! [`Executor`] trait, join handles and errors as the work-stealing runtime.
//!
//! ```text
//!   spawn(task) ──► pool lock
//!                     │
//!          live < core (or no worker at all)? ──yes──► start worker w, w runs task
//!                     │ no
//!          queue has room? ─────────────────────yes──► queue[priority] ──► wake one idle worker
//!                     │ no (bounded queue full)
//!          live < max? ─────────────────────────yes──► start worker w, w runs task
//!                     │ no                              (the task that did not fit)
//!          saturated: try_spawn → Err(Saturated(task)); spawn blocks until room
//!
//!   worker loop:  run task ─► pop queue (High → Normal → Background, FIFO each)
//!                   ├─ got one ─► run it, repeat
//!                   └─ empty ──► closed?  exit
//!                                may time out (live > core, or core_timeout)?
//!                                   idle for keep_alive already ─► exit (shrink)
//!                                   else wait on the condvar, at most until then
//!                                else wait on the condvar
//! ```
//!
//! # Mechanism
//!
//! One mutex guards all of the pool's state: a FIFO per [`Priority`], the
//! worker counts and the task counters. Idle workers wait on one condition
//! variable; a push wakes one of them only if some worker is idle. This is
//! deliberately the simple design: the pool is meant for tasks that block
//! (file or network I/O, a database call, a subprocess) or run for
//! milliseconds, where a lock round trip per task is noise. Workers hold the
//! lock only to take a task or to count one; tasks, hooks, and the
//! destructors of cancelled closures run with it released.
//!
//! A new worker is started on the submitting thread, with the task that
//! caused it as its first task (so a task that overflowed the queue runs at
//! once, ahead of older queued tasks, whatever its priority). Each worker
//! gets the next index of a counter that never goes back, so indexes stay
//! unique while workers come and go: worker `i` is the thread
//! `{thread_name}-{i}`, and the hooks and [`current_worker`] report `i`.
//!
//! A task submitted by one of the pool's own tasks is never refused or
//! blocked: it is queued, past the bound if the queue is full (after `stop`
//! it is accepted and cancelled at once). So tasks that fan out cannot
//! deadlock a saturated pool, and `shutdown` still runs what they spawn
//! while it drains.
//!
//! If the OS refuses to start a worker at run time, the task is queued if
//! the queue has room and a live worker can take it; otherwise the pool
//! counts as saturated (`try_*` hand the task back, blocking calls retry
//! every few milliseconds).
//!
//! # Tasks that join tasks of their own pool
//!
//! A task that joins ([`JoinHandle::join`]) a task of its own pool that
//! has not started runs it at once, inline, on its own worker, as a task of
//! rt-core's runtime does: otherwise a task that spawns a task and joins it
//! (tokio's `spawn_blocking` from inside `spawn_blocking`) would block the
//! only worker of a pool at `core_threads(1)` for a task queued behind it,
//! since a task's own spawn is queued rather than growing the pool. The task
//! runs nested inside the joining task (and inside its `before_task` and
//! `after_task` hooks; it gets none of its own) and is counted once: its
//! queue entry, when a worker takes it, counts nothing. A joined task that
//! already runs on another worker is waited for, blocking; after
//! [`stop`](ElasticPool::stop) a joined task that has not started is
//! cancelled instead. Awaiting a handle (`block_on`) inside a task is not
//! helped this way: it blocks the worker until another one runs the task.
//!
//! ```
//! use std::sync::Arc;
//! use rt_elastic::ElasticPool;
//!
//! let pool = Arc::new(ElasticPool::builder().core_threads(1).max_threads(1).build()?);
//! let inner = Arc::clone(&pool);
//! let nested = pool.spawn(move || inner.spawn(|| "inner").join());
//! assert_eq!(nested.join()?, Ok("inner"));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! # Runtime or elastic pool?
//!
//! | | `rt_core::Runtime` | [`ElasticPool`] |
//! |---|---|---|
//! | threads | fixed, started at build | `core..=max`, started on demand, retired when idle |
//! | queues | per-worker deques, work stealing, lock-free | one mutex-guarded queue per priority |
//! | best for | short CPU-bound tasks, nested fan-out | bursty or blocking work |
//! | idle cost | parked workers | no threads at all with `core_timeout` |
//!
//! Use the runtime for computation: it keeps one thread per core busy and
//! costs well under a microsecond per task. Use the elastic pool when tasks
//! *wait*: extra threads then add throughput, and a burst can borrow threads
//! up to `max_threads` and give them back afterwards.
//!
//! # Example
//!
//! ```
//! use std::time::Duration;
//! use rt_elastic::{ElasticPool, JoinError, SubmitError};
//!
//! let pool = ElasticPool::builder()
//!     .core_threads(2)
//!     .max_threads(8)
//!     .queue_capacity(32)
//!     .keep_alive(Duration::from_secs(10))
//!     .thread_name("blocking")
//!     .build()?;
//!
//! let reply = pool.spawn(|| {
//!     std::thread::sleep(Duration::from_millis(5)); // stands in for blocking I/O
//!     "pong"
//! });
//! assert_eq!(reply.join(), Ok("pong"));
//!
//! let oops = pool.spawn(|| -> u8 { panic!("bad input") });
//! assert_eq!(oops.join(), Err(JoinError::Panicked("bad input".into()))); // worker survives
//!
//! pool.shutdown();
//! assert!(matches!(pool.try_spawn(|| ()), Err(SubmitError::Shutdown(_))));
//! let m = pool.metrics();
//! assert_eq!(m.submitted, m.completed + m.panicked + m.cancelled);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

// Where other crates' pages link to this one when this crate's pages are
// not beside theirs (docs.rs, or `cargo doc --no-deps`, which does not wait
// for them): without it such a link would be left unresolved.
#![doc(html_root_url = "https://docs.rs/rt-elastic/latest")]
#![warn(missing_docs)]

mod build_error;
mod builder;
mod config;
mod current;
mod handoff;
mod hooks;
mod pool;
mod queue;
mod shared;
mod state;
mod stats;
mod submitter;
mod sync;
mod worker;

#[cfg(all(test, loom))]
mod loom_inline;
#[cfg(all(test, loom))]
mod loom_retire;

pub use build_error::BuildError;
pub use builder::{ElasticBuilder, DEFAULT_KEEP_ALIVE, DEFAULT_THREAD_NAME};
pub use pool::ElasticPool;
pub use stats::ElasticStats;
pub use submitter::ElasticSubmitter;

pub use rt_handle::{
    CancelOnDrop, CancellationContext, CancellationToken, Executor, Job, JoinError, JoinHandle,
    Metrics, ProvidesSubmitter, RunOutcome, SubmitError, Submitter, TaskStatus,
};

/// The index of the elastic-pool worker the calling thread is, in whichever
/// pool it belongs to; `None` on any other thread (and in the
/// `after_worker_stop` hook, which runs after the worker left its loop).
///
/// ```
/// use rt_elastic::ElasticPool;
///
/// let pool = ElasticPool::builder().core_threads(1).build()?;
/// assert_eq!(rt_elastic::current_worker(), None);
/// assert_eq!(pool.spawn(rt_elastic::current_worker).join()?, Some(0));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn current_worker() -> Option<usize> {
    current::index()
}
pub use rt_queue::Priority;
