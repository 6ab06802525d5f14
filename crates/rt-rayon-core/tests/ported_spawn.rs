//! `spawn`: from inside a worker or from outside any pool, the job runs; a
//! pool dropped while its spawned jobs still run stays alive for them (and
//! for what they spawn): rayon-core 1.13.0's `src/spawn/test.rs` (every test
//! but the panic and order ones, which are in `ported_spawn_panics.rs` and
//! `ported_spawn_order.rs`), ported to an integration test of the public
//! API.
//!
//! Changes: `super::` / `crate::` paths are `rayon_core::`; every test body
//! runs under `rt_testkit::without_hanging`. Nothing left out.

use rayon_core::{scope, spawn, ThreadPoolBuilder};
use rt_testkit::without_hanging;
use std::sync::mpsc::channel;

#[test]
#[cfg_attr(any(target_os = "emscripten", target_family = "wasm"), ignore)]
fn spawn_then_join_in_worker() {
    without_hanging(|| {
        let (tx, rx) = channel();
        scope(move |_| {
            spawn(move || tx.send(22).unwrap());
        });
        assert_eq!(22, rx.recv().unwrap());
    });
}

#[test]
#[cfg_attr(any(target_os = "emscripten", target_family = "wasm"), ignore)]
fn spawn_then_join_outside_worker() {
    without_hanging(|| {
        let (tx, rx) = channel();
        spawn(move || tx.send(22).unwrap());
        assert_eq!(22, rx.recv().unwrap());
    });
}

/// Test what happens when the thread pool is dropped but there are
/// still active asynchronous tasks. We expect the thread pool to stay
/// alive and executing until those threads are complete.
#[test]
#[cfg_attr(any(target_os = "emscripten", target_family = "wasm"), ignore)]
fn termination_while_things_are_executing() {
    without_hanging(|| {
        let (tx0, rx0) = channel();
        let (tx1, rx1) = channel();

        // Create a thread pool and spawn some code in it, but then drop
        // our reference to it.
        {
            let thread_pool = ThreadPoolBuilder::new().build().unwrap();
            thread_pool.spawn(move || {
                let data = rx0.recv().unwrap();

                // At this point, we know the "main" reference to the
                // `ThreadPool` has been dropped, but there are still
                // active threads. Launch one more.
                spawn(move || {
                    tx1.send(data).unwrap();
                });
            });
        }

        tx0.send(22).unwrap();
        let v = rx1.recv().unwrap();
        assert_eq!(v, 22);
    });
}
