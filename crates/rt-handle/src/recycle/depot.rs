//! The depot: full stacks of free blocks that threads hand each other, per
//! size class, behind one lock per class, bounded.

use std::alloc::Layout;

use super::stack::Stack;
use super::{Class, CLASSES};
use crate::poison::unpoison;
use crate::sync::Mutex;

/// How many bytes of free blocks a class's depot holds at most; a stack
/// handed in beyond that is freed.
#[cfg(not(loom))]
pub(super) const BYTES_PER_CLASS: usize = 1 << 22;
#[cfg(loom)]
pub(super) const BYTES_PER_CLASS: usize = 2 * 64;

/// Stacks of free blocks per class.
pub(super) struct Depot {
    classes: [Mutex<Vec<Stack>>; CLASSES],
}

impl Depot {
    #[cfg(not(loom))]
    pub(super) const fn new() -> Self {
        Self {
            classes: [const { Mutex::new(Vec::new()) }; CLASSES],
        }
    }

    #[cfg(loom)]
    pub(super) fn new() -> Self {
        Self {
            classes: std::array::from_fn(|_| Mutex::new(Vec::new())),
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
                return;
            }
        }
        stack.free_all(class.layout());
    }

    /// A stack of free blocks of `class`, if the depot has one.
    pub(super) fn take(&self, class: Class) -> Option<Stack> {
        unpoison(self.classes[class.index()].lock()).pop()
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
