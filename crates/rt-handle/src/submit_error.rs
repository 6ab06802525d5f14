//! Why an executor refused a task, with the task handed back.

use std::fmt;

use thiserror::Error;

/// A refused submission. Either way the closure comes back to the caller
/// untouched, so nothing is lost: retry it, run it inline, or drop it.
///
/// ```
/// use rt_handle::SubmitError;
///
/// let err = SubmitError::Saturated(|| 42);
/// assert!(err.is_saturated());
/// let f = err.into_inner();
/// assert_eq!(f(), 42);
/// ```
#[derive(Error)]
pub enum SubmitError<F> {
    /// The executor's bounded queue is full; try again later.
    #[error("the executor's queue is full")]
    Saturated(F),
    /// The executor has been shut down and accepts no new tasks.
    #[error("the executor is shut down")]
    Shutdown(F),
}

impl<F> SubmitError<F> {
    /// The refused closure.
    pub fn into_inner(self) -> F {
        match self {
            SubmitError::Saturated(f) | SubmitError::Shutdown(f) => f,
        }
    }

    /// True for [`SubmitError::Saturated`].
    pub fn is_saturated(&self) -> bool {
        matches!(self, SubmitError::Saturated(_))
    }

    /// True for [`SubmitError::Shutdown`].
    pub fn is_shutdown(&self) -> bool {
        matches!(self, SubmitError::Shutdown(_))
    }
}

impl<F> fmt::Debug for SubmitError<F> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            SubmitError::Saturated(_) => "Saturated(..)",
            SubmitError::Shutdown(_) => "Shutdown(..)",
        })
    }
}
