//! The order in which spawned jobs run on a one-thread pool (no stealing):
//! `spawn` in LIFO order, `spawn_fifo` in FIFO order, nested and mixed,
//! called as the free functions inside the pool or as the pool's own
//! methods: rayon-core 1.13.0's `src/spawn/test.rs` (its `*_order` tests)
//! and `src/thread_pool/test.rs` (`spawn_lifo_order`, `spawn_fifo_order`:
//! `ThreadPool::spawn` / `ThreadPool::spawn_fifo` called inside the pool),
//! ported to an integration test of the public API.
//!
//! The expected orders are upstream's, exactly. Changes: `super::` /
//! `crate::` paths are `rayon_core::`; every test body runs under
//! `rt_testkit::without_hanging`. Nothing left out.

use rayon_core::{spawn, spawn_fifo, ThreadPoolBuilder};
use rt_testkit::without_hanging;
use std::sync::mpsc::channel;

// From src/spawn/test.rs.

macro_rules! test_order {
    ($outer_spawn:ident, $inner_spawn:ident) => {{
        let builder = ThreadPoolBuilder::new().num_threads(1);
        let pool = builder.build().unwrap();
        let (tx, rx) = channel();
        pool.install(move || {
            for i in 0..10 {
                let tx = tx.clone();
                $outer_spawn(move || {
                    for j in 0..10 {
                        let tx = tx.clone();
                        $inner_spawn(move || {
                            tx.send(i * 10 + j).unwrap();
                        });
                    }
                });
            }
        });
        rx.iter().collect::<Vec<i32>>()
    }};
}

#[test]
#[cfg_attr(any(target_os = "emscripten", target_family = "wasm"), ignore)]
fn lifo_order() {
    without_hanging(|| {
        // In the absence of stealing, `spawn()` jobs on a thread will run in LIFO order.
        let vec = test_order!(spawn, spawn);
        let expected: Vec<i32> = (0..100).rev().collect(); // LIFO -> reversed
        assert_eq!(vec, expected);
    });
}

#[test]
#[cfg_attr(any(target_os = "emscripten", target_family = "wasm"), ignore)]
fn fifo_order() {
    without_hanging(|| {
        // In the absence of stealing, `spawn_fifo()` jobs on a thread will run in FIFO order.
        let vec = test_order!(spawn_fifo, spawn_fifo);
        let expected: Vec<i32> = (0..100).collect(); // FIFO -> natural order
        assert_eq!(vec, expected);
    });
}

#[test]
#[cfg_attr(any(target_os = "emscripten", target_family = "wasm"), ignore)]
fn lifo_fifo_order() {
    without_hanging(|| {
        // LIFO on the outside, FIFO on the inside
        let vec = test_order!(spawn, spawn_fifo);
        let expected: Vec<i32> = (0..10)
            .rev()
            .flat_map(|i| (0..10).map(move |j| i * 10 + j))
            .collect();
        assert_eq!(vec, expected);
    });
}

#[test]
#[cfg_attr(any(target_os = "emscripten", target_family = "wasm"), ignore)]
fn fifo_lifo_order() {
    without_hanging(|| {
        // FIFO on the outside, LIFO on the inside
        let vec = test_order!(spawn_fifo, spawn);
        let expected: Vec<i32> = (0..10)
            .flat_map(|i| (0..10).rev().map(move |j| i * 10 + j))
            .collect();
        assert_eq!(vec, expected);
    });
}

macro_rules! spawn_send {
    ($spawn:ident, $tx:ident, $i:expr) => {{
        let tx = $tx.clone();
        $spawn(move || tx.send($i).unwrap());
    }};
}

/// Test mixed spawns pushing a series of numbers, interleaved such
/// such that negative values are using the second kind of spawn.
macro_rules! test_mixed_order {
    ($pos_spawn:ident, $neg_spawn:ident) => {{
        let builder = ThreadPoolBuilder::new().num_threads(1);
        let pool = builder.build().unwrap();
        let (tx, rx) = channel();
        pool.install(move || {
            spawn_send!($pos_spawn, tx, 0);
            spawn_send!($neg_spawn, tx, -1);
            spawn_send!($pos_spawn, tx, 1);
            spawn_send!($neg_spawn, tx, -2);
            spawn_send!($pos_spawn, tx, 2);
            spawn_send!($neg_spawn, tx, -3);
            spawn_send!($pos_spawn, tx, 3);
        });
        rx.iter().collect::<Vec<i32>>()
    }};
}

#[test]
#[cfg_attr(any(target_os = "emscripten", target_family = "wasm"), ignore)]
fn mixed_lifo_fifo_order() {
    without_hanging(|| {
        let vec = test_mixed_order!(spawn, spawn_fifo);
        let expected = vec![3, -1, 2, -2, 1, -3, 0];
        assert_eq!(vec, expected);
    });
}

#[test]
#[cfg_attr(any(target_os = "emscripten", target_family = "wasm"), ignore)]
fn mixed_fifo_lifo_order() {
    without_hanging(|| {
        let vec = test_mixed_order!(spawn_fifo, spawn);
        let expected = vec![0, -3, 1, -2, 2, -1, 3];
        assert_eq!(vec, expected);
    });
}

// From src/thread_pool/test.rs: the pool's own `spawn` / `spawn_fifo`.

macro_rules! test_spawn_order {
    ($spawn:ident) => {{
        let builder = ThreadPoolBuilder::new().num_threads(1);
        let pool = &builder.build().unwrap();
        let (tx, rx) = channel();
        pool.install(move || {
            for i in 0..10 {
                let tx = tx.clone();
                pool.$spawn(move || {
                    tx.send(i).unwrap();
                });
            }
        });
        rx.iter().collect::<Vec<i32>>()
    }};
}

#[test]
#[cfg_attr(any(target_os = "emscripten", target_family = "wasm"), ignore)]
fn spawn_lifo_order() {
    without_hanging(|| {
        let vec = test_spawn_order!(spawn);
        let expected: Vec<i32> = (0..10).rev().collect(); // LIFO -> reversed
        assert_eq!(vec, expected);
    });
}

#[test]
#[cfg_attr(any(target_os = "emscripten", target_family = "wasm"), ignore)]
fn spawn_fifo_order() {
    without_hanging(|| {
        let vec = test_spawn_order!(spawn_fifo);
        let expected: Vec<i32> = (0..10).collect(); // FIFO -> natural order
        assert_eq!(vec, expected);
    });
}
