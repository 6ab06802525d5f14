//! For writing an executor: what the executors of this workspace share
//! beyond the user-facing types, in one place.
//!
//! A user of an executor never needs this module. An executor author uses:
//!
//! * **Submission**: [`Job`](crate::Job) (queued, run once), [`Wait`]
//!   (whether a submission may block), the spawn methods written once as
//!   macros ([`inherent_spawn_methods!`](crate::inherent_spawn_methods),
//!   [`service_methods!`](crate::service_methods)), a weak submission
//!   handle ([`WeakSubmitter`], [`OfferNonBlocking`]).
//! * **Cancellations told at once** ([`listeners`]): an executor that
//!   registers a [`CancelListener`] counts a task cancelled while queued
//!   when it is cancelled, not when its stale queue entry is taken.
//! * **Waiting on a worker** ([`ExecutorKind`]): what a blocking join (or
//!   another wait) means on an executor's own threads, so that a join on a
//!   worker can help and a wait that could never end panics instead.
//!   Which thread works for which executor, each executor keeps itself.
//! * **Waiting off a worker**: [`SpinThenPark`], the one policy of how long
//!   a waiting thread polls before it parks, and [`Waiter`], the one type
//!   of who is woken (a parked thread or an async task's waker).
//! * **Hooks** ([`hooks`]): the lifecycle hooks and panic handler every
//!   executor's builder offers ([`hook_builder_methods!`](crate::hook_builder_methods)).
//! * **Memory**: task cells are recycled (`RECYCLING.md`); a worker about
//!   to park calls [`release_idle_memory`].
//! * **Helpers**: [`Termination`] (behind `wait_termination`),
//!   [`drop_quietly`], [`unpoison`], [`UnsafeCell`] (loom-checkable),
//!   [`available_threads`], [`panic_message`], and the checked settings of
//!   a worker thread ([`ThreadSettings`], [`check_thread_name`],
//!   [`MIN_STACK_SIZE`]).
//! * **What a work-stealing scheduler asks of a task** ([`JobControl`],
//!   [`TaskRef`]): who accepted it ([`PoolId`]), who runs it
//!   ([`RunnerTag`]), who may wait for it ([`Awaited`], [`ScopeId`]), when
//!   it was accepted ([`Stamp`]), an inline run by a joiner, and code around
//!   its body ([`BodyWrapper`]); and the tasks of a scope
//!   ([`Job::scoped`](crate::Job::scoped), [`ScopeCompletion`]). The task
//!   cell's protocol: `JOIN_STATE.md` beside this crate's sources.

pub use crate::body_wrapper::BodyWrapper;
pub use crate::completion::ScopeCompletion;
pub use crate::header::SpinThenPark;
pub use crate::header::TaskRef;
pub use crate::ids::{Awaited, PoolId, RunnerTag, ScopeId, Stamp, TaskId};
pub use crate::offer::Wait;
pub use crate::outcome::Discarded;
pub use crate::panic_message::{drop_quietly, panic_message, payload_message};
pub use crate::poison::unpoison;
pub use crate::recycle::release_idle_memory;
pub use crate::submitter::{OfferNonBlocking, WeakSubmitter};
pub use crate::sync::UnsafeCell;
pub use crate::termination::Termination;
pub use crate::thread_name_error::ThreadNameError;
pub use crate::waiter::{Waiter, Wanted};
pub use crate::MIN_STACK_SIZE;
pub use listeners::CancelListener;
pub use waiting::{blocking, can_help, help_once, ExecutorKind, Joining, MAX_KINDS};
pub use worker_thread::{check_thread_name, ThreadSettings};

use crate::{Priority, RunOutcome};

pub mod hooks;
pub mod listeners;
pub(crate) mod waiting;
mod worker_thread;

/// The default worker count of a pool: the available parallelism, or 1
/// when the system cannot tell.
pub fn available_threads() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

/// What an executor that helps joiners (the work-stealing runtime) asks of
/// a queued [`Job`](crate::Job) beyond running it: implemented by `Job`,
/// behind this module so that users of `Job` never meet it.
///
/// ```
/// use rt_handle::raw::{Awaited, JobControl, RunnerTag};
/// use rt_handle::{Job, RunOutcome};
///
/// let (job, handle) = Job::new(|| 1);
/// assert_eq!(job.awaited(), Awaited::ByHandle);
/// drop(handle);
/// assert_eq!(job.awaited(), Awaited::Never);
/// assert_eq!(job.run_as(RunnerTag::new(1), |_| {}, None), RunOutcome::Completed);
/// ```
pub trait JobControl {
    /// Runs the job as [`Job::run_reporting`](crate::Job::run_reporting)
    /// does, recording `tag` in the task's state word while it runs, where
    /// a thread that joins it can read it ([`TaskRef::runner`]), and
    /// running the body inside `wrapper`, if one is given, once the task is
    /// claimed.
    fn run_as(
        self,
        tag: Option<RunnerTag>,
        report: impl FnMut(&str),
        wrapper: Option<BodyWrapper<'_>>,
    ) -> RunOutcome;

    /// Runs the job for the thread that joins its handle (`joining`, given
    /// to an [`ExecutorKind`]'s `join`), once that thread took the job from its own
    /// queue: it holds both sides of the task, so the task runs with plain
    /// loads and stores of its state word, none of the atomic
    /// read-modify-writes that a run racing a joiner needs, and the queue
    /// side lets go without one either. The body runs inside `wrapper`, if
    /// one is given. A task that already ended (cancelled through its
    /// handle) is not run: [`RunOutcome::Cancelled`].
    ///
    /// # Panics
    ///
    /// If `joining` joins another task.
    fn run_joined(self, joining: Joining<'_>, wrapper: Option<BodyWrapper<'_>>) -> RunOutcome;

    /// Takes the job out of a queue without running it, for an executor
    /// that drains its queues (`stop`): cancels the task if it has not
    /// started, and says who ended it ([`Discarded::outcome`] is what to
    /// count).
    fn discard(self) -> Discarded;

    /// Records the executor that accepted the job and the class it queued
    /// it at, so that a thread joining it from a worker of that executor
    /// may run it inline or help instead of blocking, and a cancellation
    /// of the task while it is queued tells that executor's
    /// [`CancelListener`], if it registered one ([`listeners`]).
    ///
    /// An executor that counts its tasks calls it after counting the task
    /// as submitted and before the task becomes visible to its workers:
    /// the store is a Release that a canceller reads with Acquire before
    /// it counts the task, so that no metrics snapshot sees the
    /// cancellation without the submission.
    fn set_owner(&self, owner: PoolId, class: Priority);

    /// Records when the executor accepted the job, in its own clock.
    fn set_stamp(&self, stamp: Stamp);

    /// What [`set_stamp`](Self::set_stamp) recorded, if anything.
    fn stamp(&self) -> Option<Stamp>;

    /// Who may still wait for this task: an executor can skip, for a task
    /// nothing waits for, the bookkeeping that lets a waiter help it along.
    fn awaited(&self) -> Awaited;

    /// The task's scope, for a task of a scope
    /// ([`Job::scoped`](crate::Job::scoped)).
    fn scope(&self) -> Option<ScopeId>;

    /// The task's identity, the same as its handle's ([`TaskRef::id`]).
    fn id(&self) -> TaskId;
}
