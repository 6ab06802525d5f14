//! The caller's side of a scheduled callback.

use std::fmt;
use std::sync::Weak;
use std::time::Instant;

use rt_handle::{JoinError, JoinHandle, TaskStatus};

use crate::shared::Shared;

/// A scheduled callback: wait for its result, see where it is, or cancel it.
///
/// A thin wrapper over the [`JoinHandle`] every executor of the workspace
/// returns, that also knows its deadline and tells the scheduler about a
/// cancellation (so the cancelled entry's memory is reclaimed before its
/// deadline). Dropping it detaches the callback: it still fires.
///
/// ```
/// use std::time::Duration;
/// use rt_timer::{DelayedTaskScheduler, JoinError, TaskStatus};
///
/// let timer = DelayedTaskScheduler::new()?;
/// let later = timer.schedule(Duration::from_secs(3600), || "an hour later")?;
/// assert_eq!(later.status(), TaskStatus::Queued);
/// assert!(later.cancel());
/// assert_eq!(later.join(), Err(JoinError::Cancelled));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub struct ScheduledHandle<T> {
    handle: JoinHandle<T>,
    deadline: Instant,
    scheduler: Weak<Shared>,
}

impl<T> ScheduledHandle<T> {
    pub(crate) fn new(handle: JoinHandle<T>, deadline: Instant, scheduler: Weak<Shared>) -> Self {
        Self {
            handle,
            deadline,
            scheduler,
        }
    }

    /// Cancels the callback if it has not started: it never runs, and
    /// [`join`](Self::join) returns [`JoinError::Cancelled`]. For a callback
    /// given to an executor (`schedule_on`), "not started" includes the time
    /// it waits in that executor's queue after its deadline. Returns false,
    /// and changes nothing, once it has started or finished (or was
    /// cancelled, rejected, or stopped already).
    pub fn cancel(&self) -> bool {
        if !self.handle.cancel() {
            return false;
        }
        if let Some(scheduler) = self.scheduler.upgrade() {
            scheduler.note_cancelled();
        }
        true
    }

    /// Where the callback is now: [`Queued`](TaskStatus::Queued) while it
    /// waits for its deadline (or in its executor's queue), then `Running`,
    /// and finally `Finished`, `Panicked`, `Cancelled` or `Rejected`.
    pub fn status(&self) -> TaskStatus {
        self.handle.status()
    }

    /// True once the callback is final: [`join`](Self::join) will not wait.
    pub fn is_finished(&self) -> bool {
        self.handle.is_finished()
    }

    /// The instant before which the callback never starts.
    pub fn deadline(&self) -> Instant {
        self.deadline
    }

    /// Waits for the callback and returns its value, or why there is none:
    /// [`JoinError::Panicked`] (the panic was caught; the timer thread or
    /// the executor's worker carries on), [`JoinError::Cancelled`] (by
    /// [`cancel`](Self::cancel) or by the scheduler's `stop`), or
    /// [`JoinError::Rejected`] (its executor was gone, shut down or full at
    /// the deadline). Blocks until the deadline at least.
    ///
    /// Called inside a callback of the same scheduler (on its timer thread),
    /// it returns the value of a callback that has already finished, and
    /// waits for one already handed to its executor (`schedule_on`).
    ///
    /// # Panics
    ///
    /// Called on this scheduler's timer thread (inside one of its
    /// callbacks) for a callback that has not finished and that only the
    /// timer thread can bring forward: one still waiting for its deadline
    /// (a `schedule_on` callback not yet handed to its executor included),
    /// or the running callback itself. The timer thread would wait for
    /// work that only it can run, for ever; it panics instead, with a
    /// message saying so (the callback that joined then reports
    /// [`JoinError::Panicked`]). The same holds for the plain handle
    /// ([`into_join_handle`](Self::into_join_handle)) joined there.
    pub fn join(self) -> Result<T, JoinError> {
        self.handle.join()
    }

    /// The plain [`JoinHandle`] underneath, for code that collects handles
    /// from several executors. Cancelling through it works the same, but the
    /// cancelled entry's memory is only reclaimed at its deadline.
    pub fn into_join_handle(self) -> JoinHandle<T> {
        self.handle
    }
}

impl<T> fmt::Debug for ScheduledHandle<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ScheduledHandle")
            .field("deadline", &self.deadline)
            .field("status", &self.status())
            .finish()
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;
    use std::time::{Duration, Instant};

    use rt_handle::Job;

    use super::ScheduledHandle;
    use crate::entry::Dispatch;
    use crate::shared::Shared;

    #[test]
    fn cancelled_entries_are_swept_once_they_may_be_half_the_heap() {
        // No timer thread: entries stay in the heap until swept.
        let shared = Arc::new(Shared::new());
        let far = Instant::now() + Duration::from_secs(3600);
        let handles: Vec<ScheduledHandle<()>> = (0..200)
            .map(|_| {
                let weak = Arc::downgrade(&shared);
                shared
                    .push(
                        far,
                        Dispatch::TimerThread,
                        || (),
                        |f| {
                            let (job, handle) = Job::new(f);
                            (job, ScheduledHandle::new(handle, far, weak))
                        },
                    )
                    .unwrap_or_else(|_| unreachable!("not shut down"))
            })
            .collect();
        for handle in &handles[..99] {
            assert!(handle.cancel());
        }
        assert_eq!(shared.lock().heap.len(), 200, "not yet worth a sweep");
        assert_eq!(shared.pending(), 101);
        assert!(handles[99].cancel());
        assert_eq!(shared.lock().heap.len(), 100, "swept");
        assert_eq!(shared.stop(), 100);
    }
}
