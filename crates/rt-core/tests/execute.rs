//! Fire-and-forget tasks: no handle, panics counted and reported.

mod support;

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{mpsc, Arc, Mutex};

use rt_core::{Runtime, SubmitError};
use support::{quietly, without_hanging, Latch};

#[test]
fn executed_tasks_run() {
    without_hanging(|| {
        let rt = Runtime::new(2).unwrap();
        let done = Latch::new(100);
        let count = Arc::new(AtomicUsize::new(0));
        for _ in 0..100 {
            let (done, count) = (done.clone(), count.clone());
            rt.execute(move || {
                count.fetch_add(1, Ordering::Relaxed);
                done.count_down();
            })
            .unwrap();
        }
        done.wait();
        assert_eq!(count.load(Ordering::Relaxed), 100);
    })
}

#[test]
fn a_panicking_executed_task_is_counted_and_reported_to_the_panic_handler() {
    without_hanging(|| {
        let reports = Arc::new(Mutex::new(Vec::new()));
        let r = reports.clone();
        let rt = Runtime::builder()
            .threads(2)
            .panic_handler(move |worker, message| {
                r.lock().unwrap().push((worker, message.to_owned()))
            })
            .build()
            .unwrap();
        quietly(|| {
            for i in 0..5 {
                rt.execute(move || panic!("job {i} failed")).unwrap();
            }
            rt.shutdown();
        });
        let mut reports = reports.lock().unwrap().clone();
        reports.sort_by(|a, b| a.1.cmp(&b.1));
        let messages: Vec<_> = reports.iter().map(|(_, m)| m.as_str()).collect();
        assert_eq!(
            messages,
            [
                "job 0 failed",
                "job 1 failed",
                "job 2 failed",
                "job 3 failed",
                "job 4 failed"
            ]
        );
        assert!(reports.iter().all(|(w, _)| *w < 2));
        let m = rt.metrics();
        assert_eq!((m.submitted, m.panicked), (5, 5));
    })
}

#[test]
fn a_panicking_panic_handler_is_contained_and_counted() {
    without_hanging(|| {
        let rt = Runtime::builder()
            .threads(1)
            .panic_handler(|_, _| panic!("handler broke"))
            .build()
            .unwrap();
        quietly(|| {
            rt.execute(|| panic!("task broke")).unwrap();
            // The worker survived both panics and keeps working.
            assert_eq!(rt.spawn(|| 3).join(), Ok(3));
            rt.shutdown();
        });
        let m = rt.metrics();
        assert_eq!((m.panicked, m.hook_panics, m.completed), (1, 1, 1));
    })
}

#[test]
fn execute_after_shutdown_hands_the_closure_back() {
    without_hanging(|| {
        let rt = Runtime::new(1).unwrap();
        rt.shutdown();
        let (tx, rx) = mpsc::channel();
        match rt.execute(move || tx.send("ran").unwrap()) {
            Err(SubmitError::Shutdown(f)) => f(),
            other => panic!("expected Shutdown, got {other:?}"),
        }
        assert_eq!(rx.recv().unwrap(), "ran");
        assert!(rt.try_execute(|| ()).unwrap_err().is_shutdown());
    })
}
