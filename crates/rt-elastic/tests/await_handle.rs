//! The elastic pool's handles are futures too (they are the same
//! `JoinHandle`): awaited in async code, and cancelled when a
//! `cancel_on_drop` future is dropped before the task started.

mod support;

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

use rt_elastic::{ElasticPool, JoinError};
use support::{occupy, without_hanging, Gate};

#[test]
fn a_handle_of_the_elastic_pool_awaited_in_tokio_yields_the_tasks_value() {
    without_hanging(|| {
        let pool = ElasticPool::builder()
            .core_threads(1)
            .max_threads(2)
            .build()
            .unwrap();
        let value = tokio::runtime::Builder::new_current_thread()
            .build()
            .unwrap()
            .block_on(async { pool.spawn(|| 6 * 7).await });
        assert_eq!(value, Ok(42));
    });
}

#[test]
fn a_panicking_task_of_the_elastic_pool_reaches_the_awaiting_code() {
    without_hanging(|| {
        let pool = ElasticPool::builder().core_threads(1).build().unwrap();
        let outcome = support::quietly(|| {
            futures::executor::block_on(pool.spawn(|| -> u8 { panic!("bad input") }))
        });
        assert_eq!(outcome, Err(JoinError::Panicked("bad input".into())));
    });
}

#[test]
fn cancel_on_drop_on_the_elastic_pool_cancels_a_queued_task() {
    without_hanging(|| {
        let pool = ElasticPool::builder()
            .core_threads(1)
            .max_threads(1)
            .build()
            .unwrap();
        let gate = Gate::new();
        let busy = occupy(&pool, &gate);
        let ran = Arc::new(AtomicUsize::new(0));
        let r = ran.clone();
        drop(
            pool.spawn(move || {
                r.fetch_add(1, Ordering::SeqCst);
            })
            .cancel_on_drop(),
        );
        gate.open();
        busy.join().unwrap();
        pool.shutdown();
        pool.wait_termination();
        assert_eq!(ran.load(Ordering::SeqCst), 0);
        assert_eq!(pool.metrics().cancelled, 1);
    });
}
