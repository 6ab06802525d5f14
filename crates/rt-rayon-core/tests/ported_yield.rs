//! `yield_now` / `yield_local` called on a worker of the global pool let it
//! run a job spawned before (the only way the single-threaded fallback mode
//! would run it): rayon-core 1.13.0's `src/thread_pool/test.rs`
//! (`yield_now_to_spawn`, `yield_local_to_spawn`), ported to an integration
//! test of the public API.
//!
//! Changes: `crate::` paths are `rayon_core::`; every test body runs under
//! `rt_testkit::without_hanging`. Upstream called the yield inside
//! `crate::registry::in_worker` (internal: run a closure on a worker of the
//! global pool, blocking until it returns); here `rayon_core::scope(|_| ...)`
//! called from outside any pool does the same (its closure runs on a worker
//! of the global pool and the caller blocks until it returns). Nothing left
//! out.

use rt_testkit::without_hanging;
use std::sync::mpsc::channel;

#[test]
fn yield_now_to_spawn() {
    without_hanging(|| {
        let (tx, rx) = channel();

        // Queue a regular spawn.
        rayon_core::spawn(move || tx.send(22).unwrap());

        // The single-threaded fallback mode (for wasm etc.) won't
        // get a chance to run the spawn if we never yield to it.
        rayon_core::scope(move |_| {
            rayon_core::yield_now();
        });

        // The spawn **must** have started by now, but we still might have to wait
        // for it to finish if a different thread stole it first.
        assert_eq!(22, rx.recv().unwrap());
    });
}

#[test]
fn yield_local_to_spawn() {
    without_hanging(|| {
        let (tx, rx) = channel();

        // Queue a regular spawn.
        rayon_core::spawn(move || tx.send(22).unwrap());

        // The single-threaded fallback mode (for wasm etc.) won't
        // get a chance to run the spawn if we never yield to it.
        rayon_core::scope(move |_| {
            rayon_core::yield_local();
        });

        // The spawn **must** have started by now, but we still might have to wait
        // for it to finish if a different thread stole it first.
        assert_eq!(22, rx.recv().unwrap());
    });
}
