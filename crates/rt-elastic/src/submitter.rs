//! The pool's weak, non-blocking submission handle.

use std::sync::Arc;

use rt_handle::raw::{OfferNonBlocking, Wait, WeakSubmitter};
use rt_handle::{Job, Priority, ProvidesSubmitter, SubmitError, Submitter};

use crate::shared::Shared;
use crate::ElasticPool;

/// A [`Submitter`] for an [`ElasticPool`]: holds the pool weakly and never
/// blocks. `try_submit` hands the job back when the pool is gone, shut down,
/// or saturated (queue full and at `max_threads`); like the pool's own
/// methods, it may start a worker to take the job.
///
/// ```
/// use rt_elastic::{ElasticPool, Job, Priority, ProvidesSubmitter, Submitter};
///
/// let pool = ElasticPool::builder().core_threads(1).build()?;
/// let submitter = pool.submitter();
/// let (job, handle) = Job::new(|| 5);
/// assert!(submitter.try_submit(Priority::Normal, job).is_ok());
/// assert_eq!(handle.join(), Ok(5));
/// drop(pool);
/// let (job, _handle) = Job::new(|| 6);
/// assert!(submitter.try_submit(Priority::Normal, job).is_err(), "the pool is gone");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug)]
pub struct ElasticSubmitter(WeakSubmitter<Shared>);

impl Submitter for ElasticSubmitter {
    fn try_submit(&self, priority: Priority, job: Job) -> Result<(), Job> {
        self.0.try_submit(priority, job)
    }
}

impl OfferNonBlocking for Shared {
    fn offer_non_blocking(self: &Arc<Self>, priority: Priority, job: Job) -> Result<(), Job> {
        self.offer(priority, job, |job| job, Wait::Never)
            .map_err(SubmitError::into_inner)
    }
}

impl ProvidesSubmitter for ElasticPool {
    type Submitter = ElasticSubmitter;

    fn submitter(&self) -> ElasticSubmitter {
        ElasticSubmitter(WeakSubmitter::new(&self.shared))
    }
}
