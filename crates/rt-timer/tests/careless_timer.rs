//! `DelayedTaskScheduler` as a new user tries it: odd delays and builder
//! arguments, handles dropped or joined in the wrong place, the timer used
//! from inside a runtime's tasks and a runtime from inside callbacks.

mod support;

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{mpsc, Arc};
use std::time::{Duration, Instant};

use rt_core::Runtime;
use rt_testkit::{quietly, without_hanging};
use rt_timer::{DelayedTaskScheduler, JoinError, TaskStatus};

#[test]
fn the_basics_schedule_join_cancel_and_await() {
    without_hanging(|| {
        let timer = DelayedTaskScheduler::new().unwrap();
        let start = Instant::now();
        let h = timer.schedule(Duration::from_millis(10), || 1).unwrap();
        assert_eq!(h.join(), Ok(1));
        assert!(start.elapsed() >= Duration::from_millis(10));
        let later = timer.schedule(Duration::from_secs(3600), || 2).unwrap();
        assert!(later.cancel());
        assert_eq!(later.join(), Err(JoinError::Cancelled));
        let plain = timer
            .schedule(Duration::from_millis(1), || 3)
            .unwrap()
            .into_join_handle();
        assert_eq!(plain.join(), Ok(3));
    });
}

#[test]
fn zero_and_past_deadlines_fire_at_once() {
    without_hanging(|| {
        let timer = DelayedTaskScheduler::new().unwrap();
        assert_eq!(timer.schedule(Duration::ZERO, || 1).unwrap().join(), Ok(1));
        let past = Instant::now()
            .checked_sub(Duration::from_secs(1))
            .unwrap_or_else(Instant::now);
        assert_eq!(timer.schedule_at(past, || 2).unwrap().join(), Ok(2));
    });
}

#[test]
fn a_callback_of_duration_max_can_be_cancelled_and_the_scheduler_dropped() {
    without_hanging(|| {
        let timer = DelayedTaskScheduler::new().unwrap();
        let never = timer.schedule(Duration::MAX, || ()).unwrap();
        assert_eq!(timer.pending(), 1);
        assert_eq!(never.status(), TaskStatus::Queued);
        assert!(never.cancel());
        let forever = timer.schedule(Duration::MAX, || ()).unwrap();
        drop(timer);
        assert_eq!(forever.join(), Err(JoinError::Cancelled));
    });
}

#[test]
fn cancel_after_the_callback_fired_fails_and_the_value_stays() {
    without_hanging(|| {
        let timer = DelayedTaskScheduler::new().unwrap();
        let h = timer.schedule(Duration::ZERO, || 5).unwrap();
        while !h.is_finished() {
            std::thread::sleep(Duration::from_millis(1));
        }
        assert!(!h.cancel());
        assert_eq!(h.join(), Ok(5));
    });
}

#[test]
fn a_dropped_scheduled_handle_still_fires_its_callback() {
    without_hanging(|| {
        let timer = DelayedTaskScheduler::new().unwrap();
        let (tx, rx) = mpsc::channel();
        drop(
            timer
                .schedule(Duration::from_millis(5), move || tx.send(1).unwrap())
                .unwrap(),
        );
        assert_eq!(rx.recv_timeout(Duration::from_secs(30)), Ok(1));
    });
}

#[test]
fn a_zero_stack_size_and_an_empty_name_give_a_working_timer() {
    without_hanging(|| {
        let timer = DelayedTaskScheduler::builder()
            .stack_size(0)
            .thread_name("")
            .build()
            .unwrap();
        assert_eq!(
            timer
                .schedule(Duration::from_millis(1), || 7)
                .unwrap()
                .join(),
            Ok(7)
        );
        assert_eq!(timer.thread_name(), "");
    });
}

#[test]
fn a_thread_name_with_a_nul_byte_is_a_build_error_not_a_panic() {
    without_hanging(|| {
        let built = quietly(|| {
            std::panic::catch_unwind(|| {
                DelayedTaskScheduler::builder()
                    .thread_name("bad\0name")
                    .build()
            })
        });
        assert!(built.is_ok(), "Builder::build panicked");
    });
}

#[test]
fn a_callback_joining_a_later_callbacks_handle_does_not_hang() {
    without_hanging(|| {
        let timer = DelayedTaskScheduler::new().unwrap();
        let later = timer.schedule(Duration::from_millis(10), || 1).unwrap();
        let outer = timer
            .schedule(Duration::ZERO, move || later.join())
            .unwrap();
        // A clear panic is fine; waiting for ever is not.
        let _ = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| outer.join()));
    });
}

#[test]
fn a_callback_joining_a_callback_that_has_not_run_yet_panics_saying_why() {
    without_hanging(|| {
        let timer = DelayedTaskScheduler::new().unwrap();
        let later = timer.schedule(Duration::from_secs(3600), || 1).unwrap();
        let outer = timer
            .schedule(Duration::ZERO, move || later.join())
            .unwrap();
        let error = quietly(|| outer.join()).unwrap_err();
        assert!(
            error
                .to_string()
                .contains("only the timer thread can run it"),
            "{error}"
        );
    });
}

#[test]
fn a_callback_joining_a_callback_that_already_ran_gets_its_value() {
    without_hanging(|| {
        let timer = DelayedTaskScheduler::new().unwrap();
        let at = Instant::now();
        let first = timer.schedule_at(at, || 5).unwrap();
        // Equal deadlines fire in the order they were scheduled.
        let second = timer.schedule_at(at, move || first.join()).unwrap();
        assert_eq!(second.join(), Ok(Ok(5)));
    });
}

#[test]
fn a_callback_joining_a_callback_already_handed_to_a_runtime_waits_for_it() {
    without_hanging(|| {
        let timer = DelayedTaskScheduler::new().unwrap();
        let rt = Runtime::new(1).unwrap();
        let at = Instant::now();
        let on_rt = timer.schedule_at_on(&rt, at, || 6).unwrap();
        let second = timer.schedule_at(at, move || on_rt.join()).unwrap();
        assert_eq!(second.join(), Ok(Ok(6)));
    });
}

#[test]
fn a_task_of_a_runtime_schedules_a_callback_and_joins_it() {
    without_hanging(|| {
        let timer = Arc::new(DelayedTaskScheduler::new().unwrap());
        let rt = Runtime::new(1).unwrap();
        let t = timer.clone();
        let v = rt
            .spawn(move || {
                t.schedule(Duration::from_millis(5), || 9)
                    .unwrap()
                    .join()
                    .unwrap()
            })
            .join();
        assert_eq!(v, Ok(9));
        assert_eq!(rt.spawn(|| 1).join(), Ok(1));
    });
}

#[test]
fn a_callback_runs_work_on_a_runtime_and_waits_for_it() {
    without_hanging(|| {
        let timer = DelayedTaskScheduler::new().unwrap();
        let rt = Arc::new(Runtime::new(2).unwrap());
        let r = rt.clone();
        let h = timer
            .schedule(Duration::from_millis(2), move || {
                r.install(|| rt_core::join(|| 20, || 22))
            })
            .unwrap();
        let (a, b) = h.join().unwrap();
        assert_eq!(a + b, 42);
    });
}

#[test]
fn callbacks_handed_to_a_one_worker_runtime_whose_worker_waits_for_them_complete() {
    without_hanging(|| {
        let timer = Arc::new(DelayedTaskScheduler::new().unwrap());
        let rt = Arc::new(Runtime::new(1).unwrap());
        let (t, r) = (timer.clone(), rt.clone());
        let v = rt
            .spawn(move || {
                t.schedule_on(&*r, Duration::from_millis(5), || 11)
                    .unwrap()
                    .join()
                    .unwrap()
            })
            .join();
        assert_eq!(v, Ok(11));
    });
}

#[test]
fn stopping_twice_and_shutting_down_afterwards_are_harmless() {
    without_hanging(|| {
        let timer = DelayedTaskScheduler::new().unwrap();
        let ran = Arc::new(AtomicUsize::new(0));
        for _ in 0..5 {
            let ran = ran.clone();
            timer
                .schedule(Duration::from_secs(3600), move || {
                    ran.fetch_add(1, Ordering::SeqCst)
                })
                .unwrap();
        }
        assert_eq!(timer.stop(), 5);
        assert_eq!(timer.stop(), 0);
        timer.shutdown();
        timer.wait_termination();
        assert!(timer.is_terminated());
        assert_eq!(ran.load(Ordering::SeqCst), 0);
    });
}

#[test]
fn cancels_racing_the_timer_thread_leave_every_callback_run_or_cancelled_exactly_once() {
    without_hanging(|| {
        let timer = DelayedTaskScheduler::new().unwrap();
        let ran = Arc::new(AtomicUsize::new(0));
        let mut cancelled = 0;
        for _ in 0..10 {
            let handles: Vec<_> = (0..5_000)
                .map(|_| {
                    let ran = ran.clone();
                    timer
                        .schedule(Duration::ZERO, move || {
                            ran.fetch_add(1, Ordering::Relaxed);
                        })
                        .unwrap()
                })
                .collect();
            let won = handles.iter().filter(|h| h.cancel()).count();
            cancelled += won;
            let joined = handles
                .into_iter()
                .map(|h| h.join())
                .filter(|r| *r == Err(JoinError::Cancelled))
                .count();
            assert_eq!(won, joined);
        }
        assert_eq!(ran.load(Ordering::Relaxed) + cancelled, 50_000);
    });
}
