//! A stack of free blocks of one size class, linked through the blocks
//! themselves: a free block's first bytes hold the link to the next.

use std::alloc::Layout;
use std::ptr::NonNull;

use crate::sync::UnsafeCell;

/// What a free block holds: the next free block of its stack. Written into
/// the block when it is freed, dropped when it is taken, so that (built
/// with loom) every hand-off of a block between threads is checked like any
/// other access to shared memory.
pub(super) struct Link {
    next: UnsafeCell<Option<NonNull<Link>>>,
}

/// Free blocks of one class, newest first.
pub(super) struct Stack {
    head: Option<NonNull<Link>>,
    len: usize,
}

// SAFETY: a stack owns its blocks (nothing else points at a free block), so
// it may move to another thread; the hand-off itself is synchronized by
// whoever moves it (the depot's lock).
unsafe impl Send for Stack {}

impl Stack {
    pub(super) const EMPTY: Stack = Stack { head: None, len: 0 };

    #[inline(always)]
    pub(super) fn len(&self) -> usize {
        self.len
    }

    /// Puts the free `block` on top.
    ///
    /// # Safety
    ///
    /// `block` is a block of this stack's class that nothing else points at
    /// or uses any more, aligned for a `Link` and big enough for one.
    #[inline(always)]
    pub(super) unsafe fn push(&mut self, block: NonNull<u8>) {
        let link = block.cast::<Link>();
        // SAFETY: the block is unused, big and aligned enough (the contract).
        unsafe {
            link.as_ptr().write(Link {
                next: UnsafeCell::new(self.head),
            })
        };
        self.head = Some(link);
        self.len += 1;
    }

    /// Takes the top block, uninitialized, if there is one.
    pub(super) fn pop(&mut self) -> Option<NonNull<u8>> {
        let link = self.head?;
        // SAFETY: blocks on the stack hold a `Link` (written by `push`) and
        // belong to this stack alone; the link is read, then dropped, before
        // the block is handed out.
        self.head = unsafe {
            let next = link.as_ref().next.with(|next| *next);
            std::ptr::drop_in_place(link.as_ptr());
            next
        };
        self.len -= 1;
        Some(link.cast())
    }

    /// Returns every block to the allocator; each was allocated with
    /// `layout`.
    pub(super) fn free_all(&mut self, layout: Layout) {
        while let Some(block) = self.pop() {
            // SAFETY: the block came from `std::alloc::alloc(layout)` (every
            // block of a class does) and is no longer on the stack.
            unsafe { std::alloc::dealloc(block.as_ptr(), layout) };
        }
    }

    /// Takes the whole stack, leaving this one empty.
    pub(super) fn take(&mut self) -> Stack {
        std::mem::replace(self, Stack::EMPTY)
    }
}
