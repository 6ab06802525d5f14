//! `cancel` succeeds until the callback starts; a cancelled callback never
//! runs and its handle reports `Cancelled`.

mod support;

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::Duration;

use rt_testkit::without_hanging;
use rt_timer::{DelayedTaskScheduler, JoinError, TaskStatus};

#[test]
fn a_callback_cancelled_before_its_deadline_never_runs() {
    without_hanging(|| {
        let timer = DelayedTaskScheduler::new().unwrap();
        let ran = Arc::new(AtomicUsize::new(0));
        let r = ran.clone();
        let held = support::hold_timer(&timer);
        let handle = timer
            .schedule(Duration::ZERO, move || r.fetch_add(1, Ordering::SeqCst))
            .unwrap();
        assert!(handle.cancel());
        assert_eq!(handle.status(), TaskStatus::Cancelled);
        assert!(handle.is_finished());
        held.open();
        // Let the timer pass the deadline, with a later callback as the witness.
        timer
            .schedule(Duration::from_millis(1), || ())
            .unwrap()
            .join()
            .unwrap();
        assert_eq!(ran.load(Ordering::SeqCst), 0);
        assert_eq!(handle.join(), Err(JoinError::Cancelled));
    })
}

#[test]
fn cancelling_twice_succeeds_only_the_first_time() {
    without_hanging(|| {
        let timer = DelayedTaskScheduler::new().unwrap();
        let handle = timer.schedule(Duration::from_secs(60), || ()).unwrap();
        assert!(handle.cancel());
        assert!(!handle.cancel());
        assert_eq!(handle.join(), Err(JoinError::Cancelled));
    })
}

#[test]
fn cancel_fails_once_the_callback_has_started_and_it_runs_to_completion() {
    without_hanging(|| {
        let timer = DelayedTaskScheduler::new().unwrap();
        let (opener, started, body) = support::gated("finished");
        let handle = timer.schedule(Duration::from_millis(1), body).unwrap();
        started.wait();
        assert_eq!(handle.status(), TaskStatus::Running);
        assert!(!handle.cancel());
        opener.open();
        assert_eq!(handle.join(), Ok("finished"));
    })
}

#[test]
fn cancel_fails_after_the_callback_finished() {
    without_hanging(|| {
        let timer = DelayedTaskScheduler::new().unwrap();
        let handle = timer.schedule(Duration::ZERO, || 3).unwrap();
        while !handle.is_finished() {
            std::thread::yield_now();
        }
        assert!(!handle.cancel());
        assert_eq!(handle.status(), TaskStatus::Finished);
        assert_eq!(handle.join(), Ok(3));
    })
}

#[test]
fn cancelling_the_earliest_callback_does_not_hold_back_the_next() {
    without_hanging(|| {
        let timer = DelayedTaskScheduler::new().unwrap();
        let first = timer.schedule(Duration::from_millis(100), || 1).unwrap();
        let second = timer.schedule(Duration::from_millis(110), || 2).unwrap();
        assert!(first.cancel());
        assert_eq!(second.join(), Ok(2));
        assert_eq!(first.join(), Err(JoinError::Cancelled));
    })
}

#[test]
fn cancelled_callbacks_no_longer_count_as_pending() {
    without_hanging(|| {
        let timer = DelayedTaskScheduler::new().unwrap();
        let handles: Vec<_> = (0..1_000)
            .map(|i| {
                timer
                    .schedule(Duration::from_secs(3600), move || i)
                    .unwrap()
            })
            .collect();
        assert_eq!(timer.pending(), 1_000);
        for handle in handles.iter().step_by(2) {
            assert!(handle.cancel());
        }
        assert_eq!(timer.pending(), 500);
        assert_eq!(timer.stop(), 500);
    })
}

#[test]
fn a_callback_cancelled_through_its_plain_join_handle_never_runs_either() {
    without_hanging(|| {
        let timer = DelayedTaskScheduler::new().unwrap();
        let handle = timer
            .schedule(Duration::from_secs(60), || ())
            .unwrap()
            .into_join_handle();
        assert!(handle.cancel());
        assert_eq!(handle.join(), Err(JoinError::Cancelled));
        assert_eq!(timer.stop(), 0, "the cancelled entry is not pending");
    })
}
