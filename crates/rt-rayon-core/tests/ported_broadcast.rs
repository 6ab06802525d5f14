//! `broadcast` and `spawn_broadcast`: the job runs once on every thread of
//! the global pool, of a given pool, of the current pool, across two pools
//! that broadcast into each other (also with sleeping threads); a blocking
//! `broadcast` runs after the broadcasts queued before it and after the
//! worker's local jobs: rayon-core 1.13.0's `src/broadcast/test.rs` (every
//! test but the panic ones, which are in `ported_broadcast_panics.rs`),
//! ported to an integration test of the public API.
//!
//! Changes: `crate::` paths are `rayon_core::`; every test body runs under
//! `rt_testkit::without_hanging`. `broadcast_after_spawn` queued its spawn on
//! a worker's local deque through `crate::registry::in_worker` (internal:
//! run a closure on a worker of the global pool, blocking until it
//! returns); here `rayon_core::scope(|_| ...)` called from outside any pool
//! does the same (its closure runs on a worker of the global pool, and the
//! caller blocks until it returns), so the free `rayon_core::spawn` in it
//! still goes to that worker's local deque. Nothing left out.

use rayon_core::ThreadPoolBuilder;
use rt_testkit::without_hanging;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc::channel;
use std::sync::Arc;
use std::{thread, time};

#[test]
fn broadcast_global() {
    without_hanging(|| {
        let v = rayon_core::broadcast(|ctx| ctx.index());
        assert!(v.into_iter().eq(0..rayon_core::current_num_threads()));
    });
}

#[test]
#[cfg_attr(any(target_os = "emscripten", target_family = "wasm"), ignore)]
fn spawn_broadcast_global() {
    without_hanging(|| {
        let (tx, rx) = channel();
        rayon_core::spawn_broadcast(move |ctx| tx.send(ctx.index()).unwrap());

        let mut v: Vec<_> = rx.into_iter().collect();
        v.sort_unstable();
        assert!(v.into_iter().eq(0..rayon_core::current_num_threads()));
    });
}

#[test]
#[cfg_attr(any(target_os = "emscripten", target_family = "wasm"), ignore)]
fn broadcast_pool() {
    without_hanging(|| {
        let pool = ThreadPoolBuilder::new().num_threads(7).build().unwrap();
        let v = pool.broadcast(|ctx| ctx.index());
        assert!(v.into_iter().eq(0..7));
    });
}

#[test]
#[cfg_attr(any(target_os = "emscripten", target_family = "wasm"), ignore)]
fn spawn_broadcast_pool() {
    without_hanging(|| {
        let (tx, rx) = channel();
        let pool = ThreadPoolBuilder::new().num_threads(7).build().unwrap();
        pool.spawn_broadcast(move |ctx| tx.send(ctx.index()).unwrap());

        let mut v: Vec<_> = rx.into_iter().collect();
        v.sort_unstable();
        assert!(v.into_iter().eq(0..7));
    });
}

#[test]
#[cfg_attr(any(target_os = "emscripten", target_family = "wasm"), ignore)]
fn broadcast_self() {
    without_hanging(|| {
        let pool = ThreadPoolBuilder::new().num_threads(7).build().unwrap();
        let v = pool.install(|| rayon_core::broadcast(|ctx| ctx.index()));
        assert!(v.into_iter().eq(0..7));
    });
}

#[test]
#[cfg_attr(any(target_os = "emscripten", target_family = "wasm"), ignore)]
fn spawn_broadcast_self() {
    without_hanging(|| {
        let (tx, rx) = channel();
        let pool = ThreadPoolBuilder::new().num_threads(7).build().unwrap();
        pool.spawn(|| rayon_core::spawn_broadcast(move |ctx| tx.send(ctx.index()).unwrap()));

        let mut v: Vec<_> = rx.into_iter().collect();
        v.sort_unstable();
        assert!(v.into_iter().eq(0..7));
    });
}

#[test]
#[cfg_attr(any(target_os = "emscripten", target_family = "wasm"), ignore)]
fn broadcast_mutual() {
    without_hanging(|| {
        let count = AtomicUsize::new(0);
        let pool1 = ThreadPoolBuilder::new().num_threads(3).build().unwrap();
        let pool2 = ThreadPoolBuilder::new().num_threads(7).build().unwrap();
        pool1.install(|| {
            pool2.broadcast(|_| {
                pool1.broadcast(|_| {
                    count.fetch_add(1, Ordering::Relaxed);
                })
            })
        });
        assert_eq!(count.into_inner(), 3 * 7);
    });
}

#[test]
#[cfg_attr(any(target_os = "emscripten", target_family = "wasm"), ignore)]
fn spawn_broadcast_mutual() {
    without_hanging(|| {
        let (tx, rx) = channel();
        let pool1 = Arc::new(ThreadPoolBuilder::new().num_threads(3).build().unwrap());
        let pool2 = ThreadPoolBuilder::new().num_threads(7).build().unwrap();
        pool1.spawn({
            let pool1 = Arc::clone(&pool1);
            move || {
                pool2.spawn_broadcast(move |_| {
                    let tx = tx.clone();
                    pool1.spawn_broadcast(move |_| tx.send(()).unwrap())
                })
            }
        });
        assert_eq!(rx.into_iter().count(), 3 * 7);
    });
}

#[test]
#[cfg_attr(any(target_os = "emscripten", target_family = "wasm"), ignore)]
fn broadcast_mutual_sleepy() {
    without_hanging(|| {
        let count = AtomicUsize::new(0);
        let pool1 = ThreadPoolBuilder::new().num_threads(3).build().unwrap();
        let pool2 = ThreadPoolBuilder::new().num_threads(7).build().unwrap();
        pool1.install(|| {
            thread::sleep(time::Duration::from_secs(1));
            pool2.broadcast(|_| {
                thread::sleep(time::Duration::from_secs(1));
                pool1.broadcast(|_| {
                    thread::sleep(time::Duration::from_millis(100));
                    count.fetch_add(1, Ordering::Relaxed);
                })
            })
        });
        assert_eq!(count.into_inner(), 3 * 7);
    });
}

#[test]
#[cfg_attr(any(target_os = "emscripten", target_family = "wasm"), ignore)]
fn spawn_broadcast_mutual_sleepy() {
    without_hanging(|| {
        let (tx, rx) = channel();
        let pool1 = Arc::new(ThreadPoolBuilder::new().num_threads(3).build().unwrap());
        let pool2 = ThreadPoolBuilder::new().num_threads(7).build().unwrap();
        pool1.spawn({
            let pool1 = Arc::clone(&pool1);
            move || {
                thread::sleep(time::Duration::from_secs(1));
                pool2.spawn_broadcast(move |_| {
                    let tx = tx.clone();
                    thread::sleep(time::Duration::from_secs(1));
                    pool1.spawn_broadcast(move |_| {
                        thread::sleep(time::Duration::from_millis(100));
                        tx.send(()).unwrap();
                    })
                })
            }
        });
        assert_eq!(rx.into_iter().count(), 3 * 7);
    });
}

#[test]
#[cfg_attr(any(target_os = "emscripten", target_family = "wasm"), ignore)]
fn broadcast_sleep_race() {
    without_hanging(|| {
        let test_duration = time::Duration::from_secs(1);
        let pool = ThreadPoolBuilder::new().num_threads(7).build().unwrap();
        let start = time::Instant::now();
        while start.elapsed() < test_duration {
            pool.broadcast(|ctx| {
                // A slight spread of sleep duration increases the chance that one
                // of the threads will race in the pool's idle sleep afterward.
                thread::sleep(time::Duration::from_micros(ctx.index() as u64));
            });
        }
    });
}

#[test]
fn broadcast_after_spawn_broadcast() {
    without_hanging(|| {
        let (tx, rx) = channel();

        // Queue a non-blocking spawn_broadcast.
        rayon_core::spawn_broadcast(move |ctx| tx.send(ctx.index()).unwrap());

        // This blocking broadcast runs after all prior broadcasts.
        rayon_core::broadcast(|_| {});

        // The spawn_broadcast **must** have run by now on all threads.
        let mut v: Vec<_> = rx.try_iter().collect();
        v.sort_unstable();
        assert!(v.into_iter().eq(0..rayon_core::current_num_threads()));
    });
}

#[test]
fn broadcast_after_spawn() {
    without_hanging(|| {
        let (tx, rx) = channel();

        // Queue a regular spawn on a thread-local deque: the scope's closure
        // runs on a worker of the global pool (upstream: `in_worker`).
        rayon_core::scope(move |_| {
            rayon_core::spawn(move || tx.send(22).unwrap());
        });

        // Broadcast runs after the local deque is empty.
        rayon_core::broadcast(|_| {});

        // The spawn **must** have run by now.
        assert_eq!(22, rx.try_recv().unwrap());
    });
}
