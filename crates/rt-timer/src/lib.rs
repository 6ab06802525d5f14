//! A delayed-task scheduler: one timer thread, a deadline heap, handles that
//! can cancel.
//!
//! ```text
//!  schedule(delay, f) ─┐
//!  schedule_at(t, f) ──┼─► heap of entries, earliest (deadline, seq) first ─► ScheduledHandle<T>
//!  schedule_on(&rt,..)─┘   one Mutex + Condvar; rung for a new earliest entry,   join, status,
//!                          a cancelled earliest entry, shutdown and stop         cancel
//!                                   │
//!            timer thread, looking  │ at the earliest entry:
//!                                   ├─ none ──────────── wait, no timeout (exit if shut down)
//!                                   ├─ cancelled ─────── pop it, drop it
//!                                   ├─ now < deadline ── wait_timeout(deadline − now), look again
//!                                   └─ now ≥ deadline ── pop, unlock, fire:
//!                                         schedule    ─► job.run() here, on the timer thread
//!                                         schedule_on ─► submitter.try_submit(priority, job);
//!                                                        refused ⇒ handle reports Rejected
//! ```
//!
//! A [`DelayedTaskScheduler`] owns **one** timer thread for any number of
//! pending callbacks. Each callback becomes an entry in a binary heap keyed
//! by `(deadline, sequence number)`, so the earliest deadline fires first and
//! equal deadlines fire in submission order. The timer thread sleeps on a
//! condition variable until the earliest deadline; with nothing pending it
//! sleeps with no timeout at all. It is woken early only when something
//! changes what it should do: a new entry earlier than every other, a
//! cancellation, a shutdown. An entry fires only once `Instant::now()` has
//! reached its deadline, so **no callback ever starts early**; how late they
//! start is measured in this workspace's README.
//!
//! What firing means depends on how the callback was scheduled:
//!
//! * [`schedule`](DelayedTaskScheduler::schedule) and
//!   [`schedule_at`](DelayedTaskScheduler::schedule_at) run it on the timer
//!   thread. Keep such callbacks short: the next deadline waits for them.
//! * [`schedule_on`](DelayedTaskScheduler::schedule_on) and
//!   [`schedule_at_on`](DelayedTaskScheduler::schedule_at_on) hand it, at its
//!   deadline, to an executor through that executor's weak, non-blocking
//!   [`Submitter`]. An executor that is gone, shut down or saturated by then
//!   refuses it, and its handle reports [`JoinError::Rejected`]; the timer
//!   thread never waits for it.
//!
//! Either way the callback is a [`Job`] whose
//! [`ScheduledHandle`] wraps the workspace's [`JoinHandle`]: `cancel()`
//! succeeds until the callback starts (on an executor: until it starts
//! there), a panic is caught and reported as [`JoinError::Panicked`], and the
//! errors are the same [`JoinError`] and [`SubmitError`] every executor
//! uses, re-exported here.
//!
//! A callback may join another callback's handle, but not one that only
//! its own timer thread can run: a callback of the same scheduler still
//! waiting for its deadline, or itself. Such a join would block the one
//! thread that must run what it waits for, so it panics with a message
//! saying so ([`ScheduledHandle::join`]), as a task of `rt_core`'s runtime
//! joining itself does. A callback that has finished, or that was handed to
//! an executor, is joined as anywhere else.
//!
//! [`shutdown`](DelayedTaskScheduler::shutdown) refuses new callbacks and
//! lets the accepted ones fire at their deadlines;
//! [`stop`](DelayedTaskScheduler::stop) also cancels the pending ones and
//! counts them. Dropping the scheduler stops it.
//!
//! ```
//! use std::time::Duration;
//! use rt_core::Runtime;
//! use rt_timer::{DelayedTaskScheduler, JoinError};
//!
//! let rt = Runtime::new(2)?;
//! let timer = DelayedTaskScheduler::builder().thread_name("timer").build()?;
//!
//! let tick = timer.schedule(Duration::from_millis(5), || "on the timer thread")?;
//! let heavy = timer.schedule_on(&rt, Duration::from_millis(5), || (1..=1000u64).sum::<u64>())?;
//! let never = timer.schedule(Duration::from_secs(60), || unreachable!())?;
//! assert!(never.cancel());
//!
//! assert_eq!(tick.join()?, "on the timer thread");
//! assert_eq!(heavy.join()?, 500_500);
//! assert_eq!(never.join(), Err(JoinError::Cancelled));
//!
//! timer.shutdown();
//! timer.wait_termination();
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

// Where other crates' pages link to this one when this crate's pages are
// not beside theirs (docs.rs, or `cargo doc --no-deps`, which does not wait
// for them): without it such a link would be left unresolved.
#![doc(html_root_url = "https://docs.rs/rt-timer/latest")]
#![warn(missing_docs)]
#![forbid(unsafe_code)]

mod build_error;
mod builder;
mod entry;
mod handle;
mod scheduler;
mod shared;
mod sync;
mod timer_thread;

pub use build_error::BuildError;
pub use builder::{Builder, DEFAULT_THREAD_NAME};
pub use handle::ScheduledHandle;
pub use scheduler::DelayedTaskScheduler;

pub use rt_handle::{
    CancellationContext, CancellationToken, Executor, Job, JoinError, JoinHandle,
    ProvidesSubmitter, SubmitError, Submitter, TaskStatus,
};
pub use rt_queue::Priority;
