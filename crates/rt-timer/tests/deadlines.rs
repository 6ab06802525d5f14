//! Never early: a callback never starts before its deadline. Past deadlines
//! run as soon as possible.

mod support;

use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use rt_core::Runtime;
use rt_testkit::without_hanging;
use rt_timer::{DelayedTaskScheduler, TaskStatus};
use support::spread_deadlines;

#[test]
fn no_callback_starts_before_its_deadline() {
    without_hanging(|| {
        let timer = DelayedTaskScheduler::new().unwrap();
        let deadlines = spread_deadlines(
            Instant::now(),
            rt_testkit::scaled(2_000),
            Duration::from_millis(200),
            7,
        );
        let handles: Vec<_> = deadlines
            .iter()
            .map(|&deadline| timer.schedule_at(deadline, Instant::now).unwrap())
            .collect();
        for handle in handles {
            let deadline = handle.deadline();
            let started = handle.join().unwrap();
            assert!(
                started >= deadline,
                "started {:?} early",
                deadline - started
            );
        }
    })
}

#[test]
fn no_callback_handed_to_an_executor_starts_before_its_deadline() {
    without_hanging(|| {
        let rt = Runtime::new(2).unwrap();
        let timer = DelayedTaskScheduler::new().unwrap();
        let deadlines = spread_deadlines(
            Instant::now(),
            rt_testkit::scaled(1_000),
            Duration::from_millis(100),
            11,
        );
        let handles: Vec<_> = deadlines
            .iter()
            .map(|&deadline| timer.schedule_at_on(&rt, deadline, Instant::now).unwrap())
            .collect();
        for handle in handles {
            let deadline = handle.deadline();
            assert!(handle.join().unwrap() >= deadline);
        }
    })
}

#[test]
fn a_delay_is_measured_from_the_call() {
    without_hanging(|| {
        let timer = DelayedTaskScheduler::new().unwrap();
        let before = Instant::now();
        let handle = timer
            .schedule(Duration::from_millis(30), Instant::now)
            .unwrap();
        assert!(handle.deadline() >= before + Duration::from_millis(30));
        assert!(handle.join().unwrap() >= before + Duration::from_millis(30));
    })
}

#[test]
fn a_deadline_in_the_past_runs_as_soon_as_possible() {
    without_hanging(|| {
        let timer = DelayedTaskScheduler::new().unwrap();
        let long_ago = Instant::now() - Duration::from_secs(1);
        let handle = timer.schedule_at(long_ago, || "ran").unwrap();
        assert_eq!(handle.join(), Ok("ran"));
        assert_eq!(timer.schedule(Duration::ZERO, || 0).unwrap().join(), Ok(0));
    })
}

#[test]
fn past_deadlines_fire_in_deadline_order_after_each_other() {
    without_hanging(|| {
        let timer = DelayedTaskScheduler::new().unwrap();
        let fired = Arc::new(Mutex::new(Vec::new()));
        // Keep the timer busy so that all three are due when it looks again.
        let opener = support::Gate::new();
        let waiter = opener.clone();
        timer
            .schedule(Duration::ZERO, move || waiter.wait())
            .unwrap();
        let now = Instant::now();
        let handles: Vec<_> = [3u64, 1, 2]
            .into_iter()
            .map(|ms_ago| {
                let fired = fired.clone();
                timer
                    .schedule_at(now - Duration::from_millis(ms_ago), move || {
                        fired.lock().unwrap().push(ms_ago)
                    })
                    .unwrap()
            })
            .collect();
        opener.open();
        for handle in handles {
            handle.join().unwrap();
        }
        assert_eq!(*fired.lock().unwrap(), [3, 2, 1]);
    })
}

#[test]
fn a_delay_too_long_to_represent_waits_forever_instead_of_panicking() {
    without_hanging(|| {
        let timer = DelayedTaskScheduler::new().unwrap();
        let never = timer.schedule(Duration::MAX, || ()).unwrap();
        assert_eq!(never.status(), TaskStatus::Queued);
        assert!(never.cancel());
    })
}

#[test]
fn an_idle_scheduler_still_fires_a_callback_scheduled_much_later() {
    without_hanging(|| {
        let timer = DelayedTaskScheduler::new().unwrap();
        std::thread::sleep(Duration::from_millis(30)); // the timer thread sleeps, no timeout
        assert_eq!(
            timer
                .schedule(Duration::from_millis(5), || 5)
                .unwrap()
                .join(),
            Ok(5)
        );
    })
}
