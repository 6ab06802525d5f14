//! Searches over ranges far longer than any machine could walk finish as
//! soon as the pieces before the match have run (rayon's octillion tests).

use rt_par::prelude::*;
use rt_testkit::without_hanging;

const OCTILLION: u128 = 1_000_000_000_000_000_000_000_000_000;

fn octillion() -> rt_par::range::Iter<u128> {
    (0..OCTILLION).into_par_iter()
}

fn octillion_inclusive() -> rt_par::range_inclusive::Iter<u128> {
    (0..=OCTILLION).into_par_iter()
}

/// 0..10²⁷ as nested `flat_map`s of billion-long ranges.
fn octillion_flat() -> impl ParallelIterator<Item = u128> {
    (0u32..1_000_000_000)
        .into_par_iter()
        .with_max_len(1_000)
        .map(|i| u64::from(i) * 1_000_000_000)
        .flat_map(|i| {
            (0u32..1_000_000_000)
                .into_par_iter()
                .with_max_len(1_000)
                .map(move |j| i + u64::from(j))
        })
        .map(|i| u128::from(i) * 1_000_000_000)
        .flat_map(|i| {
            (0u32..1_000_000_000)
                .into_par_iter()
                .with_max_len(1_000)
                .map(move |j| i + u128::from(j))
        })
}

fn two_workers<R: Send>(op: impl FnOnce() -> R + Send) -> R {
    let rt = rt_core::Runtime::new(2).expect("start a runtime");
    rt.install(op)
}

#[test]
fn find_first_of_an_octillion_is_zero() {
    without_hanging(|| assert_eq!(octillion().find_first(|_| true), Some(0)));
}

#[test]
fn find_first_of_an_inclusive_octillion_is_zero() {
    without_hanging(|| assert_eq!(octillion_inclusive().find_first(|_| true), Some(0)));
}

#[test]
fn find_first_of_a_flat_octillion_is_zero() {
    without_hanging(|| assert_eq!(octillion_flat().find_first(|_| true), Some(0)));
}

#[test]
fn find_last_of_an_octillion_is_its_last_value() {
    without_hanging(|| {
        let last = two_workers(|| octillion().find_last(|_| true));
        assert_eq!(last, Some(OCTILLION - 1));
    });
}

#[test]
fn find_last_of_an_inclusive_octillion_is_its_end() {
    without_hanging(|| {
        let last = two_workers(|| octillion_inclusive().find_last(|_| true));
        assert_eq!(last, Some(OCTILLION));
    });
}

#[test]
fn find_last_of_a_flat_octillion_is_its_last_value() {
    without_hanging(|| {
        let last = two_workers(|| octillion_flat().find_last(|_| true));
        assert_eq!(last, Some(OCTILLION - 1));
    });
}

#[test]
fn find_any_in_the_upper_half_of_an_octillion_finds_one() {
    without_hanging(|| {
        let found = two_workers(|| octillion().find_any(|x| *x > OCTILLION / 2));
        assert!(found.is_some_and(|x| x > OCTILLION / 2));
    });
}

#[test]
fn find_any_in_the_upper_half_of_a_flat_octillion_finds_one() {
    without_hanging(|| {
        let found = two_workers(|| octillion_flat().find_any(|x| *x > OCTILLION / 2));
        assert!(found.is_some());
    });
}

#[test]
fn filter_then_find_any_over_an_octillion_finds_one() {
    without_hanging(|| {
        let found = two_workers(|| {
            octillion()
                .filter(|x| *x > OCTILLION / 2)
                .find_any(|_| true)
        });
        assert!(found.is_some());
    });
}

#[test]
fn filter_then_find_any_over_a_flat_octillion_finds_one() {
    without_hanging(|| {
        let found = two_workers(|| {
            octillion_flat()
                .filter(|x| *x > OCTILLION / 2)
                .find_any(|_| true)
        });
        assert!(found.is_some());
    });
}

#[test]
fn fold_then_find_any_over_a_flat_octillion_finds_one() {
    without_hanging(|| {
        let found = two_workers(|| octillion_flat().fold(|| (), |_, _| ()).find_any(|_| true));
        assert!(found.is_some());
    });
}

#[test]
fn find_first_and_last_over_all_of_i64_finish() {
    without_hanging(|| {
        let range = || (i64::MIN..i64::MAX).into_par_iter();
        assert_eq!(two_workers(|| range().find_first(|_| true)), Some(i64::MIN));
        assert_eq!(
            two_workers(|| range().find_last(|_| true)),
            Some(i64::MAX - 1)
        );
        assert_eq!(range().len(), usize::MAX);
    });
}
