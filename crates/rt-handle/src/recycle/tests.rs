//! The recycler by itself: classes, reuse on one thread, hand-off between
//! threads through the depot, drops, and the depot's bound. Each test that counts
//! the depot's blocks uses a class no other test of this crate allocates
//! in bulk (the depot is shared by the test threads).
//!
//! These tests take the recycling path explicitly, so that it runs under
//! miri too, where the runtime's own cells get fresh allocations.

use std::alloc::Layout;
use std::ptr::NonNull;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

use super::{
    allocate_in, cached_blocks, deallocate_in, depot_blocks, release_idle_memory, Blocks, Class,
    BATCH,
};

/// A cell in a recycled block.
fn allocate<C>(cell: C) -> NonNull<C> {
    allocate_in(Blocks::Recycled, cell)
}

/// Drops a cell from [`allocate`] and keeps its block.
///
/// # Safety
///
/// As `super::deallocate`, for a cell from [`allocate`].
unsafe fn deallocate<C>(cell: NonNull<C>) {
    // SAFETY: per this function's contract.
    unsafe { deallocate_in(Blocks::Recycled, cell) }
}

#[test]
fn the_runtimes_cells_are_recycled_except_under_miri_where_each_is_allocated_afresh() {
    // On a thread of its own, so that only this test touches its cache.
    std::thread::spawn(|| {
        let class = Class::of(Layout::new::<Sized<1>>()).expect("a small cell");
        let cell = super::allocate(sized::<1>());
        let before = cached_blocks(class);
        // SAFETY: allocated above, used by nobody else.
        unsafe { super::deallocate(cell) };
        let kept = cached_blocks(class) - before;
        assert_eq!(kept, if cfg!(miri) { 0 } else { 1 });
        // A fresh block never enters the cache; a recycled one does.
        let fresh = allocate_in(Blocks::Fresh, sized::<1>());
        // SAFETY: allocated above with fresh blocks, used by nobody else.
        unsafe { deallocate_in(Blocks::Fresh, fresh) };
        assert_eq!(cached_blocks(class) - before, kept);
    })
    .join()
    .unwrap();
}

/// A cell of exactly `N` bytes (`N` a multiple of 8).
struct Sized<const N: usize>([u64; N]);

fn sized<const N: usize>() -> Sized<N> {
    Sized([0; N])
}

#[test]
fn cells_fall_into_the_smallest_class_that_holds_them() {
    let class = |size, align| Class::of(Layout::from_size_align(size, align).unwrap());
    assert_eq!(class(8, 8), Some(Class(0)));
    assert_eq!(class(64, 8), Some(Class(0)));
    assert_eq!(class(65, 8), Some(Class(1)));
    assert_eq!(class(128, 16), Some(Class(1)));
    assert_eq!(class(129, 8), Some(Class(2)));
    assert_eq!(class(512, 16), Some(Class(3)));
    assert_eq!(class(513, 8), None, "too big");
    assert_eq!(class(64, 32), None, "too aligned");
}

#[test]
fn a_freed_cell_is_reused_by_the_next_allocation_of_its_class_on_the_same_thread() {
    let first = allocate(sized::<4>());
    // SAFETY: allocated above, used by nobody else.
    unsafe { deallocate(first) };
    let second = allocate(sized::<6>()); // 48 bytes: the same class
    assert_eq!(first.cast::<u8>(), second.cast::<u8>());
    // SAFETY: as above.
    unsafe { deallocate(second) };
}

#[test]
fn a_cells_contents_are_dropped_exactly_once() {
    let drops = Arc::new(AtomicUsize::new(0));
    struct Counted(Arc<AtomicUsize>);
    impl Drop for Counted {
        fn drop(&mut self) {
            self.0.fetch_add(1, Ordering::SeqCst);
        }
    }
    let cell = allocate(Counted(drops.clone()));
    // SAFETY: allocated above, used by nobody else.
    unsafe { deallocate(cell) };
    assert_eq!(drops.load(Ordering::SeqCst), 1);
}

#[test]
fn a_panic_in_a_cells_drop_is_contained_and_its_block_still_reused() {
    struct Bomb(#[allow(dead_code)] u64);
    impl Drop for Bomb {
        fn drop(&mut self) {
            panic!("drop");
        }
    }
    let cell = allocate(Bomb(1));
    let previous = std::panic::take_hook();
    std::panic::set_hook(Box::new(|_| {}));
    // SAFETY: allocated above, used by nobody else.
    unsafe { deallocate(cell) };
    std::panic::set_hook(previous);
    let next = allocate(sized::<1>());
    assert_eq!(cell.cast::<u8>(), next.cast::<u8>());
    // SAFETY: as above.
    unsafe { deallocate(next) };
}

#[test]
fn cells_too_big_or_too_aligned_for_a_class_are_allocated_and_freed_directly() {
    #[repr(align(128))]
    struct Aligned(#[allow(dead_code)] u8);
    let big = allocate(sized::<100>());
    let aligned = allocate(Aligned(7));
    assert_eq!(aligned.as_ptr() as usize % 128, 0);
    // SAFETY: allocated above, used by nobody else.
    unsafe {
        deallocate(big);
        deallocate(aligned);
    }
}

/// Class 3 (512-byte blocks) is this test's alone.
#[test]
fn blocks_freed_on_one_thread_are_allocated_on_another_through_the_depot() {
    let cells: Vec<_> = (0..3 * BATCH)
        .map(|_| allocate(sized::<64>()).cast::<u8>())
        .collect();
    let freed: Vec<usize> = cells.iter().map(|c| c.as_ptr() as usize).collect();
    let addresses: Vec<usize> = freed.clone();
    std::thread::spawn(move || {
        for address in addresses {
            let cell = NonNull::new(address as *mut Sized<64>).unwrap();
            // SAFETY: allocated above; this thread is its only user now.
            unsafe { deallocate(cell) };
        }
    })
    .join()
    .unwrap();
    // Beyond its two stacks, the freeing thread handed a stack over.
    assert!(depot_blocks(Class(3)) >= BATCH);
    let reused: Vec<_> = std::thread::spawn(|| {
        let cells: Vec<_> = (0..BATCH).map(|_| allocate(sized::<64>())).collect();
        let addresses = cells
            .iter()
            .map(|c| c.as_ptr() as usize)
            .collect::<Vec<_>>();
        for cell in cells {
            // SAFETY: allocated above, used by nobody else.
            unsafe { deallocate(cell) };
        }
        addresses
    })
    .join()
    .unwrap();
    assert!(reused.iter().all(|a| freed.contains(a)), "from the depot");
}

/// Class 2 (256-byte blocks) is this test's alone.
#[test]
fn the_depot_keeps_at_most_its_bound_and_a_thread_going_idle_hands_its_blocks_over() {
    let bound = Class(2).depot_stacks() * BATCH;
    std::thread::spawn(move || {
        let cells: Vec<_> = (0..bound + 3 * BATCH)
            .map(|_| allocate(sized::<32>()))
            .collect();
        for cell in cells {
            // SAFETY: allocated above, used by nobody else.
            unsafe { deallocate(cell) };
        }
    })
    .join()
    .unwrap();
    assert!(depot_blocks(Class(2)) <= bound);
    std::thread::spawn(|| {
        let before = depot_blocks(Class(2));
        let cells: Vec<_> = (0..3).map(|_| allocate(sized::<32>())).collect();
        assert_eq!(
            depot_blocks(Class(2)),
            before - BATCH,
            "a stack taken whole"
        );
        for cell in cells {
            // SAFETY: allocated above, used by nobody else.
            unsafe { deallocate(cell) };
        }
        release_idle_memory();
        assert_eq!(depot_blocks(Class(2)), before, "the stack handed back");
    })
    .join()
    .unwrap();
}
