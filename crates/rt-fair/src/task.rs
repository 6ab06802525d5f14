//! A task: its header (shared with wakers, thread-safe) and its slot in the
//! executor's arena (the future, on the executor's thread only).

use std::future::Future;
use std::pin::Pin;
use std::rc::Rc;
use std::task::Wake;

use crate::error::JoinError;
use crate::shared::Shared;
use crate::sync::{Arc, AtomicU64, AtomicU8, Ordering};

/// The task is in a ready queue (or about to be): wakes are no-ops.
const SCHEDULED: u8 = 1;
/// The task finished or was aborted: wakes are no-ops, queue entries stale.
const DONE: u8 = 2;

/// What a waker holds: enough to put the task back in its queue, nothing
/// that is tied to the executor's thread.
#[derive(Debug)]
pub(crate) struct Header {
    /// Slot in the arena; valid while the task is not done.
    pub(crate) index: usize,
    /// Index of the task's queue.
    pub(crate) queue: usize,
    state: AtomicU8,
    /// When the task last became runnable, in ns since the executor's epoch.
    ready_at: AtomicU64,
    shared: Arc<Shared>,
}

impl Header {
    /// A header for a task about to be scheduled for its first poll.
    pub(crate) fn new(index: usize, queue: usize, shared: Arc<Shared>) -> Arc<Self> {
        Arc::new(Self {
            index,
            queue,
            state: AtomicU8::new(SCHEDULED),
            ready_at: AtomicU64::new(0),
            shared,
        })
    }

    pub(crate) fn is_done(&self) -> bool {
        self.state.load(Ordering::Acquire) & DONE != 0
    }

    pub(crate) fn set_done(&self) {
        self.state.fetch_or(DONE, Ordering::AcqRel);
    }

    /// Called just before a poll: a wake from now on schedules the task
    /// again (the poll may miss the event that caused it).
    pub(crate) fn start_poll(&self) {
        self.state.fetch_and(!SCHEDULED, Ordering::AcqRel);
    }

    pub(crate) fn set_ready_at(&self, ns: u64) {
        self.ready_at.store(ns, Ordering::Relaxed);
    }

    pub(crate) fn ready_at(&self) -> u64 {
        self.ready_at.load(Ordering::Relaxed)
    }
}

impl Wake for Header {
    fn wake(self: Arc<Self>) {
        self.wake_by_ref();
    }

    fn wake_by_ref(self: &Arc<Self>) {
        // Only the wake that sets SCHEDULED queues the task; a done task is
        // never queued again.
        if self.state.fetch_or(SCHEDULED, Ordering::AcqRel) & (SCHEDULED | DONE) == 0 {
            self.shared.schedule(Arc::clone(self));
        }
    }
}

/// A spawned future with its output plumbing erased.
pub(crate) type BoxFuture = Pin<Box<dyn Future<Output = ()>>>;

/// The executor's side of a join handle: report an error to it.
pub(crate) trait Finish {
    fn fail(&self, error: JoinError);
}

/// A live task in the arena.
pub(crate) struct TaskSlot {
    pub(crate) header: Arc<Header>,
    /// `None` while the task is being polled.
    pub(crate) future: Option<BoxFuture>,
    pub(crate) join: Rc<dyn Finish>,
    /// `abort()` was called during the task's own poll: drop it after.
    pub(crate) abort_requested: bool,
}

/// Live tasks, by slot index, with a free list.
#[derive(Default)]
pub(crate) struct Arena {
    slots: Vec<Option<TaskSlot>>,
    free: Vec<usize>,
}

impl Arena {
    /// The index the next insert will use.
    pub(crate) fn next_index(&self) -> usize {
        self.free.last().copied().unwrap_or(self.slots.len())
    }

    /// Stores a task at [`Arena::next_index`].
    pub(crate) fn insert(&mut self, slot: TaskSlot) {
        match self.free.pop() {
            Some(i) => self.slots[i] = Some(slot),
            None => self.slots.push(Some(slot)),
        }
    }

    pub(crate) fn get_mut(&mut self, index: usize) -> Option<&mut TaskSlot> {
        self.slots.get_mut(index).and_then(Option::as_mut)
    }

    pub(crate) fn remove(&mut self, index: usize) -> Option<TaskSlot> {
        let slot = self.slots.get_mut(index)?.take()?;
        self.free.push(index);
        Some(slot)
    }

    /// Takes every live task out, leaving the arena empty.
    pub(crate) fn take_all(&mut self) -> Vec<TaskSlot> {
        self.free.clear();
        std::mem::take(&mut self.slots)
            .into_iter()
            .flatten()
            .collect()
    }
}
