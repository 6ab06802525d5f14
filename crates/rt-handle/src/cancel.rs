//! Cooperative cancellation: a shared flag that tasks check.

use std::fmt;
use std::sync::Arc;

use crate::sync::{AtomicBool, Ordering};

/// A cloneable flag that cancels the tasks it was given to.
///
/// A task spawned with a token (`spawn_cancellable`) checks it just before its
/// body would start: if the token is already cancelled, the body never runs
/// and the handle returns [`JoinError::Cancelled`](crate::JoinError::Cancelled).
/// A body that is already running is never interrupted; it can poll
/// [`CancellationContext::is_cancelled`] and return early.
///
/// ```
/// use rt_handle::CancellationToken;
///
/// let token = CancellationToken::new();
/// let clone = token.clone();
/// assert!(!clone.is_cancelled());
/// token.cancel();
/// assert!(clone.is_cancelled());
/// ```
#[derive(Clone, Default)]
pub struct CancellationToken {
    cancelled: Arc<AtomicBool>,
}

impl CancellationToken {
    /// A new, not yet cancelled token.
    pub fn new() -> Self {
        Self::default()
    }

    /// Cancels every task holding this token or a clone of it. Idempotent.
    pub fn cancel(&self) {
        // Release pairs with the Acquire in `is_cancelled`, so a task that
        // sees the flag also sees whatever the canceller wrote before.
        self.cancelled.store(true, Ordering::Release);
    }

    /// True once [`cancel`](Self::cancel) has been called on any clone.
    pub fn is_cancelled(&self) -> bool {
        self.cancelled.load(Ordering::Acquire)
    }

    /// The context a cancellable task body receives.
    pub fn context(&self) -> CancellationContext {
        CancellationContext {
            token: self.clone(),
        }
    }
}

impl fmt::Debug for CancellationToken {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("CancellationToken")
            .field("cancelled", &self.is_cancelled())
            .finish()
    }
}

/// What a cancellable task body is given: a read-only view of its token.
///
/// ```
/// use rt_handle::CancellationToken;
///
/// let token = CancellationToken::new();
/// let ctx = token.context();
/// token.cancel();
/// assert!(ctx.is_cancelled());
/// ```
#[derive(Debug, Clone)]
pub struct CancellationContext {
    token: CancellationToken,
}

impl CancellationContext {
    /// True once the task's token has been cancelled: the body should stop
    /// early and return whatever partial result it has.
    pub fn is_cancelled(&self) -> bool {
        self.token.is_cancelled()
    }
}
