//! A task's handle reports its status, and can cancel it before it starts.

mod support;

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{mpsc, Arc};

use rt_core::{JoinError, Priority, Runtime, TaskStatus};
use support::{occupy_all_workers, quietly, without_hanging, Gate};

#[test]
fn a_task_goes_from_queued_to_running_to_finished() {
    without_hanging(|| {
        let rt = Runtime::new(1).unwrap();
        let gate = Gate::new();
        let blockers = occupy_all_workers(&rt, &gate);
        let (started_tx, started) = mpsc::channel();
        let release = Gate::new();
        let r = release.clone();
        let handle = rt.spawn_with_priority(Priority::Normal, move || {
            started_tx.send(()).unwrap();
            r.wait();
            "done"
        });
        assert_eq!(handle.status(), TaskStatus::Queued);
        gate.open();
        started.recv().unwrap();
        assert_eq!(handle.status(), TaskStatus::Running);
        release.open();
        drop(blockers);
        while !handle.is_finished() {
            std::thread::yield_now();
        }
        assert_eq!(handle.status(), TaskStatus::Finished);
        assert_eq!(handle.join(), Ok("done"));
    })
}

#[test]
fn a_task_that_panics_reports_panicked() {
    without_hanging(|| {
        let rt = Runtime::new(1).unwrap();
        let handle = quietly(|| {
            let h = rt.spawn_with_priority(Priority::High, || -> () { panic!("nope") });
            while !h.is_finished() {
                std::thread::yield_now();
            }
            h
        });
        assert_eq!(handle.status(), TaskStatus::Panicked);
        assert_eq!(handle.join(), Err(JoinError::Panicked("nope".into())));
    })
}

#[test]
fn cancel_before_start_succeeds_and_the_body_never_runs() {
    without_hanging(|| {
        let rt = Runtime::new(1).unwrap();
        let gate = Gate::new();
        let _blockers = occupy_all_workers(&rt, &gate);
        let ran = Arc::new(AtomicBool::new(false));
        let r = ran.clone();
        let handle = rt.spawn_with_priority(Priority::Background, move || {
            r.store(true, Ordering::SeqCst)
        });
        assert!(handle.cancel());
        assert_eq!(handle.status(), TaskStatus::Cancelled);
        gate.open();
        rt.shutdown();
        assert!(!ran.load(Ordering::SeqCst));
        assert_eq!(handle.join(), Err(JoinError::Cancelled));
    })
}

#[test]
fn cancel_after_start_fails_and_the_task_completes() {
    without_hanging(|| {
        let rt = Runtime::new(1).unwrap();
        let (started_tx, started) = mpsc::channel();
        let release = Gate::new();
        let r = release.clone();
        let handle = rt.spawn_with_priority(Priority::Normal, move || {
            started_tx.send(()).unwrap();
            r.wait();
            5
        });
        started.recv().unwrap();
        assert!(!handle.cancel());
        release.open();
        assert_eq!(handle.join(), Ok(5));
    })
}
