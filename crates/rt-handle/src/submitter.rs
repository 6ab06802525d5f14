//! Submitting to an executor without owning it or borrowing it.

use rt_queue::Priority;

use crate::Job;

/// A cheap, cloneable, `'static` handle that submits jobs to an executor it
/// holds *weakly*: keeping a `Submitter` does not keep the executor alive.
///
/// Code that must hand work to an executor later, from another thread (a
/// timer firing a callback at its deadline, say), stores one of these
/// instead of a borrowed `&executor`. Submission never blocks: an executor
/// that is gone, shut down, or whose bounded queue is full hands the job
/// back, and the caller decides (a timer rejects the job, so its handle
/// reports [`JoinError::Rejected`](crate::JoinError::Rejected)).
pub trait Submitter: Clone + Send + Sync + 'static {
    /// Queues `job` at `priority` without blocking, or hands it back.
    fn try_submit(&self, priority: Priority, job: Job) -> Result<(), Job>;
}

/// An executor that can hand out a [`Submitter`] for itself.
pub trait ProvidesSubmitter {
    /// The handle type.
    type Submitter: Submitter;

    /// A new weak submission handle to this executor.
    fn submitter(&self) -> Self::Submitter;
}
