//! Merging two sorted runs into a destination, stably: split in two
//! independent parts (the middle of the longer run, its place in the other
//! found by binary search), merged with `join` when long, else in one
//! loop that steps both parts in turn. Whether it returns or a comparison
//! unwinds, every item of both runs ends in the destination exactly once
//! (in some order, after a panic).

use std::mem;
use std::ptr;

use super::{Raw, SEQUENTIAL_MERGE};

/// A sorted run: `len` items from `start`.
pub(super) struct Run<T> {
    pub(super) start: Raw<T>,
    pub(super) len: usize,
}

impl<T> Clone for Run<T> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<T> Copy for Run<T> {}

impl<T> Run<T> {
    /// The first `at` items and the rest.
    ///
    /// # Safety
    ///
    /// `at <= self.len`.
    unsafe fn split_at(self, at: usize) -> (Run<T>, Run<T>) {
        // SAFETY: `at <= len` (the contract): the pointer stays in the run.
        let rest = unsafe { self.start.add(at) };
        (
            Run {
                start: self.start,
                len: at,
            },
            Run {
                start: rest,
                len: self.len - at,
            },
        )
    }

    /// The run's items, shared.
    ///
    /// # Safety
    ///
    /// The run holds initialised items that nothing writes while the
    /// result lives.
    unsafe fn as_slice<'a>(self) -> &'a [T] {
        // SAFETY: per this function's contract.
        unsafe { std::slice::from_raw_parts(self.start.0, self.len) }
    }
}

/// Merges `left` and `right` into `dest`, stably (on ties, `left`'s items
/// first).
///
/// # Safety
///
/// Both runs hold initialised items, which the call takes over (they are
/// left as stale bitwise copies); `dest` has room for both runs' items and
/// overlaps neither; nothing else touches any of the three during the
/// call.
pub(super) unsafe fn merge<T, F>(left: Run<T>, right: Run<T>, dest: Raw<T>, is_less: &F)
where
    T: Send,
    F: Fn(&T, &T) -> bool + Sync,
{
    // The unmerged rest of both runs: dropping it moves that rest to
    // `dest`, on return and on unwind alike.
    // SAFETY: the runs and `dest` are as this function requires.
    let mut rest = unsafe { MergeRest::new(left, right, dest) };
    let len = left.len + right.len;
    let in_order = left.len == 0 || right.len == 0 || {
        // SAFETY: both runs hold initialised items (the contract), none
        // moved yet.
        unsafe { !is_less(&*right.start.0, &*left.start.0.add(left.len - 1)) }
    };
    if in_order {
        // Dropping `rest` moves both runs as they are.
        return;
    }
    if len < TWO_LANES {
        // SAFETY: `rest` covers the two runs and `dest` (the contract).
        unsafe { rest.merge(is_less) };
        return;
    }
    // SAFETY: both runs hold initialised items, not written until the
    // search is over (a panic in it drops `rest`, which moves everything).
    let (left_cut, right_cut) =
        unsafe { split_for_merge(left.as_slice(), right.as_slice(), is_less) };
    // From here the two parts take over every item (each keeps the rule
    // for its own).
    mem::forget(rest);
    // SAFETY: the cuts are within the runs (`split_for_merge`), and the
    // first part's `left_cut + right_cut` items go to the start of `dest`,
    // the second part's right after them: disjoint ranges.
    unsafe {
        let (left_head, left_tail) = left.split_at(left_cut);
        let (right_head, right_tail) = right.split_at(right_cut);
        let dest_tail = dest.add(left_cut + right_cut);
        if len > SEQUENTIAL_MERGE {
            // `join` runs both parts, even if one unwinds.
            rt_core::join(
                // SAFETY: each part owns its runs and its range of `dest`.
                move || merge(left_head, right_head, dest, is_less),
                move || merge(left_tail, right_tail, dest_tail, is_less),
            );
        } else {
            // Both guards live until both parts are merged.
            let head = MergeRest::new(left_head, right_head, dest);
            let tail = MergeRest::new(left_tail, right_tail, dest_tail);
            merge_in_two_lanes(head, tail, is_less);
        }
    }
}

/// Merges of at least this many items run as two independent merges
/// interleaved step by step (see [`merge_in_two_lanes`]).
const TWO_LANES: usize = 64;

/// Runs two independent merges step by step in one loop, then finishes
/// each: a merge step waits for the comparison before it, so two chains
/// of steps keep the processor twice as busy. Each guard moves its own
/// rest when dropped.
///
/// # Safety
///
/// As [`MergeRest::merge`], for both; their runs and destinations are
/// disjoint.
unsafe fn merge_in_two_lanes<T, F>(mut one: MergeRest<T>, mut two: MergeRest<T>, is_less: &F)
where
    F: Fn(&T, &T) -> bool,
{
    // SAFETY: a block of `steps` steps cannot use up a run of either merge
    // (see `MergeRest::merge`).
    unsafe {
        loop {
            let steps = one.safe_steps().min(two.safe_steps());
            if steps == 0 {
                break;
            }
            for _ in 0..steps {
                one.step(is_less);
                two.step(is_less);
            }
        }
        one.merge(is_less);
        two.merge(is_less);
    }
}

/// Where to split a merge of `left` and `right` into two independent
/// merges: `(a, b)` such that `left[..a]` and `right[..b]` all come before
/// `left[a..]` and `right[b..]` in the merged order. The middle of the
/// longer run is the pivot; a binary search finds its place in the other.
/// Both results are within bounds whatever `is_less` answers, and the part
/// holding the pivot is never empty, nor, with runs of two items or more,
/// the other one.
fn split_for_merge<T, F>(left: &[T], right: &[T], is_less: &F) -> (usize, usize)
where
    F: Fn(&T, &T) -> bool,
{
    if left.len() >= right.len() {
        let mid = left.len() / 2;
        let pivot = &left[mid];
        // Right items strictly less than the pivot go before it: equal
        // ones stay after it, as in the sequential merge.
        (mid, partition_point(right, |x| is_less(x, pivot)))
    } else {
        let mid = right.len() / 2;
        let pivot = &right[mid];
        // Left items not greater than the pivot go before it.
        (partition_point(left, |x| !is_less(pivot, x)), mid)
    }
}

/// The number of leading items of `v` for which `before` holds, by
/// binary search (`v` partitioned by `before`, if `is_less` is an order).
fn partition_point<T>(v: &[T], before: impl Fn(&T) -> bool) -> usize {
    let (mut low, mut high) = (0, v.len());
    while low < high {
        let mid = low + (high - low) / 2;
        if before(&v[mid]) {
            low = mid + 1;
        } else {
            high = mid;
        }
    }
    low
}

/// The unmerged rest of two runs and where it goes. Dropping it copies the
/// rest of `left`, then the rest of `right`, to `dest`.
struct MergeRest<T> {
    left: *mut T,
    left_end: *mut T,
    right: *mut T,
    right_end: *mut T,
    dest: *mut T,
}

impl<T> MergeRest<T> {
    /// The whole of both runs, merged into `dest`.
    ///
    /// # Safety
    ///
    /// The runs hold initialised items, and `dest` has room for all of
    /// them, overlapping neither.
    unsafe fn new(left: Run<T>, right: Run<T>, dest: Raw<T>) -> Self {
        // SAFETY: the ends are one past each run's last item.
        unsafe {
            MergeRest {
                left: left.start.0,
                left_end: left.start.0.add(left.len),
                right: right.start.0,
                right_end: right.start.0.add(right.len),
                dest: dest.0,
            }
        }
    }

    /// How many steps can run before a run may be used up: the length of
    /// the shorter rest (a step takes one item from either run).
    #[inline(always)]
    fn safe_steps(&self) -> usize {
        // SAFETY: each read pointer is at most its end, in the same run.
        let (left, right) = unsafe {
            (
                self.left_end.offset_from(self.left) as usize,
                self.right_end.offset_from(self.right) as usize,
            )
        };
        left.min(right)
    }

    /// Moves the lesser head (the left one on a tie) to `dest`.
    ///
    /// # Safety
    ///
    /// Neither run is used up; `dest` has room for the item.
    #[inline(always)]
    unsafe fn step<F>(&mut self, is_less: &F)
    where
        F: Fn(&T, &T) -> bool,
    {
        // SAFETY: both heads are items (the contract); the copy moves the
        // lesser one, whose read pointer then passes it, so it is never
        // read or dropped again.
        unsafe {
            let take_right = is_less(&*self.right, &*self.left);
            let from = if take_right { self.right } else { self.left };
            ptr::copy_nonoverlapping(from, self.dest, 1);
            self.dest = self.dest.add(1);
            self.right = self.right.add(usize::from(take_right));
            self.left = self.left.add(usize::from(!take_right));
        }
    }

    /// Moves items to `dest` in merged order until a run is used up; the
    /// drop moves the rest.
    ///
    /// # Safety
    ///
    /// `self` describes two runs of initialised items and a destination
    /// with room for all of them, overlapping neither.
    unsafe fn merge<F>(&mut self, is_less: &F)
    where
        F: Fn(&T, &T) -> bool,
    {
        loop {
            // A block of `steps` steps, each taking one item from either
            // run, cannot use up a run that had `steps` items or more.
            let steps = self.safe_steps();
            if steps == 0 {
                return;
            }
            for _ in 0..steps {
                // SAFETY: within the block, neither run is used up.
                unsafe { self.step(is_less) };
            }
        }
    }
}

impl<T> Drop for MergeRest<T> {
    fn drop(&mut self) {
        // SAFETY: `left..left_end` and `right..right_end` hold the items
        // not yet moved, and the rest of `dest` has room for exactly them,
        // overlapping neither run.
        unsafe {
            let left = self.left_end.offset_from(self.left) as usize;
            ptr::copy_nonoverlapping(self.left, self.dest, left);
            let right = self.right_end.offset_from(self.right) as usize;
            ptr::copy_nonoverlapping(self.right, self.dest.add(left), right);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::split_for_merge;

    #[test]
    fn a_split_puts_every_item_of_the_first_parts_before_the_second_parts() {
        let check = |left: &[u32], right: &[u32]| {
            let (a, b) = split_for_merge(left, right, &|x, y| x < y);
            assert!(left[..a].iter().all(|x| right[b..].iter().all(|y| x <= y)));
            assert!(right[..b].iter().all(|x| left[a..].iter().all(|y| x < y)));
        };
        check(&[1, 2, 2, 2, 2, 3], &[1, 2, 2, 2, 2, 3]);
        check(&[1, 2, 2, 2, 2, 3], &[]);
        check(&[], &[1, 2, 2, 2, 2, 3]);
        let mut seed = 0x2545_f491_u64;
        let mut next = |n: u64| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            (seed % n) as u32
        };
        for _ in 0..100 {
            let limit = u64::from(next(20)) + 1;
            let mut left: Vec<u32> = (0..next(20)).map(|_| next(limit)).collect();
            let mut right: Vec<u32> = (0..next(20)).map(|_| next(limit)).collect();
            left.sort();
            right.sort();
            check(&left, &right);
        }
    }

    #[test]
    fn a_split_stays_in_bounds_whatever_the_comparison_answers() {
        let v: Vec<u32> = (0..33).collect();
        for answer in [true, false] {
            for (l, r) in [(33, 10), (10, 33), (1, 2), (2, 1)] {
                let (a, b) = split_for_merge(&v[..l], &v[..r], &|_, _| answer);
                assert!(a <= l && b <= r);
                assert!(a + b > 0 && a + b < l + r, "neither part is empty");
            }
        }
    }
}
