//! `JoinHandle::cancel_on_drop`: a future that cancels its task if dropped
//! before the task started, so a request that gives up stops its queued
//! work; a task already running finishes and the pool stays healthy.

mod support;

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::Duration;

use rt_core::{JoinError, Runtime};
use support::{current_thread_tokio, occupy_all_workers, without_hanging, Gate, Latch};

#[test]
fn dropped_before_the_task_started_the_body_never_runs_and_counts_as_cancelled() {
    without_hanging(|| {
        let rt = Runtime::new(1).unwrap();
        let gate = Gate::new();
        let blockers = occupy_all_workers(&rt, &gate);
        let ran = Arc::new(AtomicUsize::new(0));
        let r = ran.clone();
        let future = rt
            .spawn(move || {
                r.fetch_add(1, Ordering::SeqCst);
            })
            .cancel_on_drop();
        drop(future);
        gate.open();
        for blocker in blockers {
            blocker.join().unwrap();
        }
        rt.shutdown();
        assert_eq!(ran.load(Ordering::SeqCst), 0, "the body never ran");
        let metrics = rt.metrics();
        assert_eq!(metrics.cancelled, 1);
        assert_eq!(
            metrics.submitted,
            metrics.completed + metrics.panicked + metrics.cancelled
        );
    });
}

#[test]
fn a_timeout_that_gives_up_on_queued_work_cancels_it() {
    without_hanging(|| {
        let rt = Runtime::new(1).unwrap();
        let gate = Gate::new();
        let blockers = occupy_all_workers(&rt, &gate);
        let ran = Arc::new(AtomicUsize::new(0));
        let r = ran.clone();
        let outcome = current_thread_tokio().block_on(async {
            let work = rt
                .spawn(move || {
                    r.fetch_add(1, Ordering::SeqCst);
                })
                .cancel_on_drop();
            tokio::time::timeout(Duration::from_millis(20), work).await
        });
        assert!(outcome.is_err(), "the request timed out");
        gate.open();
        for blocker in blockers {
            blocker.join().unwrap();
        }
        rt.shutdown();
        assert_eq!(ran.load(Ordering::SeqCst), 0);
        assert_eq!(rt.metrics().cancelled, 1);
    });
}

#[test]
fn a_timeout_that_drops_the_future_of_a_running_task_lets_it_finish_and_the_pool_stays_healthy() {
    without_hanging(|| {
        let rt = Runtime::new(2).unwrap();
        let started = Latch::new(1);
        let release = Gate::new();
        let finished = Arc::new(AtomicUsize::new(0));
        let outcome = current_thread_tokio().block_on(async {
            let (started, release, finished) = (started.clone(), release.clone(), finished.clone());
            let work = rt
                .spawn(move || {
                    started.count_down();
                    release.wait();
                    finished.fetch_add(1, Ordering::SeqCst);
                    vec![0u8; 1024]
                })
                .cancel_on_drop();
            tokio::select! {
                result = work => Some(result),
                () = tokio::time::sleep(Duration::from_millis(20)) => None,
            }
        });
        assert!(outcome.is_none(), "the select gave up first");
        started.wait();
        release.open();
        // Later work still runs, and the running task finished.
        assert_eq!(futures::executor::block_on(rt.spawn(|| 5)), Ok(5));
        rt.shutdown();
        assert_eq!(finished.load(Ordering::SeqCst), 1);
        let metrics = rt.metrics();
        assert_eq!(metrics.cancelled, 0);
        assert_eq!(metrics.completed, metrics.submitted);
    });
}

#[test]
fn awaited_to_the_end_it_yields_the_tasks_result() {
    without_hanging(|| {
        let rt = Runtime::new(2).unwrap();
        let value = futures::executor::block_on(rt.spawn(|| 9).cancel_on_drop());
        assert_eq!(value, Ok(9));
        let cancelled = {
            let gate = Gate::new();
            let blockers = occupy_all_workers(&rt, &gate);
            let handle = rt.spawn(|| 1);
            assert!(handle.cancel());
            let result = futures::executor::block_on(handle.cancel_on_drop());
            gate.open();
            for blocker in blockers {
                blocker.join().unwrap();
            }
            result
        };
        assert_eq!(cancelled, Err(JoinError::Cancelled));
    });
}
