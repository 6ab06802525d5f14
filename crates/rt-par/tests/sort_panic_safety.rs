//! A comparison that panics part-way through `par_sort_by` or
//! `par_sort_unstable_by` leaves the slice a permutation of its input,
//! holding the copies last compared, so that every item is dropped exactly
//! once; the panic reaches the caller with its payload. On a runtime of one
//! worker, one of two, and the global runtime. (rayon's
//! `tests/sort-panic-safe.rs`, ported, plus panics placed where the sorted
//! halves of a merge first meet: the binary search that splits a parallel
//! merge.)

mod support;

use std::sync::atomic::{AtomicUsize, Ordering::Relaxed};

use rt_par::prelude::*;
use rt_testkit::without_hanging;
use support::{
    assert_permutation, cases, panic_of, places, silence_planned_panics, size, Counts, Place, Rng,
    Tracked, PLANNED,
};

#[derive(Clone, Copy, Debug)]
enum Sort {
    Stable,
    Unstable,
}

impl Sort {
    fn run<F>(self, v: &mut [Tracked<'_>], compare: F)
    where
        F: Fn(&Tracked<'_>, &Tracked<'_>) -> std::cmp::Ordering + Sync,
    {
        match self {
            Sort::Stable => v.par_sort_by(compare),
            Sort::Unstable => v.par_sort_unstable_by(compare),
        }
    }
}

/// Sorts items with `keys` by a comparison that panics at its call number
/// `panic_at` (counting from 1) and checks what the panic left.
fn sort_panicking_at(place: &Place, sort: Sort, keys: &[u32], panic_at: usize) {
    let len = keys.len();
    let counts = Counts::new(len);
    let mut v = counts.items(keys.iter().copied());
    let calls = AtomicUsize::new(0);
    let panic = panic_of(|| {
        place.run(|| {
            sort.run(&mut v, |a, b| {
                if calls.fetch_add(1, Relaxed) + 1 == panic_at {
                    panic!("{PLANNED} at comparison {panic_at}");
                }
                a.compare(b)
            })
        })
    });
    let context = format!(
        "{sort:?} sort of {len} items on {}, panic at comparison {panic_at}",
        place.name()
    );
    if panic_at <= calls.load(Relaxed) {
        assert_eq!(
            panic.as_deref(),
            Some(format!("{PLANNED} at comparison {panic_at}").as_str()),
            "the comparison's own panic reaches the caller ({context})"
        );
    }
    assert_permutation(&v, len, &context);
    drop(v);
    counts.assert_each_dropped_once(&context);
}

/// How many comparisons sorting `keys` takes.
fn comparisons(sort: Sort, keys: &[u32]) -> usize {
    let mut v = keys.to_vec();
    let calls = AtomicUsize::new(0);
    let by_key = |a: &u32, b: &u32| {
        calls.fetch_add(1, Relaxed);
        a.cmp(b)
    };
    match sort {
        Sort::Stable => v.par_sort_by(by_key),
        Sort::Unstable => v.par_sort_unstable_by(by_key),
    }
    calls.into_inner()
}

#[test]
fn a_comparison_that_panics_after_any_number_of_calls_leaves_each_item_dropped_once() {
    silence_planned_panics();
    without_hanging(|| {
        let lens = cases(&[1, 2, 3, 4, 5, 10, 20, 100, 500, 5_000, 20_000], &[100]);
        let moduli = cases(&[5, 30, 1_000, 20_000], &[5]);
        let mut rng = Rng::new(0x5eed);
        for place in places() {
            for &len in &lens {
                for &modulus in &moduli {
                    for has_runs in cases(&[false, true], &[false]) {
                        let mut keys: Vec<u32> =
                            (0..len).map(|_| rng.below(modulus) as u32).collect();
                        if has_runs {
                            // Sorted, with a few reversed stretches and swaps.
                            keys = (0..len as u32).collect();
                            for _ in 0..5 {
                                let (a, b) = (rng.below(len), rng.below(len));
                                if a < b {
                                    keys[a..b].reverse();
                                } else {
                                    keys.swap(a, b);
                                }
                            }
                        }
                        for sort in [Sort::Stable, Sort::Unstable] {
                            let total = comparisons(sort, &keys);
                            let points = size(10, 2);
                            let step = if len <= 100 && !cfg!(miri) {
                                1
                            } else {
                                (total / points).max(1)
                            };
                            let mut panic_at = total;
                            loop {
                                sort_panicking_at(&place, sort, &keys, panic_at.max(1));
                                if panic_at < step {
                                    break;
                                }
                                panic_at -= step;
                            }
                        }
                    }
                }
            }
        }
    });
}

/// Sorts the evens of `0..len` in the first half and the odds in the
/// second, by a comparison that panics the `nth` time it compares an even
/// key with an odd one: the first such comparisons are those that meet the
/// two sorted halves (the search that splits a parallel merge, then the
/// merge itself).
fn panic_where_halves_meet(place: &Place, sort: Sort, len: usize, nth: usize) {
    let half = len / 2;
    let mut rng = Rng::new(nth as u64 + 17);
    let mut evens: Vec<u32> = (0..half as u32).map(|i| 2 * i).collect();
    let mut odds: Vec<u32> = (0..(len - half) as u32).map(|i| 2 * i + 1).collect();
    for part in [&mut evens, &mut odds] {
        for i in (1..part.len()).rev() {
            part.swap(i, rng.below(i + 1));
        }
    }
    let counts = Counts::new(len);
    let mut v = counts.items(evens.into_iter().chain(odds));
    let crossings = AtomicUsize::new(0);
    let panic = panic_of(|| {
        place.run(|| {
            sort.run(&mut v, |a, b| {
                if (a.key ^ b.key) & 1 == 1 && crossings.fetch_add(1, Relaxed) + 1 == nth {
                    panic!("{PLANNED}: crossing {nth}");
                }
                a.compare(b)
            })
        })
    });
    let context = format!(
        "{sort:?} sort of {len} items on {}, panic at crossing {nth}",
        place.name()
    );
    if nth <= crossings.load(Relaxed) {
        assert_eq!(
            panic.as_deref(),
            Some(format!("{PLANNED}: crossing {nth}").as_str()),
            "{context}"
        );
    }
    assert_permutation(&v, len, &context);
    drop(v);
    counts.assert_each_dropped_once(&context);
}

#[test]
fn a_comparison_that_panics_where_two_sorted_halves_meet_leaves_each_item_dropped_once() {
    silence_planned_panics();
    without_hanging(|| {
        let len = size(20_000, 100);
        let all: Vec<usize> = (1..=48).chain([100, 1_000, 5_000]).collect();
        let points = cases(&all, &[1, 2, 5]);
        for place in places() {
            for sort in [Sort::Stable, Sort::Unstable] {
                for &nth in &points {
                    panic_where_halves_meet(&place, sort, len, nth);
                }
            }
        }
    });
}

#[test]
fn a_comparison_that_always_panics_leaves_every_item_in_the_slice() {
    silence_planned_panics();
    without_hanging(|| {
        let len = size(50_000, 100);
        for place in places() {
            for sort in [Sort::Stable, Sort::Unstable] {
                let mut v: Vec<u64> = (0..len as u64).rev().collect();
                let panic = panic_of(|| {
                    place.run(|| match sort {
                        Sort::Stable => v.par_sort_by(|_, _| panic!("{PLANNED}: first call")),
                        Sort::Unstable => {
                            v.par_sort_unstable_by(|_, _| panic!("{PLANNED}: first call"))
                        }
                    })
                });
                assert_eq!(panic.as_deref(), Some("planned panic: first call"));
                let mut sorted = v.clone();
                sorted.sort_unstable();
                assert_eq!(
                    sorted,
                    (0..len as u64).collect::<Vec<_>>(),
                    "{sort:?} on {}: every item still there",
                    place.name()
                );
            }
        }
    });
}
