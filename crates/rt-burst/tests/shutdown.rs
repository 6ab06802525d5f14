//! Shutdown (and `Drop`) lets workers finish everything they were given,
//! then joins them.

mod support;

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, OnceLock, Weak};
use std::thread;
use std::time::Duration;

use rt_burst::{BurstPool, SendError};
use rt_testkit::without_hanging;
use support::wait_until;

/// Set when the handler (owned by the worker thread) is dropped, i.e. when
/// the worker loop has ended.
struct ExitFlag(Arc<AtomicBool>);

impl Drop for ExitFlag {
    fn drop(&mut self) {
        self.0.store(true, Ordering::SeqCst);
    }
}

/// `workers` slow workers (0.2 ms per item) counting into `handled`; the
/// returned flags are set when each worker loop ends.
fn slow_pool(workers: usize, handled: &Arc<AtomicUsize>) -> (BurstPool<u32>, Vec<Arc<AtomicBool>>) {
    let mut pool = BurstPool::builder()
        .queue_capacity(100)
        .thread_name("drain")
        .build()
        .unwrap();
    let mut exited = Vec::new();
    for _ in 0..workers {
        let flag = Arc::new(AtomicBool::new(false));
        let guard = ExitFlag(flag.clone());
        let handled = handled.clone();
        pool.spawn_worker(move |_: u32| {
            let _owned = &guard;
            thread::sleep(Duration::from_micros(200));
            handled.fetch_add(1, Ordering::SeqCst);
        });
        exited.push(flag);
    }
    (pool, exited)
}

#[test]
fn shutdown_handles_every_item_already_queued_then_joins_the_workers() {
    without_hanging(|| {
        let handled = Arc::new(AtomicUsize::new(0));
        let (pool, exited) = slow_pool(3, &handled);
        pool.send_burst(0..150).unwrap();
        pool.shutdown();
        assert_eq!(handled.load(Ordering::SeqCst), 150);
        assert!(
            exited.iter().all(|f| f.load(Ordering::SeqCst)),
            "every worker exited"
        );
        let stats = pool.stats();
        assert_eq!(stats.handled(), 150);
        assert_eq!(stats.queued(), 0);
        assert!(pool.is_shutdown());
    })
}

#[test]
fn dropping_the_pool_drains_and_joins_like_shutdown() {
    without_hanging(|| {
        let handled = Arc::new(AtomicUsize::new(0));
        let (pool, exited) = slow_pool(2, &handled);
        pool.send_burst(0..60).unwrap();
        drop(pool);
        assert_eq!(handled.load(Ordering::SeqCst), 60);
        assert!(
            exited.iter().all(|f| f.load(Ordering::SeqCst)),
            "every worker exited"
        );
    })
}

#[test]
fn shutdown_called_twice_or_concurrently_returns_only_after_the_workers_exited() {
    without_hanging(|| {
        let handled = Arc::new(AtomicUsize::new(0));
        let (pool, exited) = slow_pool(2, &handled);
        pool.send_burst(0..40).unwrap();
        let pool = Arc::new(pool);
        let callers: Vec<_> = (0..2)
            .map(|_| {
                let (pool, exited) = (pool.clone(), exited.clone());
                thread::spawn(move || {
                    pool.shutdown();
                    assert!(exited.iter().all(|f| f.load(Ordering::SeqCst)));
                })
            })
            .collect();
        for caller in callers {
            caller.join().unwrap();
        }
        pool.shutdown();
        assert_eq!(handled.load(Ordering::SeqCst), 40);
    })
}

#[test]
fn shutdown_from_inside_a_handler_closes_the_pool_without_deadlocking() {
    without_hanging(|| {
        let cell: Arc<OnceLock<Weak<BurstPool<u32>>>> = Arc::new(OnceLock::new());
        let mut pool = BurstPool::builder()
            .thread_name("selfstop")
            .build()
            .unwrap();
        let inside = cell.clone();
        pool.spawn_worker(move |_: u32| {
            if let Some(pool) = inside.get().and_then(Weak::upgrade) {
                pool.shutdown();
            }
        });
        let pool = Arc::new(pool);
        cell.set(Arc::downgrade(&pool)).unwrap();
        pool.send(1).unwrap();
        wait_until("the handler shut the pool down", || pool.is_shutdown());
        assert_eq!(pool.send(2), Err(SendError::Closed(2)));
        pool.shutdown(); // from outside: joins the worker
        assert_eq!(pool.stats().handled(), 1);
    })
}

#[test]
fn a_worker_spawned_after_shutdown_accepts_nothing_and_exits() {
    without_hanging(|| {
        let mut pool = BurstPool::builder().thread_name("late").build().unwrap();
        pool.shutdown();
        let flag = Arc::new(AtomicBool::new(false));
        let guard = ExitFlag(flag.clone());
        pool.spawn_worker(move |_: u8| {
            let _owned = &guard;
        });
        assert_eq!(pool.send(1), Err(SendError::Closed(1)));
        pool.shutdown();
        assert!(flag.load(Ordering::SeqCst));
    })
}
