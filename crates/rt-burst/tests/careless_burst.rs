//! `BurstPool` as a new user tries it: sending before any worker exists,
//! odd builder arguments, panicking handlers, shutting down from a handler,
//! dropping with items queued.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{mpsc, Arc, OnceLock};
use std::time::Duration;

use rt_burst::{BurstPool, SendError};
use rt_testkit::{quietly, wait_until, without_hanging};

#[test]
fn sending_before_any_worker_exists_hands_the_item_back_as_full() {
    without_hanging(|| {
        let pool: BurstPool<u32> = BurstPool::new();
        assert_eq!(pool.send(1), Err(SendError::Full(1)));
        assert_eq!(pool.send_burst([1, 2]), Err(SendError::Full(vec![1, 2])));
        assert_eq!(pool.send_burst(Vec::new()), Ok(()));
    });
}

#[test]
fn a_zero_queue_capacity_is_a_build_error() {
    without_hanging(|| {
        assert!(BurstPool::<u8>::builder()
            .queue_capacity(0)
            .build()
            .is_err());
        let pool = BurstPool::<u8>::builder()
            .queue_capacity(usize::MAX)
            .build();
        assert!(pool.is_ok());
    });
}

#[test]
fn every_item_of_a_burst_is_handled_once_and_drop_handles_the_queued_rest() {
    without_hanging(|| {
        let seen = Arc::new(AtomicUsize::new(0));
        {
            let mut pool = BurstPool::builder().queue_capacity(1_000).build().unwrap();
            for _ in 0..4 {
                let seen = seen.clone();
                pool.spawn_worker(move |x: usize| {
                    seen.fetch_add(x, Ordering::SeqCst);
                });
            }
            pool.send_burst(1..=100).unwrap();
        }
        assert_eq!(seen.load(Ordering::SeqCst), 5050);
    });
}

#[test]
fn a_panicking_handler_is_counted_and_its_worker_keeps_handling() {
    without_hanging(|| {
        let mut pool = BurstPool::builder().queue_capacity(16).build().unwrap();
        let (tx, rx) = mpsc::channel();
        pool.spawn_worker(move |x: u32| {
            if x == 0 {
                std::panic::panic_any(x);
            }
            tx.send(x).unwrap();
        });
        quietly(|| {
            pool.send(0).unwrap();
            pool.send(1).unwrap();
            assert_eq!(rx.recv_timeout(Duration::from_secs(30)), Ok(1));
        });
        pool.shutdown();
        assert_eq!(pool.stats().panics(), 1);
        assert_eq!(pool.stats().handled(), 2);
    });
}

#[test]
fn after_shutdown_sends_are_closed_and_new_workers_exit_at_once() {
    without_hanging(|| {
        let mut pool = BurstPool::builder().queue_capacity(4).build().unwrap();
        pool.spawn_worker(|_: u8| {});
        pool.shutdown();
        pool.shutdown();
        assert_eq!(pool.send(1), Err(SendError::Closed(1)));
        assert_eq!(pool.send_burst([1, 2]), Err(SendError::Closed(vec![1, 2])));
        let late = pool.spawn_worker(|_: u8| {});
        assert_eq!(late, 1);
        pool.shutdown();
    });
}

#[test]
fn shutdown_called_from_inside_a_handler_does_not_hang_or_panic() {
    without_hanging(|| {
        let slot: Arc<OnceLock<Arc<BurstPool<u8>>>> = Arc::default();
        let s = slot.clone();
        let handled = Arc::new(AtomicUsize::new(0));
        let h = handled.clone();
        let mut pool = BurstPool::builder().queue_capacity(4).build().unwrap();
        pool.spawn_worker(move |_: u8| {
            h.fetch_add(1, Ordering::SeqCst);
            if let Some(pool) = s.get() {
                pool.shutdown();
            }
        });
        let pool = Arc::new(pool);
        slot.set(pool.clone()).ok().unwrap();
        pool.send(1).unwrap();
        wait_until("the handler ran", || handled.load(Ordering::SeqCst) == 1);
        wait_until("the pool is shut down", || pool.is_shutdown());
        assert_eq!(pool.send(2), Err(SendError::Closed(2)));
        assert_eq!(pool.stats().panics(), 0);
    });
}

#[test]
fn a_thread_name_with_a_nul_byte_makes_try_spawn_worker_fail_not_panic() {
    without_hanging(|| {
        let mut pool = BurstPool::builder()
            .thread_name("bad\0name")
            .build()
            .unwrap();
        let r = quietly(|| {
            std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                pool.try_spawn_worker(|_: u8| {}).is_err()
            }))
        });
        assert!(r.is_ok(), "try_spawn_worker panicked");
    });
}
