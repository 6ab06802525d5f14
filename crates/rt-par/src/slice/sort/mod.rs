//! The sorts behind `par_sort*` and `par_sort_unstable*`, sequential parts
//! included: the standard library's sorts are not used, since they may
//! panic ("user-provided comparison function does not correctly implement
//! a total order") where rayon's promise is that a bad comparison never
//! panics.
//!
//! * [`merge_sort`] (stable, `stable.rs`): top-down, each level sorting its
//!   halves into the other of two places (the slice and a scratch buffer of
//!   the same length) and merging them back (`merge.rs`), so that every
//!   level moves each item once. Halves longer than [`SEQUENTIAL`] sort
//!   with `join`. A merge splits in two independent parts (the middle of
//!   the longer run, its place in the other found by binary search),
//!   merged with `join` if longer than [`SEQUENTIAL_MERGE`], else
//!   interleaved step by step in one loop (two chains of dependent steps
//!   instead of one). Runs of at most [`SMALL_SORT`] items are
//!   insertion-sorted.
//! * [`quick_sort`] (unstable, `unstable.rs`): pattern-defeating
//!   quicksort: a pseudo-median pivot, a branchless partition, the items
//!   equal to an earlier pivot set aside in one pass, sides longer than
//!   [`SEQUENTIAL`] sorted with `join`; heapsort past a depth of
//!   2·log₂(n), so O(n log n) always; insertion sort for short runs
//!   (`small.rs`).
//!
//! # What a comparison may do
//!
//! Whatever a comparison answers (it may not be a total order at all) and
//! wherever it panics, the slice ends as a permutation of its input: each
//! item in it exactly once, each the copy that was last compared (an item
//! with interior mutability keeps what the comparison wrote), and a panic
//! resumes in the caller with its payload once every forked half has
//! stopped. A bad comparison ends the sort in some order, without panicking.
//!
//! The unstable sort works in place: its partition and its insertion sort
//! hold one item out of the slice at a time, in a guard whose `Drop`
//! writes it into the one free slot (the *gap*), and compare only items in
//! their slots or the held one; heapsort and the rest move items by swaps.
//! The merge sort moves items between its two places by bitwise copies;
//! each copy is covered by a guard whose `Drop` completes the move if a
//! comparison unwinds. The rule that makes it hold: *every call, when it
//! returns or unwinds, leaves each of its items in its destination place
//! exactly once*:
//!
//! * sorting a short run: insertion sort in the slice, then (on
//!   return or unwind alike) a copy to the destination if that is the
//!   scratch buffer;
//! * sorting a long run: the halves go to the other place; a guard knows
//!   where each half's items are (a half not yet started: still in the
//!   slice) and moves them to the destination if a half unwinds;
//! * merging: a guard holds the unmerged rest of both runs and moves it to
//!   the destination when dropped, which ends every merge and covers the
//!   binary search that splits one; each part of a split merge has a guard
//!   of its own (the two parts' items and destinations are disjoint), and
//!   `join` runs both parts even if one unwinds.
//!
//! The buffer is a `Vec` of length 0: it never drops what it holds.
//!
//! Two halves never share an item: a `join` hands each half a disjoint
//! range of both places, and the pivot that the unstable sort passes down
//! goes to one half only, so an item is never seen by two threads at once
//! (items need be `Send`, not `Sync`).

mod merge;
mod small;
mod stable;
mod unstable;

pub(super) use stable::merge_sort;
pub(super) use unstable::quick_sort;

/// Runs of at most this many items are insertion-sorted.
const SMALL_SORT: usize = 20;

/// Runs of at most this many items sort sequentially (fewer under miri,
/// so that its short runs still take the parallel paths).
const SEQUENTIAL: usize = if cfg!(miri) { 64 } else { 4096 };

/// Merges of at most this many items run sequentially.
const SEQUENTIAL_MERGE: usize = if cfg!(miri) { 96 } else { 8192 };

/// A raw pointer that a `join` half may carry: each half works on its own
/// range of the slice and of the buffer.
struct Raw<T>(*mut T);

impl<T> Clone for Raw<T> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<T> Copy for Raw<T> {}

// SAFETY: the merge sort hands each half of a `join` a disjoint range of
// the slice and of the buffer, so a `Raw` sent to another thread shares no
// item with the sender; the items themselves are `Send`.
unsafe impl<T: Send> Send for Raw<T> {}

impl<T> Raw<T> {
    /// The pointer `n` items further.
    ///
    /// # Safety
    ///
    /// The result stays within (or one past the end of) the allocation.
    unsafe fn add(self, n: usize) -> Self {
        // SAFETY: per this function's contract.
        Raw(unsafe { self.0.add(n) })
    }
}
