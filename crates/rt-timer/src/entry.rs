//! One pending callback in the deadline heap, and what to do with it when
//! its deadline comes.

use std::cmp::Ordering;
use std::fmt;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::time::{Duration, Instant};

use rt_handle::{Job, Submitter};
use rt_queue::Priority;

/// A pending callback: its deadline, its place in submission order, the job
/// (whose handle the caller holds) and where the job goes at the deadline.
pub(crate) struct Entry {
    pub(crate) deadline: Instant,
    /// Breaks deadline ties: entries with equal deadlines fire in the order
    /// they were scheduled.
    pub(crate) seq: u64,
    pub(crate) job: Job,
    pub(crate) dispatch: Dispatch,
}

/// Where a job goes when its deadline comes.
pub(crate) enum Dispatch {
    /// Run it on the timer thread.
    TimerThread,
    /// Hand it to an executor, without blocking.
    Executor {
        target: Box<dyn Handoff>,
        priority: Priority,
    },
}

/// An object-safe [`Submitter`] (the trait itself is `Clone`, so it cannot
/// be a trait object).
pub(crate) trait Handoff: Send {
    fn try_submit(&self, priority: Priority, job: Job) -> Result<(), Job>;
}

impl<S: Submitter> Handoff for S {
    fn try_submit(&self, priority: Priority, job: Job) -> Result<(), Job> {
        Submitter::try_submit(self, priority, job)
    }
}

impl Entry {
    /// The heap key: earliest deadline first, then submission order.
    fn key(&self) -> (Instant, u64) {
        (self.deadline, self.seq)
    }

    /// True when `self` must fire before `other`.
    pub(crate) fn fires_before(&self, other: &Entry) -> bool {
        self.key() < other.key()
    }

    /// True once the job is final without having fired: only cancellation
    /// finishes a job that is still in the heap.
    pub(crate) fn is_cancelled(&self) -> bool {
        self.job.is_finished()
    }

    /// Runs the job on this thread, or hands it to its executor; an executor
    /// that refuses it (gone, shut down, saturated) makes its handle report
    /// `Rejected`. Never blocks, never unwinds: a panicking callback is
    /// caught by `Job::run`, and a panicking `Submitter` (or a panicking
    /// `Drop` of one) is caught here, its job then reporting `Rejected`.
    pub(crate) fn fire(self) {
        let Entry { job, dispatch, .. } = self;
        let _ = catch_unwind(AssertUnwindSafe(move || match dispatch {
            Dispatch::TimerThread => {
                job.run();
            }
            Dispatch::Executor { target, priority } => {
                if job.is_finished() {
                    return; // cancelled: nothing to hand over
                }
                if let Err(job) = target.try_submit(priority, job) {
                    job.reject();
                }
            }
        }));
    }

    /// Cancels the job without running it; true if it had not been
    /// cancelled already.
    pub(crate) fn cancel(self) -> bool {
        self.job.cancel()
    }
}

// `BinaryHeap` is a max-heap: the entry that must fire first is the greatest.
impl Ord for Entry {
    fn cmp(&self, other: &Self) -> Ordering {
        other.key().cmp(&self.key())
    }
}

impl PartialOrd for Entry {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl PartialEq for Entry {
    fn eq(&self, other: &Self) -> bool {
        self.key() == other.key()
    }
}

impl Eq for Entry {}

impl fmt::Debug for Entry {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Entry")
            .field("deadline", &self.deadline)
            .field("seq", &self.seq)
            .field("cancelled", &self.is_cancelled())
            .finish()
    }
}

/// `now + delay`, or, when that does not fit in an [`Instant`], the latest
/// instant that does (within a factor of two): a deadline that never comes.
pub(crate) fn deadline_after(now: Instant, delay: Duration) -> Instant {
    if let Some(deadline) = now.checked_add(delay) {
        return deadline;
    }
    let mut step = delay;
    let mut latest = now;
    while !step.is_zero() {
        step /= 2;
        if let Some(later) = latest.checked_add(step) {
            latest = later;
        }
    }
    latest
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry(deadline: Instant, seq: u64) -> Entry {
        let (job, _handle) = Job::new(|| ());
        Entry {
            deadline,
            seq,
            job,
            dispatch: Dispatch::TimerThread,
        }
    }

    #[test]
    fn the_heap_pops_the_earliest_deadline_then_the_earliest_submission() {
        let t = Instant::now();
        let mut heap = std::collections::BinaryHeap::new();
        heap.push(entry(t + Duration::from_millis(2), 0));
        heap.push(entry(t + Duration::from_millis(1), 2));
        heap.push(entry(t + Duration::from_millis(1), 1));
        let order: Vec<u64> = std::iter::from_fn(|| heap.pop().map(|e| e.seq)).collect();
        assert_eq!(order, [1, 2, 0]);
    }

    #[test]
    fn a_delay_too_large_for_an_instant_saturates_instead_of_panicking() {
        let now = Instant::now();
        let far = deadline_after(now, Duration::MAX);
        assert!(far > now + Duration::from_secs(365 * 24 * 3600));
        assert_eq!(
            deadline_after(now, Duration::from_secs(1)),
            now + Duration::from_secs(1)
        );
    }
}
