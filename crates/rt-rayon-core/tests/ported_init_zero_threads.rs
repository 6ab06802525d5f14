//! `build_global` with `num_threads(0)` (meaning "the default") succeeds:
//! rayon-core 1.13.0's `tests/init_zero_threads.rs`, copied.
//!
//! Changes: the test body runs under `rt_testkit::without_hanging`. Nothing
//! left out. It builds the global pool, which a process can do only once:
//! it stays alone in its own test binary, as upstream.

use rayon_core::ThreadPoolBuilder;
use rt_testkit::without_hanging;

#[test]
#[cfg_attr(any(target_os = "emscripten", target_family = "wasm"), ignore)]
fn init_zero_threads() {
    without_hanging(|| {
        ThreadPoolBuilder::new()
            .num_threads(0)
            .build_global()
            .unwrap();
    });
}
