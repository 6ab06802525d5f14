//! Submitting to an executor without owning it or borrowing it.

use std::fmt;
use std::sync::{Arc, Weak};

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

/// What a [`WeakSubmitter`] needs from an executor's shared state: its one
/// submission path, never blocking.
pub trait OfferNonBlocking: Send + Sync + 'static {
    /// Queues `job` at `priority` without blocking, or hands it back
    /// (shut down, or saturated).
    fn offer_non_blocking(self: &Arc<Self>, priority: Priority, job: Job) -> Result<(), Job>;
}

/// A [`Submitter`] that holds an executor's shared state weakly: the one
/// implementation behind each executor's submission handle.
pub struct WeakSubmitter<S> {
    shared: Weak<S>,
}

impl<S: OfferNonBlocking> WeakSubmitter<S> {
    /// A handle to `shared` that does not keep it alive.
    pub fn new(shared: &Arc<S>) -> Self {
        Self {
            shared: Arc::downgrade(shared),
        }
    }

    /// Submits through the executor if it is still alive; hands the job
    /// back otherwise, or when the executor refuses it.
    pub fn try_submit(&self, priority: Priority, job: Job) -> Result<(), Job> {
        match self.shared.upgrade() {
            Some(shared) => shared.offer_non_blocking(priority, job),
            None => Err(job),
        }
    }
}

impl<S> Clone for WeakSubmitter<S> {
    fn clone(&self) -> Self {
        Self {
            shared: self.shared.clone(),
        }
    }
}

impl<S> fmt::Debug for WeakSubmitter<S> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Submitter")
            .field("alive", &(self.shared.strong_count() > 0))
            .finish()
    }
}
