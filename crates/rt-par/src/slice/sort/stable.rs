//! The stable merge sort: halves sorted (in parallel when long) into the
//! other of two places, then merged back (see the module above for the
//! rule that keeps it panic-safe).

use std::mem;
use std::ptr;

use super::merge::{merge, Run};
use super::small::insertion_sort;
use super::{Raw, SEQUENTIAL, SMALL_SORT};
use crate::core_api;

/// Sorts `v` stably by `is_less`.
pub(crate) fn merge_sort<T, F>(v: &mut [T], is_less: &F)
where
    T: Send,
    F: Fn(&T, &T) -> bool + Sync,
{
    let len = v.len();
    if mem::size_of::<T>() == 0 {
        // Zero-sized items have no order to restore (as in std and rayon).
        return;
    }
    if len <= SMALL_SORT {
        insertion_sort(v, is_less);
        return;
    }
    // Length 0 for its whole life: it never drops what it holds.
    let mut buffer: Vec<T> = Vec::with_capacity(len);
    let span = Span {
        slice: Raw(v.as_mut_ptr()),
        scratch: Raw(buffer.as_mut_ptr()),
        len,
    };
    // SAFETY: `span` covers the `len` items of `v` (borrowed mutably for
    // the call) and the buffer's room for `len`; nothing else touches them.
    let sort = move || unsafe { sort_into(span, Place::Slice, is_less) };
    if len <= SEQUENTIAL {
        sort();
    } else {
        core_api::in_runtime(sort);
    }
}

/// Where a run of items is: in the slice, or in the scratch buffer.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Place {
    Slice,
    Scratch,
}

impl Place {
    fn other(self) -> Place {
        match self {
            Place::Slice => Place::Scratch,
            Place::Scratch => Place::Slice,
        }
    }
}

/// The same range of items in the slice and in the scratch buffer.
struct Span<T> {
    slice: Raw<T>,
    scratch: Raw<T>,
    len: usize,
}

impl<T> Clone for Span<T> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<T> Copy for Span<T> {}

impl<T> Span<T> {
    fn at(self, place: Place) -> Raw<T> {
        match place {
            Place::Slice => self.slice,
            Place::Scratch => self.scratch,
        }
    }

    /// The run of this span's items in `place`.
    fn run(self, place: Place) -> Run<T> {
        Run {
            start: self.at(place),
            len: self.len,
        }
    }

    /// The first `mid` items and the rest.
    ///
    /// # Safety
    ///
    /// `mid <= self.len`.
    unsafe fn split_at(self, mid: usize) -> (Span<T>, Span<T>) {
        // SAFETY: `mid <= len` (the contract): both pointers stay within
        // their ranges.
        let (slice, scratch) = unsafe { (self.slice.add(mid), self.scratch.add(mid)) };
        let head = Span { len: mid, ..self };
        let tail = Span {
            slice,
            scratch,
            len: self.len - mid,
        };
        (head, tail)
    }
}

/// Sorts the items of `span`, which are in the slice, stably into `dest`.
/// Whether it returns or a comparison unwinds, every item ends in `dest`
/// exactly once.
///
/// # Safety
///
/// `span` holds initialised items in the slice and room for as many in
/// the scratch buffer, and nothing else touches either range during the
/// call.
unsafe fn sort_into<T, F>(span: Span<T>, dest: Place, is_less: &F)
where
    T: Send,
    F: Fn(&T, &T) -> bool + Sync,
{
    if span.len <= SMALL_SORT {
        // Moves the run to `dest` once sorted, or while unwinding.
        let _to_dest = Relocate::new(span, Place::Slice, dest);
        // SAFETY: the run's items are initialised, and this call's alone.
        let run = unsafe { std::slice::from_raw_parts_mut(span.slice.0, span.len) };
        insertion_sort(run, is_less);
        return;
    }
    let halves = dest.other();
    // SAFETY: `len / 2 <= len`.
    let (left, right) = unsafe { span.split_at(span.len / 2) };
    // Where each half's items are if a half unwinds: a half that started
    // leaves its items in `halves` (this rule, one level down); one that
    // did not start still has them in the slice.
    let mut gather = Gather {
        left,
        right,
        left_at: halves,
        right_at: Place::Slice,
        dest,
    };
    if span.len > SEQUENTIAL {
        // `join` runs both halves, even if one unwinds.
        gather.right_at = halves;
        rt_core::join(
            // SAFETY: each half owns its range of both places.
            move || unsafe { sort_into(left, halves, is_less) },
            // SAFETY: as for the left half.
            move || unsafe { sort_into(right, halves, is_less) },
        );
    } else {
        // SAFETY: each half owns its range of both places.
        unsafe { sort_into(left, halves, is_less) };
        gather.right_at = halves;
        // SAFETY: as for the left half.
        unsafe { sort_into(right, halves, is_less) };
    }
    mem::forget(gather);
    // SAFETY: both sorted halves are in `halves`, and `dest` (the other
    // place) has room for them; `merge` leaves every item in `dest`.
    unsafe { merge(left.run(halves), right.run(halves), span.at(dest), is_less) };
}

/// Moves `len` items from `from` to `to` when dropped.
struct Relocate<T> {
    from: Raw<T>,
    to: Raw<T>,
    len: usize,
}

impl<T> Relocate<T> {
    /// Moves the items of `span` from one place to another (nothing if the
    /// places are the same).
    fn new(span: Span<T>, from: Place, to: Place) -> Self {
        Relocate {
            from: span.at(from),
            to: span.at(to),
            len: if from == to { 0 } else { span.len },
        }
    }
}

impl<T> Drop for Relocate<T> {
    fn drop(&mut self) {
        // Whoever made this guard holds `len` items at `from` and has room
        // for them at `to`, the same range in the other place (`len` is 0
        // when the places are the same).
        // SAFETY: so both ranges are valid, and they do not overlap.
        unsafe { ptr::copy_nonoverlapping(self.from.0, self.to.0, self.len) };
    }
}

/// Two halves' items, wherever they are, moved to `dest` when dropped.
struct Gather<T> {
    left: Span<T>,
    right: Span<T>,
    left_at: Place,
    right_at: Place,
    dest: Place,
}

impl<T> Drop for Gather<T> {
    fn drop(&mut self) {
        drop(Relocate::new(self.left, self.left_at, self.dest));
        drop(Relocate::new(self.right, self.right_at, self.dest));
    }
}
