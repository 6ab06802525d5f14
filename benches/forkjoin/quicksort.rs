//! Parallel quicksort of 2,000,000 pseudo-random `u64` (xorshift64 from a
//! fixed seed): partition around the median of the first, middle and last
//! elements (Hoare's scheme, sequential), then sort the two sides in
//! parallel; slices of at most 2,048 elements go to `sort_unstable`. The
//! input is copied into the buffer before each round, outside the timed
//! region. The output must be sorted and match a checksum of the sorted
//! input.

use std::marker::PhantomData;

use rt::{JoinHandle, Runtime};

/// Elements sorted.
pub const LEN: usize = 2_000_000;
/// Slices this short are sorted sequentially with `sort_unstable`.
pub const CUTOFF: usize = 2_048;
/// The xorshift64 seed of the input.
const SEED: u64 = 0x2545_F491_4F6C_DD1D;
/// [`checksum`] of the sorted input (also computed independently, in Python,
/// from the same xorshift sequence).
const EXPECTED_CHECKSUM: u64 = 9_261_448_314_774_653_357;

/// The input: `LEN` numbers from xorshift64.
pub fn input() -> Vec<u64> {
    let mut x = SEED;
    (0..LEN)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x
        })
        .collect()
}

/// An order-dependent hash of `v`: equal for two slices only if they hold
/// the same values in the same order (with overwhelming probability).
pub fn checksum(v: &[u64]) -> u64 {
    v.iter().fold(0xcbf2_9ce4_8422_2325, |h, &x| {
        (h.rotate_left(5) ^ x).wrapping_mul(0x0000_0100_0000_01b3)
    })
}

/// Panics unless `v` is the sorted input.
pub fn check(v: &[u64]) {
    assert!(v.is_sorted(), "quicksort output is not sorted");
    assert_eq!(checksum(v), EXPECTED_CHECKSUM, "quicksort checksum differs");
}

/// Moves the median of the first, middle and last elements to the front,
/// then partitions around it (Hoare). Returns `p`, `0 < p < v.len()`, with
/// every element of `v[..p]` at most every element of `v[p..]`.
pub fn partition(v: &mut [u64]) -> usize {
    let (a, b, c) = (0, v.len() / 2, v.len() - 1);
    let median = if (v[a] <= v[b]) == (v[b] <= v[c]) {
        b
    } else if (v[b] <= v[a]) == (v[a] <= v[c]) {
        a
    } else {
        c
    };
    v.swap(0, median);
    let pivot = v[0];
    // Invariant: v[..i] <= pivot <= v[j + 1..]. The first scan stops `i`
    // at 0 (the pivot) and `j` at or above it; later scans stop at the
    // elements just swapped at the latest, so `j` ends in 0..len - 1.
    let (mut i, mut j) = (0, v.len() - 1);
    loop {
        while v[i] < pivot {
            i += 1;
        }
        while v[j] > pivot {
            j -= 1;
        }
        if i >= j {
            return j + 1;
        }
        v.swap(i, j);
        i += 1;
        j -= 1;
    }
}

/// The same recursion on one thread.
pub fn sequential(v: &mut [u64]) {
    if v.len() <= CUTOFF {
        return v.sort_unstable();
    }
    let p = partition(v);
    let (lo, hi) = v.split_at_mut(p);
    sequential(lo);
    sequential(hi);
}

/// `rayon::join` of the two sides. Call inside the pool (`install`).
pub fn rayon_join(v: &mut [u64]) {
    if v.len() <= CUTOFF {
        return v.sort_unstable();
    }
    let p = partition(v);
    let (lo, hi) = v.split_at_mut(p);
    rayon::join(|| rayon_join(lo), || rayon_join(hi));
}

/// chili's `Scope::join` of the two sides.
pub fn chili(v: &mut [u64], s: &mut chili::Scope<'_>) {
    if v.len() <= CUTOFF {
        return v.sort_unstable();
    }
    let p = partition(v);
    let (lo, hi) = v.split_at_mut(p);
    s.join(|s| chili(lo, s), |s| chili(hi, s));
}

/// This runtime's `join` of the two sides. Call inside the runtime
/// (`install`).
pub fn rt_join(v: &mut [u64]) {
    if v.len() <= CUTOFF {
        return v.sort_unstable();
    }
    let p = partition(v);
    let (lo, hi) = v.split_at_mut(p);
    rt::join(|| rt_join(lo), || rt_join(hi));
}

/// This runtime's `scope`: spawn the lower side into it, sort the upper
/// side in the body. Call inside the runtime (`install`).
pub fn rt_scope(v: &mut [u64]) {
    if v.len() <= CUTOFF {
        return v.sort_unstable();
    }
    let p = partition(v);
    let (lo, hi) = v.split_at_mut(p);
    rt::scope(|s| {
        s.spawn(|| rt_scope(lo));
        rt_scope(hi);
    });
}

/// This runtime, spawn-and-join: spawn the lower side, sort the upper side,
/// join. Call inside a task of `rt`.
///
/// `spawn` takes only `'static` closures, so the lower side travels as a
/// raw slice; [`Joined`] joins the task before this frame's borrow of it
/// ends, even when sorting the upper side panics.
pub fn rt_spawn(rt: &'static Runtime, v: &mut [u64]) {
    if v.len() <= CUTOFF {
        return v.sort_unstable();
    }
    let p = partition(v);
    let (lo, hi) = v.split_at_mut(p);
    let lo = RawSlice(lo.as_mut_ptr(), lo.len(), PhantomData);
    // SAFETY: the slice is borrowed mutably by this frame for as long as
    // `task` lives, nothing else touches it, and `task` is joined (on every
    // path, by `Joined`) before this frame returns or unwinds.
    let task = Joined(Some(rt.spawn(move || rt_spawn(rt, unsafe { lo.get() }))));
    rt_spawn(rt, hi);
    task.join();
}

/// A mutable slice sent to another task (see [`rt_spawn`]).
struct RawSlice<'a>(*mut u64, usize, PhantomData<&'a mut [u64]>);

// SAFETY: it stands for a `&mut [u64]`, which is `Send`.
unsafe impl Send for RawSlice<'_> {}

impl RawSlice<'_> {
    /// # Safety
    ///
    /// The slice it was made from must still be alive and used by no one
    /// else while the result is.
    unsafe fn get<'b>(self) -> &'b mut [u64] {
        // SAFETY: upheld by the caller.
        unsafe { std::slice::from_raw_parts_mut(self.0, self.1) }
    }
}

/// Joins its task when dropped, so that the task never outlives the frame
/// that lent it a slice.
struct Joined(Option<JoinHandle<()>>);

impl Joined {
    fn join(mut self) {
        if let Some(h) = self.0.take() {
            h.join().expect("a quicksort task failed");
        }
    }
}

impl Drop for Joined {
    fn drop(&mut self) {
        if let Some(h) = self.0.take() {
            let _ = h.join();
        }
    }
}
