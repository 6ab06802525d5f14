//! How the thread that started a run waits for its end.

use std::time::Duration;

use rt_handle::raw::{self, SpinThenPark};

use super::help_desk::HelpDesk;
use super::launch::{self, ExecutorPtr};
use crate::release::EndSignal;

/// How long a waiter with a desk parks at most before it looks at the desk
/// again, the first time: a job handed out while it parks unparks it, but
/// without a fence against its last look (`help_desk.rs`), so a wake-up
/// may be missed; each park in a row with nothing found doubles it, up to
/// [`LONGEST_NAP`].
const FIRST_NAP: Duration = Duration::from_micros(200);
const LONGEST_NAP: Duration = Duration::from_millis(10);

/// The desk a run started on this thread hands work to while this thread
/// waits for it: one on a worker whose waits can help (the work-stealing
/// runtime's), none elsewhere, where the waiting thread takes no part in
/// the run.
pub(crate) fn desk_for_this_thread(executor: ExecutorPtr) -> Option<HelpDesk> {
    raw::can_help().then(|| HelpDesk::for_this_thread(executor))
}

/// Waits until `signal` is set.
///
/// With a `desk` (this thread is a worker of the work-stealing runtime),
/// this thread works on the run meanwhile: it runs the run's jobs from the
/// desk, and the queued work it submitted itself (the tickets of jobs it
/// handed out, what else it queued: `raw::help_once`, as a join
/// does); when there is none, it polls briefly, then parks until a job is
/// put on the desk or the run ends, telling its pool it takes no other work
/// meanwhile (`raw::blocking`).
///
/// Without one, it runs the work an executor that runs jobs inside
/// `submit` deferred on this thread (`launch.rs`), which nobody else would
/// run while it waits; then it polls briefly, then parks until the run
/// ends.
pub(crate) fn wait(signal: &EndSignal, desk: Option<&HelpDesk>) {
    let Some(desk) = desk else {
        while !signal.is_set() && (raw::help_once() || launch::help_deferred()) {}
        if !poll(signal, || false) {
            raw::blocking(|| signal.wait());
        }
        return;
    };
    desk.take_part(|| {
        let mut nap = FIRST_NAP;
        while !signal.is_set() {
            if let Some(job) = desk.take() {
                job.run();
                nap = FIRST_NAP;
                continue;
            }
            if raw::help_once() || launch::help_deferred() {
                nap = FIRST_NAP;
                continue;
            }
            if poll(signal, || desk.has_job()) {
                continue;
            }
            desk.will_park();
            if !desk.has_job() {
                raw::blocking(|| signal.wait_unless(|| desk.has_job(), nap));
                nap = (nap * 2).min(LONGEST_NAP);
            }
            desk.awake();
        }
    });
}

/// Polls ([`SpinThenPark`]) until the run ends or `more` says there is
/// work: true if either happened within the polls.
fn poll(signal: &EndSignal, more: impl Fn() -> bool) -> bool {
    SpinThenPark::poll(|| signal.is_set() || more())
}
