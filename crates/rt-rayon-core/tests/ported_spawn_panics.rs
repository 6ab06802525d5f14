//! A panic in a spawned job goes to the pool's `panic_handler` (with its
//! payload), also for jobs spawned by jobs of that pool: rayon-core
//! 1.13.0's `src/spawn/test.rs` (`panic_fwd`,
//! `custom_panic_handler_and_spawn`, `custom_panic_handler_and_nested_spawn`),
//! ported to an integration test of the public API.
//!
//! Changes: `super::` / `crate::` paths are `rayon_core::`; every test body
//! runs under `rt_testkit::without_hanging`. Nothing left out.

use rayon_core::{spawn, ThreadPoolBuilder};
use rt_testkit::without_hanging;
use std::any::Any;
use std::sync::mpsc::channel;
use std::sync::Mutex;

#[test]
#[cfg_attr(not(panic = "unwind"), ignore)]
fn panic_fwd() {
    without_hanging(|| {
        let (tx, rx) = channel();

        let tx = Mutex::new(tx);
        let panic_handler = move |err: Box<dyn Any + Send>| {
            let tx = tx.lock().unwrap();
            if let Some(&msg) = err.downcast_ref::<&str>() {
                if msg == "Hello, world!" {
                    tx.send(1).unwrap();
                } else {
                    tx.send(2).unwrap();
                }
            } else {
                tx.send(3).unwrap();
            }
        };

        let builder = ThreadPoolBuilder::new().panic_handler(panic_handler);

        builder
            .build()
            .unwrap()
            .spawn(move || panic!("Hello, world!"));

        assert_eq!(1, rx.recv().unwrap());
    });
}

#[test]
#[cfg_attr(not(panic = "unwind"), ignore)]
fn custom_panic_handler_and_spawn() {
    without_hanging(|| {
        let (tx, rx) = channel();

        // Create a parallel closure that will send panics on the
        // channel; since the closure is potentially executed in parallel
        // with itself, we have to wrap `tx` in a mutex.
        let tx = Mutex::new(tx);
        let panic_handler = move |e: Box<dyn Any + Send>| {
            tx.lock().unwrap().send(e).unwrap();
        };

        // Execute an async that will panic.
        let builder = ThreadPoolBuilder::new().panic_handler(panic_handler);
        builder.build().unwrap().spawn(move || {
            panic!("Hello, world!");
        });

        // Check that we got back the panic we expected.
        let error = rx.recv().unwrap();
        if let Some(&msg) = error.downcast_ref::<&str>() {
            assert_eq!(msg, "Hello, world!");
        } else {
            panic!("did not receive a string from panic handler");
        }
    });
}

#[test]
#[cfg_attr(not(panic = "unwind"), ignore)]
fn custom_panic_handler_and_nested_spawn() {
    without_hanging(|| {
        let (tx, rx) = channel();

        // Create a parallel closure that will send panics on the
        // channel; since the closure is potentially executed in parallel
        // with itself, we have to wrap `tx` in a mutex.
        let tx = Mutex::new(tx);
        let panic_handler = move |e| {
            tx.lock().unwrap().send(e).unwrap();
        };

        // Execute an async that will (eventually) panic.
        const PANICS: usize = 3;
        let builder = ThreadPoolBuilder::new().panic_handler(panic_handler);
        builder.build().unwrap().spawn(move || {
            // launch 3 nested spawn-asyncs; these should be in the same
            // thread pool and hence inherit the same panic handler
            for _ in 0..PANICS {
                spawn(move || {
                    panic!("Hello, world!");
                });
            }
        });

        // Check that we get back the panics we expected.
        for _ in 0..PANICS {
            let error = rx.recv().unwrap();
            if let Some(&msg) = error.downcast_ref::<&str>() {
                assert_eq!(msg, "Hello, world!");
            } else {
                panic!("did not receive a string from panic handler");
            }
        }
    });
}
