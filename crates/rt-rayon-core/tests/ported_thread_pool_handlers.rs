//! The builder's thread hooks: `start_handler` and `exit_handler` run on
//! every thread of the pool, a panic in either goes to `panic_handler`, and
//! threads spawned by a custom `spawn_handler` are no longer the pool's once
//! `ThreadBuilder::run` returns: rayon-core 1.13.0's `src/test.rs`
//! (`start_callback_called`, `exit_callback_called`,
//! `handler_panics_handled_correctly`, `cleared_current_thread`), ported to
//! an integration test of the public API.
//!
//! Changes: `crate::` paths are `rayon_core::`; every test body runs under
//! `rt_testkit::without_hanging` (`cleared_current_thread` returns the
//! body's `Result`). Nothing left out.

use rayon_core::{ThreadPoolBuildError, ThreadPoolBuilder};
use rt_testkit::without_hanging;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Barrier};

#[test]
#[cfg_attr(any(target_os = "emscripten", target_family = "wasm"), ignore)]
fn start_callback_called() {
    without_hanging(|| {
        let n_threads = 16;
        let n_called = Arc::new(AtomicUsize::new(0));
        // Wait for all the threads in the pool plus the one running tests.
        let barrier = Arc::new(Barrier::new(n_threads + 1));

        let b = Arc::clone(&barrier);
        let nc = Arc::clone(&n_called);
        let start_handler = move |_| {
            nc.fetch_add(1, Ordering::SeqCst);
            b.wait();
        };

        let conf = ThreadPoolBuilder::new()
            .num_threads(n_threads)
            .start_handler(start_handler);
        let _ = conf.build().unwrap();

        // Wait for all the threads to have been scheduled to run.
        barrier.wait();

        // The handler must have been called on every started thread.
        assert_eq!(n_called.load(Ordering::SeqCst), n_threads);
    });
}

#[test]
#[cfg_attr(any(target_os = "emscripten", target_family = "wasm"), ignore)]
fn exit_callback_called() {
    without_hanging(|| {
        let n_threads = 16;
        let n_called = Arc::new(AtomicUsize::new(0));
        // Wait for all the threads in the pool plus the one running tests.
        let barrier = Arc::new(Barrier::new(n_threads + 1));

        let b = Arc::clone(&barrier);
        let nc = Arc::clone(&n_called);
        let exit_handler = move |_| {
            nc.fetch_add(1, Ordering::SeqCst);
            b.wait();
        };

        let conf = ThreadPoolBuilder::new()
            .num_threads(n_threads)
            .exit_handler(exit_handler);
        {
            let _ = conf.build().unwrap();
            // Drop the pool so it stops the running threads.
        }

        // Wait for all the threads to have been scheduled to run.
        barrier.wait();

        // The handler must have been called on every exiting thread.
        assert_eq!(n_called.load(Ordering::SeqCst), n_threads);
    });
}

#[test]
#[cfg_attr(any(target_os = "emscripten", target_family = "wasm"), ignore)]
fn handler_panics_handled_correctly() {
    without_hanging(|| {
        let n_threads = 16;
        let n_called = Arc::new(AtomicUsize::new(0));
        // Wait for all the threads in the pool plus the one running tests.
        let start_barrier = Arc::new(Barrier::new(n_threads + 1));
        let exit_barrier = Arc::new(Barrier::new(n_threads + 1));

        let start_handler = move |_| {
            panic!("ensure panic handler is called when starting");
        };
        let exit_handler = move |_| {
            panic!("ensure panic handler is called when exiting");
        };

        let sb = Arc::clone(&start_barrier);
        let eb = Arc::clone(&exit_barrier);
        let nc = Arc::clone(&n_called);
        let panic_handler = move |_| {
            let val = nc.fetch_add(1, Ordering::SeqCst);
            if val < n_threads {
                sb.wait();
            } else {
                eb.wait();
            }
        };

        let conf = ThreadPoolBuilder::new()
            .num_threads(n_threads)
            .start_handler(start_handler)
            .exit_handler(exit_handler)
            .panic_handler(panic_handler);
        {
            let _ = conf.build().unwrap();

            // Wait for all the threads to start, panic in the start handler,
            // and been taken care of by the panic handler.
            start_barrier.wait();

            // Drop the pool so it stops the running threads.
        }

        // Wait for all the threads to exit, panic in the exit handler,
        // and been taken care of by the panic handler.
        exit_barrier.wait();

        // The panic handler must have been called twice on every thread.
        assert_eq!(n_called.load(Ordering::SeqCst), 2 * n_threads);
    });
}

/// Test that custom spawned threads get their `WorkerThread` cleared once
/// the pool is done with them, allowing them to be used with rayon again
/// later. e.g. WebAssembly want to have their own pool of available threads.
#[test]
#[cfg_attr(any(target_os = "emscripten", target_family = "wasm"), ignore)]
fn cleared_current_thread() -> Result<(), ThreadPoolBuildError> {
    without_hanging(|| {
        let n_threads = 5;
        let mut handles = vec![];
        let pool = ThreadPoolBuilder::new()
            .num_threads(n_threads)
            .spawn_handler(|thread| {
                let handle = std::thread::spawn(move || {
                    thread.run();

                    // Afterward, the current thread shouldn't be set anymore.
                    assert_eq!(rayon_core::current_thread_index(), None);
                });
                handles.push(handle);
                Ok(())
            })
            .build()?;
        assert_eq!(handles.len(), n_threads);

        pool.install(|| assert!(rayon_core::current_thread_index().is_some()));
        drop(pool);

        // Wait for all threads to make their assertions and exit
        for handle in handles {
            handle.join().unwrap();
        }

        Ok(())
    })
}
