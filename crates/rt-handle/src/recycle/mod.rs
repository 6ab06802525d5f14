//! Task cells recycled, not freed: every task's allocation (its cell: state
//! word, closure, result slot) comes from a cache of free blocks of its
//! size class and goes back there when both its owners have let go
//! (`ownership.rs`), instead of to the allocator. See `RECYCLING.md`.
//!
//! * Blocks come in four classes, 64, 128, 256 and 512 bytes, aligned to
//!   16 (as the allocator aligns small blocks); a cell bigger than 512
//!   bytes, or aligned to more than 16, is allocated and freed as a `Box`
//!   would be.
//! * Each thread keeps up to `2 × BATCH` (64) free blocks per class
//!   (`local.rs`), and hands them to other threads through a depot of
//!   stacks (`depot.rs`), which keeps at most 4 MiB of blocks per class and
//!   frees the rest; a worker about to park hands its blocks to the depot
//!   ([`release_idle_memory`]), and an exiting thread frees its own.

mod depot;
mod local;
mod stack;

use std::alloc::Layout;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::ptr::NonNull;

use crate::panic_message::drop_quietly;

/// The number of size classes.
const CLASSES: usize = 4;
/// The smallest class's block size; each class doubles it.
const SMALLEST: usize = 64;
/// Every block's alignment: the allocator's own for small blocks, so that a
/// fresh block costs a plain `malloc` (an alignment of 64 made glibc take
/// its `memalign` path, three times the work).
const ALIGN: usize = 16;

/// A size class: blocks of `64 << index` bytes, aligned to 16.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Class(u8);

impl Class {
    /// The class of a cell with `layout`, or `None` for one that is too
    /// big or too aligned to be recycled.
    #[inline(always)]
    fn of(layout: Layout) -> Option<Class> {
        if layout.align() > ALIGN || layout.size() > SMALLEST << (CLASSES - 1) {
            return None;
        }
        // The smallest class whose blocks hold `size` bytes.
        let units = layout.size().div_ceil(SMALLEST).max(1);
        Some(Class(units.next_power_of_two().trailing_zeros() as u8))
    }

    fn from_index(index: usize) -> Class {
        debug_assert!(index < CLASSES);
        Class(index as u8)
    }

    fn index(self) -> usize {
        usize::from(self.0)
    }

    /// How many stacks of `BATCH` blocks the depot keeps of this class:
    /// `depot::BYTES_PER_CLASS` worth (at least one).
    fn depot_stacks(self) -> usize {
        (depot::BYTES_PER_CLASS / (self.layout().size() * local::BATCH)).max(1)
    }

    /// The layout every block of this class is allocated with.
    fn layout(self) -> Layout {
        // A power of two times 64, aligned to 16: always a valid layout.
        Layout::from_size_align(SMALLEST << self.0, ALIGN).expect("a valid block layout")
    }
}

/// Where cells' blocks come from and go back to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Blocks {
    /// Recycled through the thread's cache and the depot.
    Recycled,
    /// Straight from and back to the allocator: one allocation per cell.
    Fresh,
}

/// The blocks of the runtime's cells: recycled, except under miri, where
/// each cell gets an allocation of its own so that miri sees where each
/// cell's life ends (a stale pointer into a recycled block would look like
/// a pointer to the live cell that reuses it). The recycling itself is
/// still checked under miri, by its own tests (`tests.rs`).
const RUNTIME_BLOCKS: Blocks = if cfg!(miri) {
    Blocks::Fresh
} else {
    Blocks::Recycled
};

/// Moves `cell` into a block of its class (recycled if the thread or the
/// depot has one) and returns the pointer its owners share; released with
/// [`deallocate`].
#[inline]
pub(crate) fn allocate<C>(cell: C) -> NonNull<C> {
    allocate_in(RUNTIME_BLOCKS, cell)
}

/// [`allocate`], from `blocks`.
#[inline]
fn allocate_in<C>(blocks: Blocks, cell: C) -> NonNull<C> {
    let layout = Layout::new::<C>();
    let block = match (blocks, Class::of(layout)) {
        (Blocks::Recycled, Some(class)) => {
            local::take(class).unwrap_or_else(|| fresh(class.layout()))
        }
        _ => fresh(layout),
    };
    let cell_ptr = block.cast::<C>();
    // SAFETY: the block is unused, and big and aligned enough for `C`
    // (its class was chosen for `C`'s layout, or it was allocated with
    // that layout).
    unsafe { cell_ptr.as_ptr().write(cell) };
    cell_ptr
}

/// A block just from the allocator.
#[cold]
fn fresh(layout: Layout) -> NonNull<u8> {
    // SAFETY: `layout` has a non-zero size (every cell holds a state word,
    // and every class's blocks are at least 64 bytes).
    let block = unsafe { std::alloc::alloc(layout) };
    NonNull::new(block).unwrap_or_else(|| std::alloc::handle_alloc_error(layout))
}

/// Drops what `cell` holds (a panic in that is contained) and keeps its
/// block for reuse, or frees it if its class is not recycled.
///
/// # Safety
///
/// `cell` came from [`allocate`] of a `C`, and nothing will use it again:
/// both of its owners have let go.
#[inline]
pub(crate) unsafe fn deallocate<C>(cell: NonNull<C>) {
    // SAFETY: per this function's contract.
    unsafe { deallocate_in(RUNTIME_BLOCKS, cell) }
}

/// [`deallocate`], back to `blocks`.
///
/// # Safety
///
/// `cell` came from [`allocate_in`] with the same `blocks`, and nothing
/// will use it again.
#[inline(always)]
unsafe fn deallocate_in<C>(blocks: Blocks, cell: NonNull<C>) {
    let layout = Layout::new::<C>();
    // SAFETY: the cell is live (the contract) and dropped exactly once,
    // here. A panic in a field's `Drop` still drops the other fields
    // (unwinding drop glue).
    if let Err(payload) = catch_unwind(AssertUnwindSafe(|| unsafe {
        std::ptr::drop_in_place(cell.as_ptr())
    })) {
        drop_quietly(payload);
    }
    let block = cell.cast::<u8>();
    match (blocks, Class::of(layout)) {
        // SAFETY: the block's contents were dropped and nothing points at
        // it; a block of its class is big and aligned enough for a link.
        (Blocks::Recycled, Some(class)) => unsafe { local::give(class, block) },
        // SAFETY: allocated by `fresh(layout)` (fresh blocks, or a class
        // that is not recycled): the cell's own layout.
        _ => unsafe { std::alloc::dealloc(block.as_ptr(), layout) },
    }
}

/// Hands the calling thread's cached task cells (up to 64 per size class)
/// to the shared depot, where other threads reuse them, or to the allocator
/// if the depot is full: for an executor's worker about to park, so that
/// what an idle worker keeps is bounded by the depot's bound (4 MiB per
/// size class), whatever burst came before. Cheap when there is nothing to
/// release.
pub fn release_idle_memory() {
    local::release_idle();
}

#[cfg(all(test, loom))]
mod loom_recycle;
#[cfg(all(test, not(loom)))]
mod tests;
