//! A second `build_global` fails with "already initialized": rayon-core
//! 1.13.0's `tests/double_init_fail.rs`, copied.
//!
//! Changes: the test body runs under `rt_testkit::without_hanging`. Nothing
//! left out. It builds the global pool, which a process can do only once:
//! it stays alone in its own test binary, as upstream.

use rayon_core::ThreadPoolBuilder;
use rt_testkit::without_hanging;
use std::error::Error;

#[test]
#[cfg_attr(any(target_os = "emscripten", target_family = "wasm"), ignore)]
fn double_init_fail() {
    without_hanging(|| {
        let result1 = ThreadPoolBuilder::new().build_global();
        assert!(result1.is_ok());
        let err = ThreadPoolBuilder::new().build_global().unwrap_err();
        assert!(err.source().is_none());
        assert_eq!(
            err.to_string(),
            "The global thread pool has already been initialized.",
        );
    });
}
