//! `interleave`, `interleave_shortest`, `intersperse`, the block-by-block
//! drivers and the tree walks give what their definitions say, reversed
//! too (rayon's `check_interleave_*`, `walk_tree_*` and `blocks` tests).

use rt_par::prelude::*;
use rt_testkit::without_hanging;

/// The sequential interleaving of `a` and `b`.
fn interleaved(a: &[usize], b: &[usize]) -> Vec<usize> {
    let mut out = Vec::new();
    let (mut a, mut b) = (a.iter(), b.iter());
    loop {
        match (a.next(), b.next()) {
            (None, None) => return out,
            (x, y) => out.extend(x.into_iter().chain(y).copied()),
        }
    }
}

#[test]
fn interleave_alternates_then_gives_the_rest_of_the_longer() {
    without_hanging(|| {
        let lengths = [0usize, 1, 2, 9, 10, 50, 1000];
        for &la in &lengths {
            for &lb in &lengths {
                let a: Vec<usize> = (0..la).collect();
                let b: Vec<usize> = (10_000..10_000 + lb).collect();
                let expected = interleaved(&a, &b);
                let mut got = Vec::new();
                a.par_iter()
                    .interleave(&b)
                    .copied()
                    .collect_into_vec(&mut got);
                assert_eq!(got, expected, "{la} and {lb} items");
                let rev: Vec<usize> = a.par_iter().interleave(&b).copied().rev().collect();
                assert_eq!(
                    rev,
                    expected.iter().rev().copied().collect::<Vec<_>>(),
                    "{la} and {lb} reversed"
                );
                let small: Vec<usize> = a
                    .par_iter()
                    .interleave(&b)
                    .copied()
                    .with_max_len(3)
                    .collect();
                assert_eq!(small, expected);
            }
        }
    });
}

#[test]
fn interleave_shortest_stops_when_the_side_whose_turn_it_is_runs_out() {
    without_hanging(|| {
        let v: Vec<i32> = (0..3).into_par_iter().interleave_shortest(10..20).collect();
        assert_eq!(v, [0, 10, 1, 11, 2, 12]);
        let w: Vec<i32> = (0..10)
            .into_par_iter()
            .interleave_shortest(10..12)
            .collect();
        assert_eq!(w, [0, 10, 1, 11, 2]);
        let x: Vec<i32> = (0..0).into_par_iter().interleave_shortest(10..12).collect();
        assert!(x.is_empty());
        assert_eq!(
            (0..10)
                .into_par_iter()
                .interleave_shortest(10..12)
                .rev()
                .collect::<Vec<_>>(),
            [2, 11, 1, 10, 0]
        );
    });
}

#[test]
fn intersperse_puts_the_element_between_items() {
    without_hanging(|| {
        let v: Vec<i32> = (1..6).into_par_iter().intersperse(0).collect();
        assert_eq!(v, [1, 0, 2, 0, 3, 0, 4, 0, 5]);
        let one: Vec<i32> = (1..2).into_par_iter().intersperse(0).collect();
        assert_eq!(one, [1]);
        assert_eq!((0..0).into_par_iter().intersperse(7).count(), 0);
        let words: String = ["a", "b", "c"]
            .par_iter()
            .copied()
            .intersperse(", ")
            .collect();
        assert_eq!(words, "a, b, c");
    });
}

#[test]
fn blocks_give_every_item_in_order_and_stop_early() {
    without_hanging(|| {
        let v: Vec<u32> = (0..100_000u32)
            .into_par_iter()
            .by_exponential_blocks()
            .collect();
        assert_eq!(v, (0..100_000).collect::<Vec<_>>());
        let w: Vec<u32> = (0..100_000u32)
            .into_par_iter()
            .by_uniform_blocks(777)
            .filter(|x| x % 3 == 0)
            .collect();
        assert_eq!(
            w,
            (0..100_000u32).filter(|x| x % 3 == 0).collect::<Vec<_>>()
        );
        let first = (0..u64::MAX)
            .into_par_iter()
            .by_exponential_blocks()
            .find_first(|&x| x == 12_345);
        assert_eq!(first, Some(12_345));
        let any = (0..u64::MAX)
            .into_par_iter()
            .by_uniform_blocks(10_000)
            .find_any(|&x| x % 1000 == 999);
        assert!(any.is_some());
    });
}

/// Splits a range in halves down to single values.
fn halves(r: &std::ops::Range<u32>) -> Vec<std::ops::Range<u32>> {
    if r.len() > 1 {
        let mid = r.start + r.len() as u32 / 2;
        vec![r.start..mid, mid..r.end]
    } else {
        Vec::new()
    }
}

#[test]
fn tree_walks_visit_every_node_in_their_order() {
    without_hanging(|| {
        let leaves: Vec<u32> = rt_par::iter::walk_tree_prefix(0..1000u32, halves)
            .filter(|r| r.len() == 1)
            .map(|r| r.start)
            .collect();
        assert_eq!(leaves, (0..1000).collect::<Vec<_>>());
        let prefix: Vec<std::ops::Range<u32>> =
            rt_par::iter::walk_tree_prefix(0..4u32, halves).collect();
        assert_eq!(prefix, [0..4, 0..2, 0..1, 1..2, 2..4, 2..3, 3..4]);
        let postfix: Vec<std::ops::Range<u32>> =
            rt_par::iter::walk_tree_postfix(0..4u32, halves).collect();
        assert_eq!(postfix, [0..1, 1..2, 0..2, 2..3, 3..4, 2..4, 0..4]);
        assert_eq!(rt_par::iter::walk_tree(0..1000u32, halves).count(), 1999);
        // A wide tree: a root with ten thousand children.
        let wide = rt_par::iter::walk_tree_prefix(0u32, |&n| {
            if n == 0 {
                (1..10_001).collect()
            } else {
                Vec::new()
            }
        });
        assert_eq!(wide.map(u64::from).sum::<u64>(), 50_005_000);
    });
}
