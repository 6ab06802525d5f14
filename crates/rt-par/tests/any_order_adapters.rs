//! The adapters whose items come in any order (`take_any`, `skip_any`,
//! `take_any_while`, `skip_any_while`, `par_bridge`-like sources), and the
//! ones rayon added later (`try_fold`, `positions`, `fold_chunks`, `split`,
//! `collect_vec_list`).

use std::borrow::Cow;

use rt_par::prelude::*;
use rt_testkit::without_hanging;

#[test]
fn take_any_and_skip_any_keep_the_right_number_of_distinct_items() {
    without_hanging(|| {
        for n in [0, 1, 500, 1000, 2000] {
            let taken: Vec<u32> = (0..1000u32).into_par_iter().take_any(n).collect();
            assert_eq!(taken.len(), n.min(1000));
            let skipped: Vec<u32> = (0..1000u32).into_par_iter().skip_any(n).collect();
            assert_eq!(skipped.len(), 1000 - n.min(1000));
            let mut all: Vec<u32> = taken.into_iter().chain(skipped).collect();
            all.sort_unstable();
            all.dedup();
            assert!(all.len() <= 1000);
        }
    });
}

#[test]
fn take_any_while_stops_at_a_failing_item_and_skip_any_while_starts_there() {
    without_hanging(|| {
        let taken: Vec<u32> = (0..10_000u32)
            .into_par_iter()
            .take_any_while(|&x| x < 5000)
            .collect();
        assert!(taken.iter().all(|&x| x < 5000));
        let kept: Vec<u32> = (0..10_000u32)
            .into_par_iter()
            .skip_any_while(|&x| x < 5000)
            .collect();
        assert!((5000..10_000).all(|x| kept.contains(&x)));
    });
}

#[test]
fn try_fold_stops_a_piece_at_its_first_error() {
    without_hanging(|| {
        let sum = (1..=1000u32)
            .into_par_iter()
            .try_fold(|| 0u32, |a, x| a.checked_add(x))
            .try_reduce(|| 0, |a, b| a.checked_add(b));
        assert_eq!(sum, Some(500_500));
        let overflow = (1..=200u8)
            .into_par_iter()
            .try_fold_with(0u8, |a, x| a.checked_add(x))
            .try_reduce(|| 0, |a, b| a.checked_add(b));
        assert_eq!(overflow, None);
        let r: Result<(), u32> = (0..1000u32)
            .into_par_iter()
            .try_for_each_with(500, |limit, x| if x < *limit { Ok(()) } else { Err(x) });
        assert!(matches!(r, Err(x) if x >= 500));
    });
}

#[test]
fn positions_are_the_indices_of_the_matches_in_order() {
    without_hanging(|| {
        let v: Vec<u32> = (0..10_000).map(|i| i * 7 % 13).collect();
        let p: Vec<usize> = v.par_iter().positions(|&x| x == 3).collect();
        let expected: Vec<usize> = v
            .iter()
            .enumerate()
            .filter(|(_, &x)| x == 3)
            .map(|(i, _)| i)
            .collect();
        assert_eq!(p, expected);
    });
}

#[test]
fn fold_chunks_folds_each_chunk_in_order() {
    without_hanging(|| {
        let sums: Vec<u64> = (0..1000u64)
            .into_par_iter()
            .fold_chunks(7, || 0, |a, x| a + x)
            .collect();
        let expected: Vec<u64> = (0..1000u64)
            .collect::<Vec<_>>()
            .chunks(7)
            .map(|c| c.iter().sum())
            .collect();
        assert_eq!(sums, expected);
        let rev: Vec<u64> = (0..1000u64)
            .into_par_iter()
            .fold_chunks_with(7, 0, |a, x| a + x)
            .rev()
            .collect();
        assert_eq!(rev, expected.into_iter().rev().collect::<Vec<_>>());
    });
}

#[test]
fn split_gives_every_part_once() {
    without_hanging(|| {
        let parts: Vec<u32> = rt_par::iter::split(0..1024u32, |r| {
            let mid = (r.end - r.start) / 2;
            if mid > 1 {
                (r.start..r.start + mid, Some(r.start + mid..r.end))
            } else {
                (r, None)
            }
        })
        .flat_map(|r| r.into_par_iter())
        .collect();
        assert_eq!(parts, (0..1024).collect::<Vec<_>>());
    });
}

#[test]
fn collect_vec_list_keeps_the_order() {
    without_hanging(|| {
        let list = (0..10_000u32)
            .into_par_iter()
            .filter(|x| x % 3 == 0)
            .collect_vec_list();
        let flat: Vec<u32> = list.into_iter().flatten().collect();
        assert_eq!(flat, (0..10_000).filter(|x| x % 3 == 0).collect::<Vec<_>>());
    });
}

#[test]
fn char_ranges_skip_the_surrogates() {
    without_hanging(|| {
        let all: Vec<char> = ('\u{0}'..=char::MAX).into_par_iter().collect();
        assert_eq!(all, ('\u{0}'..=char::MAX).collect::<Vec<_>>());
        assert_eq!(('a'..='z').into_par_iter().len(), 26);
        assert_eq!(
            ('\u{D7FF}'..'\u{E001}').into_par_iter().collect::<String>(),
            "\u{D7FF}\u{E000}"
        );
    });
}

#[test]
fn cows_results_and_deprecated_repeatn_work() {
    without_hanging(|| {
        let cow: Cow<'_, [i32]> = (0..3).into_par_iter().collect();
        assert_eq!(&*cow, &[0, 1, 2]);
        let text: Cow<'_, str> = ['a', 'b'].par_iter().copied().collect();
        assert_eq!(text, "ab");
        let ok: Result<i32, String> = Ok(5);
        assert_eq!(ok.par_iter().copied().sum::<i32>(), 5);
        let err: Result<i32, String> = Err("no".into());
        assert_eq!(err.into_par_iter().count(), 0);
        #[allow(deprecated)]
        let n = rt_par::iter::repeatn(1, 4).count();
        assert_eq!(n, 4);
    });
}
