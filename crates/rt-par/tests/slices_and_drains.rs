//! Slice chunk iterators of every kind give the sequential chunks, and
//! `par_drain` removes exactly the range (rayon's `drain_vec` tests).

use std::collections::{BinaryHeap, HashMap, HashSet, VecDeque};

use rt_par::prelude::*;
use rt_testkit::without_hanging;

#[test]
fn every_chunk_iterator_matches_its_sequential_one() {
    without_hanging(|| {
        for len in [0usize, 1, 9, 100, 1001] {
            let v: Vec<usize> = (0..len).collect();
            for size in [1usize, 2, 3, 7, 64, 2000] {
                let chunks: Vec<&[usize]> = v.par_chunks(size).collect();
                assert_eq!(chunks, v.chunks(size).collect::<Vec<_>>());
                let exact: Vec<&[usize]> = v.par_chunks_exact(size).collect();
                assert_eq!(exact, v.chunks_exact(size).collect::<Vec<_>>());
                assert_eq!(
                    v.par_chunks_exact(size).remainder(),
                    v.chunks_exact(size).remainder()
                );
                let rchunks: Vec<&[usize]> = v.par_rchunks(size).collect();
                assert_eq!(rchunks, v.rchunks(size).collect::<Vec<_>>());
                let rexact: Vec<&[usize]> = v.par_rchunks_exact(size).rev().collect();
                assert_eq!(rexact, v.rchunks_exact(size).rev().collect::<Vec<_>>());
                let windows: Vec<&[usize]> = v.par_windows(size).collect();
                assert_eq!(windows, v.windows(size).collect::<Vec<_>>());
                let mut w = v.clone();
                w.par_chunks_mut(size).for_each(|c| c.reverse());
                let mut expected = v.clone();
                expected.chunks_mut(size).for_each(|c| c.reverse());
                assert_eq!(w, expected);
                let mut w = v.clone();
                w.par_rchunks_exact_mut(size).for_each(|c| c.reverse());
                let mut expected = v.clone();
                expected.rchunks_exact_mut(size).for_each(|c| c.reverse());
                assert_eq!(w, expected);
                let mut w = v.clone();
                w.par_chunks_exact_mut(size)
                    .enumerate()
                    .for_each(|(i, c)| c[0] = i);
                let mut expected = v.clone();
                expected
                    .chunks_exact_mut(size)
                    .enumerate()
                    .for_each(|(i, c)| c[0] = i);
                assert_eq!(w, expected);
                let mut w = v.clone();
                w.par_rchunks_mut(size).for_each(|c| c[0] = 0);
                let mut expected = v.clone();
                expected.rchunks_mut(size).for_each(|c| c[0] = 0);
                assert_eq!(w, expected);
            }
        }
    });
}

#[test]
fn par_drain_removes_the_range_and_closes_the_gap() {
    without_hanging(|| {
        for (start, end) in [(0, 0), (0, 10), (3, 7), (10, 10), (0, 1000), (500, 1000)] {
            let mut v: Vec<String> = (0..1000).map(|i| i.to_string()).collect();
            let drained: Vec<String> = v.par_drain(start..end).collect();
            let mut expected: Vec<String> = (0..1000).map(|i| i.to_string()).collect();
            let expected_drained: Vec<String> = expected.drain(start..end).collect();
            assert_eq!(drained, expected_drained);
            assert_eq!(v, expected);
        }
    });
}

#[test]
fn a_partly_consumed_or_dropped_drain_still_removes_the_range() {
    without_hanging(|| {
        let mut v: Vec<String> = (0..1000).map(|i| i.to_string()).collect();
        let first = v.par_drain(100..900).find_first(|s| s.ends_with('5'));
        assert_eq!(first.as_deref(), Some("105"));
        assert_eq!(v.len(), 200);
        assert_eq!(v[100], "900");
        let mut w: Vec<String> = (0..10).map(|i| i.to_string()).collect();
        drop(w.par_drain(2..5));
        assert_eq!(w, ["0", "1", "5", "6", "7", "8", "9"]);
    });
}

#[test]
fn full_drains_empty_the_collections() {
    without_hanging(|| {
        let mut map: HashMap<u32, u32> = (0..100).map(|i| (i, i)).collect();
        assert_eq!(map.par_drain().count(), 100);
        assert!(map.is_empty());
        let mut set: HashSet<u32> = (0..100).collect();
        assert_eq!(set.par_drain().sum::<u32>(), 4950);
        let mut heap: BinaryHeap<u32> = (0..100).collect();
        assert_eq!(heap.par_drain().count(), 100);
        let mut deque: VecDeque<u32> = (0..100).collect();
        assert_eq!(
            deque.par_drain(10..20).collect::<Vec<_>>(),
            (10..20).collect::<Vec<_>>()
        );
        assert_eq!(deque.len(), 90);
    });
}

#[test]
fn slice_splits_and_chunk_by_match_their_sequential_ones() {
    without_hanging(|| {
        for len in [0usize, 1, 2, 10, 1000, 20_000] {
            let v: Vec<u32> = (0..len as u32).map(|i| (i * 7919) % 13).collect();
            let is_zero = |x: &u32| *x == 0;
            assert_eq!(
                v.par_split(is_zero).collect::<Vec<_>>(),
                v.split(is_zero).collect::<Vec<_>>()
            );
            assert_eq!(
                v.par_split_inclusive(is_zero).collect::<Vec<_>>(),
                v.split_inclusive(is_zero).collect::<Vec<_>>()
            );
            let same = |a: &u32, b: &u32| a / 4 == b / 4;
            assert_eq!(
                v.par_chunk_by(same).collect::<Vec<_>>(),
                v.chunk_by(same).collect::<Vec<_>>()
            );
            let (mut a, mut b) = (v.clone(), v.clone());
            a.par_split_mut(is_zero).for_each(|s| s.reverse());
            b.split_mut(is_zero).for_each(|s| s.reverse());
            assert_eq!(a, b);
            a.par_split_inclusive_mut(is_zero)
                .for_each(|s| s.rotate_left(usize::from(!s.is_empty())));
            b.split_inclusive_mut(is_zero)
                .for_each(|s| s.rotate_left(usize::from(!s.is_empty())));
            assert_eq!(a, b);
            a.par_chunk_by_mut(same).for_each(|s| s.sort_unstable());
            b.chunk_by_mut(same).for_each(|s| s.sort_unstable());
            assert_eq!(a, b);
        }
    });
}

#[test]
fn chunk_by_compares_each_neighbouring_pair_once() {
    without_hanging(|| {
        use std::sync::atomic::{AtomicUsize, Ordering};
        for len in [0usize, 1, 2, 3, 1000, 100_000] {
            let v: Vec<usize> = (0..len).collect();
            let calls = AtomicUsize::new(0);
            let runs: Vec<&[usize]> = v
                .par_chunk_by(|a, b| {
                    calls.fetch_add(1, Ordering::Relaxed);
                    (a % 10 < 3) == (b % 10 < 3)
                })
                .collect();
            assert_eq!(calls.into_inner(), len.saturating_sub(1));
            assert_eq!(
                runs,
                v.chunk_by(|a, b| (a % 10 < 3) == (b % 10 < 3))
                    .collect::<Vec<_>>()
            );
        }
    });
}
