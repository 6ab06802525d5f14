//! Parallel sorts on `join`.
//!
//! * [`merge_sort`] (stable): halves sorted in parallel, alternating
//!   between the slice and a scratch buffer so that every level merges
//!   once without copying back; the merge itself splits in parallel (the
//!   middle of the longer run, its place in the other found by binary
//!   search). Short runs use the standard library's stable sort.
//! * [`quick_sort`] (unstable): a pivot from a median of three, a
//!   branchless partition, the two sides sorted
//!   with `join`. Short slices, and slices that recursed too deep, use the
//!   standard library's unstable sort.
//!
//! Both are panic-safe: if a comparison panics, every item is still in the
//! slice exactly once (in some order) when the panic reaches the caller.

use std::cmp::Ordering;
use std::mem;
use std::panic::{catch_unwind, resume_unwind, AssertUnwindSafe};
use std::ptr;
use std::sync::atomic::{AtomicBool, Ordering as AtomicOrdering};

use crate::core_api;

/// Below this many items a piece sorts sequentially.
const SEQUENTIAL_SORT: usize = 4096;
/// Below this many items a merge runs sequentially.
const SEQUENTIAL_MERGE: usize = 8192;

/// Runs a standard-library sort of a piece. The standard sorts may panic
/// when they notice that `compare` is not a total order; that panic is
/// dropped here (the items are then in some order, all still there, as
/// the parallel parts leave them with such a comparison), so that, as in
/// rayon, a bad comparison never panics. A panic of `compare` itself
/// resumes.
fn sort_piece(sort: impl FnOnce()) {
    if let Err(payload) = catch_unwind(AssertUnwindSafe(sort)) {
        let text = payload
            .downcast_ref::<&str>()
            .copied()
            .or_else(|| payload.downcast_ref::<String>().map(String::as_str));
        if !text.is_some_and(|t| t.contains("does not correctly implement a total order")) {
            resume_unwind(payload);
        }
    }
}

/// A raw pointer that a `join` half may carry: each half works on its own
/// range.
struct Raw<T>(*mut T);

impl<T> Clone for Raw<T> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<T> Copy for Raw<T> {}

// SAFETY: the sorts hand each half of a `join` a disjoint range of the
// slice and of the buffer; the items are `Send`.
unsafe impl<T: Send> Send for Raw<T> {}

impl<T> Raw<T> {
    /// # Safety
    ///
    /// `self.0 + n` stays within (or one past) its allocation.
    unsafe fn add(self, n: usize) -> Self {
        // SAFETY: per this function's contract.
        Raw(unsafe { self.0.add(n) })
    }
}

/// Sorts `v` stably.
pub(super) fn merge_sort<T, F>(v: &mut [T], compare: &F)
where
    T: Send,
    F: Fn(&T, &T) -> Ordering + Sync,
{
    let len = v.len();
    if len <= SEQUENTIAL_SORT || mem::size_of::<T>() == 0 {
        sort_piece(|| v.sort_by(compare));
        return;
    }
    let mut buffer: Vec<T> = Vec::with_capacity(len);
    let slice = Raw(v.as_mut_ptr());
    let scratch = Raw(buffer.as_mut_ptr());
    core_api::in_runtime(move || {
        // SAFETY: `slice` covers `len` items and `scratch` room for `len`;
        // the caller's `&mut` borrow and the buffer outlive the call. The
        // buffer keeps length 0, so it never drops what it holds.
        unsafe { sort_into(slice, scratch, len, false, compare) }
    });
}

/// Sorts the `len` items at `slice` stably; they end at `slice` if
/// `into_scratch` is false, else at `scratch`. If a comparison panics,
/// every item is at `slice` (once) when the panic leaves.
///
/// # Safety
///
/// `slice` holds `len` items and `scratch` has room for `len`, and nothing
/// else touches either range during the call.
unsafe fn sort_into<T, F>(
    slice: Raw<T>,
    scratch: Raw<T>,
    len: usize,
    into_scratch: bool,
    compare: &F,
) where
    T: Send,
    F: Fn(&T, &T) -> Ordering + Sync,
{
    if len <= SEQUENTIAL_SORT {
        // SAFETY: the caller owns the range.
        let items = unsafe { std::slice::from_raw_parts_mut(slice.0, len) };
        sort_piece(|| items.sort_by(compare));
        if into_scratch {
            // SAFETY: disjoint ranges of `len` items each.
            unsafe { ptr::copy_nonoverlapping(slice.0, scratch.0, len) };
        }
        return;
    }
    let mid = len / 2;
    // The halves sort into the other place, and this level merges back.
    let halves_in_scratch = !into_scratch;
    let done = [AtomicBool::new(false), AtomicBool::new(false)];
    let done = &done;
    let restore = Restore {
        slice,
        scratch,
        parts: [(0, mid), (mid, len - mid)],
        done,
        halves_in_scratch,
    };
    // SAFETY: `mid < len`, so both pointers stay inside their `len`-item
    // ranges, and `[0, mid)` and `[mid, len)` do not overlap.
    let (right_slice, right_scratch) = unsafe { (slice.add(mid), scratch.add(mid)) };
    rt_core::join(
        move || {
            // SAFETY: the left half of both ranges belongs to this call.
            unsafe { sort_into(slice, scratch, mid, halves_in_scratch, compare) };
            done[0].store(true, AtomicOrdering::Release);
        },
        move || {
            // SAFETY: the right half of both ranges belongs to this call.
            unsafe {
                sort_into(
                    right_slice,
                    right_scratch,
                    len - mid,
                    halves_in_scratch,
                    compare,
                )
            };
            done[1].store(true, AtomicOrdering::Release);
        },
    );
    mem::forget(restore);
    let (from, to) = if halves_in_scratch {
        (scratch, slice)
    } else {
        (slice, scratch)
    };
    let restore = Restore {
        slice,
        scratch,
        parts: [(0, len), (len, 0)],
        done: &[AtomicBool::new(true), AtomicBool::new(false)],
        halves_in_scratch: into_scratch,
    };
    // SAFETY: `from` holds the two sorted runs; `to` is free for `len`.
    unsafe {
        let right = from.add(mid);
        merge(from, mid, right, len - mid, to, compare);
    }
    mem::forget(restore);
}

/// On unwinding, moves the parts that finished in the scratch buffer back
/// to the slice (a part that panicked left its items in the slice).
struct Restore<'a, T> {
    slice: Raw<T>,
    scratch: Raw<T>,
    parts: [(usize, usize); 2],
    done: &'a [AtomicBool; 2],
    halves_in_scratch: bool,
}

impl<T> Drop for Restore<'_, T> {
    fn drop(&mut self) {
        if !self.halves_in_scratch {
            return;
        }
        for (&(start, len), done) in self.parts.iter().zip(self.done) {
            if done.load(AtomicOrdering::Acquire) {
                // SAFETY: a finished part holds its items in the scratch
                // range, and the slice range is free for them.
                unsafe {
                    ptr::copy_nonoverlapping(
                        self.scratch.0.add(start),
                        self.slice.0.add(start),
                        len,
                    )
                };
            }
        }
    }
}

/// Merges the sorted runs `left` and `right` into `dest`, stably; in
/// parallel when long. Whatever happens, every item ends in `dest` once.
///
/// # Safety
///
/// The runs hold `left_len` and `right_len` items, `dest` has room for
/// both, and `dest` overlaps neither.
unsafe fn merge<T, F>(
    left: Raw<T>,
    left_len: usize,
    right: Raw<T>,
    right_len: usize,
    dest: Raw<T>,
    compare: &F,
) where
    T: Send,
    F: Fn(&T, &T) -> Ordering + Sync,
{
    if left_len + right_len <= SEQUENTIAL_MERGE || left_len == 0 || right_len == 0 {
        // SAFETY: per this function's contract.
        unsafe { merge_sequential(left, left_len, right, right_len, dest, compare) };
        return;
    }
    let is_less = |a: &T, b: &T| compare(a, b) == Ordering::Less;
    // SAFETY: the runs hold initialised items.
    let (left_run, right_run) = unsafe {
        (
            std::slice::from_raw_parts(left.0, left_len),
            std::slice::from_raw_parts(right.0, right_len),
        )
    };
    let (left_cut, right_cut) = if left_len >= right_len {
        let left_cut = left_len / 2;
        let pivot = &left_run[left_cut];
        // Right items before the pivot: those strictly less (equal ones
        // stay after the left one, for stability).
        (left_cut, right_run.partition_point(|x| is_less(x, pivot)))
    } else {
        let right_cut = right_len / 2;
        let pivot = &right_run[right_cut];
        // Left items before the pivot: those not greater.
        (left_run.partition_point(|x| !is_less(pivot, x)), right_cut)
    };
    // SAFETY: `left_cut <= left_len` and `right_cut <= right_len` (a
    // partition point and a midpoint of the runs), and `dest` holds
    // `left_len + right_len` items: every pointer stays in its range, and
    // the parts before and after the cuts do not overlap.
    let (left_rest, right_rest, dest_rest) = unsafe {
        (
            left.add(left_cut),
            right.add(right_cut),
            dest.add(left_cut + right_cut),
        )
    };
    rt_core::join(
        // SAFETY: the first parts of the runs go to the first part of `dest`.
        move || unsafe { merge(left, left_cut, right, right_cut, dest, compare) },
        // SAFETY: the runs' items after the cuts go to `dest` after its
        // first `left_cut + right_cut` items, which the other half leaves.
        move || unsafe {
            merge(
                left_rest,
                left_len - left_cut,
                right_rest,
                right_len - right_cut,
                dest_rest,
                compare,
            )
        },
    );
}

/// # Safety
///
/// As for [`merge`].
unsafe fn merge_sequential<T, F>(
    left: Raw<T>,
    left_len: usize,
    right: Raw<T>,
    right_len: usize,
    dest: Raw<T>,
    compare: &F,
) where
    F: Fn(&T, &T) -> Ordering,
{
    // SAFETY: all pointers stay within their runs and `dest`.
    let mut hole = unsafe {
        MergeHole {
            left: left.0,
            left_end: left.0.add(left_len),
            right: right.0,
            right_end: right.0.add(right_len),
            dest: dest.0,
        }
    };
    while hole.left < hole.left_end && hole.right < hole.right_end {
        // SAFETY: both read pointers are before their ends; `dest` has
        // room for every item not yet moved.
        unsafe {
            let take_right = compare(&*hole.right, &*hole.left) == Ordering::Less;
            let from = if take_right { hole.right } else { hole.left };
            ptr::copy_nonoverlapping(from, hole.dest, 1);
            hole.dest = hole.dest.add(1);
            if take_right {
                hole.right = hole.right.add(1);
            } else {
                hole.left = hole.left.add(1);
            }
        }
    }
    // Dropping the hole moves what is left of both runs.
}

/// The unmerged rest of two runs and where it goes: dropping it (at the end
/// of a merge, or when a comparison panics) moves the rest into place.
struct MergeHole<T> {
    left: *mut T,
    left_end: *mut T,
    right: *mut T,
    right_end: *mut T,
    dest: *mut T,
}

impl<T> Drop for MergeHole<T> {
    fn drop(&mut self) {
        // SAFETY: the remaining items of both runs fit in the rest of
        // `dest`, which overlaps neither run.
        unsafe {
            let left = self.left_end.offset_from(self.left) as usize;
            ptr::copy_nonoverlapping(self.left, self.dest, left);
            let right = self.right_end.offset_from(self.right) as usize;
            ptr::copy_nonoverlapping(self.right, self.dest.add(left), right);
        }
    }
}

/// Sorts `v`, not keeping the order of equal items.
pub(super) fn quick_sort<T, F>(v: &mut [T], compare: &F)
where
    T: Send,
    F: Fn(&T, &T) -> Ordering + Sync,
{
    if v.len() <= SEQUENTIAL_SORT {
        sort_piece(|| v.sort_unstable_by(compare));
        return;
    }
    let depth = 2 * (usize::BITS - v.len().leading_zeros()) as usize;
    core_api::in_runtime(move || quick_sort_at(v, compare, depth));
}

fn quick_sort_at<T, F>(v: &mut [T], compare: &F, depth: usize)
where
    T: Send,
    F: Fn(&T, &T) -> Ordering + Sync,
{
    let len = v.len();
    if len <= SEQUENTIAL_SORT || depth == 0 {
        sort_piece(|| v.sort_unstable_by(compare));
        return;
    }
    let pivot = median_of_three(v, compare);
    v.swap(0, pivot);
    let (pivot, rest) = v.split_at_mut(1);
    let pivot = &pivot[0];
    let less = partition(rest, &|x: &T| compare(x, pivot) == Ordering::Less);
    if less == 0 {
        // Nothing is less than the pivot: put the items equal to it first;
        // they are sorted already.
        let equal = partition(rest, &|x: &T| compare(pivot, x) != Ordering::Less);
        quick_sort_at(&mut rest[equal..], compare, depth - 1);
        return;
    }
    v.swap(0, less);
    let (left, right) = v.split_at_mut(less);
    let right = &mut right[1..];
    rt_core::join(
        || quick_sort_at(left, compare, depth - 1),
        || quick_sort_at(right, compare, depth - 1),
    );
}

/// The index of the median of the first, middle and last items (of three
/// such medians, for long slices).
fn median_of_three<T, F>(v: &[T], compare: &F) -> usize
where
    F: Fn(&T, &T) -> Ordering,
{
    let median = |a: usize, b: usize, c: usize| {
        let less = |i: usize, j: usize| compare(&v[i], &v[j]) == Ordering::Less;
        if less(a, b) {
            if less(b, c) {
                b
            } else if less(a, c) {
                c
            } else {
                a
            }
        } else if less(a, c) {
            a
        } else if less(b, c) {
            c
        } else {
            b
        }
    };
    let len = v.len();
    let (a, b, c) = (len / 4, len / 2, len / 4 * 3);
    if len >= 1024 {
        let step = len / 16;
        median(
            median(a - step, a, a + step),
            median(b - step, b, b + step),
            median(c - step, c, c + step),
        )
    } else {
        median(a, b, c)
    }
}

/// A branchless Lomuto partition: every item is swapped to the boundary,
/// which advances past it when it belongs on the left.
fn partition<T, P>(v: &mut [T], is_left: &P) -> usize
where
    P: Fn(&T) -> bool,
{
    let mut boundary = 0;
    for i in 0..v.len() {
        let left = is_left(&v[i]);
        v.swap(boundary, i);
        boundary += usize::from(left);
    }
    boundary
}
