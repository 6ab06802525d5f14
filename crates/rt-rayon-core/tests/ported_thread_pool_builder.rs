//! `ThreadPoolBuilder` (and the deprecated `Configuration` /
//! `ThreadPool::new`): the pool has the threads asked for, a thread index
//! only inside it, every builder method can be called, the default builder
//! builds, `ThreadPoolBuildError` is `Send + Sync`: rayon-core 1.13.0's
//! `src/test.rs` (`worker_thread_index`, `check_config_build`,
//! `check_error_send_sync`, `configuration`, `default_pool`; its handler
//! tests are in `ported_thread_pool_handlers.rs`) and
//! `src/thread_pool/test.rs` (`check_thread_pool_new`), ported to an
//! integration test of the public API.
//!
//! Changes: `crate::` paths are `rayon_core::`; every test body runs under
//! `rt_testkit::without_hanging`. Nothing left out.

use rayon_core::{ThreadPool, ThreadPoolBuildError, ThreadPoolBuilder};
use rt_testkit::without_hanging;

#[test]
#[cfg_attr(any(target_os = "emscripten", target_family = "wasm"), ignore)]
fn worker_thread_index() {
    without_hanging(|| {
        let pool = ThreadPoolBuilder::new().num_threads(22).build().unwrap();
        assert_eq!(pool.current_num_threads(), 22);
        assert_eq!(pool.current_thread_index(), None);
        let index = pool.install(|| pool.current_thread_index().unwrap());
        assert!(index < 22);
    });
}

#[test]
#[cfg_attr(any(target_os = "emscripten", target_family = "wasm"), ignore)]
fn check_config_build() {
    without_hanging(|| {
        let pool = ThreadPoolBuilder::new().num_threads(22).build().unwrap();
        assert_eq!(pool.current_num_threads(), 22);
    });
}

/// Helper used by check_error_send_sync to ensure ThreadPoolBuildError is Send + Sync
fn _send_sync<T: Send + Sync>() {}

#[test]
fn check_error_send_sync() {
    without_hanging(|| {
        _send_sync::<ThreadPoolBuildError>();
    });
}

#[allow(deprecated)]
#[test]
#[cfg_attr(any(target_os = "emscripten", target_family = "wasm"), ignore)]
fn configuration() {
    without_hanging(|| {
        let start_handler = move |_| {};
        let exit_handler = move |_| {};
        let panic_handler = move |_| {};
        let thread_name = move |i| format!("thread_name_{i}");

        // Ensure we can call all public methods on Configuration
        rayon_core::Configuration::new()
            .thread_name(thread_name)
            .num_threads(5)
            .panic_handler(panic_handler)
            .stack_size(4e6 as usize)
            .breadth_first()
            .start_handler(start_handler)
            .exit_handler(exit_handler)
            .build()
            .unwrap();
    });
}

#[test]
#[cfg_attr(any(target_os = "emscripten", target_family = "wasm"), ignore)]
fn default_pool() {
    without_hanging(|| {
        ThreadPoolBuilder::default().build().unwrap();
    });
}

// From src/thread_pool/test.rs.

#[test]
#[allow(deprecated)]
#[cfg_attr(any(target_os = "emscripten", target_family = "wasm"), ignore)]
fn check_thread_pool_new() {
    without_hanging(|| {
        let pool = ThreadPool::new(rayon_core::Configuration::new().num_threads(22)).unwrap();
        assert_eq!(pool.current_num_threads(), 22);
    });
}
