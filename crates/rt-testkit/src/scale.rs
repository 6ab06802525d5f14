//! Test sizes that shrink under the sanitizers.

/// True when the tests are built for ThreadSanitizer (`cargo xtask tsan`
/// passes `--cfg rt_sanitized` to every crate it builds).
pub const UNDER_SANITIZER: bool = cfg!(rt_sanitized);

/// `n`, or a tenth of it (at least 1) under ThreadSanitizer, which runs
/// code many times slower: a test keeps its meaning with fewer iterations
/// instead of being skipped.
///
/// ```
/// assert!(rt_testkit::scaled(1_000) >= 100);
/// ```
pub fn scaled(n: usize) -> usize {
    if UNDER_SANITIZER {
        (n / 10).max(1)
    } else {
        n
    }
}
