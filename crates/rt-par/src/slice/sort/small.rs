//! Insertion sort (short runs of both sorts), heapsort (the unstable
//! sort's fallback past its depth limit), and the guard that insertion
//! and the unstable partition share. Whatever `is_less` answers or
//! wherever it panics, the slice keeps a permutation of its items (the
//! copies last compared), and every index stays in bounds.

use std::mem::ManuallyDrop;
use std::ptr;

/// An item held out of a slice, and the slot (the *gap*) it goes back to:
/// dropping the guard writes the item there.
pub(super) struct Gap<T> {
    pub(super) item: ManuallyDrop<T>,
    pub(super) slot: *mut T,
}

impl<T> Drop for Gap<T> {
    fn drop(&mut self) {
        // SAFETY: whoever moves the gap keeps `slot` pointing at the one
        // slot of its slice that holds no item; the held item is written
        // there once, as the guard ends.
        unsafe { ptr::copy_nonoverlapping(&*self.item, self.slot, 1) };
    }
}

/// Sorts `v` stably by inserting each item into the sorted run before it.
pub(super) fn insertion_sort<T, F>(v: &mut [T], is_less: &F)
where
    F: Fn(&T, &T) -> bool,
{
    for end in 2..=v.len() {
        insert_last(&mut v[..end], is_less);
    }
}

/// Moves the last item of `v` back past the items greater than it (`v`
/// without it is sorted, if `is_less` is an order).
fn insert_last<T, F>(v: &mut [T], is_less: &F)
where
    F: Fn(&T, &T) -> bool,
{
    let len = v.len();
    if len < 2 || !is_less(&v[len - 1], &v[len - 2]) {
        return;
    }
    let base = v.as_mut_ptr();
    // The last item is held in `gap`, its slot the gap; each step moves
    // the item before the gap into it, so the gap moves down by one; the
    // guard writes the held item into the gap however this ends (a panic
    // of `is_less` included). The comparisons see the held copy, the one
    // written back.
    // SAFETY: `len >= 2`, so every pointer below is within `v`; by the
    // guard, `v` holds each item exactly once however this ends.
    unsafe {
        let mut gap = Gap {
            item: ManuallyDrop::new(ptr::read(base.add(len - 1))),
            slot: base.add(len - 1),
        };
        ptr::copy_nonoverlapping(base.add(len - 2), gap.slot, 1);
        gap.slot = base.add(len - 2);
        for i in (0..len - 2).rev() {
            let before = base.add(i);
            if !is_less(&gap.item, &*before) {
                break;
            }
            ptr::copy_nonoverlapping(before, gap.slot, 1);
            gap.slot = before;
        }
    }
}

/// Sorts `v` in O(n log n) comparisons whatever its order (not stably),
/// by swaps.
pub(super) fn heapsort<T, F>(v: &mut [T], is_less: &F)
where
    F: Fn(&T, &T) -> bool,
{
    // Moves `v[node]` down the max-heap below it.
    let sift_down = |v: &mut [T], mut node: usize| loop {
        let mut child = 2 * node + 1;
        if child >= v.len() {
            return;
        }
        if child + 1 < v.len() && is_less(&v[child], &v[child + 1]) {
            child += 1;
        }
        if !is_less(&v[node], &v[child]) {
            return;
        }
        v.swap(node, child);
        node = child;
    };
    for node in (0..v.len() / 2).rev() {
        sift_down(v, node);
    }
    for end in (1..v.len()).rev() {
        v.swap(0, end);
        sift_down(&mut v[..end], 0);
    }
}

#[cfg(test)]
mod tests {
    use std::panic::{catch_unwind, AssertUnwindSafe};

    use super::{heapsort, insertion_sort};

    fn shuffled(len: usize, mut seed: u64) -> Vec<u32> {
        let mut v: Vec<u32> = (0..len as u32).map(|i| i % 7).collect();
        for i in (1..len).rev() {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            v.swap(i, (seed % (i as u64 + 1)) as usize);
        }
        v
    }

    #[test]
    fn insertion_sort_sorts_stably() {
        for len in 0..if cfg!(miri) { 24 } else { 40 } {
            let keys = shuffled(len, len as u64 + 1);
            let mut v: Vec<(u32, usize)> = keys.into_iter().zip(0..).collect();
            let mut expected = v.clone();
            expected.sort_by_key(|p| p.0);
            insertion_sort(&mut v, &|a, b| a.0 < b.0);
            assert_eq!(v, expected);
        }
    }

    #[test]
    fn heapsort_sorts_either_way() {
        let long = if cfg!(miri) { 100 } else { 500 };
        for len in (0..if cfg!(miri) { 12 } else { 40 }).chain([long]) {
            let v = shuffled(len, len as u64 + 3);
            let mut up = v.clone();
            heapsort(&mut up, &|a, b| a < b);
            assert!(up.is_sorted());
            let mut down = v;
            heapsort(&mut down, &|a, b| a > b);
            assert!(down.is_sorted_by(|a, b| a >= b));
        }
    }

    #[test]
    fn a_random_comparison_leaves_a_permutation() {
        let state = std::cell::Cell::new(0x9e37_79b9_u64);
        let random = |_: &String, _: &String| {
            let next = state
                .get()
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1);
            state.set(next);
            next >> 63 == 1
        };
        let mut v: Vec<String> = (0..100).map(|i| i.to_string()).collect();
        heapsort(&mut v, &random);
        insertion_sort(&mut v, &random);
        let mut got: Vec<u32> = v.iter().map(|s| s.parse().unwrap()).collect();
        got.sort_unstable();
        assert_eq!(got, (0..100).collect::<Vec<_>>());
    }

    #[test]
    fn a_panic_in_insertion_sort_leaves_each_item_once() {
        for panic_at in (1..60).step_by(if cfg!(miri) { 7 } else { 1 }) {
            let mut v: Vec<String> = (0..20).rev().map(|i| i.to_string()).collect();
            let calls = std::cell::Cell::new(0);
            let result = rt_testkit::quietly(|| {
                catch_unwind(AssertUnwindSafe(|| {
                    insertion_sort(&mut v, &|a: &String, b: &String| {
                        calls.set(calls.get() + 1);
                        if calls.get() == panic_at {
                            panic!("planned panic");
                        }
                        a.len() < b.len() || (a.len() == b.len() && a < b)
                    })
                }))
            });
            assert!(result.is_err() || calls.get() < panic_at);
            let mut got: Vec<u32> = v.iter().map(|s| s.parse().unwrap()).collect();
            got.sort_unstable();
            assert_eq!(got, (0..20).collect::<Vec<_>>(), "panic at {panic_at}");
        }
    }
}
