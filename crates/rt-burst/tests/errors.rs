//! Refused items come back to the caller: `Full` when every queue is full,
//! `Closed` after shutdown; a zero capacity is refused at build time.

mod support;

use rt_burst::{BuildError, BurstPool, SendError};
use rt_testkit::without_hanging;
use support::{wait_all_busy, wait_all_parked, Gate};

/// Two workers with queues of one, each stuck in its handler with one more
/// item queued: every queue is full.
fn full_pool(gate: &Gate) -> BurstPool<String> {
    let mut pool = BurstPool::builder()
        .queue_capacity(1)
        .thread_name("full")
        .build()
        .unwrap();
    for _ in 0..2 {
        let gate = gate.clone();
        pool.spawn_worker(move |_: String| gate.wait());
    }
    wait_all_parked(&pool);
    pool.send_burst(["a", "b"].map(String::from)).unwrap();
    wait_all_busy(&pool);
    pool.send_burst(["c", "d"].map(String::from)).unwrap();
    pool
}

#[test]
fn a_send_when_every_queue_is_full_returns_the_item_as_full() {
    without_hanging(|| {
        let gate = Gate::new();
        let pool = full_pool(&gate);
        let err = pool.send(String::from("overflow")).unwrap_err();
        assert!(err.is_full());
        assert_eq!(err.into_inner(), "overflow");
        gate.open();
        pool.shutdown();
        assert_eq!(
            pool.stats().handled(),
            4,
            "the refused item was not handled"
        );
    })
}

#[test]
fn a_burst_that_does_not_fit_returns_the_items_left_over_in_order() {
    without_hanging(|| {
        let gate = Gate::new();
        let mut pool = BurstPool::builder()
            .queue_capacity(2)
            .thread_name("full")
            .build()
            .unwrap();
        let g = gate.clone();
        pool.spawn_worker(move |_: u32| g.wait());
        wait_all_parked(&pool);
        let rest = pool.send_burst(0..5).unwrap_err();
        assert_eq!(rest, SendError::Full(vec![2, 3, 4]));
        gate.open();
        pool.shutdown();
        assert_eq!(pool.stats().handled(), 2);
    })
}

#[test]
fn a_send_after_shutdown_returns_the_item_as_closed() {
    without_hanging(|| {
        let mut pool = BurstPool::new();
        pool.spawn_worker(|_: String| {});
        pool.shutdown();
        let err = pool.send(String::from("late")).unwrap_err();
        assert!(err.is_closed());
        assert_eq!(err.to_string(), "the burst pool is shut down");
        assert_eq!(err.into_inner(), "late");
    })
}

#[test]
fn a_burst_after_shutdown_returns_every_item_as_closed() {
    without_hanging(|| {
        let mut pool = BurstPool::new();
        pool.spawn_worker(|_: u8| {});
        pool.shutdown();
        assert_eq!(
            pool.send_burst([1, 2, 3]),
            Err(SendError::Closed(vec![1, 2, 3]))
        );
    })
}

#[test]
fn a_send_to_a_pool_without_workers_returns_the_item_as_full() {
    without_hanging(|| {
        let pool = BurstPool::new();
        assert_eq!(pool.send(5), Err(SendError::Full(5)));
    })
}

#[test]
fn a_queue_capacity_of_zero_is_a_build_error() {
    without_hanging(|| {
        let err = BurstPool::<u8>::builder()
            .queue_capacity(0)
            .build()
            .unwrap_err();
        assert!(matches!(err, BuildError::ZeroCapacity));
    })
}

#[test]
fn a_send_error_prints_without_the_item_being_debug() {
    without_hanging(|| {
        struct Opaque;
        let err = SendError::Full(Opaque);
        assert_eq!(format!("{err:?}"), "Full(..)");
        assert_eq!(err.to_string(), "every worker's queue is full");
    })
}
