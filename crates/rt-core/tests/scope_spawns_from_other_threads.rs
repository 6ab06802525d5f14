//! A scope's tasks may be spawned from threads that are not workers of its
//! runtime (a `std::thread` started inside the scope, a worker of another
//! runtime): the scope still runs them all, even on one worker.

mod support;

use std::sync::atomic::{AtomicUsize, Ordering};

use rt_core::Runtime;
use support::without_hanging;

#[test]
fn a_task_spawned_into_a_scope_from_a_plain_thread_runs_on_a_one_worker_runtime() {
    without_hanging(|| {
        let rt = Runtime::new(1).unwrap();
        let ran = AtomicUsize::new(0);
        rt.scope(|s| {
            std::thread::scope(|threads| {
                threads.spawn(|| {
                    s.spawn(|| ran.fetch_add(1, Ordering::SeqCst));
                });
            });
        });
        assert_eq!(ran.load(Ordering::SeqCst), 1);
    });
}

#[test]
fn many_tasks_spawned_from_several_plain_threads_all_run_before_the_scope_returns() {
    without_hanging(|| {
        let rt = Runtime::new(2).unwrap();
        let ran = AtomicUsize::new(0);
        rt.scope(|s| {
            std::thread::scope(|threads| {
                for _ in 0..4 {
                    threads.spawn(|| {
                        for _ in 0..50 {
                            s.spawn(|| ran.fetch_add(1, Ordering::SeqCst));
                        }
                    });
                }
            });
        });
        assert_eq!(ran.load(Ordering::SeqCst), 200);
    });
}

#[test]
fn a_plain_thread_may_join_the_task_it_spawned_into_the_scope() {
    without_hanging(|| {
        let rt = Runtime::new(2).unwrap();
        let total = rt.scope(|s| {
            std::thread::scope(|threads| {
                threads
                    .spawn(|| s.spawn(|| 40 + 2).join().unwrap())
                    .join()
                    .unwrap()
            })
        });
        assert_eq!(total, 42);
    });
}

#[test]
fn a_worker_of_another_runtime_may_spawn_into_the_scope() {
    without_hanging(|| {
        let rt = Runtime::new(1).unwrap();
        let other = Runtime::new(1).unwrap();
        let ran = AtomicUsize::new(0);
        rt.scope(|s| {
            other.install(|| {
                s.spawn(|| ran.fetch_add(1, Ordering::SeqCst));
            });
        });
        assert_eq!(ran.load(Ordering::SeqCst), 1);
    });
}

#[test]
fn tasks_spawned_from_outside_are_counted_once_in_the_metrics() {
    without_hanging(|| {
        let rt = Runtime::new(1).unwrap();
        rt.scope(|s| {
            std::thread::scope(|threads| {
                threads.spawn(|| {
                    for _ in 0..10 {
                        s.spawn(|| ());
                    }
                });
            });
        });
        rt.shutdown();
        let m = rt.metrics();
        assert_eq!((m.submitted, m.completed), (10, 10));
    });
}
