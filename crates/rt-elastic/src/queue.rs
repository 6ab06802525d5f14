//! The pool's task queue: one FIFO per priority, scanned High first.

use std::collections::VecDeque;
use std::fmt;

use rt_handle::{Job, Priority};

/// One `VecDeque` per priority class. It lives inside the pool's mutex, so
/// it needs no synchronisation of its own: a push or a pop is a few
/// nanoseconds under a lock that is held for nothing longer.
pub(crate) struct PriorityQueue {
    lanes: [VecDeque<Job>; Priority::COUNT],
    len: usize,
}

impl PriorityQueue {
    pub(crate) fn new() -> Self {
        Self {
            lanes: std::array::from_fn(|_| VecDeque::new()),
            len: 0,
        }
    }

    /// Appends `job` to the FIFO of `priority`.
    pub(crate) fn push(&mut self, priority: Priority, job: Job) {
        self.lanes[priority.index()].push_back(job);
        self.len += 1;
    }

    /// The oldest job of the most urgent non-empty priority.
    pub(crate) fn pop(&mut self) -> Option<Job> {
        let job = Priority::ALL
            .iter()
            .find_map(|priority| self.lanes[priority.index()].pop_front())?;
        self.len -= 1;
        Some(job)
    }

    /// Takes every queued job out, most urgent first.
    pub(crate) fn drain(&mut self) -> Vec<Job> {
        let mut jobs = Vec::with_capacity(self.len);
        for lane in &mut self.lanes {
            jobs.extend(lane.drain(..));
        }
        self.len = 0;
        jobs
    }

    /// Jobs queued at every priority together.
    pub(crate) fn len(&self) -> usize {
        self.len
    }

    /// Jobs queued per priority, indexed by [`Priority::index`].
    pub(crate) fn lens(&self) -> [usize; Priority::COUNT] {
        std::array::from_fn(|index| self.lanes[index].len())
    }
}

impl fmt::Debug for PriorityQueue {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("PriorityQueue")
            .field("queued", &self.lens())
            .finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn job(log: &std::sync::Arc<std::sync::Mutex<Vec<u8>>>, tag: u8) -> Job {
        let log = log.clone();
        Job::detached(move || log.lock().unwrap().push(tag))
    }

    #[test]
    fn pops_the_most_urgent_priority_first_and_fifo_within_one() {
        let log = std::sync::Arc::default();
        let mut queue = PriorityQueue::new();
        queue.push(Priority::Background, job(&log, 1));
        queue.push(Priority::Normal, job(&log, 2));
        queue.push(Priority::High, job(&log, 3));
        queue.push(Priority::Normal, job(&log, 4));
        assert_eq!(queue.len(), 4);
        assert_eq!(queue.lens(), [1, 2, 1]);
        while let Some(job) = queue.pop() {
            job.run();
        }
        assert_eq!(*log.lock().unwrap(), [3, 2, 4, 1]);
        assert_eq!(queue.len(), 0);
    }

    #[test]
    fn drain_empties_every_lane() {
        let log = std::sync::Arc::default();
        let mut queue = PriorityQueue::new();
        queue.push(Priority::Background, job(&log, 1));
        queue.push(Priority::High, job(&log, 2));
        let drained = queue.drain();
        assert_eq!(drained.len(), 2);
        assert_eq!(queue.len(), 0);
        assert!(queue.pop().is_none());
    }
}
