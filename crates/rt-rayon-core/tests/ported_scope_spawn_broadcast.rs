//! `Scope::spawn_broadcast` / `ScopeFifo::spawn_broadcast`: the job runs
//! once on every thread of the pool (nested too), all at the same time, and
//! a panic on one or many threads propagates out of the scope after every
//! thread ran it: rayon-core 1.13.0's `src/scope/test.rs` (its
//! `scope*_spawn_broadcast*` tests), ported to an integration test of the
//! public API.
//!
//! Changes: `crate::` paths are `rayon_core::`; `crate::unwind::
//! halt_unwinding` (internal) is `std::panic::catch_unwind` (with
//! `AssertUnwindSafe`, as `halt_unwinding` does) in the two panic tests;
//! every test body runs under `rt_testkit::without_hanging`. Nothing left
//! out.

use rayon_core::ThreadPoolBuilder;
use rayon_core::{scope, scope_fifo};
use rt_testkit::without_hanging;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Barrier;

#[test]
fn scope_spawn_broadcast() {
    without_hanging(|| {
        let sum = AtomicUsize::new(0);
        let n = scope(|s| {
            s.spawn_broadcast(|_, ctx| {
                sum.fetch_add(ctx.index(), Ordering::Relaxed);
            });
            rayon_core::current_num_threads()
        });
        assert_eq!(sum.into_inner(), n * (n - 1) / 2);
    });
}

#[test]
fn scope_fifo_spawn_broadcast() {
    without_hanging(|| {
        let sum = AtomicUsize::new(0);
        let n = scope_fifo(|s| {
            s.spawn_broadcast(|_, ctx| {
                sum.fetch_add(ctx.index(), Ordering::Relaxed);
            });
            rayon_core::current_num_threads()
        });
        assert_eq!(sum.into_inner(), n * (n - 1) / 2);
    });
}

#[test]
fn scope_spawn_broadcast_nested() {
    without_hanging(|| {
        let sum = AtomicUsize::new(0);
        let n = scope(|s| {
            s.spawn_broadcast(|s, _| {
                s.spawn_broadcast(|_, ctx| {
                    sum.fetch_add(ctx.index(), Ordering::Relaxed);
                });
            });
            rayon_core::current_num_threads()
        });
        assert_eq!(sum.into_inner(), n * n * (n - 1) / 2);
    });
}

#[test]
#[cfg_attr(any(target_os = "emscripten", target_family = "wasm"), ignore)]
fn scope_spawn_broadcast_barrier() {
    without_hanging(|| {
        let barrier = Barrier::new(8);
        let pool = ThreadPoolBuilder::new().num_threads(7).build().unwrap();
        pool.in_place_scope(|s| {
            s.spawn_broadcast(|_, _| {
                barrier.wait();
            });
            barrier.wait();
        });
    });
}

#[test]
#[cfg_attr(any(target_os = "emscripten", target_family = "wasm"), ignore)]
fn scope_spawn_broadcast_panic_one() {
    without_hanging(|| {
        let count = AtomicUsize::new(0);
        let pool = ThreadPoolBuilder::new().num_threads(7).build().unwrap();
        let result = catch_unwind(AssertUnwindSafe(|| {
            pool.scope(|s| {
                s.spawn_broadcast(|_, ctx| {
                    count.fetch_add(1, Ordering::Relaxed);
                    if ctx.index() == 3 {
                        panic!("Hello, world!");
                    }
                });
            });
        }));
        assert_eq!(count.into_inner(), 7);
        assert!(result.is_err(), "broadcast panic should propagate!");
    });
}

#[test]
#[cfg_attr(any(target_os = "emscripten", target_family = "wasm"), ignore)]
fn scope_spawn_broadcast_panic_many() {
    without_hanging(|| {
        let count = AtomicUsize::new(0);
        let pool = ThreadPoolBuilder::new().num_threads(7).build().unwrap();
        let result = catch_unwind(AssertUnwindSafe(|| {
            pool.scope(|s| {
                s.spawn_broadcast(|_, ctx| {
                    count.fetch_add(1, Ordering::Relaxed);
                    if ctx.index() % 2 == 0 {
                        panic!("Hello, world!");
                    }
                });
            });
        }));
        assert_eq!(count.into_inner(), 7);
        assert!(result.is_err(), "broadcast panic should propagate!");
    });
}
