//! `ThreadPool` itself: a panic in `install` propagates; `install` into the
//! pool one is already in, or into each other's one-thread pools, does not
//! deadlock (also when the other pool's thread sleeps); scopes of ten pools
//! nested in each other can all borrow the same local; `in_place_scope` /
//! `in_place_scope_fifo` run on the caller, so a one-thread pool's thread
//! stays free for their spawns: rayon-core 1.13.0's
//! `src/thread_pool/test.rs` (every test but those in
//! `ported_thread_pool_shutdown.rs`, `ported_yield.rs`,
//! `ported_thread_pool_builder.rs` (`check_thread_pool_new`),
//! `ported_scope_order.rs` (`scope_*_order`) and `ported_spawn_order.rs`
//! (`spawn_*_order`)), ported to an integration test of the public API.
//!
//! Changes: `crate::` paths are `rayon_core::`; every test body runs under
//! `rt_testkit::without_hanging` (which resumes the body's panic with its
//! payload, so `#[should_panic(expected = ...)]` still checks the message).
//! Nothing left out.

use rayon_core::{Scope, ScopeFifo, ThreadPool, ThreadPoolBuilder};
use rt_testkit::without_hanging;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc::channel;

#[test]
#[should_panic(expected = "Hello, world!")]
fn panic_propagate() {
    without_hanging(|| {
        let thread_pool = ThreadPoolBuilder::new().build().unwrap();
        thread_pool.install(|| {
            panic!("Hello, world!");
        });
    });
}

#[test]
#[cfg_attr(any(target_os = "emscripten", target_family = "wasm"), ignore)]
fn self_install() {
    without_hanging(|| {
        let pool = ThreadPoolBuilder::new().num_threads(1).build().unwrap();

        // If the inner `install` blocks, then nothing will actually run it!
        assert!(pool.install(|| pool.install(|| true)));
    });
}

#[test]
#[cfg_attr(any(target_os = "emscripten", target_family = "wasm"), ignore)]
fn mutual_install() {
    without_hanging(|| {
        let pool1 = ThreadPoolBuilder::new().num_threads(1).build().unwrap();
        let pool2 = ThreadPoolBuilder::new().num_threads(1).build().unwrap();

        let ok = pool1.install(|| {
            // This creates a dependency from `pool1` -> `pool2`
            pool2.install(|| {
                // This creates a dependency from `pool2` -> `pool1`
                pool1.install(|| {
                    // If they blocked on inter-pool installs, there would be no
                    // threads left to run this!
                    true
                })
            })
        });
        assert!(ok);
    });
}

#[test]
#[cfg_attr(any(target_os = "emscripten", target_family = "wasm"), ignore)]
fn mutual_install_sleepy() {
    without_hanging(|| {
        use std::{thread, time};

        let pool1 = ThreadPoolBuilder::new().num_threads(1).build().unwrap();
        let pool2 = ThreadPoolBuilder::new().num_threads(1).build().unwrap();

        let ok = pool1.install(|| {
            // This creates a dependency from `pool1` -> `pool2`
            pool2.install(|| {
                // Give `pool1` time to fall asleep.
                thread::sleep(time::Duration::from_secs(1));

                // This creates a dependency from `pool2` -> `pool1`
                pool1.install(|| {
                    // Give `pool2` time to fall asleep.
                    thread::sleep(time::Duration::from_secs(1));

                    // If they blocked on inter-pool installs, there would be no
                    // threads left to run this!
                    true
                })
            })
        });
        assert!(ok);
    });
}

#[test]
#[cfg_attr(any(target_os = "emscripten", target_family = "wasm"), ignore)]
fn nested_scopes() {
    without_hanging(|| {
        // Create matching scopes for every thread pool.
        fn nest<'scope, OP>(pools: &[ThreadPool], scopes: Vec<&Scope<'scope>>, op: OP)
        where
            OP: FnOnce(&[&Scope<'scope>]) + Send,
        {
            if let Some((pool, tail)) = pools.split_first() {
                pool.scope(move |s| {
                    // This move reduces the reference lifetimes by variance to match s,
                    // but the actual scopes are still tied to the invariant 'scope.
                    let mut scopes = scopes;
                    scopes.push(s);
                    nest(tail, scopes, op)
                })
            } else {
                (op)(&scopes)
            }
        }

        let pools: Vec<_> = (0..10)
            .map(|_| ThreadPoolBuilder::new().num_threads(1).build().unwrap())
            .collect();

        let counter = AtomicUsize::new(0);
        nest(&pools, vec![], |scopes| {
            for &s in scopes {
                s.spawn(|_| {
                    // Our 'scope lets us borrow the counter in every pool.
                    counter.fetch_add(1, Ordering::Relaxed);
                });
            }
        });
        assert_eq!(counter.into_inner(), pools.len());
    });
}

#[test]
#[cfg_attr(any(target_os = "emscripten", target_family = "wasm"), ignore)]
fn nested_fifo_scopes() {
    without_hanging(|| {
        // Create matching fifo scopes for every thread pool.
        fn nest<'scope, OP>(pools: &[ThreadPool], scopes: Vec<&ScopeFifo<'scope>>, op: OP)
        where
            OP: FnOnce(&[&ScopeFifo<'scope>]) + Send,
        {
            if let Some((pool, tail)) = pools.split_first() {
                pool.scope_fifo(move |s| {
                    // This move reduces the reference lifetimes by variance to match s,
                    // but the actual scopes are still tied to the invariant 'scope.
                    let mut scopes = scopes;
                    scopes.push(s);
                    nest(tail, scopes, op)
                })
            } else {
                (op)(&scopes)
            }
        }

        let pools: Vec<_> = (0..10)
            .map(|_| ThreadPoolBuilder::new().num_threads(1).build().unwrap())
            .collect();

        let counter = AtomicUsize::new(0);
        nest(&pools, vec![], |scopes| {
            for &s in scopes {
                s.spawn_fifo(|_| {
                    // Our 'scope lets us borrow the counter in every pool.
                    counter.fetch_add(1, Ordering::Relaxed);
                });
            }
        });
        assert_eq!(counter.into_inner(), pools.len());
    });
}

#[test]
#[cfg_attr(any(target_os = "emscripten", target_family = "wasm"), ignore)]
fn in_place_scope_no_deadlock() {
    without_hanging(|| {
        let pool = ThreadPoolBuilder::new().num_threads(1).build().unwrap();
        let (tx, rx) = channel();
        let rx_ref = &rx;
        pool.in_place_scope(move |s| {
            // With regular scopes this closure would never run because this scope op
            // itself would block the only worker thread.
            s.spawn(move |_| {
                tx.send(()).unwrap();
            });
            rx_ref.recv().unwrap();
        });
    });
}

#[test]
#[cfg_attr(any(target_os = "emscripten", target_family = "wasm"), ignore)]
fn in_place_scope_fifo_no_deadlock() {
    without_hanging(|| {
        let pool = ThreadPoolBuilder::new().num_threads(1).build().unwrap();
        let (tx, rx) = channel();
        let rx_ref = &rx;
        pool.in_place_scope_fifo(move |s| {
            // With regular scopes this closure would never run because this scope op
            // itself would block the only worker thread.
            s.spawn_fifo(move |_| {
                tx.send(()).unwrap();
            });
            rx_ref.recv().unwrap();
        });
    });
}
