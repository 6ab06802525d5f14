//! Insertion sort (short runs of both sorts) and heapsort (the unstable
//! sort's fallback past its depth limit). Both move items by swaps only:
//! whatever `is_less` answers or wherever it panics, the slice holds a
//! permutation of its items, and every index stays in bounds.

/// Sorts `v` stably by inserting each item into the sorted run before it.
pub(super) fn insertion_sort<T, F>(v: &mut [T], is_less: &F)
where
    F: Fn(&T, &T) -> bool,
{
    for i in 1..v.len() {
        let mut j = i;
        while j > 0 && is_less(&v[j], &v[j - 1]) {
            v.swap(j, j - 1);
            j -= 1;
        }
    }
}

/// Sorts `v` in O(n log n) comparisons whatever its order (not stably).
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
        for len in 0..40 {
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
        for len in (0..40).chain([500]) {
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
        let random = |_: &u32, _: &u32| {
            let next = state
                .get()
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1);
            state.set(next);
            next >> 63 == 1
        };
        let mut v: Vec<u32> = (0..100).collect();
        heapsort(&mut v, &random);
        insertion_sort(&mut v, &random);
        v.sort_unstable();
        assert_eq!(v, (0..100).collect::<Vec<_>>());
    }
}
