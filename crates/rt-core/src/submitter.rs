//! The runtime's weak submission handle.

use std::fmt;
use std::sync::{Arc, Weak};

use rt_handle::{Job, ProvidesSubmitter, SubmitError, Submitter, Wait};
use rt_queue::Priority;

use crate::shared::Shared;
use crate::Runtime;

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
#[derive(Clone)]
pub struct RuntimeSubmitter {
    shared: Weak<Shared>,
}

impl Submitter for RuntimeSubmitter {
    fn try_submit(&self, priority: Priority, job: Job) -> Result<(), Job> {
        let Some(shared) = self.shared.upgrade() else {
            return Err(job);
        };
        shared
            .offer(priority, job, |job| job, Wait::Never)
            .map_err(SubmitError::into_inner)
    }
}

impl ProvidesSubmitter for Runtime {
    type Submitter = RuntimeSubmitter;

    fn submitter(&self) -> RuntimeSubmitter {
        RuntimeSubmitter {
            shared: Arc::downgrade(&self.shared),
        }
    }
}

impl fmt::Debug for RuntimeSubmitter {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("RuntimeSubmitter")
            .field("alive", &(self.shared.strong_count() > 0))
            .finish()
    }
}
