//! Thousands of callbacks on one timer thread: each fires exactly once, in
//! deadline order, and `stop` counts exactly what it cancels.

mod support;

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Barrier, Mutex};
use std::thread;
use std::time::{Duration, Instant};

use rt_core::Runtime;
use rt_testkit::without_hanging;
use rt_timer::{DelayedTaskScheduler, JoinError};
use support::spread_deadlines;

#[test]
fn ten_thousand_callbacks_each_fire_exactly_once_in_deadline_order() {
    without_hanging(|| {
        let timer = DelayedTaskScheduler::new().unwrap();
        // Deadlines from 50 ms on, so that (almost) all are scheduled before
        // the first one is due.
        let start = Instant::now() + Duration::from_millis(50);
        let deadlines = spread_deadlines(
            start,
            rt_testkit::scaled(10_000),
            Duration::from_millis(300),
            3,
        );
        let fired = Arc::new(Mutex::new(Vec::with_capacity(deadlines.len())));
        let handles: Vec<_> = deadlines
            .iter()
            .enumerate()
            .map(|(i, &deadline)| {
                let fired = fired.clone();
                timer
                    .schedule_at(deadline, move || fired.lock().unwrap().push(i))
                    .unwrap()
            })
            .collect();
        let all_scheduled = Instant::now();
        for handle in handles {
            handle.join().unwrap();
        }
        let fired = fired.lock().unwrap();
        assert_eq!(fired.len(), deadlines.len());
        let mut seen = vec![false; deadlines.len()];
        // An entry whose deadline passed while others were still being
        // scheduled may fire after later deadlines that were in the heap before
        // it; every entry due after the last `schedule_at` fires in order.
        let in_heap_together: Vec<usize> = fired
            .iter()
            .copied()
            .filter(|&i| deadlines[i] >= all_scheduled)
            .collect();
        assert!(in_heap_together.len() > deadlines.len() / 2);
        for pair in in_heap_together.windows(2) {
            let (a, b) = (pair[0], pair[1]);
            assert!(
                (deadlines[a], a) < (deadlines[b], b),
                "fired {a} before {b} out of order"
            );
        }
        for &i in fired.iter() {
            assert!(!seen[i], "callback {i} fired twice");
            seen[i] = true;
        }
    })
}

#[test]
fn thousands_of_callbacks_handed_to_a_runtime_all_complete() {
    without_hanging(|| {
        let rt = Runtime::new(2).unwrap();
        let timer = DelayedTaskScheduler::new().unwrap();
        let count = Arc::new(AtomicUsize::new(0));
        let deadlines = spread_deadlines(
            Instant::now(),
            rt_testkit::scaled(5_000),
            Duration::from_millis(100),
            5,
        );
        let handles: Vec<_> = deadlines
            .iter()
            .map(|&deadline| {
                let count = count.clone();
                timer
                    .schedule_at_on(&rt, deadline, move || count.fetch_add(1, Ordering::Relaxed))
                    .unwrap()
            })
            .collect();
        for handle in handles {
            handle.join().unwrap();
        }
        assert_eq!(count.load(Ordering::Relaxed), rt_testkit::scaled(5_000));
    })
}

#[test]
fn concurrent_scheduling_and_cancelling_then_stop_counts_exactly_the_rest() {
    without_hanging(|| {
        let timer = Arc::new(DelayedTaskScheduler::new().unwrap());
        let threads = 4;
        let per_thread = rt_testkit::scaled(1_000);
        let barrier = Arc::new(Barrier::new(threads));
        let workers: Vec<_> = (0..threads)
            .map(|_| {
                let (timer, barrier) = (timer.clone(), barrier.clone());
                thread::spawn(move || {
                    barrier.wait();
                    let mut cancelled = 0;
                    let mut handles = Vec::with_capacity(per_thread);
                    for i in 0..per_thread {
                        let handle = timer
                            .schedule(Duration::from_secs(3600), move || i)
                            .unwrap();
                        if i % 3 == 0 && handle.cancel() {
                            cancelled += 1;
                        }
                        handles.push(handle);
                    }
                    (cancelled, handles)
                })
            })
            .collect();
        let mut cancelled = 0;
        let mut handles = Vec::new();
        for worker in workers {
            let (c, h) = worker.join().unwrap();
            cancelled += c;
            handles.extend(h);
        }
        assert_eq!(timer.pending(), threads * per_thread - cancelled);
        assert_eq!(timer.stop(), threads * per_thread - cancelled);
        for handle in handles {
            assert_eq!(handle.join(), Err(JoinError::Cancelled));
        }
        timer.wait_termination();
    })
}
