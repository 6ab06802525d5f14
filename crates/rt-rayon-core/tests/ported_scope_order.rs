//! The order in which a scope's spawns run on a one-thread pool (no
//! stealing): `scope`'s `spawn`s in LIFO order, `scope_fifo`'s `spawn_fifo`s
//! in FIFO order, nested and mixed (outer and inner scope of either kind):
//! rayon-core 1.13.0's `src/scope/test.rs` (its `*_order` tests) and
//! `src/thread_pool/test.rs` (`scope_lifo_order`, `scope_fifo_order`:
//! `ThreadPool::scope` / `ThreadPool::scope_fifo` called inside the pool),
//! ported to an integration test of the public API.
//!
//! The expected orders are upstream's, exactly. Changes: `crate::` paths are
//! `rayon_core::`; every test body runs under `rt_testkit::without_hanging`.
//! Nothing left out.

use rayon_core::ThreadPoolBuilder;
use rayon_core::{scope, scope_fifo};
use rt_testkit::without_hanging;
use std::sync::Mutex;

// From src/scope/test.rs.

macro_rules! test_order {
    ($scope:ident => $spawn:ident) => {{
        let builder = ThreadPoolBuilder::new().num_threads(1);
        let pool = builder.build().unwrap();
        pool.install(|| {
            let vec = Mutex::new(vec![]);
            $scope(|scope| {
                let vec = &vec;
                for i in 0..10 {
                    scope.$spawn(move |scope| {
                        for j in 0..10 {
                            scope.$spawn(move |_| {
                                vec.lock().unwrap().push(i * 10 + j);
                            });
                        }
                    });
                }
            });
            vec.into_inner().unwrap()
        })
    }};
}

#[test]
#[cfg_attr(any(target_os = "emscripten", target_family = "wasm"), ignore)]
fn lifo_order() {
    without_hanging(|| {
        // In the absence of stealing, `scope()` runs its `spawn()` jobs in LIFO order.
        let vec = test_order!(scope => spawn);
        let expected: Vec<i32> = (0..100).rev().collect(); // LIFO -> reversed
        assert_eq!(vec, expected);
    });
}

#[test]
#[cfg_attr(any(target_os = "emscripten", target_family = "wasm"), ignore)]
fn fifo_order() {
    without_hanging(|| {
        // In the absence of stealing, `scope_fifo()` runs its `spawn_fifo()` jobs in FIFO order.
        let vec = test_order!(scope_fifo => spawn_fifo);
        let expected: Vec<i32> = (0..100).collect(); // FIFO -> natural order
        assert_eq!(vec, expected);
    });
}

macro_rules! test_nested_order {
    ($outer_scope:ident => $outer_spawn:ident,
     $inner_scope:ident => $inner_spawn:ident) => {{
        let builder = ThreadPoolBuilder::new().num_threads(1);
        let pool = builder.build().unwrap();
        pool.install(|| {
            let vec = Mutex::new(vec![]);
            $outer_scope(|scope| {
                let vec = &vec;
                for i in 0..10 {
                    scope.$outer_spawn(move |_| {
                        $inner_scope(|scope| {
                            for j in 0..10 {
                                scope.$inner_spawn(move |_| {
                                    vec.lock().unwrap().push(i * 10 + j);
                                });
                            }
                        });
                    });
                }
            });
            vec.into_inner().unwrap()
        })
    }};
}

#[test]
#[cfg_attr(any(target_os = "emscripten", target_family = "wasm"), ignore)]
fn nested_lifo_order() {
    without_hanging(|| {
        // In the absence of stealing, `scope()` runs its `spawn()` jobs in LIFO order.
        let vec = test_nested_order!(scope => spawn, scope => spawn);
        let expected: Vec<i32> = (0..100).rev().collect(); // LIFO -> reversed
        assert_eq!(vec, expected);
    });
}

#[test]
#[cfg_attr(any(target_os = "emscripten", target_family = "wasm"), ignore)]
fn nested_fifo_order() {
    without_hanging(|| {
        // In the absence of stealing, `scope_fifo()` runs its `spawn_fifo()` jobs in FIFO order.
        let vec = test_nested_order!(scope_fifo => spawn_fifo, scope_fifo => spawn_fifo);
        let expected: Vec<i32> = (0..100).collect(); // FIFO -> natural order
        assert_eq!(vec, expected);
    });
}

#[test]
#[cfg_attr(any(target_os = "emscripten", target_family = "wasm"), ignore)]
fn nested_lifo_fifo_order() {
    without_hanging(|| {
        // LIFO on the outside, FIFO on the inside
        let vec = test_nested_order!(scope => spawn, scope_fifo => spawn_fifo);
        let expected: Vec<i32> = (0..10)
            .rev()
            .flat_map(|i| (0..10).map(move |j| i * 10 + j))
            .collect();
        assert_eq!(vec, expected);
    });
}

#[test]
#[cfg_attr(any(target_os = "emscripten", target_family = "wasm"), ignore)]
fn nested_fifo_lifo_order() {
    without_hanging(|| {
        // FIFO on the outside, LIFO on the inside
        let vec = test_nested_order!(scope_fifo => spawn_fifo, scope => spawn);
        let expected: Vec<i32> = (0..10)
            .flat_map(|i| (0..10).rev().map(move |j| i * 10 + j))
            .collect();
        assert_eq!(vec, expected);
    });
}

macro_rules! spawn_push {
    ($scope:ident . $spawn:ident, $vec:ident, $i:expr) => {{
        $scope.$spawn(move |_| $vec.lock().unwrap().push($i));
    }};
}

/// Test spawns pushing a series of numbers, interleaved
/// such that negative values are using an inner scope.
macro_rules! test_mixed_order {
    ($outer_scope:ident => $outer_spawn:ident,
     $inner_scope:ident => $inner_spawn:ident) => {{
        let builder = ThreadPoolBuilder::new().num_threads(1);
        let pool = builder.build().unwrap();
        pool.install(|| {
            let vec = Mutex::new(vec![]);
            $outer_scope(|outer_scope| {
                let vec = &vec;
                spawn_push!(outer_scope.$outer_spawn, vec, 0);
                $inner_scope(|inner_scope| {
                    spawn_push!(inner_scope.$inner_spawn, vec, -1);
                    spawn_push!(outer_scope.$outer_spawn, vec, 1);
                    spawn_push!(inner_scope.$inner_spawn, vec, -2);
                    spawn_push!(outer_scope.$outer_spawn, vec, 2);
                    spawn_push!(inner_scope.$inner_spawn, vec, -3);
                });
                spawn_push!(outer_scope.$outer_spawn, vec, 3);
            });
            vec.into_inner().unwrap()
        })
    }};
}

#[test]
#[cfg_attr(any(target_os = "emscripten", target_family = "wasm"), ignore)]
fn mixed_lifo_order() {
    without_hanging(|| {
        // NB: the end of the inner scope makes us execute some of the outer scope
        // before they've all been spawned, so they're not perfectly LIFO.
        let vec = test_mixed_order!(scope => spawn, scope => spawn);
        let expected = vec![-3, 2, -2, 1, -1, 3, 0];
        assert_eq!(vec, expected);
    });
}

#[test]
#[cfg_attr(any(target_os = "emscripten", target_family = "wasm"), ignore)]
fn mixed_fifo_order() {
    without_hanging(|| {
        let vec = test_mixed_order!(scope_fifo => spawn_fifo, scope_fifo => spawn_fifo);
        let expected = vec![-1, 0, -2, 1, -3, 2, 3];
        assert_eq!(vec, expected);
    });
}

#[test]
#[cfg_attr(any(target_os = "emscripten", target_family = "wasm"), ignore)]
fn mixed_lifo_fifo_order() {
    without_hanging(|| {
        // NB: the end of the inner scope makes us execute some of the outer scope
        // before they've all been spawned, so they're not perfectly LIFO.
        let vec = test_mixed_order!(scope => spawn, scope_fifo => spawn_fifo);
        let expected = vec![-1, 2, -2, 1, -3, 3, 0];
        assert_eq!(vec, expected);
    });
}

#[test]
#[cfg_attr(any(target_os = "emscripten", target_family = "wasm"), ignore)]
fn mixed_fifo_lifo_order() {
    without_hanging(|| {
        let vec = test_mixed_order!(scope_fifo => spawn_fifo, scope => spawn);
        let expected = vec![-3, 0, -2, 1, -1, 2, 3];
        assert_eq!(vec, expected);
    });
}

// From src/thread_pool/test.rs: the pool's own `scope` / `scope_fifo`.

macro_rules! test_scope_order {
    ($scope:ident => $spawn:ident) => {{
        let builder = ThreadPoolBuilder::new().num_threads(1);
        let pool = builder.build().unwrap();
        pool.install(|| {
            let vec = Mutex::new(vec![]);
            pool.$scope(|scope| {
                let vec = &vec;
                for i in 0..10 {
                    scope.$spawn(move |_| {
                        vec.lock().unwrap().push(i);
                    });
                }
            });
            vec.into_inner().unwrap()
        })
    }};
}

#[test]
#[cfg_attr(any(target_os = "emscripten", target_family = "wasm"), ignore)]
fn scope_lifo_order() {
    without_hanging(|| {
        let vec = test_scope_order!(scope => spawn);
        let expected: Vec<i32> = (0..10).rev().collect(); // LIFO -> reversed
        assert_eq!(vec, expected);
    });
}

#[test]
#[cfg_attr(any(target_os = "emscripten", target_family = "wasm"), ignore)]
fn scope_fifo_order() {
    without_hanging(|| {
        let vec = test_scope_order!(scope_fifo => spawn_fifo);
        let expected: Vec<i32> = (0..10).collect(); // FIFO -> natural order
        assert_eq!(vec, expected);
    });
}
