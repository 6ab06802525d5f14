//! The runtime's weak submission handle.

use std::sync::Arc;

use rt_handle::raw::{OfferNonBlocking, Wait, WeakSubmitter};
use rt_handle::{Job, ProvidesSubmitter, SubmitError, Submitter};
use rt_queue::Priority;

use crate::runtime::Runtime;
use crate::shared::Shared;
use crate::submit::submit_task;

/// A [`Submitter`] for a [`Runtime`]: holds it weakly, never blocks.
///
/// ```
/// use rt_core::{Runtime, Submitter, ProvidesSubmitter, Priority};
/// use rt_handle::Job;
///
/// let rt = Runtime::new(1)?;
/// let submitter = rt.submitter();
/// let (job, handle) = Job::new(|| 5);
/// assert!(submitter.try_submit(Priority::Normal, job).is_ok());
/// assert_eq!(handle.join(), Ok(5));
/// drop(rt);
/// let (job, _handle) = Job::new(|| 6);
/// assert!(submitter.try_submit(Priority::Normal, job).is_err(), "the runtime is gone");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug)]
pub struct RuntimeSubmitter(WeakSubmitter<Shared>);

impl Submitter for RuntimeSubmitter {
    fn try_submit(&self, priority: Priority, job: Job) -> Result<(), Job> {
        self.0.try_submit(priority, job)
    }
}

impl OfferNonBlocking for Shared {
    fn offer_non_blocking(self: &Arc<Self>, priority: Priority, job: Job) -> Result<(), Job> {
        submit_task(self, priority, job, Wait::Never, |job| job).map_err(SubmitError::into_inner)
    }
}

impl ProvidesSubmitter for Runtime {
    type Submitter = RuntimeSubmitter;

    fn submitter(&self) -> RuntimeSubmitter {
        RuntimeSubmitter(WeakSubmitter::new(&self.shared))
    }
}
