//! `stop()` while a scope runs loses none of the scope's tasks: like the
//! halves of a `join`, they are part of their caller's computation, so they
//! still run, and the scope returns once all did.

mod support;

use std::sync::atomic::{AtomicUsize, Ordering};

use rt_core::Runtime;
use support::{without_hanging, Gate, Latch};

/// Runs a scope on `rt` that queues `tasks` tasks and then holds its worker
/// until another thread has called `stop`; returns how many tasks ran and
/// what `stop` returned.
fn scope_interrupted_by_stop(rt: &Runtime, tasks: usize) -> (usize, usize) {
    let ran = AtomicUsize::new(0);
    let (queued, stopped) = (Latch::new(1), Gate::new());
    let mut cancelled = 0;
    std::thread::scope(|threads| {
        let stopper = threads.spawn(|| {
            queued.wait();
            let cancelled = rt.stop();
            stopped.open();
            cancelled
        });
        rt.scope(|s| {
            for _ in 0..tasks {
                s.spawn(|| ran.fetch_add(1, Ordering::SeqCst));
            }
            queued.count_down();
            stopped.wait();
        });
        cancelled = stopper.join().unwrap();
    });
    (ran.load(Ordering::SeqCst), cancelled)
}

#[test]
fn every_task_of_a_scope_runs_when_stop_is_called_while_it_runs() {
    without_hanging(|| {
        let rt = Runtime::new(1).unwrap();
        let (ran, cancelled) = scope_interrupted_by_stop(&rt, 16);
        assert_eq!((ran, cancelled), (16, 0));
    });
}

#[test]
fn every_task_of_a_scope_runs_on_two_workers_when_stop_is_called() {
    without_hanging(|| {
        let rt = Runtime::new(2).unwrap();
        let (ran, _) = scope_interrupted_by_stop(&rt, 64);
        assert_eq!(ran, 64);
    });
}

#[test]
fn tasks_spawned_into_a_scope_after_stop_still_run() {
    without_hanging(|| {
        let rt = Runtime::new(1).unwrap();
        let ran = AtomicUsize::new(0);
        rt.scope(|s| {
            rt.stop();
            s.spawn(|| ran.fetch_add(1, Ordering::SeqCst));
            std::thread::scope(|threads| {
                threads.spawn(|| s.spawn(|| ran.fetch_add(1, Ordering::SeqCst)));
            });
        });
        assert_eq!(ran.load(Ordering::SeqCst), 2);
    });
}

#[test]
fn after_a_stopped_scope_the_counts_are_exact() {
    without_hanging(|| {
        let rt = Runtime::new(1).unwrap();
        scope_interrupted_by_stop(&rt, 8);
        rt.wait_termination();
        let m = rt.metrics();
        assert_eq!(m.submitted, m.completed + m.panicked + m.cancelled);
        assert_eq!(m.completed, 8);
    });
}
