//! tokio's own tests of `spawn_blocking` (`tokio/tests/rt_common.rs`:
//! `spawn_from_blocking`, `spawn_blocking_from_blocking`,
//! `sleep_from_blocking`, `shutdown_timeout`, `shutdown_timeout_0`;
//! `tokio/tests/task_blocking.rs` in spirit), ported: the README maps
//! `tokio::task::spawn_blocking(f)` to `ElasticPool::spawn(f)`, awaited or
//! joined.

mod support;

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{mpsc, Arc, Barrier};
use std::time::{Duration, Instant};

use rt_elastic::{ElasticPool, JoinError};
use support::{quietly, without_hanging};

fn readme_pool() -> Arc<ElasticPool> {
    // The configuration the README shows for blocking work.
    Arc::new(
        ElasticPool::builder()
            .core_threads(1)
            .max_threads(4)
            .queue_capacity(16)
            .build()
            .unwrap(),
    )
}

#[test]
fn a_blocking_task_hands_back_the_handle_of_a_task_it_spawned() {
    without_hanging(|| {
        let pool = readme_pool();
        let inner = pool.clone();
        let handle = pool.spawn(move || inner.spawn(|| "hello")).join().unwrap();
        assert_eq!(handle.join(), Ok("hello"));
    });
}

#[test]
fn a_blocking_task_spawning_another_and_joining_it_completes() {
    without_hanging(|| {
        let pool = readme_pool();
        let inner = pool.clone();
        let out = pool
            .spawn(move || inner.spawn(|| "hello").join().unwrap())
            .join();
        assert_eq!(out, Ok("hello"));
    });
}

#[test]
fn a_blocking_task_spawning_another_and_awaiting_it_with_block_on_completes_with_spare_threads() {
    without_hanging(|| {
        let pool = Arc::new(ElasticPool::builder().core_threads(2).build().unwrap());
        let inner = pool.clone();
        let out = pool
            .spawn(move || futures::executor::block_on(inner.spawn(|| "hello")).unwrap())
            .join();
        assert_eq!(out, Ok("hello"));
    });
}

#[test]
fn a_blocking_task_may_sleep_and_its_awaited_handle_resolves_afterwards() {
    without_hanging(|| {
        let pool = readme_pool();
        let start = Instant::now();
        let rt = tokio::runtime::Builder::new_current_thread()
            .enable_time()
            .build()
            .unwrap();
        let out = rt.block_on(pool.spawn(|| {
            std::thread::sleep(Duration::from_millis(20));
            "slept"
        }));
        assert_eq!(out, Ok("slept"));
        assert!(start.elapsed() >= Duration::from_millis(20));
    });
}

#[test]
fn wait_termination_timeout_after_stop_returns_false_while_a_blocking_task_still_runs() {
    without_hanging(|| {
        let pool = readme_pool();
        let (started_tx, started_rx) = mpsc::channel();
        let (release_tx, release_rx) = mpsc::channel::<()>();
        let long = pool.spawn(move || {
            started_tx.send(()).unwrap();
            let _ = release_rx.recv_timeout(Duration::from_secs(60));
        });
        started_rx.recv().unwrap();
        pool.stop();
        let start = Instant::now();
        assert!(!pool.wait_termination_timeout(Duration::from_millis(100)));
        assert!(start.elapsed() < Duration::from_secs(5));
        let start = Instant::now();
        assert!(!pool.wait_termination_timeout(Duration::ZERO));
        assert!(start.elapsed() < Duration::from_secs(1));
        release_tx.send(()).unwrap();
        assert_eq!(long.join(), Ok(()));
        assert!(pool.wait_termination_timeout(Duration::from_secs(30)));
    });
}

#[test]
fn sixteen_blocking_tasks_that_wait_for_each_other_all_run_at_once_on_sixteen_threads() {
    without_hanging(|| {
        // Every task must be running at the same time: 16 threads, and
        // a queue too small to hold any of them back.
        let pool = ElasticPool::builder()
            .core_threads(16)
            .max_threads(16)
            .queue_capacity(1)
            .build()
            .unwrap();
        let barrier = Arc::new(Barrier::new(16));
        let handles: Vec<_> = (0..16)
            .map(|_| {
                let b = barrier.clone();
                pool.spawn(move || {
                    b.wait();
                })
            })
            .collect();
        for h in handles {
            h.join().unwrap();
        }
    });
}

#[test]
fn a_panicking_blocking_task_reports_its_payload_and_the_pool_keeps_working() {
    without_hanging(|| {
        let pool = readme_pool();
        let err = quietly(|| {
            pool.spawn(|| std::panic::panic_any(17u32))
                .join()
                .unwrap_err()
        });
        assert!(err.is_panic());
        assert_eq!(*err.into_panic().downcast::<u32>().unwrap(), 17);
        assert_eq!(pool.spawn(|| 1).join(), Ok(1));
    });
}

#[test]
fn a_queued_blocking_task_cancelled_through_its_handle_never_runs() {
    without_hanging(|| {
        let pool = ElasticPool::builder()
            .core_threads(1)
            .max_threads(1)
            .build()
            .unwrap();
        let (release_tx, release_rx) = mpsc::channel::<()>();
        let (started_tx, started_rx) = mpsc::channel();
        let busy = pool.spawn(move || {
            started_tx.send(()).unwrap();
            let _ = release_rx.recv();
        });
        started_rx.recv().unwrap();
        let ran = Arc::new(AtomicUsize::new(0));
        let r = ran.clone();
        let queued = pool.spawn(move || r.fetch_add(1, Ordering::SeqCst));
        assert!(queued.cancel());
        release_tx.send(()).unwrap();
        busy.join().unwrap();
        assert_eq!(queued.join(), Err(JoinError::Cancelled));
        pool.shutdown();
        assert_eq!(ran.load(Ordering::SeqCst), 0);
        assert_eq!(pool.metrics().cancelled, 1);
    });
}
