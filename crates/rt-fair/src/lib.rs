//! A single-threaded async executor with weighted fair queues scheduled by
//! EEVDF, for a shard-per-core service that must keep foreground latency flat
//! while background work (compaction, flushing, scans) soaks up spare CPU.
//!
//! It is an executor loop, not a runtime: it runs *inside* any async runtime
//! (for example a tokio current-thread runtime's `LocalSet`) and its tasks
//! use that runtime's timers and I/O; or it runs standalone with
//! [`FairExecutor::block_on`]. Tasks need not be `Send`.
//!
//! ```
//! use rt_fair::{yield_maybe, FairExecutorBuilder, JoinError};
//! use std::rc::Rc;
//!
//! #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
//! enum Class { Foreground, Background }
//!
//! let executor = FairExecutorBuilder::new()
//!     .with_queue(Class::Foreground, 8) // 8/9 of the CPU when both are busy
//!     .with_queue(Class::Background, 1)
//!     .build()?;
//! let fg = executor.queue(Class::Foreground).unwrap();
//! let bg = executor.queue(Class::Background).unwrap();
//!
//! let compaction = bg.spawn(async {
//!     let mut merged = 0u64;
//!     for _ in 0..1_000 {
//!         merged += 1;          // some CPU work ...
//!         yield_maybe().await;  // ... and a cheap preemption point
//!     }
//!     merged
//! });
//! let shared = Rc::new(41);    // !Send state is fine
//! let request = fg.spawn(async move { *shared + 1 });
//! let crash = fg.spawn(async { panic!("bad request") });
//!
//! let (compaction, request, crash) =
//!     executor.block_on(async { (compaction.await, request.await, crash.await) });
//! assert_eq!(compaction, Ok(1_000));
//! assert_eq!(request, Ok(42));
//! assert_eq!(crash, Err(JoinError::Panicked("bad request".into())));
//! let stats = executor.stats();
//! assert_eq!(stats.queue(Class::Foreground).unwrap().finished, 2);
//! # Ok::<(), rt_fair::BuildError>(())
//! ```
//!
//! # How it works
//!
//! ```text
//!   any thread                         the executor's thread
//!   ──────────                         ─────────────────────
//!   waker.wake() ─┐                    run_until / block_on loop:
//!   (timer, I/O,  │  Arc<Header>        1. drain wake list ──► per-queue FIFO
//!   other thread) ├─► Mutex<VecDeque> ─┘   (an idle queue rejoins: v = max(v, V - c/w))
//!   spawn() ──────┘   wake list        2. pick a queue by EEVDF
//!        │                             3. pop its oldest task, poll it once,
//!        └─ queue would preempt the       charge the poll's time to the queue
//!           running one? note when        (v += t / w)
//!           (read by yield_maybe)      4. host due? return Pending to the host
//!        └─ executor asleep? wake host    nothing runnable? sleep until a wake
//! ```
//!
//! Futures live in an arena (`Rc`/`RefCell`) on the executor's thread and are
//! only ever touched there. A waker holds an `Arc<Header>`: the task's slot
//! index, its queue and an atomic state word. Waking from any thread sets the
//! header's `SCHEDULED` bit and, if it was clear, pushes the header onto the
//! shared wake list and wakes the host (or unparks the `block_on` thread) if
//! the executor sleeps. Only indices and flags cross threads, so no `unsafe`
//! is needed anywhere.
//!
//! # Scheduling: queue-level EEVDF
//!
//! Tasks inside a queue run first-in first-out. Between queues the executor
//! uses *Earliest Eligible Virtual Deadline First* (I. Stoica and H.
//! Abdel-Wahab, "Earliest Eligible Virtual Deadline First: A Flexible and
//! Accurate Mechanism for Proportional Share Resource Allocation", Technical
//! Report TR-95-22, Old Dominion University, 1995), with each queue as one
//! client. The executor measures every poll with [`std::time::Instant`] (on
//! one thread, a poll's wall time is the CPU time it used) and charges it to
//! the polled task's queue. For a queue *i* of weight *wᵢ*:
//!
//! * **Virtual runtime** *vᵢ*: CPU time the queue received divided by its
//!   weight; a poll of *t* ns advances it by *t / wᵢ*.
//! * **Virtual time** *V*: the weighted average of the virtual runtimes of
//!   the *active* queues (those with runnable tasks),
//!   *V = Σ wⱼ vⱼ / Σ wⱼ*. It is where a queue would be had it received
//!   exactly its share.
//! * **Lag** *lagᵢ = wᵢ (V − vᵢ)*: the service the queue is owed (positive)
//!   or has received in advance (negative).
//! * **Eligibility**: a queue is eligible when *lagᵢ ≥ 0*, that is
//!   *vᵢ ≤ V*.
//! * **Virtual deadline** *dᵢ = vᵢ + s / wᵢ*, set when the queue starts a
//!   request of one time slice *s* ([`FairExecutorBuilder::with_time_slice`],
//!   1 ms by default): the virtual time by which the request should be
//!   served. Heavier queues get nearer deadlines.
//!
//! After every poll the executor picks the queue to poll next: the queue
//! that ran last keeps the CPU until its slice is used up, unless another
//! eligible queue has an earlier virtual deadline; otherwise, among the
//! eligible queues, the one with the earliest virtual deadline. (Some queue
//! is always eligible: the one with the smallest virtual runtime.) A queue
//! whose last task went to sleep stops competing; when it has runnable tasks
//! again it **rejoins at** *vᵢ = max(vᵢ, V − c / wᵢ)*, where *c* is the
//! rejoin credit ([`FairExecutorBuilder::with_rejoin_credit`], 8 ms by default):
//! it keeps a debt, and of the service it fell behind while idle it keeps at
//! most *c*, so a queue idle for a minute cannot then monopolise the CPU.
//! While no queue has runnable tasks, *V* stays where it was at the last
//! poll: the lowest virtual runtime among the queues that were active then,
//! so queues that return to an executor that idled for a moment come back
//! as they left, and one that was away for long still keeps no more than
//! *c* of what the others ran before the executor went idle (`EEVDF.md`,
//! "The clock").
//! A queue that rejoins *c* behind stays eligible for exactly its next *c*
//! of service (its lag shrinks as it runs), so a foreground queue woken with
//! a burst of work serves up to *c* of it before a busy background queue
//! gets its next turn. Over any interval in which queues stay busy, their
//! CPU times are proportional to their weights, to within one slice plus one
//! poll (plus the credit of a queue that rejoined in it), at every weight
//! and however long the executor runs.
//!
//! The scheduler itself is the workspace's one EEVDF, [`rt_queue::eevdf`],
//! which the runtime's weighted priority classes use too; this executor
//! uses it with time slices as requests ([`rt_queue::eevdf::Request::Slice`]),
//! its rejoin credit, and its preemption windows. The arithmetic, and why
//! it is exact (virtual runtimes are kept as exact fractions: no rounding,
//! no rebasing, every comparison exact), is in that module's design
//! document, `EEVDF.md` beside rt-queue's sources.
//!
//! **Preemption** is cooperative, at poll boundaries: a long poll cannot be
//! interrupted. When a queue becomes runnable and would rejoin eligible with
//! a deadline earlier than the running queue's, the next pick chooses it; a
//! task in a tight loop learns of it from [`yield_maybe`], which returns
//! `Pending` only when the running queue's slice is used up, such a queue
//! became runnable, or the host runtime is due a turn. Otherwise it costs a
//! clock read. To answer from any thread without the scheduler's state, the
//! executor publishes, at the start of each poll, for every idle queue the
//! interval of time in which its waking would preempt (eligibility comes
//! once the running queue has caught up with it, an earlier deadline lasts
//! until the virtual time has risen too far); a waker whose queue is inside
//! (or before) its interval records the moment, and `yield_maybe` compares
//! the clock with it. A busy queue that becomes eligible with an earlier
//! deadline while the running one runs is foreseen the same way.
//!
//! # Host runtime
//!
//! [`FairExecutor::run_until`] is a future for the host to poll. It returns
//! `Pending` (after waking itself) every [`FairExecutorBuilder::with_host_interval`]
//! (250 µs by default) or 64 polls, so the host runs its timers and I/O; and
//! when nothing is runnable, until a waker fires. Tokio's timers have 1 ms
//! resolution, so a 100 µs `tokio::time::sleep` in a task lasts about a
//! millisecond, as it would in a tokio task.
//!
//! # Latency: what the executor can and cannot do
//!
//! Preemption is cooperative, so a foreground task that becomes runnable
//! while a background poll runs waits for that poll to end: keep background
//! steps short between `yield_maybe` calls. Once a foreground queue has
//! used its rejoin credit and both queues stay busy, a weight of 8 : 1
//! owes the background 1/9 of the time, which stretches a foreground wait
//! by about 9/8; raise the ratio or the credit if that is too much. Within a queue the order is first come, first served, by the time
//! a task became runnable, so a request spawned by an accept loop that
//! itself waited in the same queue is queued twice: continuations woken in
//! between run before it. Giving the accept loop a queue of its own with a
//! high weight queues a request once (the `fair` benchmark's
//! `--fair-accept-weight` option measures this).
//!
//! # Panics and abort
//!
//! A panicking task is caught and its handle returns
//! [`JoinError::Panicked`] with the message, unless the executor was built
//! [`with_panic_propagation(true)`](FairExecutorBuilder::with_panic_propagation),
//! which re-raises the panic from `run_until`. [`JoinHandle::abort`] drops
//! the task's future at once (or right after its current poll, if it aborts
//! itself) and removes every trace of it from the executor.
//!
//! A future whose destructor panics, when dropped by `abort` or with the
//! executor, does not unwind into the caller of `abort` or of
//! `drop(executor)`: as in tokio, the panic is contained and the task's
//! handle returns [`JoinError::Panicked`] with its payload (the counters
//! still count it as aborted), with panic propagation on too (only a panic
//! of a poll leaves `run_until`). Each future is dropped on its own, so two
//! such futures dropped with the executor do not abort the process.
// Where other crates' pages link to this one when this crate's pages are
// not beside theirs (docs.rs, or `cargo doc --no-deps`, which does not wait
// for them): without it such a link would be left unresolved.
#![doc(html_root_url = "https://docs.rs/rt-fair/latest")]
#![warn(missing_docs)]
#![forbid(unsafe_code)]

mod builder;
mod context;
mod core;
mod error;
mod executor;
mod histogram;
mod join;
mod queue;
mod run;
mod shared;
mod stats;
mod sync;
mod task;
mod yield_now;

pub use builder::{
    FairExecutorBuilder, DEFAULT_HOST_INTERVAL, DEFAULT_REJOIN_CREDIT, DEFAULT_TIME_SLICE,
};
pub use error::{BuildError, JoinError, PanicMessage};
pub use executor::FairExecutor;
pub use join::JoinHandle;
pub use queue::QueueHandle;
pub use stats::{DelayStats, QueueStats, Stats};
pub use yield_now::{yield_maybe, yield_now, YieldMaybe, YieldNow};
