//! Running a test under a watchdog, so that a hang fails instead of
//! stalling CI.

use std::panic::{catch_unwind, resume_unwind, AssertUnwindSafe};
use std::sync::mpsc;
use std::thread;
use std::time::Duration;

/// How long [`without_hanging`] lets a test run: far longer than any test
/// of the workspace takes, even under miri or a sanitizer.
pub const WATCHDOG: Duration = Duration::from_secs(120);

/// Runs `test` on its own thread and returns its result; fails (panics)
/// if it has not finished within [`WATCHDOG`], so that a regression that
/// hangs (a deadlock, a lost wake-up) fails the test instead of stalling the
/// suite. A panic of `test` resumes here.
///
/// ```
/// assert_eq!(rt_testkit::without_hanging(|| 6 * 7), 42);
/// ```
pub fn without_hanging<R: Send + 'static>(test: impl FnOnce() -> R + Send + 'static) -> R {
    let (done_tx, done_rx) = mpsc::channel();
    let runner = thread::spawn(move || {
        let outcome = catch_unwind(AssertUnwindSafe(test));
        let _ = done_tx.send(outcome);
    });
    match done_rx.recv_timeout(WATCHDOG) {
        Ok(Ok(value)) => {
            let _ = runner.join();
            value
        }
        Ok(Err(panic)) => resume_unwind(panic),
        Err(_) => panic!("the test did not finish within {WATCHDOG:?}: it hangs"),
    }
}
