//! A panicking task becomes `JoinError::Panicked` and takes nothing down.

#[macro_use]
mod common;

use common::Strategy;
use rt_baselines::GlobalQueuePool;
use rt_handle::{JoinError, TaskStatus};
use rt_testkit::without_hanging;

on_every_strategy!(a_panicking_task_reports_its_message_and_the_executor_keeps_working);

fn a_panicking_task_reports_its_message_and_the_executor_keeps_working(executor: impl Strategy) {
    let bad = executor.spawn(|| -> u32 { panic!("bad input {}", 7) });
    assert_eq!(bad.join(), Err(JoinError::Panicked("bad input 7".into())));

    let str_payload = executor.spawn(|| -> u32 { panic!("plain str") });
    assert_eq!(
        str_payload.join(),
        Err(JoinError::Panicked("plain str".into()))
    );

    let after: Vec<_> = (0..100).map(|i| executor.spawn(move || i)).collect();
    let results: Vec<u32> = after.into_iter().map(|h| h.join().unwrap()).collect();
    assert_eq!(results, (0..100).collect::<Vec<_>>());
    executor.shut_down();
}

#[test]
fn a_panicking_task_does_not_stop_the_only_worker_of_a_pool() {
    without_hanging(|| {
        let pool = GlobalQueuePool::new(1).unwrap();
        let panicked: Vec<_> = (0..10)
            .map(|i| pool.spawn(move || -> () { panic!("task {i} failed") }))
            .collect();
        let survivor = pool.spawn(|| "still working");
        assert_eq!(survivor.join(), Ok("still working"));
        // The survivor ran after every panic, on the only worker there is, so
        // each panicked handle already reports its final state.
        for (i, handle) in panicked.into_iter().enumerate() {
            assert_eq!(handle.status(), TaskStatus::Panicked);
            let error = handle.join().unwrap_err();
            assert_eq!(
                error,
                JoinError::Panicked(format!("task {i} failed").into())
            );
        }
        assert_eq!(pool.spawn(|| 1).join(), Ok(1));
    })
}
