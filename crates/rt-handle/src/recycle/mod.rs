//! Task cells recycled, not freed: every task's allocation (its cell: state
//! word, closure, result slot) comes from a cache of free blocks of its
//! size class and goes back there when both its owners have let go
//! (the end of `header.rs`), instead of to the allocator. See `RECYCLING.md`.
//!
//! * Blocks come in four classes, 64, 128, 256 and 512 bytes, aligned to
//!   16 (as the allocator aligns small blocks); a cell bigger than 512
//!   bytes, or aligned to more than 16, is allocated and freed as a `Box`
//!   would be.
//! * Each thread keeps up to `2 × BATCH` (64) free blocks per class
//!   (below), and hands them to other threads through a depot of
//!   stacks (`depot.rs`), which keeps at most 4 MiB of blocks per class and
//!   frees the rest; a worker about to park hands its blocks to the depot
//!   ([`release_idle_memory`]), and an exiting thread frees its own.

mod depot;

use std::alloc::Layout;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::ptr::NonNull;

use crate::panic_message::drop_quietly;
use crate::sync::UnsafeCell;

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
        rt_queue::path_step!();
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
        (depot::BYTES_PER_CLASS / (self.layout().size() * BATCH)).max(1)
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
    rt_queue::path_step!();
    allocate_in(RUNTIME_BLOCKS, cell)
}

/// [`allocate`], from `blocks`.
#[inline]
fn allocate_in<C>(blocks: Blocks, cell: C) -> NonNull<C> {
    rt_queue::path_step!();
    let layout = Layout::new::<C>();
    let block = match (blocks, Class::of(layout)) {
        (Blocks::Recycled, Some(class)) => take(class).unwrap_or_else(|| fresh(class.layout())),
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
    rt_queue::path_step!();
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
    rt_queue::path_step!();
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
        (Blocks::Recycled, Some(class)) => unsafe { give(class, block) },
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
    release_idle();
}

// Each thread's cache of free blocks: per size class, two stacks of at
// most [`BATCH`] blocks (Bonwick's magazines), so that freeing and
// allocating touch only the thread's own memory, and the depot only once
// per `BATCH` blocks.

/// How many blocks a stack holds before it goes to the depot whole.
#[cfg(not(loom))]
const BATCH: usize = 32;
#[cfg(loom)]
const BATCH: usize = 1;

/// One class's two stacks. `current` is where blocks are freed to and
/// taken from; `spare` is empty or full (a full `current` moved aside), so
/// a thread that alternates around a boundary does not go to the depot
/// each time.
struct Magazines {
    current: Stack,
    spare: Stack,
}

impl Magazines {
    /// `current` is full: it becomes the spare, and a full spare goes to
    /// the depot first.
    #[cold]
    #[inline(never)]
    fn make_room(&mut self, class: Class) {
        if self.spare.len() > 0 {
            depot().put(class, self.spare.take());
        }
        self.spare = self.current.take();
    }
}

/// The calling thread's free blocks, per class.
struct LocalCache {
    classes: std::cell::UnsafeCell<[Magazines; CLASSES]>,
}

impl LocalCache {
    const fn new() -> Self {
        Self {
            classes: std::cell::UnsafeCell::new(
                [const {
                    Magazines {
                        current: Stack::EMPTY,
                        spare: Stack::EMPTY,
                    }
                }; CLASSES],
            ),
        }
    }

    /// The magazines of `class`.
    #[allow(clippy::mut_from_ref)]
    #[inline(always)]
    fn magazines(&self, class: Class) -> &mut Magazines {
        rt_queue::path_step!();
        // SAFETY: the cache is thread-local and its methods do not call
        // each other or anything that could reach it again (the depot and
        // the allocator do not), so this is the only reference.
        unsafe { &mut (*self.classes.get())[class.index()] }
    }

    /// A free block of `class`: from this thread's stacks, else a stack
    /// from the depot.
    fn take(&self, class: Class) -> Option<NonNull<u8>> {
        rt_queue::path_step!();
        let mags = self.magazines(class);
        if let Some(block) = mags.current.pop() {
            return Some(block);
        }
        if mags.spare.len() > 0 {
            std::mem::swap(&mut mags.current, &mut mags.spare);
        } else {
            mags.current = depot().take(class)?;
        }
        mags.current.pop()
    }

    /// Keeps the free `block` of `class`; a full stack goes to the depot.
    ///
    /// # Safety
    ///
    /// As [`Stack::push`].
    #[inline(always)]
    unsafe fn give(&self, class: Class, block: NonNull<u8>) {
        rt_queue::path_step!();
        let mags = self.magazines(class);
        if mags.current.len() == BATCH {
            mags.make_room(class);
        }
        // SAFETY: per this function's contract.
        unsafe { mags.current.push(block) };
    }

    /// Hands every block to the depot.
    fn flush(&self) {
        for index in 0..CLASSES {
            let class = Class::from_index(index);
            let mags = self.magazines(class);
            depot().put(class, mags.spare.take());
            depot().put(class, mags.current.take());
        }
    }
}

impl Drop for LocalCache {
    /// The thread is exiting: its blocks go back to the allocator (the
    /// depot may already be gone, at the end of the process).
    fn drop(&mut self) {
        for index in 0..CLASSES {
            let class = Class::from_index(index);
            let mags = self.magazines(class);
            mags.spare.free_all(class.layout());
            mags.current.free_all(class.layout());
        }
    }
}

#[cfg(not(loom))]
std::thread_local! {
    static LOCAL: LocalCache = const { LocalCache::new() };
}

#[cfg(loom)]
loom::thread_local! {
    static LOCAL: LocalCache = LocalCache::new();
}

#[cfg(not(loom))]
fn depot() -> &'static depot::Depot {
    static DEPOT: depot::Depot = depot::Depot::new();
    &DEPOT
}

#[cfg(loom)]
fn depot() -> &'static depot::Depot {
    loom::lazy_static! {
        static ref DEPOT: depot::Depot = depot::Depot::new();
    }
    &DEPOT
}

/// A free block of `class` from the caller's cache or the depot, if any.
fn take(class: Class) -> Option<NonNull<u8>> {
    rt_queue::path_step!();
    // A thread whose cache is gone (it is exiting) allocates afresh.
    LOCAL.try_with(|cache| cache.take(class)).ok().flatten()
}

/// Keeps the free `block` of `class` for reuse.
///
/// # Safety
///
/// As [`Stack::push`].
#[inline]
unsafe fn give(class: Class, block: NonNull<u8>) {
    rt_queue::path_step!();
    // SAFETY: per this function's contract.
    let kept = LOCAL.try_with(|cache| unsafe { cache.give(class, block) });
    if kept.is_err() {
        // The thread's cache is gone (the thread is exiting): straight
        // back to the allocator.
        // SAFETY: every block of a class is allocated with its layout.
        unsafe { std::alloc::dealloc(block.as_ptr(), class.layout()) };
    }
    rt_queue::path_step!(recycled);
}

/// Hands the caller's cached blocks to the depot.
fn release_idle() {
    let _ = LOCAL.try_with(LocalCache::flush);
}

/// How many free blocks of `class` the depot holds (for tests).
#[cfg(all(test, not(loom)))]
fn depot_blocks(class: Class) -> usize {
    depot().blocks(class)
}

/// How many free blocks of `class` the calling thread's cache holds (for
/// tests).
#[cfg(all(test, not(loom)))]
fn cached_blocks(class: Class) -> usize {
    LOCAL.with(|cache| {
        let mags = cache.magazines(class);
        mags.current.len() + mags.spare.len()
    })
}

// A stack of free blocks of one size class, linked through the blocks
// themselves: a free block's first bytes hold the link to the next.

/// What a free block holds: the next free block of its stack. Written into
/// the block when it is freed, dropped when it is taken, so that (built
/// with loom) every hand-off of a block between threads is checked like any
/// other access to shared memory.
struct Link {
    next: UnsafeCell<Option<NonNull<Link>>>,
}

/// Free blocks of one class, newest first.
struct Stack {
    head: Option<NonNull<Link>>,
    len: usize,
}

// SAFETY: a stack owns its blocks (nothing else points at a free block), so
// it may move to another thread; the hand-off itself is synchronized by
// whoever moves it (the depot's lock).
unsafe impl Send for Stack {}

impl Stack {
    const EMPTY: Stack = Stack { head: None, len: 0 };

    #[inline(always)]
    fn len(&self) -> usize {
        rt_queue::path_step!();
        self.len
    }

    /// Puts the free `block` on top.
    ///
    /// # Safety
    ///
    /// `block` is a block of this stack's class that nothing else points at
    /// or uses any more, aligned for a `Link` and big enough for one.
    #[inline(always)]
    unsafe fn push(&mut self, block: NonNull<u8>) {
        rt_queue::path_step!();
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
    fn pop(&mut self) -> Option<NonNull<u8>> {
        rt_queue::path_step!();
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
    fn free_all(&mut self, layout: Layout) {
        while let Some(block) = self.pop() {
            // SAFETY: the block came from `std::alloc::alloc(layout)` (every
            // block of a class does) and is no longer on the stack.
            unsafe { std::alloc::dealloc(block.as_ptr(), layout) };
        }
    }

    /// Takes the whole stack, leaving this one empty.
    fn take(&mut self) -> Stack {
        std::mem::replace(self, Stack::EMPTY)
    }
}

#[cfg(all(test, loom))]
mod loom_recycle;
#[cfg(all(test, not(loom)))]
mod tests;
