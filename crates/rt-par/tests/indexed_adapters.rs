//! Indexed adapters keep every item's index: their results, reversed or
//! not, and after splits, are the sequential ones (ported in spirit from
//! rayon's iterator tests).

use rt_par::prelude::*;
use rt_testkit::without_hanging;

#[test]
fn step_by_matches_the_sequential_step_by_for_every_step() {
    without_hanging(|| {
        for len in [0usize, 1, 7, 100, 1001] {
            for step in 1..12 {
                let v: Vec<usize> = (0..len).into_par_iter().step_by(step).collect();
                assert_eq!(
                    v,
                    (0..len).step_by(step).collect::<Vec<_>>(),
                    "len {len} step {step}"
                );
                let r: Vec<usize> = (0..len).into_par_iter().step_by(step).rev().collect();
                assert_eq!(r, (0..len).step_by(step).rev().collect::<Vec<_>>());
                assert_eq!(
                    (0..len).into_par_iter().step_by(step).len(),
                    len.div_ceil(step)
                );
            }
        }
    });
}

#[test]
fn enumerate_numbers_items_in_order_even_reversed() {
    without_hanging(|| {
        let a: Vec<usize> = (0..1000).collect();
        let v: Vec<(usize, usize)> = a.par_iter().copied().enumerate().collect();
        assert!(v.iter().all(|&(i, x)| i == x));
        let r: Vec<(usize, usize)> = a.par_iter().copied().enumerate().rev().collect();
        assert_eq!(r, a.iter().copied().enumerate().rev().collect::<Vec<_>>());
        let e: Vec<(usize, usize)> = a.par_iter().copied().rev().enumerate().collect();
        assert_eq!(e, a.iter().copied().rev().enumerate().collect::<Vec<_>>());
    });
}

#[test]
fn indices_after_enumerate_survive_any_split() {
    without_hanging(|| {
        let a: Vec<i32> = (0..1024).collect();
        a.par_iter()
            .enumerate()
            .with_max_len(3)
            .for_each(|(i, &x)| {
                assert_eq!(i as i32, x);
            });
    });
}

#[test]
fn skip_and_take_cut_where_the_sequential_ones_do() {
    without_hanging(|| {
        let v: Vec<usize> = (0..100).collect();
        for n in [0, 1, 50, 99, 100, 150] {
            let skipped: Vec<usize> = v.par_iter().copied().skip(n).collect();
            assert_eq!(skipped, v.iter().copied().skip(n).collect::<Vec<_>>());
            let taken: Vec<usize> = v.par_iter().copied().take(n).collect();
            assert_eq!(taken, v.iter().copied().take(n).collect::<Vec<_>>());
            let both: Vec<usize> = v.par_iter().copied().skip(n / 2).take(n).rev().collect();
            assert_eq!(
                both,
                v.iter()
                    .copied()
                    .skip(n / 2)
                    .take(n)
                    .rev()
                    .collect::<Vec<_>>()
            );
        }
    });
}

#[test]
fn skip_drops_the_skipped_items() {
    without_hanging(|| {
        let v: Vec<String> = (0..100).map(|i| i.to_string()).collect();
        let kept: Vec<String> = v.into_par_iter().skip(90).collect();
        assert_eq!(kept.len(), 10);
        assert_eq!(kept[0], "90");
    });
}

#[test]
fn rev_of_every_indexed_adapter_is_the_sequential_rev() {
    without_hanging(|| {
        let a: Vec<i32> = (0..500).collect();
        let b: Vec<i32> = (1000..1400).collect();
        let zipped: Vec<(i32, i32)> = a
            .par_iter()
            .copied()
            .zip(b.par_iter().copied())
            .rev()
            .collect();
        assert_eq!(
            zipped,
            a.iter()
                .copied()
                .zip(b.iter().copied())
                .rev()
                .collect::<Vec<_>>()
        );
        let chained: Vec<i32> = a.par_iter().chain(&b).copied().rev().collect();
        assert_eq!(
            chained,
            a.iter().chain(&b).copied().rev().collect::<Vec<_>>()
        );
        let mapped: Vec<i32> = a.par_iter().map(|x| x * 2).rev().collect();
        assert_eq!(mapped, a.iter().map(|x| x * 2).rev().collect::<Vec<_>>());
        let chunked: Vec<Vec<i32>> = a.par_iter().copied().chunks(7).rev().collect();
        assert_eq!(
            chunked,
            a.chunks(7).rev().map(<[i32]>::to_vec).collect::<Vec<_>>()
        );
        let twice: Vec<i32> = a.par_iter().copied().rev().rev().collect();
        assert_eq!(twice, a);
    });
}

#[test]
fn zip_stops_at_the_shorter_side_either_way() {
    without_hanging(|| {
        let long: Vec<u32> = (0..1000).collect();
        let short: Vec<u32> = (0..10).collect();
        let a: Vec<(u32, u32)> = long
            .par_iter()
            .copied()
            .zip(short.par_iter().copied())
            .collect();
        let b: Vec<(u32, u32)> = short
            .par_iter()
            .copied()
            .zip(long.par_iter().copied())
            .collect();
        assert_eq!(a.len(), 10);
        assert_eq!(b.len(), 10);
        assert_eq!(long.par_iter().zip(&short).len(), 10);
        let ranged: Vec<(usize, u32)> = (5..100usize)
            .into_par_iter()
            .zip(short.par_iter().copied())
            .collect();
        assert_eq!(
            ranged,
            (5..100usize).zip(short.iter().copied()).collect::<Vec<_>>()
        );
    });
}

#[test]
fn zip_into_mutable_references_writes_every_pair() {
    without_hanging(|| {
        let mut out = vec![0u64; 1000];
        let input: Vec<u64> = (0..1000).collect();
        out.par_iter_mut()
            .zip(&input)
            .for_each(|(o, &i)| *o = i * i);
        assert!(out
            .iter()
            .enumerate()
            .all(|(i, &o)| o == (i as u64) * (i as u64)));
        out.par_iter_mut()
            .zip_eq(input.par_iter())
            .for_each(|(o, &i)| *o -= i * i);
        assert!(out.iter().all(|&o| o == 0));
    });
}

#[test]
#[should_panic(expected = "iterators must have the same length")]
fn zip_eq_of_different_lengths_panics() {
    without_hanging(|| {
        let _ = (0..10).into_par_iter().zip_eq(0..11).count();
    });
}

#[test]
fn chunks_of_every_size_give_the_sequential_chunks() {
    without_hanging(|| {
        for len in [0usize, 1, 5, 64, 1000] {
            for size in [1usize, 2, 3, 10, 64, 2000] {
                let v: Vec<Vec<usize>> = (0..len).into_par_iter().chunks(size).collect();
                let expected: Vec<Vec<usize>> = (0..len)
                    .collect::<Vec<_>>()
                    .chunks(size)
                    .map(<[usize]>::to_vec)
                    .collect();
                assert_eq!(v, expected, "len {len} size {size}");
                assert_eq!(
                    (0..len).into_par_iter().chunks(size).len(),
                    len.div_ceil(size)
                );
            }
        }
    });
}

#[test]
#[should_panic(expected = "chunk_size must not be zero")]
fn chunks_of_zero_panic() {
    without_hanging(|| {
        let _ = (0..10).into_par_iter().chunks(0);
    });
}

#[test]
fn update_and_inspect_see_every_item_once() {
    without_hanging(|| {
        use std::sync::atomic::{AtomicUsize, Ordering};
        let seen = AtomicUsize::new(0);
        let v: Vec<i32> = (0..1000)
            .into_par_iter()
            .inspect(|_| {
                seen.fetch_add(1, Ordering::Relaxed);
            })
            .update(|x| *x += 1)
            .collect();
        assert_eq!(v, (1..1001).collect::<Vec<_>>());
        assert_eq!(seen.into_inner(), 1000);
        let mut w: Vec<Vec<i32>> = vec![vec![]; 10];
        let lens: Vec<usize> = w
            .par_iter_mut()
            .update(|v| v.push(1))
            .map(|v| v.len())
            .collect();
        assert_eq!(lens, vec![1; 10]);
    });
}

#[test]
fn map_with_and_map_init_give_each_piece_its_own_state() {
    without_hanging(|| {
        let v: Vec<usize> = (0..1000usize)
            .into_par_iter()
            .map_with(Vec::new(), |seen: &mut Vec<usize>, x| {
                seen.push(x);
                assert!(
                    seen.windows(2).all(|w| w[0] < w[1]),
                    "a piece sees its items in order"
                );
                x
            })
            .collect();
        assert_eq!(v, (0..1000).collect::<Vec<_>>());
        let w: Vec<usize> = (0..1000usize)
            .into_par_iter()
            .map_init(|| 7, |seven, x| x + *seven)
            .collect();
        assert_eq!(w, (7..1007).collect::<Vec<_>>());
    });
}

#[test]
fn for_each_with_and_for_each_init_visit_every_item() {
    without_hanging(|| {
        let (sender, receiver) = std::sync::mpsc::channel();
        (0..1000)
            .into_par_iter()
            .for_each_with(sender, |s, x| s.send(x).unwrap());
        let mut got: Vec<i32> = receiver.iter().collect();
        got.sort_unstable();
        assert_eq!(got, (0..1000).collect::<Vec<_>>());
        let total = std::sync::atomic::AtomicUsize::new(0);
        (0..1000usize).into_par_iter().for_each_init(
            || 1usize,
            |one, x| {
                total.fetch_add(x * *one, std::sync::atomic::Ordering::Relaxed);
            },
        );
        assert_eq!(total.into_inner(), 499_500);
    });
}

#[test]
fn comparisons_match_the_sequential_ones() {
    without_hanging(|| {
        use std::cmp::Ordering;
        assert_eq!((0..1024).into_par_iter().cmp(0..1024), Ordering::Equal);
        assert_eq!((0..1024).into_par_iter().cmp(0..1023), Ordering::Greater);
        assert_eq!(
            (0..1024)
                .into_par_iter()
                .map(|x| if x == 600 { 0 } else { x })
                .cmp(0..1024),
            Ordering::Less
        );
        assert!((0..1024).into_par_iter().eq(0..1024));
        assert!((0..1024).into_par_iter().ne(0..1025));
        assert!((0..1024).into_par_iter().lt(1..1024));
        assert!((0..1024).into_par_iter().le(0..1024));
        assert!((1..1024).into_par_iter().gt(0..1024));
        assert!((0..1024).into_par_iter().ge(0..1024));
        let nan = [1.0, f64::NAN];
        assert_eq!(nan.par_iter().partial_cmp(&[1.0, 2.0]), None);
    });
}

#[test]
fn an_either_of_two_iterators_is_one() {
    without_hanging(|| {
        use rt_par::iter::Either;
        let pick = |left: bool| -> Either<
            rt_par::range::Iter<i32>,
            rt_par::iter::Rev<rt_par::range::Iter<i32>>,
        > {
            if left {
                Either::Left((0..10).into_par_iter())
            } else {
                Either::Right((0..10).into_par_iter().rev())
            }
        };
        assert_eq!(pick(true).collect::<Vec<_>>(), (0..10).collect::<Vec<_>>());
        assert_eq!(
            pick(false).collect::<Vec<_>>(),
            (0..10).rev().collect::<Vec<_>>()
        );
        assert_eq!(pick(false).len(), 10);
    });
}
