//! A panic in `join`'s second closure propagates to the caller: rayon-core
//! 1.13.0's `tests/simple_panic.rs`, copied.
//!
//! Changes: the body runs under `rt_testkit::without_hanging` (which resumes
//! the body's panic with its payload, so `#[should_panic(expected = ...)]`
//! still checks the message). Nothing left out.

use rayon_core::join;
use rt_testkit::without_hanging;

#[test]
#[should_panic(expected = "should panic")]
fn simple_panic() {
    without_hanging(|| {
        join(|| {}, || panic!("should panic"));
    });
}
