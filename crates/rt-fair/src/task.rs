//! A task's slot in the executor's arena: the future, on the executor's
//! thread only. Its header, shared with wakers and thread-safe, is in
//! `shared`, whose wake list it goes through.

use std::future::Future;
use std::pin::Pin;
use std::rc::Rc;

use crate::error::JoinError;
use crate::shared::Header;
use crate::sync::Arc;

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
