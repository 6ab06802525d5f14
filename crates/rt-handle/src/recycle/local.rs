//! Each thread's cache of free blocks: per size class, two stacks of at
//! most [`BATCH`] blocks (Bonwick's magazines), so that freeing and
//! allocating touch only the thread's own memory, and the depot only once
//! per `BATCH` blocks.

use std::ptr::NonNull;

use super::depot;
use super::stack::Stack;
use super::{Class, CLASSES};

/// How many blocks a stack holds before it goes to the depot whole.
#[cfg(not(loom))]
pub(super) const BATCH: usize = 32;
#[cfg(loom)]
pub(super) const BATCH: usize = 1;

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
pub(super) struct LocalCache {
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
        // SAFETY: the cache is thread-local and its methods do not call
        // each other or anything that could reach it again (the depot and
        // the allocator do not), so this is the only reference.
        unsafe { &mut (*self.classes.get())[class.index()] }
    }

    /// A free block of `class`: from this thread's stacks, else a stack
    /// from the depot.
    fn take(&self, class: Class) -> Option<NonNull<u8>> {
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
pub(super) fn take(class: Class) -> Option<NonNull<u8>> {
    // A thread whose cache is gone (it is exiting) allocates afresh.
    LOCAL.try_with(|cache| cache.take(class)).ok().flatten()
}

/// Keeps the free `block` of `class` for reuse.
///
/// # Safety
///
/// As [`Stack::push`].
#[inline]
pub(super) unsafe fn give(class: Class, block: NonNull<u8>) {
    // SAFETY: per this function's contract.
    let kept = LOCAL.try_with(|cache| unsafe { cache.give(class, block) });
    if kept.is_err() {
        // The thread's cache is gone (the thread is exiting): straight
        // back to the allocator.
        // SAFETY: every block of a class is allocated with its layout.
        unsafe { std::alloc::dealloc(block.as_ptr(), class.layout()) };
    }
}

/// Hands the caller's cached blocks to the depot.
pub(super) fn release_idle() {
    let _ = LOCAL.try_with(LocalCache::flush);
}

/// How many free blocks of `class` the depot holds (for tests).
#[cfg(all(test, not(loom)))]
pub(super) fn depot_blocks(class: Class) -> usize {
    depot().blocks(class)
}

/// How many free blocks of `class` the calling thread's cache holds (for
/// tests).
#[cfg(all(test, not(loom)))]
pub(super) fn cached_blocks(class: Class) -> usize {
    LOCAL.with(|cache| {
        let mags = cache.magazines(class);
        mags.current.len() + mags.spare.len()
    })
}
