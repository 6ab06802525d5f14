//! The depot: full stacks of free blocks that threads hand each other, per
//! size class, behind one lock per class, bounded.

use std::alloc::Layout;

use super::{Class, Stack, CLASSES};
use crate::poison::unpoison;
use crate::sync::{AtomicUsize, Mutex, Ordering};

/// How many bytes of free blocks a class's depot holds at most; a stack
/// handed in beyond that is freed.
#[cfg(not(loom))]
pub(super) const BYTES_PER_CLASS: usize = 1 << 22;
#[cfg(loom)]
pub(super) const BYTES_PER_CLASS: usize = 2 * 64;

/// Stacks of free blocks per class, with how many stacks each class holds
/// (for a look without the lock).
pub(super) struct Depot {
    classes: [Mutex<Vec<Stack>>; CLASSES],
    stacks: [AtomicUsize; CLASSES],
}

impl Depot {
    #[cfg(not(loom))]
    pub(super) const fn new() -> Self {
        Self {
            classes: [const { Mutex::new(Vec::new()) }; CLASSES],
            stacks: [const { AtomicUsize::new(0) }; CLASSES],
        }
    }

    #[cfg(loom)]
    pub(super) fn new() -> Self {
        Self {
            classes: std::array::from_fn(|_| Mutex::new(Vec::new())),
            stacks: std::array::from_fn(|_| AtomicUsize::new(0)),
        }
    }

    /// Hands in a stack of free blocks of `class`; frees them if the depot
    /// is full.
    pub(super) fn put(&self, class: Class, mut stack: Stack) {
        if stack.len() == 0 {
            return;
        }
        {
            // The lock orders the blocks' links, written by this thread,
            // before their reads by the thread that takes the stack.
            let mut stacks = unpoison(self.classes[class.index()].lock());
            if stacks.len() < class.depot_stacks() {
                stacks.push(stack);
                self.stacks[class.index()].store(stacks.len(), Ordering::Relaxed);
                return;
            }
        }
        stack.free_all(class.layout());
    }

    /// A stack of free blocks of `class`, if the depot has one. A depot
    /// seen empty is not locked: a thread that only allocates (a submitter
    /// whose tasks have not ended yet) pays one load, not a lock per task.
    pub(super) fn take(&self, class: Class) -> Option<Stack> {
        rt_queue::path_step!();
        // Relaxed: a hint; a stack handed in just now is found next time,
        // and the lock orders the blocks themselves.
        if self.stacks[class.index()].load(Ordering::Relaxed) == 0 {
            return None;
        }
        let mut stacks = unpoison(self.classes[class.index()].lock());
        let stack = stacks.pop();
        self.stacks[class.index()].store(stacks.len(), Ordering::Relaxed);
        stack
    }

    /// How many free blocks of `class` the depot holds (for tests).
    #[cfg(all(test, not(loom)))]
    pub(super) fn blocks(&self, class: Class) -> usize {
        unpoison(self.classes[class.index()].lock())
            .iter()
            .map(Stack::len)
            .sum()
    }
}

impl Drop for Depot {
    fn drop(&mut self) {
        for index in 0..CLASSES {
            let layout: Layout = Class::from_index(index).layout();
            for mut stack in unpoison(self.classes[index].lock()).drain(..) {
                stack.free_all(layout);
            }
        }
    }
}
