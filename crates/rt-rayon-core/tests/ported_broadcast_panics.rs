//! A panic in a broadcast job on one or many threads: `broadcast` still runs
//! the job on every thread, then propagates the panic; `spawn_broadcast`
//! runs it on every thread and hands each panic to the pool's
//! `panic_handler`: rayon-core 1.13.0's `src/broadcast/test.rs` (its
//! `*broadcast_panic_*` tests), ported to an integration test of the public
//! API.
//!
//! Changes: `crate::unwind::halt_unwinding` (internal) is
//! `std::panic::catch_unwind` (with `AssertUnwindSafe`, as `halt_unwinding`
//! does) in `broadcast_panic_one` and `broadcast_panic_many`; every test body
//! runs under `rt_testkit::without_hanging`. Nothing left out.

use rayon_core::ThreadPoolBuilder;
use rt_testkit::without_hanging;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc::channel;

#[test]
#[cfg_attr(not(panic = "unwind"), ignore)]
fn broadcast_panic_one() {
    without_hanging(|| {
        let count = AtomicUsize::new(0);
        let pool = ThreadPoolBuilder::new().num_threads(7).build().unwrap();
        let result = catch_unwind(AssertUnwindSafe(|| {
            pool.broadcast(|ctx| {
                count.fetch_add(1, Ordering::Relaxed);
                if ctx.index() == 3 {
                    panic!("Hello, world!");
                }
            })
        }));
        assert_eq!(count.into_inner(), 7);
        assert!(result.is_err(), "broadcast panic should propagate!");
    });
}

#[test]
#[cfg_attr(not(panic = "unwind"), ignore)]
fn spawn_broadcast_panic_one() {
    without_hanging(|| {
        let (tx, rx) = channel();
        let (panic_tx, panic_rx) = channel();
        let pool = ThreadPoolBuilder::new()
            .num_threads(7)
            .panic_handler(move |e| panic_tx.send(e).unwrap())
            .build()
            .unwrap();
        pool.spawn_broadcast(move |ctx| {
            tx.send(()).unwrap();
            if ctx.index() == 3 {
                panic!("Hello, world!");
            }
        });
        drop(pool); // including panic_tx
        assert_eq!(rx.into_iter().count(), 7);
        assert_eq!(panic_rx.into_iter().count(), 1);
    });
}

#[test]
#[cfg_attr(not(panic = "unwind"), ignore)]
fn broadcast_panic_many() {
    without_hanging(|| {
        let count = AtomicUsize::new(0);
        let pool = ThreadPoolBuilder::new().num_threads(7).build().unwrap();
        let result = catch_unwind(AssertUnwindSafe(|| {
            pool.broadcast(|ctx| {
                count.fetch_add(1, Ordering::Relaxed);
                if ctx.index() % 2 == 0 {
                    panic!("Hello, world!");
                }
            })
        }));
        assert_eq!(count.into_inner(), 7);
        assert!(result.is_err(), "broadcast panic should propagate!");
    });
}

#[test]
#[cfg_attr(not(panic = "unwind"), ignore)]
fn spawn_broadcast_panic_many() {
    without_hanging(|| {
        let (tx, rx) = channel();
        let (panic_tx, panic_rx) = channel();
        let pool = ThreadPoolBuilder::new()
            .num_threads(7)
            .panic_handler(move |e| panic_tx.send(e).unwrap())
            .build()
            .unwrap();
        pool.spawn_broadcast(move |ctx| {
            tx.send(()).unwrap();
            if ctx.index() % 2 == 0 {
                panic!("Hello, world!");
            }
        });
        drop(pool); // including panic_tx
        assert_eq!(rx.into_iter().count(), 7);
        assert_eq!(panic_rx.into_iter().count(), 4);
    });
}
