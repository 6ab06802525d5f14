//! Polling for a condition with a deadline.

use std::time::{Duration, Instant};

/// How long [`wait_until`] waits before it fails the test. Generous: tests
/// assert behaviour, not speed, and CI machines are shared and slow.
pub const PATIENCE: Duration = Duration::from_secs(60);

/// Polls `condition` every millisecond until it holds; panics (failing the
/// test) with `what` in the message after [`PATIENCE`].
pub fn wait_until(what: &str, mut condition: impl FnMut() -> bool) {
    let deadline = Instant::now() + PATIENCE;
    while !condition() {
        assert!(
            Instant::now() < deadline,
            "gave up waiting until {what} after {PATIENCE:?}"
        );
        std::thread::sleep(Duration::from_millis(1));
    }
}
