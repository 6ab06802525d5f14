//! Cancellation: a shared flag that tasks check, and the queued tasks it
//! ends at once when it is set (`token.rs`).

use std::fmt;
use std::sync::Arc;

use crate::token::TokenState;

/// A cloneable flag that cancels the tasks it was given to.
///
/// A task spawned with a token (`spawn_cancellable`, or a
/// [`Job::cancellable`](crate::Job::cancellable)) that is still queued when
/// [`cancel`](Self::cancel) is called is cancelled by that call: when
/// `cancel` returns, its handle reports [`JoinError::Cancelled`](crate::JoinError::Cancelled)
/// (`status()` says `Cancelled`, a waiting `join` has been woken), its
/// closure has been dropped without running, and the executor that
/// accepted it has counted it (the work-stealing runtime's `metrics()` and
/// `stats()` show it at once). A body that is already running is never
/// interrupted; it can poll [`CancellationContext::is_cancelled`] and
/// return early. A task made after the token was cancelled never runs
/// either: its body is skipped when it would start.
///
/// The token keeps the tasks queued with it (and only those: a task leaves
/// when it runs or otherwise ends), so a token that lives for a long time
/// and is given to many tasks holds memory only for the tasks queued at the
/// moment. Giving a task a token costs a lock when it is made and one when
/// it is taken from its queue.
///
/// # What `cancel` runs
///
/// `cancel` drops the closures of the tasks it cancels (their captures'
/// `Drop`; a panic there is caught and the other tasks are still
/// cancelled) and wakes the threads or futures that wait for them (a
/// waker is the async runtime's code), on the calling thread, with none of
/// the token's locks held. A captured value's `Drop` may spawn tasks,
/// cancel tokens (this one too) and join tasks; it must not wait for
/// another thread that is itself inside `cancel` of the same token (that
/// thread waits for this one's cancellation to finish, see below).
///
/// Two threads that cancel the same token at once share the work: each
/// returns once every task queued with the token when it began is
/// cancelled, whichever of them did it.
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
///
/// Tasks still queued are cancelled by the call itself:
///
/// ```
/// use rt_handle::{CancellationToken, Job, JoinError, RunOutcome, TaskStatus};
///
/// let token = CancellationToken::new();
/// let (job, handle) = Job::cancellable(&token, |_ctx| 42);
/// assert_eq!(handle.status(), TaskStatus::Queued);
/// token.cancel();
/// assert_eq!(handle.status(), TaskStatus::Cancelled);
/// assert_eq!(job.run(), RunOutcome::Cancelled); // the stale entry: the body does not run
/// assert_eq!(handle.join(), Err(JoinError::Cancelled));
/// ```
#[derive(Clone)]
pub struct CancellationToken {
    state: Arc<TokenState>,
}

impl Default for CancellationToken {
    fn default() -> Self {
        Self {
            state: Arc::new(TokenState::new()),
        }
    }
}

impl CancellationToken {
    /// A new, not yet cancelled token.
    pub fn new() -> Self {
        Self::default()
    }

    /// Cancels every task holding this token or a clone of it: the tasks
    /// still queued are cancelled before this returns (see the type's
    /// docs), running ones see [`is_cancelled`](Self::is_cancelled), later
    /// ones never start. Idempotent. It never unwinds.
    pub fn cancel(&self) {
        self.state.cancel();
    }

    /// True once [`cancel`](Self::cancel) has been called on any clone.
    pub fn is_cancelled(&self) -> bool {
        self.state.is_cancelled()
    }

    /// The context a cancellable task body receives.
    pub fn context(&self) -> CancellationContext {
        CancellationContext {
            token: self.clone(),
        }
    }

    /// How many tasks are queued with the token right now: made with it and
    /// neither started nor ended. For tests and diagnostics (hidden from
    /// the documentation): it takes the token's lock.
    #[doc(hidden)]
    pub fn queued_tasks(&self) -> usize {
        self.state.queued_tasks()
    }

    /// How many references to the token's state exist: the token's
    /// clones, and one per task made with it whose cell is not freed yet.
    #[cfg(test)]
    pub(crate) fn references(&self) -> usize {
        Arc::strong_count(&self.state)
    }

    pub(crate) fn state(&self) -> &TokenState {
        &self.state
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

    pub(crate) fn token(&self) -> &CancellationToken {
        &self.token
    }
}
