//! A panicking callback is caught and reported through its handle; the timer
//! thread survives it.

mod support;

use std::time::Duration;

use rt_core::Runtime;
use rt_testkit::without_hanging;
use rt_timer::{DelayedTaskScheduler, Job, JoinError, Priority, ProvidesSubmitter, Submitter};

const QUIET: &str = "quiet-";

fn timer() -> DelayedTaskScheduler {
    support::silence_panics_on(QUIET);
    DelayedTaskScheduler::builder()
        .thread_name("quiet-timer")
        .build()
        .unwrap()
}

#[test]
fn a_panicking_callback_is_reported_through_its_handle() {
    without_hanging(|| {
        let timer = timer();
        let handle = timer
            .schedule(Duration::from_millis(1), || -> u8 {
                panic!("bad tick {}", 7)
            })
            .unwrap();
        assert_eq!(handle.join(), Err(JoinError::Panicked("bad tick 7".into())));
    })
}

#[test]
fn the_timer_thread_survives_a_panicking_callback() {
    without_hanging(|| {
        let timer = timer();
        let boom = timer
            .schedule(Duration::from_millis(1), || panic!("boom"))
            .unwrap();
        let after = timer
            .schedule(Duration::from_millis(2), || "still ticking")
            .unwrap();
        assert!(boom.join().unwrap_err().is_panic());
        assert_eq!(after.join(), Ok("still ticking"));
        assert!(!timer.is_terminated());
    })
}

#[test]
fn a_callback_panicking_on_an_executor_is_reported_and_the_worker_survives() {
    without_hanging(|| {
        let timer = timer();
        let rt = Runtime::builder()
            .threads(1)
            .thread_name("quiet-rt")
            .build()
            .unwrap();
        let boom = timer
            .schedule_on(&rt, Duration::from_millis(1), || -> () {
                panic!("on a worker")
            })
            .unwrap();
        assert_eq!(boom.join(), Err(JoinError::Panicked("on a worker".into())));
        assert_eq!(
            timer.schedule_on(&rt, Duration::ZERO, || 2).unwrap().join(),
            Ok(2)
        );
    })
}

/// An executor whose submission handle panics.
struct Broken;

#[derive(Clone)]
struct BrokenSubmitter;

impl Submitter for BrokenSubmitter {
    fn try_submit(&self, _: Priority, _: Job) -> Result<(), Job> {
        panic!("broken submitter")
    }
}

impl ProvidesSubmitter for Broken {
    type Submitter = BrokenSubmitter;
    fn submitter(&self) -> BrokenSubmitter {
        BrokenSubmitter
    }
}

#[test]
fn a_panicking_submitter_rejects_the_callback_and_the_timer_thread_survives() {
    without_hanging(|| {
        let timer = timer();
        let lost = timer.schedule_on(&Broken, Duration::ZERO, || ()).unwrap();
        assert_eq!(lost.join(), Err(JoinError::Rejected));
        assert_eq!(timer.schedule(Duration::ZERO, || 1).unwrap().join(), Ok(1));
    })
}
