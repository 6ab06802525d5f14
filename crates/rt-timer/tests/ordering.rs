//! Callbacks fire in deadline order; equal deadlines in submission order.

mod support;

use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use rt_testkit::without_hanging;
use rt_timer::{DelayedTaskScheduler, TaskStatus};

#[test]
fn callbacks_fire_in_deadline_order_not_in_submission_order() {
    without_hanging(|| {
        let timer = DelayedTaskScheduler::new().unwrap();
        let fired = Arc::new(Mutex::new(Vec::new()));
        let start = Instant::now();
        // Scheduled latest-first, 5 ms apart, all well in the future.
        let handles: Vec<_> = (0..10u64)
            .rev()
            .map(|i| {
                let fired = fired.clone();
                let deadline = start + Duration::from_millis(100 + 5 * i);
                timer
                    .schedule_at(deadline, move || fired.lock().unwrap().push(i))
                    .unwrap()
            })
            .collect();
        for handle in handles {
            handle.join().unwrap();
        }
        assert_eq!(*fired.lock().unwrap(), (0..10).collect::<Vec<_>>());
    })
}

#[test]
fn callbacks_with_equal_deadlines_fire_in_submission_order() {
    without_hanging(|| {
        let timer = DelayedTaskScheduler::new().unwrap();
        let fired = Arc::new(Mutex::new(Vec::new()));
        let deadline = Instant::now() + Duration::from_millis(20);
        let handles: Vec<_> = (0..200)
            .map(|i| {
                let fired = fired.clone();
                timer
                    .schedule_at(deadline, move || fired.lock().unwrap().push(i))
                    .unwrap()
            })
            .collect();
        for handle in handles {
            handle.join().unwrap();
        }
        assert_eq!(*fired.lock().unwrap(), (0..200).collect::<Vec<_>>());
    })
}

#[test]
fn a_new_earlier_deadline_is_not_kept_waiting_behind_a_later_one() {
    without_hanging(|| {
        let timer = DelayedTaskScheduler::new().unwrap();
        // The timer thread goes to sleep until an hour from now...
        let later = timer
            .schedule(Duration::from_secs(3600), || "later")
            .unwrap();
        std::thread::sleep(Duration::from_millis(10));
        // ...and must wake up for this one.
        let sooner = timer
            .schedule(Duration::from_millis(10), || "sooner")
            .unwrap();
        assert_eq!(sooner.join(), Ok("sooner"));
        assert_eq!(later.status(), TaskStatus::Queued);
        assert_eq!(timer.stop(), 1);
    })
}

#[test]
fn callbacks_scheduled_by_a_callback_fire_in_order_too() {
    without_hanging(|| {
        let timer = Arc::new(DelayedTaskScheduler::new().unwrap());
        let fired = Arc::new(Mutex::new(Vec::new()));
        let (t, f) = (timer.clone(), fired.clone());
        let outer = timer
            .schedule(Duration::from_millis(5), move || {
                f.lock().unwrap().push("outer");
                let now = Instant::now();
                let f2 = f.clone();
                let second = t
                    .schedule_at(now + Duration::from_millis(10), move || {
                        f2.lock().unwrap().push("second")
                    })
                    .unwrap();
                let f1 = f.clone();
                let first = t
                    .schedule_at(now + Duration::from_millis(5), move || {
                        f1.lock().unwrap().push("first")
                    })
                    .unwrap();
                (first, second)
            })
            .unwrap();
        let (first, second) = outer.join().unwrap();
        first.join().unwrap();
        second.join().unwrap();
        assert_eq!(*fired.lock().unwrap(), ["outer", "first", "second"]);
    })
}
