//! `join` and `join_context`: rayon-core 1.13.0's `src/join/test.rs`, ported
//! to an integration test of the public API.
//!
//! Changes: `super::*` / `crate::` paths are `rayon_core::`;
//! `unwind::halt_unwinding` (internal) is `std::panic::catch_unwind` in
//! `panic_b_still_executes`; every test body runs under
//! `rt_testkit::without_hanging` (a panic of the body resumes with its
//! payload, so `#[should_panic(expected = ...)]` still checks the message).
//! Nothing left out.
//!
//! rayon-core's `src/compile_fail/` doc tests are doc tests of this crate
//! (`src/compile_fail.rs`).

use rand::distr::StandardUniform;
use rand::{Rng, SeedableRng};
use rand_xorshift::XorShiftRng;
use rayon_core::{join, join_context, ThreadPoolBuilder};
use rt_testkit::without_hanging;

fn quick_sort<T: PartialOrd + Send>(v: &mut [T]) {
    if v.len() <= 1 {
        return;
    }

    let mid = partition(v);
    let (lo, hi) = v.split_at_mut(mid);
    join(|| quick_sort(lo), || quick_sort(hi));
}

fn partition<T: PartialOrd + Send>(v: &mut [T]) -> usize {
    let pivot = v.len() - 1;
    let mut i = 0;
    for j in 0..pivot {
        if v[j] <= v[pivot] {
            v.swap(i, j);
            i += 1;
        }
    }
    v.swap(i, pivot);
    i
}

fn seeded_rng() -> XorShiftRng {
    let mut seed = <XorShiftRng as SeedableRng>::Seed::default();
    (0..).zip(seed.as_mut()).for_each(|(i, x)| *x = i);
    XorShiftRng::from_seed(seed)
}

#[test]
fn sort() {
    without_hanging(|| {
        let rng = seeded_rng();
        let mut data: Vec<u32> = rng.sample_iter(&StandardUniform).take(6 * 1024).collect();
        let mut sorted_data = data.clone();
        sorted_data.sort();
        quick_sort(&mut data);
        assert_eq!(data, sorted_data);
    });
}

#[test]
#[cfg_attr(any(target_os = "emscripten", target_family = "wasm"), ignore)]
fn sort_in_pool() {
    without_hanging(|| {
        let rng = seeded_rng();
        let mut data: Vec<u32> = rng.sample_iter(&StandardUniform).take(12 * 1024).collect();

        let pool = ThreadPoolBuilder::new().build().unwrap();
        let mut sorted_data = data.clone();
        sorted_data.sort();
        pool.install(|| quick_sort(&mut data));
        assert_eq!(data, sorted_data);
    });
}

#[test]
#[should_panic(expected = "Hello, world!")]
fn panic_propagate_a() {
    without_hanging(|| {
        join(|| panic!("Hello, world!"), || ());
    });
}

#[test]
#[should_panic(expected = "Hello, world!")]
fn panic_propagate_b() {
    without_hanging(|| {
        join(|| (), || panic!("Hello, world!"));
    });
}

#[test]
#[should_panic(expected = "Hello, world!")]
fn panic_propagate_both() {
    without_hanging(|| {
        join(|| panic!("Hello, world!"), || panic!("Goodbye, world!"));
    });
}

#[test]
#[cfg_attr(not(panic = "unwind"), ignore)]
fn panic_b_still_executes() {
    without_hanging(|| {
        let mut x = false;
        match std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            join(|| panic!("Hello, world!"), || x = true)
        })) {
            Ok(_) => panic!("failed to propagate panic from closure A,"),
            Err(_) => assert!(x, "closure b failed to execute"),
        }
    });
}

#[test]
#[cfg_attr(any(target_os = "emscripten", target_family = "wasm"), ignore)]
fn join_context_both() {
    without_hanging(|| {
        // If we're not in a pool, both should be marked stolen as they're injected.
        let (a_migrated, b_migrated) = join_context(|a| a.migrated(), |b| b.migrated());
        assert!(a_migrated);
        assert!(b_migrated);
    });
}

#[test]
#[cfg_attr(any(target_os = "emscripten", target_family = "wasm"), ignore)]
fn join_context_neither() {
    without_hanging(|| {
        // If we're already in a 1-thread pool, neither job should be stolen.
        let pool = ThreadPoolBuilder::new().num_threads(1).build().unwrap();
        let (a_migrated, b_migrated) =
            pool.install(|| join_context(|a| a.migrated(), |b| b.migrated()));
        assert!(!a_migrated);
        assert!(!b_migrated);
    });
}

#[test]
#[cfg_attr(any(target_os = "emscripten", target_family = "wasm"), ignore)]
fn join_context_second() {
    without_hanging(|| {
        use std::sync::Barrier;

        // If we're already in a 2-thread pool, the second job should be stolen.
        let barrier = Barrier::new(2);
        let pool = ThreadPoolBuilder::new().num_threads(2).build().unwrap();
        let (a_migrated, b_migrated) = pool.install(|| {
            join_context(
                |a| {
                    barrier.wait();
                    a.migrated()
                },
                |b| {
                    barrier.wait();
                    b.migrated()
                },
            )
        });
        assert!(!a_migrated);
        assert!(b_migrated);
    });
}

#[test]
#[cfg_attr(any(target_os = "emscripten", target_family = "wasm"), ignore)]
fn join_counter_overflow() {
    without_hanging(|| {
        const MAX: u32 = 500_000;

        let mut i = 0;
        let mut j = 0;
        let pool = ThreadPoolBuilder::new().num_threads(2).build().unwrap();

        // Hammer on join a bunch of times -- used to hit overflow debug-assertions
        // in JEC on 32-bit targets: https://github.com/rayon-rs/rayon/issues/797
        for _ in 0..MAX {
            pool.join(|| i += 1, || j += 1);
        }

        assert_eq!(i, MAX);
        assert_eq!(j, MAX);
    });
}
