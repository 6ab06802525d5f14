//! `shutdown` runs everything accepted (including work spawned while
//! draining) and joins the workers; `stop` cancels what is queued; the
//! `wait_termination` pair waits for either to finish.

mod support;

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::thread;
use std::time::Duration;

use rt_elastic::{ElasticPool, JoinError, SubmitError, TaskStatus};
use support::{blocker, without_hanging, Gate, Latch};

fn pool(core: usize) -> ElasticPool {
    ElasticPool::builder()
        .core_threads(core)
        .max_threads(core.max(1) * 2)
        .queue_capacity(64)
        .build()
        .unwrap()
}

#[test]
fn shutdown_runs_every_accepted_task_including_those_spawned_while_draining() {
    without_hanging(|| {
        let pool = Arc::new(pool(2));
        let ran = Arc::new(AtomicUsize::new(0));
        for _ in 0..10 {
            let (inner, ran) = (pool.clone(), ran.clone());
            drop(pool.spawn(move || {
                thread::sleep(Duration::from_millis(1));
                for _ in 0..3 {
                    let ran = ran.clone();
                    drop(inner.spawn(move || {
                        ran.fetch_add(1, Ordering::SeqCst);
                    }));
                }
                ran.fetch_add(1, Ordering::SeqCst);
            }));
        }
        pool.shutdown();
        assert_eq!(ran.load(Ordering::SeqCst), 10 + 30);
        let stats = pool.stats();
        assert_eq!((stats.live_workers, stats.queued, stats.running), (0, 0, 0));
        assert_eq!(stats.metrics.submitted, 40);
        assert_eq!(stats.metrics.completed, 40);
    })
}

#[test]
fn after_shutdown_every_way_of_submitting_is_refused_without_blocking() {
    without_hanging(|| {
        let pool = pool(1);
        pool.shutdown();
        assert!(pool.is_shutdown());
        assert_eq!(pool.spawn(|| 1).join(), Err(JoinError::Rejected));
        assert!(matches!(
            pool.try_spawn(|| 1),
            Err(SubmitError::Shutdown(_))
        ));
        assert!(matches!(pool.execute(|| ()), Err(SubmitError::Shutdown(_))));
        assert!(matches!(
            pool.try_execute(|| ()),
            Err(SubmitError::Shutdown(_))
        ));
        assert_eq!(pool.stats().metrics.submitted, 0);
    })
}

#[test]
fn shutdown_is_idempotent_and_concurrent_calls_all_wait_for_the_workers() {
    without_hanging(|| {
        let pool = Arc::new(pool(2));
        let gate = Gate::new();
        let started = Latch::new(2);
        let handles: Vec<_> = (0..2).map(|_| blocker(&pool, &gate, &started)).collect();
        started.wait();
        let callers: Vec<_> = (0..3)
            .map(|_| {
                let pool = pool.clone();
                thread::spawn(move || {
                    pool.shutdown();
                    pool.stats().live_workers
                })
            })
            .collect();
        thread::sleep(Duration::from_millis(20));
        gate.open();
        for caller in callers {
            assert_eq!(caller.join().unwrap(), 0);
        }
        handles.into_iter().for_each(|h| h.join().unwrap());
        pool.shutdown();
    })
}

#[test]
fn shutdown_from_inside_a_task_starts_it_and_returns() {
    without_hanging(|| {
        let pool = Arc::new(pool(1));
        let inner = pool.clone();
        let handle = pool.spawn(move || {
            inner.shutdown();
            inner.is_shutdown()
        });
        assert_eq!(handle.join(), Ok(true));
        pool.wait_termination();
        assert_eq!(pool.stats().live_workers, 0);
    })
}

#[test]
fn dropping_the_last_handle_inside_a_task_does_not_deadlock() {
    without_hanging(|| {
        let pool = Arc::new(pool(1));
        let inner = pool.clone();
        let (tx, rx) = std::sync::mpsc::channel();
        drop(pool.spawn(move || {
            thread::sleep(Duration::from_millis(20));
            drop(inner); // may be the last handle: Drop runs shutdown on a worker
            tx.send(()).unwrap();
        }));
        drop(pool);
        rx.recv_timeout(support::PATIENCE).unwrap();
    })
}

#[test]
fn drop_shuts_the_pool_down_and_runs_queued_work() {
    without_hanging(|| {
        let ran = Arc::new(AtomicUsize::new(0));
        {
            let pool = pool(1);
            for _ in 0..20 {
                let ran = ran.clone();
                pool.execute(move || {
                    ran.fetch_add(1, Ordering::SeqCst);
                })
                .unwrap();
            }
        }
        assert_eq!(ran.load(Ordering::SeqCst), 20);
    })
}

#[test]
fn stop_cancels_queued_tasks_lets_running_ones_finish_and_counts_them() {
    without_hanging(|| {
        let pool = ElasticPool::builder().core_threads(1).build().unwrap();
        let gate = Gate::new();
        let started = Latch::new(1);
        let running = blocker(&pool, &gate, &started);
        started.wait();
        let queued: Vec<_> = (0..5).map(|i| pool.spawn(move || i)).collect();
        assert_eq!(queued[0].status(), TaskStatus::Queued);
        assert_eq!(pool.stop(), 5);
        assert!(pool.is_shutdown());
        for h in queued {
            assert_eq!(h.join(), Err(JoinError::Cancelled));
        }
        assert_eq!(running.status(), TaskStatus::Running);
        gate.open();
        assert_eq!(running.join(), Ok(()));
        assert!(pool.wait_termination_timeout(support::PATIENCE));
        let stats = pool.stats();
        assert_eq!(
            (
                stats.metrics.completed,
                stats.metrics.cancelled,
                stats.metrics.submitted
            ),
            (1, 5, 6)
        );
    })
}

#[test]
fn tasks_spawned_by_a_running_task_after_stop_are_cancelled() {
    without_hanging(|| {
        let pool = Arc::new(ElasticPool::builder().core_threads(1).build().unwrap());
        let (gate, started) = (Gate::new(), Latch::new(1));
        let inner = pool.clone();
        let (g, s) = (gate.clone(), started.clone());
        let parent = pool.spawn(move || {
            s.count_down();
            g.wait();
            inner.spawn(|| "child")
        });
        started.wait();
        assert_eq!(pool.stop(), 0);
        gate.open();
        let child = parent.join().unwrap();
        assert_eq!(child.join(), Err(JoinError::Cancelled));
        pool.wait_termination();
        let stats = pool.stats();
        assert_eq!(
            stats.metrics.submitted,
            stats.metrics.completed + stats.metrics.panicked + stats.metrics.cancelled
        );
    })
}

#[test]
fn wait_termination_times_out_while_running_and_returns_after_shutdown() {
    without_hanging(|| {
        let pool = Arc::new(pool(1));
        assert_eq!(pool.spawn(|| 1).join(), Ok(1));
        assert!(!pool.wait_termination_timeout(Duration::from_millis(10)));
        let waiter = {
            let pool = pool.clone();
            thread::spawn(move || pool.wait_termination())
        };
        pool.shutdown();
        waiter.join().unwrap();
        assert!(pool.wait_termination_timeout(Duration::ZERO));
    })
}
