//! A pool's threads stop: once the pool is dropped (after work, or while
//! they sleep), and when `build` fails (a thread's stack cannot be
//! allocated, or `thread_name` panics) the threads already started exit
//! again: rayon-core 1.13.0's `src/thread_pool/test.rs` (`workers_stop`,
//! `sleeper_stop`, `failed_thread_stack`, `panic_thread_name`), ported to an
//! integration test of the public API.
//!
//! Changes: `crate::` paths are `rayon_core::`; every test body runs under
//! `rt_testkit::without_hanging`; `crate::unwind::halt_unwinding` (internal)
//! is `std::panic::catch_unwind` (with `AssertUnwindSafe`) in
//! `panic_thread_name`.
//!
//! Rewritten: `workers_stop` and `sleeper_stop` kept the pool's internal
//! `Registry` (`Arc::clone(&thread_pool.registry)`), read its
//! `num_threads()` and, after dropping the pool, waited on
//! `registry.wait_until_stopped()` (every thread's internal "stopped"
//! latch). Through the public API: `num_threads()` (asserted
//! in `workers_stop` only) is `thread_pool.current_num_threads()` (the same
//! value, asked inside the pool where upstream took the registry); and the
//! pool is built with an
//! `exit_handler` counting exits, then upstream's own helper of this file
//! `wait_for_counter` (used by `failed_thread_stack` and
//! `panic_thread_name`) waits, with its 60 s deadline, until the pool has
//! released that handler, and the count must be 22: every one of the 22
//! threads ran its exit handler (which rayon calls after it sets "stopped")
//! and the pool let go of them. Nothing left out.

use rayon_core::{join, ThreadPoolBuilder};
use rt_testkit::without_hanging;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

#[test]
#[cfg_attr(any(target_os = "emscripten", target_family = "wasm"), ignore)]
fn workers_stop() {
    without_hanging(|| {
        let (exit_count, exit_handler) = count_handler();

        {
            // once we exit this block, thread pool will be dropped
            let thread_pool = ThreadPoolBuilder::new()
                .num_threads(22)
                .exit_handler(exit_handler)
                .build()
                .unwrap();
            let num_threads = thread_pool.install(|| {
                // do some work on these threads
                join_a_lot(22);

                thread_pool.current_num_threads()
            });
            assert_eq!(num_threads, 22);
        }

        // once thread pool is dropped, registry should terminate, which
        // should lead to worker threads stopping
        assert_eq!(wait_for_counter(exit_count), 22);
    });
}

fn join_a_lot(n: usize) {
    if n > 0 {
        join(|| join_a_lot(n - 1), || join_a_lot(n - 1));
    }
}

#[test]
#[cfg_attr(any(target_os = "emscripten", target_family = "wasm"), ignore)]
fn sleeper_stop() {
    without_hanging(|| {
        use std::{thread, time};

        let (exit_count, exit_handler) = count_handler();

        {
            // once we exit this block, thread pool will be dropped
            let _thread_pool = ThreadPoolBuilder::new()
                .num_threads(22)
                .exit_handler(exit_handler)
                .build()
                .unwrap();

            // Give time for at least some of the thread pool to fall asleep.
            thread::sleep(time::Duration::from_secs(1));
        }

        // once thread pool is dropped, registry should terminate, which
        // should lead to worker threads stopping
        assert_eq!(wait_for_counter(exit_count), 22);
    });
}

/// Creates a start/exit handler that increments an atomic counter.
fn count_handler() -> (Arc<AtomicUsize>, impl Fn(usize)) {
    let count = Arc::new(AtomicUsize::new(0));
    (Arc::clone(&count), move |_| {
        count.fetch_add(1, Ordering::SeqCst);
    })
}

/// Wait until a counter is no longer shared, then return its value.
fn wait_for_counter(mut counter: Arc<AtomicUsize>) -> usize {
    use std::{thread, time};

    for _ in 0..60 {
        counter = match Arc::try_unwrap(counter) {
            Ok(counter) => return counter.into_inner(),
            Err(counter) => {
                thread::sleep(time::Duration::from_secs(1));
                counter
            }
        };
    }

    // That's too long!
    panic!("Counter is still shared!");
}

#[test]
#[cfg_attr(any(target_os = "emscripten", target_family = "wasm"), ignore)]
fn failed_thread_stack() {
    without_hanging(|| {
        // Note: we first tried to force failure with a `usize::MAX` stack, but
        // macOS and Windows weren't fazed, or at least didn't fail the way we want.
        // They work with `isize::MAX`, but 32-bit platforms may feasibly allocate a
        // 2GB stack, so it might not fail until the second thread.
        let stack_size = isize::MAX as usize;

        let (start_count, start_handler) = count_handler();
        let (exit_count, exit_handler) = count_handler();
        let builder = ThreadPoolBuilder::new()
            .num_threads(10)
            .stack_size(stack_size)
            .start_handler(start_handler)
            .exit_handler(exit_handler);

        let pool = builder.build();
        assert!(pool.is_err(), "thread stack should have failed!");

        // With such a huge stack, 64-bit will probably fail on the first thread;
        // 32-bit might manage the first 2GB, but certainly fail the second.
        let start_count = wait_for_counter(start_count);
        assert!(start_count <= 1);
        assert_eq!(start_count, wait_for_counter(exit_count));
    });
}

#[test]
#[cfg_attr(not(panic = "unwind"), ignore)]
fn panic_thread_name() {
    without_hanging(|| {
        let (start_count, start_handler) = count_handler();
        let (exit_count, exit_handler) = count_handler();
        let builder = ThreadPoolBuilder::new()
            .num_threads(10)
            .start_handler(start_handler)
            .exit_handler(exit_handler)
            .thread_name(|i| {
                if i >= 5 {
                    panic!();
                }
                format!("panic_thread_name#{i}")
            });

        let pool = catch_unwind(AssertUnwindSafe(|| builder.build()));
        assert!(pool.is_err(), "thread-name panic should propagate!");

        // Assuming they're created in order, threads 0 through 4 should have
        // been started already, and then terminated by the panic.
        assert_eq!(5, wait_for_counter(start_count));
        assert_eq!(5, wait_for_counter(exit_count));
    });
}
