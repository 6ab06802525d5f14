//! `prestart` starts the core workers at build time instead of lazily.

mod support;

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

use rt_elastic::ElasticPool;
use support::{eventually, without_hanging};

#[test]
fn prestart_starts_every_core_worker_at_build_time() {
    without_hanging(|| {
        let started = Arc::new(AtomicUsize::new(0));
        let counter = started.clone();
        let pool = ElasticPool::builder()
            .core_threads(3)
            .max_threads(5)
            .prestart(true)
            .before_worker_start(move |_| {
                counter.fetch_add(1, Ordering::SeqCst);
            })
            .build()
            .unwrap();
        let stats = pool.stats();
        assert_eq!((stats.live_workers, stats.largest_pool_size), (3, 3));
        eventually(&pool, "all three idle", |s| s.idle_workers == 3);
        assert_eq!(started.load(Ordering::SeqCst), 3);
    })
}

#[test]
fn tasks_on_a_prestarted_pool_use_the_existing_workers() {
    without_hanging(|| {
        let pool = ElasticPool::builder()
            .core_threads(2)
            .prestart(true)
            .build()
            .unwrap();
        let handles: Vec<_> = (0..20).map(|i| pool.spawn(move || i)).collect();
        let sum: i32 = handles.into_iter().map(|h| h.join().unwrap()).sum();
        assert_eq!(sum, 190);
        assert_eq!(pool.stats().largest_pool_size, 2);
    })
}

#[test]
fn without_prestart_no_worker_starts_at_build_time() {
    without_hanging(|| {
        let pool = ElasticPool::builder()
            .core_threads(3)
            .prestart(false)
            .build()
            .unwrap();
        assert_eq!(pool.stats().live_workers, 0);
    })
}

#[test]
fn prestart_with_no_core_threads_starts_nothing() {
    without_hanging(|| {
        let pool = ElasticPool::builder()
            .core_threads(0)
            .max_threads(2)
            .prestart(true)
            .build()
            .unwrap();
        assert_eq!(pool.stats().live_workers, 0);
        assert_eq!(pool.spawn(|| 1).join(), Ok(1));
    })
}
