//! `with_min_len` and `with_max_len` bound every piece a consumer sees,
//! `fold` included (rayon's `check_lengths`).

use rt_par::prelude::*;
use rt_testkit::without_hanging;

fn check(min: usize, max: usize) {
    let len = 1024 * 1024;
    let min_check = min.max(1).min(len);
    let max_check = max.max(min_check.saturating_add(min_check - 1));
    let pieces: Vec<usize> = (0..len)
        .into_par_iter()
        .with_min_len(min)
        .with_max_len(max)
        .fold(|| 0, |count, _| count + 1)
        .collect();
    assert_eq!(pieces.iter().sum::<usize>(), len);
    assert!(
        pieces.iter().all(|&c| c >= min_check && c <= max_check),
        "({min}, {max}) gave pieces outside [{min_check}, {max_check}]: {:?}",
        &pieces[..pieces.len().min(20)]
    );
}

#[test]
fn every_piece_lies_within_the_bounds() {
    without_hanging(|| {
        let lengths = [0, 1, 10, 100, 1_000, 10_000, 100_000, 1_000_000, usize::MAX];
        for &min in &lengths {
            for &max in &lengths {
                check(min, max);
            }
        }
    });
}

#[test]
fn a_minimum_of_the_whole_length_makes_one_piece() {
    without_hanging(|| {
        let pieces = (0..10_000)
            .into_par_iter()
            .with_min_len(10_000)
            .fold(|| 0, |n, _| n + 1)
            .count();
        assert_eq!(pieces, 1);
    });
}

#[test]
fn a_maximum_of_one_makes_a_piece_per_item() {
    without_hanging(|| {
        let pieces: Vec<usize> = (0..1000)
            .into_par_iter()
            .with_max_len(1)
            .fold(|| 0, |n, _| n + 1)
            .collect();
        assert_eq!(pieces, vec![1; 1000]);
    });
}

#[test]
fn tiny_items_are_not_split_into_a_piece_each() {
    without_hanging(|| {
        let rt = rt_core::Runtime::new(2).unwrap();
        let pieces = rt.install(|| {
            (0..1_000_000u32)
                .into_par_iter()
                .fold(|| 0u32, |n, _| n + 1)
                .count()
        });
        assert!(pieces < 10_000, "{pieces} pieces for a million tiny items");
    });
}
