//! Building a global queue pool.

use rt_baselines::BuildError;
use rt_baselines::GlobalQueuePool;
use rt_testkit::without_hanging;

#[test]
fn asking_for_zero_threads_is_a_build_error() {
    without_hanging(|| {
        let error = GlobalQueuePool::new(0).unwrap_err();
        assert!(matches!(error, BuildError::ZeroThreads), "{error:?}");
        assert!(error.to_string().contains("at least one worker thread"));
    })
}

#[test]
fn a_pool_of_one_thread_is_fine() {
    without_hanging(|| {
        let pool = GlobalQueuePool::new(1).unwrap();
        assert_eq!(pool.threads(), 1);
        assert_eq!(pool.spawn(|| 1).join(), Ok(1));
    })
}
