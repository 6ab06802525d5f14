//! Integer ranges split and skip in O(1): `step_by`, `skip`, `take` and
//! `rev` over ranges as long as the type allows (`0..u64::MAX`,
//! `i64::MIN..i64::MAX`, `0..=u32::MAX`) visit only the values they yield,
//! so these tests end at once (a range that walked what it skips would
//! run for years, and the watchdog would fail the test). Lengths of full
//! ranges are exact; a range whose length does not fit a `usize` is not
//! indexed, as in rayon.

mod support;

use std::sync::atomic::{AtomicUsize, Ordering::Relaxed};

use rt_par::prelude::*;
use rt_testkit::without_hanging;
use support::places;

#[test]
fn step_by_over_a_full_u64_range_yields_only_the_stepped_values() {
    without_hanging(|| {
        for place in places() {
            let (count, values) = place.run(|| {
                let iter = || (0..u64::MAX).into_par_iter().step_by(1 << 62);
                (iter().count(), iter().collect::<Vec<u64>>())
            });
            assert_eq!(count, 4, "on {}", place.name());
            assert_eq!(
                values,
                [0, 1 << 62, 2 << 62, 3 << 62],
                "on {}",
                place.name()
            );
        }
    });
}

#[test]
fn step_by_over_full_ranges_of_every_integer_type_yields_only_the_stepped_values() {
    without_hanging(|| {
        for place in places() {
            place.run(|| {
                let i64s: Vec<i64> = (i64::MIN..i64::MAX)
                    .into_par_iter()
                    .step_by(1 << 62)
                    .collect();
                assert_eq!(i64s, [i64::MIN, -(1 << 62), 0, 1 << 62]);
                let usizes: Vec<usize> = (0..usize::MAX).into_par_iter().step_by(1 << 62).collect();
                assert_eq!(usizes, [0, 1 << 62, 2 << 62, 3 << 62]);
                let isizes = (isize::MIN..isize::MAX)
                    .into_par_iter()
                    .step_by(1 << 62)
                    .count();
                assert_eq!(isizes, 4);
                let u32s: Vec<u32> = (0..u32::MAX).into_par_iter().step_by(1 << 30).collect();
                assert_eq!(u32s, [0, 1 << 30, 2 << 30, 3 << 30]);
                let i32s: Vec<i32> = (i32::MIN..i32::MAX)
                    .into_par_iter()
                    .step_by(1 << 30)
                    .collect();
                assert_eq!(i32s, [i32::MIN, -(1 << 30), 0, 1 << 30]);
                let u16s: Vec<u16> = (0..u16::MAX).into_par_iter().step_by(1 << 14).collect();
                assert_eq!(u16s, [0, 1 << 14, 2 << 14, 3 << 14]);
                let i8s: Vec<i8> = (i8::MIN..i8::MAX).into_par_iter().step_by(64).collect();
                assert_eq!(i8s, [-128, -64, 0, 64]);
            });
        }
    });
}

#[test]
fn step_by_over_inclusive_ranges_that_end_at_the_types_maximum_yields_only_the_stepped_values() {
    without_hanging(|| {
        for place in places() {
            place.run(|| {
                let u32s: Vec<u32> = (0..=u32::MAX).into_par_iter().step_by(1 << 30).collect();
                assert_eq!(u32s, [0, 1 << 30, 2 << 30, 3 << 30]);
                let last: Vec<u32> = (0..=u32::MAX)
                    .into_par_iter()
                    .step_by(u32::MAX as usize)
                    .collect();
                assert_eq!(last, [0, u32::MAX]);
                let i32s: Vec<i32> = (i32::MIN..=i32::MAX)
                    .into_par_iter()
                    .step_by(1 << 31)
                    .collect();
                assert_eq!(i32s, [i32::MIN, 0]);
                let u8s: Vec<u8> = (0..=u8::MAX).into_par_iter().step_by(85).collect();
                assert_eq!(u8s, [0, 85, 170, 255]);
                let tail: Vec<u16> = (0..=u16::MAX).into_par_iter().rev().take(2).collect();
                assert_eq!(tail, [u16::MAX, u16::MAX - 1]);
            });
        }
    });
}

#[test]
fn skip_take_and_rev_over_a_full_u64_range_jump_to_the_values_they_keep() {
    without_hanging(|| {
        for place in places() {
            place.run(|| {
                let max = u64::MAX;
                let tail: Vec<u64> = (0..max).into_par_iter().skip(max as usize - 3).collect();
                assert_eq!(tail, [max - 3, max - 2, max - 1]);
                let head: Vec<u64> = (0..max).into_par_iter().take(3).collect();
                assert_eq!(head, [0, 1, 2]);
                let reversed: Vec<u64> = (0..max).into_par_iter().rev().take(2).collect();
                assert_eq!(reversed, [max - 1, max - 2]);
                let stepped_back: Vec<u64> =
                    (0..max).into_par_iter().rev().step_by(1 << 62).collect();
                assert_eq!(
                    stepped_back,
                    [
                        max - 1,
                        max - 1 - (1 << 62),
                        max - 1 - (2 << 62),
                        max - 1 - (3 << 62)
                    ]
                );
                let middle: Vec<i64> = (i64::MIN..i64::MAX)
                    .into_par_iter()
                    .skip(1 << 63)
                    .take(2)
                    .collect();
                assert_eq!(middle, [0, 1]);
                let sum: u64 = (0..max)
                    .into_par_iter()
                    .skip(1 << 40)
                    .step_by(1 << 61)
                    .take(3)
                    .sum();
                assert_eq!(sum, 3 * (1 << 40) + (1 << 61) + (2 << 61));
                let found = (0..max)
                    .into_par_iter()
                    .step_by(1 << 32)
                    .position_first(|x| x >= 5 << 32);
                assert_eq!(found, Some(5));
            });
        }
    });
}

#[test]
fn skipped_values_still_run_through_the_adapters_before_skip() {
    without_hanging(|| {
        for place in places() {
            let seen = AtomicUsize::new(0);
            let kept: Vec<u32> = place.run(|| {
                (0..1000u32)
                    .into_par_iter()
                    .map(|x| {
                        seen.fetch_add(1, Relaxed);
                        x
                    })
                    .skip(990)
                    .collect()
            });
            assert_eq!(kept, (990..1000).collect::<Vec<_>>());
            assert_eq!(seen.load(Relaxed), 1000, "on {}", place.name());
        }
    });
}

#[test]
fn full_ranges_have_exact_lengths_and_longer_ones_are_not_indexed() {
    without_hanging(|| {
        assert_eq!((0..u64::MAX).into_par_iter().len(), usize::MAX);
        assert_eq!((i64::MIN..i64::MAX).into_par_iter().len(), usize::MAX);
        assert_eq!((isize::MIN..isize::MAX).into_par_iter().len(), usize::MAX);
        assert_eq!((0..u32::MAX).into_par_iter().len(), u32::MAX as usize);
        assert_eq!((0..=u32::MAX).into_par_iter().len(), 1 << 32);
        assert_eq!((i32::MIN..=i32::MAX).into_par_iter().len(), 1 << 32);
        assert_eq!((0..=u8::MAX).into_par_iter().len(), 256);
        let (high, low) = (std::hint::black_box(5), std::hint::black_box(4));
        assert_eq!((high..=low as u32).into_par_iter().len(), 0);
        assert_eq!((high as u64..low as u64).into_par_iter().len(), 0);
        // Inclusive ranges of 64-bit types, and 128-bit ranges, are not
        // indexed (their length may not fit a `usize`); they know it when it
        // fits.
        assert_eq!((0..=u64::MAX).into_par_iter().opt_len(), None);
        assert_eq!((i64::MIN..=i64::MAX).into_par_iter().opt_len(), None);
        assert_eq!((1..=u64::MAX).into_par_iter().opt_len(), Some(usize::MAX));
        assert_eq!(
            (0..=u64::MAX - 1).into_par_iter().opt_len(),
            Some(usize::MAX)
        );
        assert_eq!((0..u128::MAX).into_par_iter().opt_len(), None);
        assert_eq!(
            (0..u128::from(u64::MAX)).into_par_iter().opt_len(),
            Some(usize::MAX)
        );
        // The last value of a range ending at the type's maximum is there.
        assert_eq!(
            (u64::MAX - 2..=u64::MAX).into_par_iter().max(),
            Some(u64::MAX)
        );
        assert_eq!((u64::MAX - 2..=u64::MAX).into_par_iter().count(), 3);
        assert_eq!((i8::MIN..=i8::MAX).into_par_iter().count(), 256);
    });
}
