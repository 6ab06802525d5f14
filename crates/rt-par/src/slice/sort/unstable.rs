//! The unstable sort: a pattern-defeating quicksort, its sides sorted with
//! `join` when long, in place: a panicking or inconsistent comparison
//! leaves a permutation (see the module above).

use std::mem::{self, ManuallyDrop};
use std::ptr;

use super::small::{heapsort, insertion_sort, Gap};
use super::{SEQUENTIAL, SMALL_SORT};
use crate::core_api;

/// Sorts `v` by `is_less`, not keeping the order of equal items.
pub(crate) fn quick_sort<T, F>(v: &mut [T], is_less: &F)
where
    T: Send,
    F: Fn(&T, &T) -> bool + Sync,
{
    if mem::size_of::<T>() == 0 {
        // Zero-sized items have no order to restore (as in std and rayon).
        return;
    }
    // Past this depth a run goes to heapsort: O(n log n) whatever the
    // pivots.
    let limit = 2 * (usize::BITS - v.len().leading_zeros());
    if v.len() <= SEQUENTIAL {
        sort(v, is_less, None, limit);
    } else {
        core_api::in_runtime(move || sort(v, is_less, None, limit));
    }
}

/// Sorts `v`; `before` is the pivot just before `v` in the final order (an
/// earlier partition put every item of `v` on its right: none is less
/// than it), if any. It goes down to one side only, so that no item is
/// ever seen by two threads at once.
fn sort<'a, T, F>(mut v: &'a mut [T], is_less: &F, mut before: Option<&'a mut T>, mut limit: u32)
where
    T: Send,
    F: Fn(&T, &T) -> bool + Sync,
{
    loop {
        let len = v.len();
        if len <= SMALL_SORT {
            insertion_sort(v, is_less);
            return;
        }
        if limit == 0 {
            heapsort(v, is_less);
            return;
        }
        limit -= 1;
        let pivot = choose_pivot(v, is_less);
        v.swap(0, pivot);
        if let Some(before) = before.as_deref() {
            if !is_less(before, &v[0]) {
                // The pivot equals the earlier one, so it is the least
                // item here: put the items equal to it first (they are in
                // place) and sort the rest.
                let equal = partition_equal(v, is_less);
                v = &mut mem::take(&mut v)[equal..];
                continue;
            }
        }
        let mid = partition(v, is_less);
        let (left, right) = mem::take(&mut v).split_at_mut(mid);
        let (pivot, right) = right
            .split_first_mut()
            .expect("the pivot is at `mid < len`");
        if len > SEQUENTIAL {
            rt_core::join(
                || sort(left, is_less, before, limit),
                || sort(right, is_less, Some(pivot), limit),
            );
            return;
        }
        // The shorter side by recursion, the longer one by the loop: the
        // stack stays O(log n) deep.
        if left.len() < right.len() {
            sort(left, is_less, before, limit);
            (v, before) = (right, Some(pivot));
        } else {
            sort(right, is_less, Some(pivot), limit);
            v = left;
        }
    }
}

/// Partitions `v` around the pivot at `v[0]`: the items less than it
/// first, then the pivot, then the rest; returns the pivot's new index.
fn partition<T, F>(v: &mut [T], is_less: &F) -> usize
where
    F: Fn(&T, &T) -> bool,
{
    let (pivot, rest) = v.split_first_mut().expect("a pivot to partition by");
    let less = partition_by(rest, |x| is_less(x, pivot));
    v.swap(0, less);
    less
}

/// Moves the items not greater than the pivot at `v[0]` (the pivot
/// included) to the front; returns how many there are.
fn partition_equal<T, F>(v: &mut [T], is_less: &F) -> usize
where
    F: Fn(&T, &T) -> bool,
{
    let (pivot, rest) = v.split_first_mut().expect("a pivot to partition by");
    1 + partition_by(rest, |x| !is_less(pivot, x))
}

/// Moves the items for which `goes_left` holds to the front, returns how
/// many there are: a branchless, cyclic Lomuto partition. The first item
/// is held out, leaving a gap; each item in turn is tested, the first item
/// of the right group moves into the gap and the tested item takes its
/// place, the gap moving to where the tested item was; the boundary
/// advances past the tested item if it goes left. The held item is tested
/// last and fills the gap. (A swap per item would write each item twice.)
fn partition_by<T>(v: &mut [T], goes_left: impl Fn(&T) -> bool) -> usize {
    let len = v.len();
    if len == 0 {
        return 0;
    }
    let base = v.as_mut_ptr();
    // Before testing the item at `i`, `v[..left]` holds the left items
    // tested so far, `v[left..i - 1]` the right ones, and `v[i - 1]` is the
    // gap, its item held by the guard, which writes it into the gap however
    // this ends (a panic of `goes_left` included); the tests see the copies
    // that stay.
    // SAFETY: every pointer is below `base + len`; by the guard, `v`
    // always holds each item exactly once.
    unsafe {
        let mut gap = Gap {
            item: ManuallyDrop::new(ptr::read(base)),
            slot: base,
        };
        let mut left = 0;
        for i in 1..len {
            let tested = base.add(i);
            let goes = goes_left(&*tested);
            let boundary = base.add(left);
            // The boundary item is the gap itself while nothing went
            // right: a copy onto itself, which `ptr::copy` allows.
            ptr::copy(boundary, gap.slot, 1);
            ptr::copy_nonoverlapping(tested, boundary, 1);
            gap.slot = tested;
            left += usize::from(goes);
        }
        let goes = goes_left(&gap.item);
        let boundary = base.add(left);
        ptr::copy(boundary, gap.slot, 1);
        gap.slot = boundary;
        left += usize::from(goes);
        // Dropping `gap` puts the held item at the boundary.
        left
    }
}

/// The index of a pivot: the median of three items, or for longer slices
/// the median of three such medians (Tukey's ninther).
fn choose_pivot<T, F>(v: &[T], is_less: &F) -> usize
where
    F: Fn(&T, &T) -> bool,
{
    // Three comparisons and two selects, no branch on their answers (a
    // random slice makes them unpredictable).
    let median = |a: usize, b: usize, c: usize| {
        let less = |i: usize, j: usize| is_less(&v[i], &v[j]);
        let (ab, bc, ac) = (less(a, b), less(b, c), less(a, c));
        // `b` is the median if it lies between the others; else `c` if
        // `c` lies between `a` and `b`; else `a`.
        let c_or_a = if ab == ac { c } else { a };
        if ab == bc {
            b
        } else {
            c_or_a
        }
    };
    let len = v.len();
    let (a, b, c) = (len / 4, len / 2, len / 4 * 3);
    if len >= 64 {
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

#[cfg(test)]
mod tests {
    use super::{choose_pivot, partition, partition_equal};

    #[test]
    fn a_partition_puts_the_smaller_items_left_of_the_pivot() {
        let mut v = vec![5, 9, 1, 5, 7, 3, 5, 0, 8];
        let mid = partition(&mut v, &|a, b| a < b);
        assert_eq!(v[mid], 5);
        assert!(v[..mid].iter().all(|&x| x < 5));
        assert!(v[mid + 1..].iter().all(|&x| x >= 5));
        let mut w = vec![5, 9, 5, 5, 7, 6, 5];
        let equal = partition_equal(&mut w, &|a, b| a < b);
        assert_eq!(equal, 4);
        assert!(w[..equal].iter().all(|&x| x == 5));
    }

    #[test]
    fn the_pivot_is_a_median_of_the_samples() {
        let v: Vec<u32> = (0..1000).collect();
        let p = choose_pivot(&v, &|a, b| a < b);
        assert!((400..600).contains(&p), "pivot {p}");
        let r: Vec<u32> = (0..1000).rev().collect();
        let p = choose_pivot(&r, &|a, b| a < b);
        assert!((400..600).contains(&p), "pivot {p}");
    }
}
