//! Workers above the core size exit after the keep-alive; core workers stay
//! unless `core_timeout` is set, in which case the pool can shrink to zero
//! and start again.

mod support;

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::Duration;

use rt_elastic::ElasticPool;
use support::{blocker, eventually, occupy, without_hanging, Gate, Latch};

const KEEP_ALIVE: Duration = Duration::from_millis(30);

/// Grows `pool` (core 1, max 3, capacity 1) to three workers and lets them
/// all go idle.
fn grow_to_three(pool: &ElasticPool) {
    let gate = Gate::new();
    let running = Latch::new(3);
    let handles: Vec<_> = (0..4).map(|_| blocker(pool, &gate, &running)).collect();
    running.wait();
    assert_eq!(pool.stats().live_workers, 3);
    gate.open();
    handles.into_iter().for_each(|h| h.join().unwrap());
}

#[test]
fn workers_above_core_exit_after_the_keep_alive_and_core_workers_stay() {
    without_hanging(|| {
        let stopped = Arc::new(AtomicUsize::new(0));
        let counter = stopped.clone();
        let pool = ElasticPool::builder()
            .core_threads(1)
            .max_threads(3)
            .queue_capacity(1)
            .keep_alive(KEEP_ALIVE)
            .after_worker_stop(move |_| {
                counter.fetch_add(1, Ordering::SeqCst);
            })
            .build()
            .unwrap();
        grow_to_three(&pool);
        eventually(&pool, "shrink to the core size", |s| s.live_workers == 1);
        // Well past several keep-alives, the core worker is still there.
        std::thread::sleep(KEEP_ALIVE * 4);
        let stats = pool.stats();
        assert_eq!((stats.live_workers, stats.largest_pool_size), (1, 3));
        assert_eq!(
            stopped.load(Ordering::SeqCst),
            2,
            "each retired worker ran its stop hook"
        );
        // The survivor still works.
        assert_eq!(pool.spawn(|| 7).join(), Ok(7));
    })
}

#[test]
fn a_pool_that_shrank_grows_again_under_the_next_burst() {
    without_hanging(|| {
        let pool = ElasticPool::builder()
            .core_threads(1)
            .max_threads(3)
            .queue_capacity(1)
            .keep_alive(KEEP_ALIVE)
            .build()
            .unwrap();
        grow_to_three(&pool);
        eventually(&pool, "shrink to the core size", |s| s.live_workers == 1);
        grow_to_three(&pool);
    })
}

#[test]
fn a_zero_keep_alive_retires_extra_workers_as_soon_as_they_are_idle() {
    without_hanging(|| {
        let pool = ElasticPool::builder()
            .core_threads(1)
            .max_threads(3)
            .queue_capacity(1)
            .keep_alive(Duration::ZERO)
            .build()
            .unwrap();
        grow_to_three(&pool);
        eventually(&pool, "shrink to the core size", |s| s.live_workers == 1);
    })
}

#[test]
fn with_core_timeout_even_core_workers_exit_and_the_pool_restarts_on_demand() {
    without_hanging(|| {
        let pool = ElasticPool::builder()
            .core_threads(2)
            .keep_alive(KEEP_ALIVE)
            .core_timeout(true)
            .prestart(true)
            .build()
            .unwrap();
        assert_eq!(pool.stats().live_workers, 2);
        eventually(&pool, "every worker timed out", |s| s.live_workers == 0);
        assert_eq!(pool.spawn(|| "back").join(), Ok("back"));
        let stats = pool.stats();
        assert!(stats.live_workers <= 1, "{stats:?}");
        eventually(&pool, "timed out again", |s| s.live_workers == 0);
    })
}

#[test]
fn a_busy_worker_does_not_time_out() {
    without_hanging(|| {
        let pool = ElasticPool::builder()
            .core_threads(0)
            .max_threads(1)
            .keep_alive(Duration::from_millis(5))
            .build()
            .unwrap();
        let gate = Gate::new();
        let handle = occupy(&pool, &gate);
        std::thread::sleep(Duration::from_millis(50));
        assert_eq!(pool.stats().live_workers, 1);
        gate.open();
        handle.join().unwrap();
        eventually(&pool, "the idle worker timed out", |s| s.live_workers == 0);
    })
}
