//! `schedule_on` hands callbacks to an executor at their deadlines, never
//! blocks the timer thread on it, and reports `Rejected` when it refuses.

mod support;

use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use rt_core::{current_thread_index, Priority, Runtime};
use rt_testkit::without_hanging;
use rt_timer::{DelayedTaskScheduler, JoinError, TaskStatus};

/// Waits until the timer has dealt with every entry due by now: it fires
/// entries in deadline order, so once a callback scheduled now has run,
/// every earlier entry has been handed over.
fn timer_caught_up(timer: &DelayedTaskScheduler) {
    timer
        .schedule(Duration::ZERO, || ())
        .unwrap()
        .join()
        .unwrap();
}

#[test]
fn a_callback_scheduled_on_a_runtime_runs_on_its_workers() {
    without_hanging(|| {
        let rt = Runtime::new(2).unwrap();
        let timer = DelayedTaskScheduler::new().unwrap();
        let handle = timer
            .schedule_on(&rt, Duration::from_millis(5), current_thread_index)
            .unwrap();
        assert!(handle.join().unwrap().is_some());
        let handle = timer
            .schedule_at_on(&rt, Instant::now(), || {
                std::thread::current().name().map(str::to_owned)
            })
            .unwrap();
        assert!(handle.join().unwrap().unwrap().starts_with("rt-worker-"));
    })
}

#[test]
fn a_runtime_dropped_before_the_deadline_makes_the_handle_report_rejected() {
    without_hanging(|| {
        let rt = Runtime::new(1).unwrap();
        let timer = DelayedTaskScheduler::new().unwrap();
        let held = support::hold_timer(&timer);
        let handle = timer.schedule_on(&rt, Duration::ZERO, || "ran").unwrap();
        drop(rt); // the timer holds the runtime only weakly
        held.open();
        assert_eq!(handle.join(), Err(JoinError::Rejected));
    })
}

#[test]
fn a_runtime_shut_down_before_the_deadline_makes_the_handle_report_rejected() {
    without_hanging(|| {
        let rt = Runtime::new(1).unwrap();
        let timer = DelayedTaskScheduler::new().unwrap();
        let held = support::hold_timer(&timer);
        let handle = timer.schedule_on(&rt, Duration::ZERO, || "ran").unwrap();
        rt.shutdown();
        held.open();
        while !handle.is_finished() {
            std::thread::yield_now();
        }
        assert_eq!(handle.status(), TaskStatus::Rejected);
        assert_eq!(handle.join(), Err(JoinError::Rejected));
    })
}

#[test]
fn a_saturated_runtime_rejects_the_callback_without_blocking_the_timer_thread() {
    without_hanging(|| {
        let rt = Runtime::builder()
            .threads(1)
            .queue_capacity(1)
            .build()
            .unwrap();
        let timer = DelayedTaskScheduler::new().unwrap();
        // Occupy the only worker, then fill the only queue slot.
        let (opener, started, body) = support::gated(());
        let busy = rt.spawn(body);
        started.wait();
        let queued = rt.try_spawn(|| "queued").unwrap();
        assert!(rt.try_spawn(|| ()).is_err(), "the runtime is saturated");

        let refused = timer
            .schedule_on(&rt, Duration::from_millis(5), || "never")
            .unwrap();
        // The timer thread is not stuck on the full runtime: a later callback
        // on the timer thread itself still fires while the runtime stays full.
        let later = timer
            .schedule(Duration::from_millis(10), || "fired")
            .unwrap();
        assert_eq!(later.join(), Ok("fired"));
        assert_eq!(refused.join(), Err(JoinError::Rejected));

        opener.open();
        busy.join().unwrap();
        assert_eq!(queued.join(), Ok("queued"));
    })
}

#[test]
fn cancel_succeeds_while_the_callback_waits_in_the_executors_queue() {
    without_hanging(|| {
        let rt = Runtime::new(1).unwrap();
        let timer = DelayedTaskScheduler::new().unwrap();
        let (opener, started, body) = support::gated(());
        let busy = rt.spawn(body);
        started.wait();
        let ran = Arc::new(Mutex::new(false));
        let r = ran.clone();
        let handle = timer
            .schedule_on(&rt, Duration::ZERO, move || *r.lock().unwrap() = true)
            .unwrap();
        timer_caught_up(&timer); // now it waits behind `busy` on the runtime
        assert_eq!(handle.status(), TaskStatus::Queued);
        assert!(handle.cancel());
        opener.open();
        busy.join().unwrap();
        rt.shutdown(); // runs whatever was queued
        assert_eq!(handle.join(), Err(JoinError::Cancelled));
        assert!(!*ran.lock().unwrap());
    })
}

#[test]
fn cancel_fails_once_the_callback_has_started_on_the_executor() {
    without_hanging(|| {
        let rt = Runtime::new(1).unwrap();
        let timer = DelayedTaskScheduler::new().unwrap();
        let (opener, started, body) = support::gated("finished");
        let handle = timer
            .schedule_on(&rt, Duration::from_millis(1), body)
            .unwrap();
        started.wait();
        assert_eq!(handle.status(), TaskStatus::Running);
        assert!(!handle.cancel());
        opener.open();
        assert_eq!(handle.join(), Ok("finished"));
    })
}

#[test]
fn a_cancelled_callback_is_never_handed_to_the_executor() {
    without_hanging(|| {
        let rt = Runtime::new(1).unwrap();
        let timer = DelayedTaskScheduler::new().unwrap();
        let held = support::hold_timer(&timer);
        let handle = timer.schedule_on(&rt, Duration::ZERO, || ()).unwrap();
        assert!(handle.cancel());
        held.open();
        timer_caught_up(&timer);
        rt.shutdown();
        assert_eq!(rt.metrics().submitted, 0);
        assert_eq!(handle.join(), Err(JoinError::Cancelled));
    })
}

#[test]
fn the_priority_given_is_the_one_the_executor_sees() {
    without_hanging(|| {
        let rt = Runtime::new(1).unwrap();
        let timer = DelayedTaskScheduler::new().unwrap();
        let order = Arc::new(Mutex::new(Vec::new()));
        let (opener, started, body) = support::gated(());
        let busy = rt.spawn(body);
        started.wait();
        let o = order.clone();
        let normal = rt.spawn(move || o.lock().unwrap().push("normal"));
        let o = order.clone();
        let urgent = timer
            .schedule_at_on_with_priority(&rt, Priority::High, Instant::now(), move || {
                o.lock().unwrap().push("high")
            })
            .unwrap();
        timer_caught_up(&timer);
        opener.open();
        busy.join().unwrap();
        normal.join().unwrap();
        urgent.join().unwrap();
        assert_eq!(*order.lock().unwrap(), ["high", "normal"]);
    })
}

#[test]
fn stopping_the_timer_leaves_callbacks_already_handed_over_to_the_executor() {
    without_hanging(|| {
        let rt = Runtime::new(2).unwrap();
        let timer = DelayedTaskScheduler::new().unwrap();
        let handed = timer.schedule_on(&rt, Duration::ZERO, || 1).unwrap();
        timer_caught_up(&timer);
        let pending = timer
            .schedule_on(&rt, Duration::from_secs(60), || 2)
            .unwrap();
        assert_eq!(timer.stop(), 1);
        assert_eq!(handed.join(), Ok(1));
        assert_eq!(pending.join(), Err(JoinError::Cancelled));
    })
}
