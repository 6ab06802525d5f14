//! What a new user does around shutdown without reading the docs first:
//! spawning afterwards, stopping twice, shutting down or dropping the
//! runtime from inside its own tasks, asking for stats meanwhile.

mod support;

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{mpsc, Arc};
use std::thread;
use std::time::Duration;

use rt_core::{CancellationToken, JoinError, Priority, Runtime, TaskStatus};
use support::{occupy_all_workers, wait_until, without_hanging, Gate};

#[test]
fn every_way_of_submitting_after_shutdown_is_refused_at_once() {
    without_hanging(|| {
        let rt = Runtime::new(2).unwrap();
        rt.shutdown();
        assert_eq!(rt.spawn(|| 1).join(), Err(JoinError::Rejected));
        for p in Priority::ALL {
            assert_eq!(
                rt.spawn_with_priority(p, || 1).join(),
                Err(JoinError::Rejected)
            );
        }
        let token = CancellationToken::new();
        assert_eq!(
            rt.spawn_cancellable(Priority::High, &token, |_| 1).join(),
            Err(JoinError::Rejected)
        );
        assert!(rt.try_spawn(|| 1).unwrap_err().is_shutdown());
        assert!(rt.execute(|| ()).unwrap_err().is_shutdown());
        assert!(rt.try_execute(|| ()).unwrap_err().is_shutdown());
        assert_eq!(rt.spawn(|| 1).status(), TaskStatus::Rejected);
        let m = rt.metrics();
        assert_eq!(m.submitted, m.finished());
    });
}

#[test]
fn stop_twice_cancels_nothing_the_second_time() {
    without_hanging(|| {
        let rt = Runtime::new(1).unwrap();
        let gate = Gate::new();
        let blockers = occupy_all_workers(&rt, &gate);
        let queued: Vec<_> = (0..5).map(|i| rt.spawn(move || i)).collect();
        assert_eq!(rt.stop(), 5);
        assert_eq!(rt.stop(), 0);
        gate.open();
        blockers.into_iter().for_each(|h| h.join().unwrap());
        for h in queued {
            assert_eq!(h.join(), Err(JoinError::Cancelled));
        }
        rt.wait_termination();
        assert_eq!(rt.stop(), 0);
    });
}

#[test]
fn shutdown_then_stop_and_stop_then_shutdown_both_end_the_runtime() {
    without_hanging(|| {
        let a = Runtime::new(2).unwrap();
        a.shutdown();
        assert_eq!(a.stop(), 0);
        a.wait_termination();
        let b = Runtime::new(2).unwrap();
        b.stop();
        b.shutdown();
        b.shutdown();
        b.wait_termination();
        assert!(a.is_shutdown() && b.is_shutdown());
    });
}

#[test]
fn shutdown_from_inside_a_task_returns_and_the_task_still_delivers_its_value() {
    without_hanging(|| {
        let rt = Arc::new(Runtime::new(2).unwrap());
        let inner = rt.clone();
        let h = rt.spawn(move || {
            inner.shutdown();
            assert!(inner.is_shutdown());
            "done"
        });
        assert_eq!(h.join(), Ok("done"));
        rt.shutdown();
        rt.wait_termination();
    });
}

#[test]
fn stop_from_inside_a_task_cancels_the_queued_tasks_and_the_caller_finishes() {
    without_hanging(|| {
        let rt = Arc::new(Runtime::new(1).unwrap());
        let inner = rt.clone();
        let (go_tx, go_rx) = mpsc::channel::<()>();
        let first = rt.spawn(move || {
            go_rx.recv().unwrap();
            inner.stop()
        });
        let queued: Vec<_> = (0..3).map(|_| rt.spawn(|| ())).collect();
        go_tx.send(()).unwrap();
        assert_eq!(first.join(), Ok(3));
        for h in queued {
            assert_eq!(h.join(), Err(JoinError::Cancelled));
        }
        rt.wait_termination();
    });
}

#[test]
fn tasks_spawned_by_a_task_after_stop_are_cancelled_and_after_shutdown_still_run() {
    without_hanging(|| {
        let rt = Arc::new(Runtime::new(1).unwrap());
        let inner = rt.clone();
        let child = rt
            .spawn(move || {
                inner.shutdown();
                inner.spawn(|| 5)
            })
            .join()
            .unwrap();
        assert_eq!(child.join(), Ok(5));

        let rt = Arc::new(Runtime::new(1).unwrap());
        let inner = rt.clone();
        let child = rt
            .spawn(move || {
                inner.stop();
                inner.spawn(|| 5)
            })
            .join()
            .unwrap();
        assert_eq!(child.join(), Err(JoinError::Cancelled));
    });
}

#[test]
fn wait_termination_inside_a_task_after_shutting_down_from_it_does_not_hang() {
    without_hanging(|| {
        let rt = Arc::new(Runtime::new(2).unwrap());
        let inner = rt.clone();
        let h = rt.spawn(move || {
            inner.shutdown();
            inner.wait_termination();
        });
        // Either outcome is fine (a clear panic, or a return); hanging is not.
        let _ = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| h.join()));
        rt.shutdown();
    });
}

#[test]
fn wait_termination_timeout_inside_a_task_reports_false_instead_of_blocking_for_ever() {
    without_hanging(|| {
        let rt = Arc::new(Runtime::new(2).unwrap());
        let inner = rt.clone();
        let h = rt.spawn(move || {
            inner.shutdown();
            inner.wait_termination_timeout(Duration::from_millis(50))
        });
        assert_eq!(h.join(), Ok(false));
        rt.shutdown();
        assert!(rt.wait_termination_timeout(Duration::from_secs(10)));
    });
}

#[test]
fn dropping_the_last_reference_inside_its_own_task_runs_every_queued_task_and_stops_the_workers() {
    without_hanging(|| {
        let stopped = Arc::new(AtomicUsize::new(0));
        let s = stopped.clone();
        let rt = Arc::new(
            Runtime::builder()
                .threads(2)
                .after_worker_stop(move |_| {
                    s.fetch_add(1, Ordering::SeqCst);
                })
                .build()
                .unwrap(),
        );
        let ran = Arc::new(AtomicUsize::new(0));
        let (go_tx, go_rx) = mpsc::channel::<()>();
        let last = rt.clone();
        rt.spawn(move || {
            go_rx.recv().unwrap();
            drop(last);
        });
        let handles: Vec<_> = (0..100)
            .map(|_| {
                let ran = ran.clone();
                rt.spawn(move || {
                    ran.fetch_add(1, Ordering::SeqCst);
                })
            })
            .collect();
        drop(rt);
        go_tx.send(()).unwrap();
        for h in handles {
            h.join().unwrap();
        }
        assert_eq!(ran.load(Ordering::SeqCst), 100);
        wait_until("both workers stopped", || {
            stopped.load(Ordering::SeqCst) == 2
        });
    });
}

#[test]
fn dropping_the_last_reference_from_a_one_worker_runtimes_only_task_does_not_deadlock() {
    without_hanging(|| {
        let rt = Arc::new(Runtime::new(1).unwrap());
        let last = rt.clone();
        let (tx, rx) = mpsc::channel();
        let h = rt.spawn(move || {
            thread::sleep(Duration::from_millis(20));
            drop(last);
            tx.send(()).unwrap();
            7
        });
        drop(rt);
        rx.recv().unwrap();
        assert_eq!(h.join(), Ok(7));
    });
}

#[test]
fn stats_can_be_read_during_and_after_shutdown_and_add_up_at_the_end() {
    without_hanging(|| {
        let rt = Arc::new(Runtime::new(2).unwrap());
        for _ in 0..1_000 {
            rt.spawn(|| thread::sleep(Duration::from_micros(10)));
        }
        let reader = {
            let rt = rt.clone();
            thread::spawn(move || {
                let mut last = 0;
                for _ in 0..200 {
                    let s = rt.stats();
                    assert!(s.metrics.finished() <= s.metrics.submitted);
                    assert!(s.metrics.finished() >= last);
                    last = s.metrics.finished();
                    assert_eq!(s.threads, 2);
                }
            })
        };
        rt.shutdown();
        reader.join().unwrap();
        let s = rt.stats();
        assert_eq!(s.metrics.submitted, 1_000);
        assert_eq!(s.metrics.finished(), 1_000);
        assert_eq!(s.queued_total(), 0);
        assert_eq!(s.running, 0);
        assert_eq!(s.workers.len(), 2);
        assert!(format!("{rt:?}").contains("shut_down: true"));
    });
}

#[test]
fn install_scope_and_join_after_shutdown_run_on_the_caller() {
    without_hanging(|| {
        let rt = Runtime::new(2).unwrap();
        rt.shutdown();
        assert_eq!(rt.install(rt_core::current_thread_index), None);
        let (a, b) = rt.join(|| 1, || 2);
        assert_eq!((a, b), (1, 2));
        let mut v = vec![0; 4];
        rt.scope(|s| {
            for (i, x) in v.iter_mut().enumerate() {
                s.spawn(move || *x = i);
            }
        });
        assert_eq!(v, [0, 1, 2, 3]);
    });
}

#[test]
fn shutdown_while_another_thread_waits_in_install_lets_the_install_finish() {
    without_hanging(|| {
        let rt = Arc::new(Runtime::new(1).unwrap());
        let (started_tx, started_rx) = mpsc::channel();
        let installer = {
            let rt = rt.clone();
            thread::spawn(move || {
                rt.install(|| {
                    started_tx.send(()).unwrap();
                    thread::sleep(Duration::from_millis(50));
                    rt_core::join(|| 1, || 2)
                })
            })
        };
        started_rx.recv().unwrap();
        rt.shutdown();
        assert_eq!(installer.join().unwrap(), (1, 2));
    });
}

#[test]
fn wait_termination_returns_once_another_thread_stops_the_runtime() {
    without_hanging(|| {
        let rt = Arc::new(Runtime::new(2).unwrap());
        let stopper = {
            let rt = rt.clone();
            thread::spawn(move || {
                thread::sleep(Duration::from_millis(50));
                rt.stop();
            })
        };
        rt.wait_termination();
        assert!(rt.is_shutdown());
        stopper.join().unwrap();
    });
}

#[test]
fn shutdown_from_inside_an_install_closure_returns() {
    without_hanging(|| {
        let rt = Runtime::new(2).unwrap();
        let v = rt.install(|| {
            rt.shutdown();
            rt_core::join(|| 3, || 4)
        });
        assert_eq!(v, (3, 4));
        rt.shutdown();
    });
}

#[test]
fn shutdown_from_a_worker_hook_does_not_deadlock() {
    without_hanging(|| {
        let slot: Arc<std::sync::OnceLock<std::sync::Weak<Runtime>>> = Arc::default();
        let s = slot.clone();
        let rt = Arc::new(
            Runtime::builder()
                .threads(2)
                .after_task(move |_| {
                    if let Some(rt) = s.get().and_then(std::sync::Weak::upgrade) {
                        rt.shutdown();
                    }
                })
                .build()
                .unwrap(),
        );
        slot.set(Arc::downgrade(&rt)).unwrap();
        assert_eq!(rt.spawn(|| 1).join(), Ok(1));
        rt.wait_termination();
        assert!(rt.is_shutdown());
    });
}

#[test]
fn concurrent_shutdown_stop_and_wait_termination_from_many_threads_all_return() {
    without_hanging(|| {
        let rt = Arc::new(Runtime::new(2).unwrap());
        for _ in 0..200 {
            rt.spawn(|| thread::sleep(Duration::from_micros(50)));
        }
        let threads: Vec<_> = (0..6)
            .map(|i| {
                let rt = rt.clone();
                thread::spawn(move || match i % 3 {
                    0 => rt.shutdown(),
                    1 => {
                        rt.stop();
                    }
                    _ => rt.wait_termination(),
                })
            })
            .collect();
        threads.into_iter().for_each(|t| t.join().unwrap());
        let m = rt.metrics();
        assert_eq!(m.submitted, m.finished());
    });
}
