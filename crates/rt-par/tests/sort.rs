//! `par_sort*` sort stably and `par_sort_unstable*` sort, on inputs long
//! enough to split, of every shape.

use rt_par::prelude::*;
use rt_testkit::without_hanging;

fn pseudo_random(len: usize, seed: u64) -> Vec<u64> {
    let mut x = seed | 1;
    (0..len)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x
        })
        .collect()
}

fn shapes(len: usize) -> Vec<(&'static str, Vec<u64>)> {
    vec![
        ("random", pseudo_random(len, 7)),
        ("sorted", (0..len as u64).collect()),
        ("reversed", (0..len as u64).rev().collect()),
        ("all equal", vec![42; len]),
        (
            "few distinct",
            pseudo_random(len, 9).into_iter().map(|x| x % 4).collect(),
        ),
        ("sawtooth", (0..len as u64).map(|i| i % 1000).collect()),
    ]
}

#[test]
fn par_sort_unstable_sorts_every_shape() {
    without_hanging(|| {
        let rt = rt_core::Runtime::new(2).unwrap();
        for len in [0, 1, 5000, 100_000, 300_001] {
            for (shape, mut v) in shapes(len) {
                let mut expected = v.clone();
                expected.sort_unstable();
                rt.install(|| v.par_sort_unstable());
                assert_eq!(v, expected, "{shape}, {len} items");
            }
        }
    });
}

#[test]
fn par_sort_is_stable_on_every_shape() {
    without_hanging(|| {
        let rt = rt_core::Runtime::new(2).unwrap();
        for len in [0, 1, 5000, 100_000, 300_001] {
            for (shape, keys) in shapes(len) {
                let mut v: Vec<(u64, usize)> =
                    keys.into_iter().map(|k| k % 1000).zip(0..).collect();
                let mut expected = v.clone();
                expected.sort_by_key(|p| p.0);
                rt.install(|| v.par_sort_by_key(|p| p.0));
                assert_eq!(v, expected, "{shape}, {len} items");
            }
        }
    });
}

#[test]
fn every_sort_variant_orders_by_its_comparison() {
    without_hanging(|| {
        let base: Vec<i64> = pseudo_random(50_000, 3)
            .into_iter()
            .map(|x| (x % 20_001) as i64 - 10_000)
            .collect();
        let check = |sort: &dyn Fn(&mut Vec<i64>), expected: &dyn Fn(&mut Vec<i64>)| {
            let (mut a, mut b) = (base.clone(), base.clone());
            sort(&mut a);
            expected(&mut b);
            assert_eq!(a, b);
        };
        check(&|v| v.par_sort(), &|v| v.sort());
        check(&|v| v.par_sort_by(|a, b| b.cmp(a)), &|v| {
            v.sort_by(|a, b| b.cmp(a))
        });
        check(&|v| v.par_sort_by_key(|x| x.abs()), &|v| {
            v.sort_by_key(|x| x.abs())
        });
        check(&|v| v.par_sort_unstable(), &|v| v.sort_unstable());
        check(&|v| v.par_sort_unstable_by(|a, b| b.cmp(a)), &|v| {
            v.sort_unstable_by(|a, b| b.cmp(a))
        });
        let (mut a, mut b) = (base.clone(), base.clone());
        a.par_sort_unstable_by_key(|x| x.abs());
        b.sort_by_key(|x| x.abs());
        assert!(a.iter().map(|x| x.abs()).eq(b.iter().map(|x| x.abs())));
    });
}

#[test]
fn sorting_strings_moves_every_string_once() {
    without_hanging(|| {
        let mut v: Vec<String> = pseudo_random(60_000, 5)
            .iter()
            .map(|x| format!("{:x}", x % 100_000))
            .collect();
        let mut expected = v.clone();
        expected.sort();
        v.par_sort();
        assert_eq!(v, expected);
        let mut w = expected.clone();
        w.reverse();
        w.par_sort_unstable();
        assert_eq!(w, expected);
    });
}

#[test]
fn sorting_zero_sized_items_works() {
    without_hanging(|| {
        let mut v = [(); 100_000];
        v.par_sort();
        v.par_sort_unstable();
        assert_eq!(v.len(), 100_000);
    });
}

#[test]
fn a_comparison_that_is_not_a_total_order_reorders_but_never_panics() {
    without_hanging(|| {
        for len in [10usize, 100, 10_000, 100_000] {
            let mut state = 0x1234_5678u64;
            let mut coin = move || {
                state ^= state << 13;
                state ^= state >> 7;
                state ^= state << 17;
                match state % 3 {
                    0 => std::cmp::Ordering::Less,
                    1 => std::cmp::Ordering::Equal,
                    _ => std::cmp::Ordering::Greater,
                }
            };
            let coin = std::sync::Mutex::new(&mut coin);
            let mut v: Vec<usize> = (0..len).collect();
            rt_testkit::quietly(|| v.par_sort_by(|_, _| (coin.lock().unwrap())()));
            rt_testkit::quietly(|| v.par_sort_unstable_by(|_, _| (coin.lock().unwrap())()));
            v.par_sort();
            assert_eq!(v, (0..len).collect::<Vec<_>>(), "every item is still there");
        }
    });
}

#[test]
fn par_sort_by_cached_key_is_stable_and_computes_each_key_once() {
    without_hanging(|| {
        use std::sync::atomic::{AtomicUsize, Ordering};
        for len in [0usize, 1, 7, 5000, 100_000] {
            let v: Vec<(u64, usize)> = pseudo_random(len, 11)
                .into_iter()
                .map(|k| k % 100)
                .zip(0..)
                .collect();
            let mut expected = v.clone();
            expected.sort_by_cached_key(|p| p.0);
            let mut got = v.clone();
            let calls = AtomicUsize::new(0);
            got.par_sort_by_cached_key(|p| {
                calls.fetch_add(1, Ordering::Relaxed);
                p.0
            });
            assert_eq!(got, expected, "{len} items");
            assert_eq!(calls.into_inner(), if len < 2 { 0 } else { len });
        }
    });
}
