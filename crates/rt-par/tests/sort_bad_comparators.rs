//! A comparison that is not a total order (random answers, always `Less`,
//! `NaN`s compared by `partial_cmp`, ...) never makes a parallel sort
//! panic: no panic is raised at all, so the panic hook never runs (a
//! process whose hook aborts survives), and the slice ends as a
//! permutation of its input. As rayon promises.

mod support;

use std::cmp::Ordering;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering::Relaxed};
use std::sync::Once;

use rt_par::prelude::*;
use rt_testkit::without_hanging;
use support::{cases, places, size, Place};

/// Set by the panic hook this test binary installs: any panic, on any
/// thread, from any test of this file.
static PANICKED: AtomicBool = AtomicBool::new(false);

/// Replaces the panic hook with one that records every panic (and, in the
/// child process of the last test, aborts).
fn record_every_panic() {
    static INSTALL: Once = Once::new();
    INSTALL.call_once(|| {
        let previous = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            PANICKED.store(true, Relaxed);
            previous(info);
            if std::env::var_os(ABORTING_CHILD).is_some() {
                std::process::abort();
            }
        }));
    });
}

/// The variable that tells the child process of the last test to abort on
/// any panic.
const ABORTING_CHILD: &str = "RT_PAR_TEST_ABORT_ON_PANIC";

/// Comparisons that are not total orders.
/// A comparison of `f64`s, boxed.
type Compare = Box<dyn Fn(&f64, &f64) -> Ordering + Sync>;

fn bad_comparisons() -> Vec<(&'static str, Compare)> {
    let state = AtomicU64::new(0x9e37_79b9_7f4a_7c15);
    let random = move || {
        // A shared xorshift; races between threads only mix it further.
        let mut x = state.load(Relaxed);
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        state.store(x, Relaxed);
        x
    };
    let calls = AtomicUsize::new(0);
    let all: Vec<(&'static str, Compare)> = vec![
        (
            "random answers",
            Box::new(move |_: &f64, _: &f64| match random() % 3 {
                0 => Ordering::Less,
                1 => Ordering::Equal,
                _ => Ordering::Greater,
            }),
        ),
        ("always Less", Box::new(|_: &f64, _: &f64| Ordering::Less)),
        (
            "always Greater",
            Box::new(|_: &f64, _: &f64| Ordering::Greater),
        ),
        (
            "NaN compared as Less",
            Box::new(|a: &f64, b: &f64| a.partial_cmp(b).unwrap_or(Ordering::Less)),
        ),
        (
            "not transitive",
            Box::new(|a: &f64, b: &f64| (*a as u64 % 3).cmp(&(*b as u64 % 5))),
        ),
        (
            "a different order every few calls",
            Box::new(move |a: &f64, b: &f64| {
                if calls.fetch_add(1, Relaxed) / 7 % 2 == 0 {
                    a.total_cmp(b)
                } else {
                    b.total_cmp(a)
                }
            }),
        ),
    ];
    // Under miri, three kinds (random, constant, NaN).
    let keep = if cfg!(miri) {
        [0, 1, 3].as_slice()
    } else {
        &[0, 1, 2, 3, 4, 5]
    };
    all.into_iter()
        .enumerate()
        .filter(|(i, _)| keep.contains(i))
        .map(|(_, c)| c)
        .collect()
}

/// Values with a `NaN` every seventh item.
fn values(len: usize) -> Vec<f64> {
    (0..len)
        .map(|i| {
            if i % 7 == 3 {
                f64::NAN
            } else {
                ((i * 7919) % 1009) as f64
            }
        })
        .collect()
}

/// Sorts `values` on `place` with every bad comparison and every sort;
/// checks that each leaves a permutation.
fn sort_badly(place: &Place, len: usize) {
    let input = values(len);
    let mut expected: Vec<u64> = input.iter().map(|x| x.to_bits()).collect();
    expected.sort_unstable();
    for (name, compare) in bad_comparisons() {
        for stable in [true, false] {
            let mut v = input.clone();
            place.run(|| {
                if stable {
                    v.par_sort_by(&compare)
                } else {
                    v.par_sort_unstable_by(&compare)
                }
            });
            let mut got: Vec<u64> = v.iter().map(|x| x.to_bits()).collect();
            got.sort_unstable();
            assert!(
                got == expected,
                "{name}, {} sort of {len} items on {}: not a permutation of the input",
                if stable { "stable" } else { "unstable" },
                place.name()
            );
        }
    }
}

#[test]
fn a_comparison_that_is_not_a_total_order_never_panics_and_leaves_a_permutation() {
    record_every_panic();
    without_hanging(|| {
        let lens = cases(&[0, 1, 2, 3, 17, 21, 100, 1_000, 5_000, 100_000], &[100]);
        for place in places() {
            for &len in &lens {
                sort_badly(&place, len);
            }
        }
    });
    assert!(!PANICKED.load(Relaxed), "the panic hook ran");
}

#[test]
fn par_sort_by_key_and_cached_key_with_a_bad_key_order_never_panic() {
    record_every_panic();
    without_hanging(|| {
        /// A key whose order answers at random.
        struct Fickle(u64);
        impl PartialEq for Fickle {
            fn eq(&self, _: &Self) -> bool {
                false
            }
        }
        impl Eq for Fickle {}
        impl PartialOrd for Fickle {
            fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
                Some(self.cmp(other))
            }
        }
        impl Ord for Fickle {
            fn cmp(&self, other: &Self) -> Ordering {
                // Depends on the pair only through a hash that is not
                // antisymmetric: (a, b) and (b, a) may both be Less.
                match (self.0.wrapping_mul(31) ^ other.0.wrapping_mul(17)) % 3 {
                    0 => Ordering::Less,
                    1 => Ordering::Equal,
                    _ => Ordering::Greater,
                }
            }
        }
        let len = size(50_000, 100);
        let input: Vec<u64> = (0..len as u64).collect();
        for place in places() {
            let mut a = input.clone();
            let mut b = input.clone();
            let mut c = input.clone();
            place.run(|| {
                a.par_sort_by_key(|&x| Fickle(x));
                b.par_sort_unstable_by_key(|&x| Fickle(x));
                c.par_sort_by_cached_key(|&x| Fickle(x));
            });
            for v in [&mut a, &mut b, &mut c] {
                v.sort_unstable();
                assert_eq!(*v, input, "on {}", place.name());
            }
        }
    });
    assert!(!PANICKED.load(Relaxed), "the panic hook ran");
}

/// Runs the sorts in a child process whose panic hook aborts: it must
/// exit normally.
#[test]
#[cfg_attr(miri, ignore = "miri cannot start processes")]
fn a_process_whose_panic_hook_aborts_survives_sorting_with_a_bad_comparison() {
    let child = std::env::var_os(ABORTING_CHILD).is_some();
    without_hanging(move || {
        if child {
            // The child: sort badly with the aborting hook installed.
            record_every_panic();
            for place in places() {
                sort_badly(&place, 20_000);
            }
            return;
        }
        let test = "a_process_whose_panic_hook_aborts_survives_sorting_with_a_bad_comparison";
        let status = std::process::Command::new(std::env::current_exe().expect("the test binary"))
            .args(["--exact", test, "--test-threads=1"])
            .env(ABORTING_CHILD, "1")
            .status()
            .expect("run the child process");
        assert!(
            status.success(),
            "the child process ended with {status} (an abort is a panic that reached the hook)"
        );
    });
}
