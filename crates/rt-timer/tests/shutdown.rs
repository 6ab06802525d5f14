//! `shutdown` lets accepted callbacks fire; `stop` cancels and counts them;
//! dropping the scheduler stops it.

mod support;

use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use rt_testkit::without_hanging;
use rt_timer::{DelayedTaskScheduler, JoinError, SubmitError, TaskStatus};

#[test]
fn after_shutdown_new_callbacks_are_refused_and_handed_back() {
    without_hanging(|| {
        let timer = DelayedTaskScheduler::new().unwrap();
        timer.shutdown();
        assert!(timer.is_shutdown());
        match timer.schedule(Duration::ZERO, || 42) {
            Err(SubmitError::Shutdown(f)) => assert_eq!(f(), 42),
            other => panic!("expected Shutdown, got {other:?}"),
        }
        assert!(timer.schedule_at(Instant::now(), || ()).is_err());
        assert_eq!(timer.spawn(|| 1).join(), Err(JoinError::Rejected));
        timer.wait_termination();
        assert!(timer.is_terminated());
    })
}

#[test]
fn after_shutdown_accepted_callbacks_still_fire_at_their_deadlines() {
    without_hanging(|| {
        let timer = DelayedTaskScheduler::new().unwrap();
        let handles: Vec<_> = (1..=5u64)
            .map(|i| {
                timer
                    .schedule(Duration::from_millis(10 * i), Instant::now)
                    .unwrap()
            })
            .collect();
        timer.shutdown();
        timer.wait_termination();
        for handle in handles {
            let deadline = handle.deadline();
            assert!(handle.join().unwrap() >= deadline);
        }
    })
}

#[test]
fn shutdown_returns_without_waiting_for_a_distant_deadline() {
    without_hanging(|| {
        let timer = DelayedTaskScheduler::new().unwrap();
        let distant = timer.schedule(Duration::from_secs(3600), || ()).unwrap();
        timer.shutdown();
        assert!(!timer.wait_termination_timeout(Duration::from_millis(20)));
        assert!(!timer.is_terminated());
        assert_eq!(distant.status(), TaskStatus::Queued);
        // Cancelling the last pending callback lets the timer terminate at once.
        assert!(distant.cancel());
        timer.wait_termination();
        assert!(timer.is_terminated());
    })
}

#[test]
fn stop_cancels_every_pending_callback_and_counts_only_those_it_cancelled() {
    without_hanging(|| {
        let timer = DelayedTaskScheduler::new().unwrap();
        let handles: Vec<_> = (0..10)
            .map(|i| timer.schedule(Duration::from_secs(60), move || i).unwrap())
            .collect();
        assert!(handles[0].cancel());
        assert!(handles[7].cancel());
        assert_eq!(timer.stop(), 8);
        assert_eq!(timer.stop(), 0, "a second stop finds nothing left");
        for handle in handles {
            assert_eq!(handle.join(), Err(JoinError::Cancelled));
        }
        timer.wait_termination();
        assert!(timer.schedule(Duration::ZERO, || ()).is_err());
    })
}

#[test]
fn stop_lets_a_running_callback_finish() {
    without_hanging(|| {
        let timer = DelayedTaskScheduler::new().unwrap();
        let (opener, started, body) = support::gated("done");
        let running = timer.schedule(Duration::ZERO, body).unwrap();
        let pending = timer
            .schedule(Duration::from_millis(1), || "never")
            .unwrap();
        started.wait();
        assert_eq!(timer.stop(), 1);
        assert!(!timer.wait_termination_timeout(Duration::from_millis(10)));
        opener.open();
        timer.wait_termination();
        assert_eq!(running.join(), Ok("done"));
        assert_eq!(pending.join(), Err(JoinError::Cancelled));
    })
}

#[test]
fn shutdown_from_inside_a_callback_does_not_deadlock() {
    without_hanging(|| {
        let timer = Arc::new(DelayedTaskScheduler::new().unwrap());
        let t = timer.clone();
        let handle = timer
            .schedule(Duration::ZERO, move || {
                t.shutdown();
                t.stop()
            })
            .unwrap();
        assert_eq!(handle.join(), Ok(0));
        timer.wait_termination();
    })
}

#[test]
fn dropping_the_scheduler_cancels_pending_callbacks_without_waiting_for_them() {
    without_hanging(|| {
        let timer = DelayedTaskScheduler::new().unwrap();
        let distant = timer.schedule(Duration::from_secs(3600), || ()).unwrap();
        let soon = timer.schedule(Duration::from_millis(500), || ()).unwrap();
        drop(timer);
        assert_eq!(distant.join(), Err(JoinError::Cancelled));
        assert_eq!(soon.join(), Err(JoinError::Cancelled));
    })
}

#[test]
fn dropping_the_scheduler_waits_for_the_running_callback() {
    without_hanging(|| {
        let timer = DelayedTaskScheduler::new().unwrap();
        let log = Arc::new(Mutex::new(Vec::new()));
        let (started_tx, started_rx) = std::sync::mpsc::channel();
        let l = log.clone();
        let running = timer
            .schedule(Duration::ZERO, move || {
                started_tx.send(()).unwrap();
                std::thread::sleep(Duration::from_millis(30));
                l.lock().unwrap().push("callback returned");
            })
            .unwrap();
        started_rx.recv().unwrap();
        drop(timer);
        log.lock().unwrap().push("drop returned");
        assert_eq!(*log.lock().unwrap(), ["callback returned", "drop returned"]);
        assert_eq!(running.join(), Ok(()));
    })
}

#[test]
fn dropping_the_scheduler_inside_its_own_callback_does_not_deadlock() {
    without_hanging(|| {
        let slot = Arc::new(Mutex::new(Some(DelayedTaskScheduler::new().unwrap())));
        let s = slot.clone();
        let (dropper, pending) = {
            // The dropper cannot take the scheduler before this guard is gone.
            let guard = slot.lock().unwrap();
            let timer = guard.as_ref().unwrap();
            let dropper = timer
                .schedule(Duration::ZERO, move || {
                    drop(s.lock().unwrap().take());
                    "dropped"
                })
                .unwrap();
            let pending = timer.schedule(Duration::from_secs(60), || ()).unwrap();
            (dropper, pending)
        };
        assert_eq!(dropper.join(), Ok("dropped"));
        assert_eq!(pending.join(), Err(JoinError::Cancelled));
        assert!(slot.lock().unwrap().is_none());
    })
}

#[test]
fn shutdown_and_stop_are_idempotent() {
    without_hanging(|| {
        let timer = DelayedTaskScheduler::new().unwrap();
        timer.shutdown();
        timer.shutdown();
        assert_eq!(timer.stop(), 0);
        timer.wait_termination();
        timer.shutdown();
        assert_eq!(timer.stop(), 0);
        assert!(timer.wait_termination_timeout(Duration::ZERO));
    })
}

#[test]
fn wait_termination_waits_for_the_last_accepted_callback() {
    without_hanging(|| {
        let timer = DelayedTaskScheduler::new().unwrap();
        let last = timer.schedule(Duration::from_millis(30), || ()).unwrap();
        timer.shutdown();
        timer.wait_termination();
        assert_eq!(last.status(), TaskStatus::Finished);
    })
}
