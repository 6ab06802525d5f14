//! How the thread that started a run waits for its end.

use rt_handle::executor_support::membership;

use super::launch;
use crate::release::EndSignal;

/// Checks of the end before the waiting thread starts yielding. Together
/// with [`YIELD_POLLS`] this covers a few microseconds: a run that ends
/// within them costs no park/unpark round trip (tens of microseconds on a
/// VM).
const SPIN_POLLS: u32 = 512;
/// Checks with `yield_now` in between, after the busy ones: on a machine
/// with fewer cores than threads they let a worker finish the run.
const YIELD_POLLS: u32 = 8;

/// Waits until `signal` is set. On a worker of the work-stealing runtime
/// this thread runs the queued work it submitted meanwhile (the run's
/// entries it queued, what they released on it), as a join does
/// (`membership::help_once`); on a thread where an executor that runs jobs
/// inside `submit` deferred work (`launch.rs`), it runs that work, which
/// nobody else would while it waits; then it polls briefly, then parks,
/// telling its pool it takes no work meanwhile (`membership::blocking`), so
/// that the pool keeps another thread free for the run's nodes.
pub(crate) fn wait(signal: &EndSignal) {
    while !signal.is_set() {
        if !membership::help_once() && !launch::help_deferred() {
            break;
        }
    }
    for round in 0..SPIN_POLLS + YIELD_POLLS {
        if signal.is_set() {
            return;
        }
        if round < SPIN_POLLS {
            std::hint::spin_loop();
        } else {
            std::thread::yield_now();
        }
    }
    membership::blocking(|| signal.wait());
}
