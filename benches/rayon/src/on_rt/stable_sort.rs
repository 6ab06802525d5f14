//! `par_sort` (rayon's stable parallel merge sort) of pseudo-random
//! `u64`, checked against `sort_unstable` of the same input (equal values
//! are indistinguishable, so both orders are the same). The unstable sort
//! is one of the reused parallel-iterator workloads (`par/workloads.rs`).

use rayon::prelude::*;

/// The input: `len` numbers of the shared xorshift sequence.
pub fn input(len: usize) -> Vec<u64> {
    super::workloads::random_u64s(len, 29)
}

/// The input, sorted on this thread.
pub fn expected(len: usize) -> Vec<u64> {
    let mut v = input(len);
    v.sort_unstable();
    v
}

/// Sorts `v` with rayon.
pub fn rayon_sort(v: &mut [u64]) {
    v.par_sort();
}
