//! Bad configuration is a `BuildError`, never a panic or a half-built pool.

use std::time::Duration;

use rt_elastic::{BuildError, ElasticPool};
use rt_testkit::without_hanging;

#[test]
fn a_max_of_zero_is_refused() {
    without_hanging(|| {
        let err = ElasticPool::builder()
            .core_threads(0)
            .max_threads(0)
            .build()
            .unwrap_err();
        assert!(
            matches!(err, BuildError::MaxBelowCore { core: 0, max: 0 }),
            "{err:?}"
        );
    })
}

#[test]
fn a_max_below_core_is_refused() {
    without_hanging(|| {
        let err = ElasticPool::builder()
            .core_threads(4)
            .max_threads(3)
            .build()
            .unwrap_err();
        assert!(
            matches!(err, BuildError::MaxBelowCore { core: 4, max: 3 }),
            "{err:?}"
        );
    })
}

#[test]
fn a_zero_queue_capacity_is_refused() {
    without_hanging(|| {
        let err = ElasticPool::builder()
            .core_threads(1)
            .queue_capacity(0)
            .build()
            .unwrap_err();
        assert!(matches!(err, BuildError::ZeroCapacity), "{err:?}");
    })
}

#[test]
fn a_zero_keep_alive_is_refused_only_when_core_workers_may_time_out() {
    without_hanging(|| {
        let err = ElasticPool::builder()
            .core_threads(1)
            .keep_alive(Duration::ZERO)
            .core_timeout(true)
            .build()
            .unwrap_err();
        assert!(matches!(err, BuildError::ZeroKeepAlive), "{err:?}");
        assert!(ElasticPool::builder()
            .core_threads(1)
            .keep_alive(Duration::ZERO)
            .build()
            .is_ok());
    })
}

#[test]
fn an_unset_max_follows_core_and_an_unset_core_fits_under_max() {
    without_hanging(|| {
        let pool = ElasticPool::builder().core_threads(3).build().unwrap();
        assert_eq!((pool.core_threads(), pool.max_threads()), (3, 3));
        let pool = ElasticPool::builder().core_threads(0).build().unwrap();
        assert_eq!((pool.core_threads(), pool.max_threads()), (0, 1));
        let pool = ElasticPool::builder().max_threads(1).build().unwrap();
        assert_eq!((pool.core_threads(), pool.max_threads()), (1, 1));
    })
}

/// A stack far larger than any address space: the OS refuses the thread.
#[cfg(all(target_os = "linux", target_pointer_width = "64"))]
const IMPOSSIBLE_STACK: usize = 1 << 60;

#[cfg(all(target_os = "linux", target_pointer_width = "64"))]
#[test]
fn a_prestarted_worker_the_os_refuses_is_a_spawn_error() {
    without_hanging(|| {
        let err = ElasticPool::builder()
            .core_threads(2)
            .prestart(true)
            .stack_size(IMPOSSIBLE_STACK)
            .build()
            .unwrap_err();
        assert!(matches!(err, BuildError::Spawn { index: 0, .. }), "{err:?}");
    })
}

#[cfg(all(target_os = "linux", target_pointer_width = "64"))]
#[test]
fn a_worker_the_os_refuses_at_run_time_makes_the_pool_saturated() {
    without_hanging(|| {
        let pool = ElasticPool::builder()
            .core_threads(1)
            .stack_size(IMPOSSIBLE_STACK)
            .build()
            .unwrap();
        let err = pool.try_spawn(|| 1).unwrap_err();
        assert!(err.is_saturated());
        assert_eq!(err.into_inner()(), 1, "the closure comes back");
        let stats = pool.stats();
        assert_eq!(
            (stats.live_workers, stats.metrics.submitted),
            (0, 0),
            "{stats:?}"
        );
        pool.shutdown();
    })
}
