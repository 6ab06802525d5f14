//! Tasks run and their results come back, on every strategy.

#[macro_use]
mod common;

use std::collections::HashSet;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::thread;

use common::Strategy;
use rt_baselines::{GlobalQueuePool, SingleThreaded, ThreadPerTask};
use rt_handle::{CancellationToken, JoinHandle, Priority};
use rt_testkit::without_hanging;

on_every_strategy!(
    results_come_back,
    ten_thousand_small_tasks_all_complete,
    a_task_can_spawn_children_and_grandchildren_on_its_own_executor,
);

fn results_come_back(executor: impl Strategy) {
    assert_eq!(executor.spawn(|| 6 * 7).join(), Ok(42));
    for priority in Priority::ALL {
        let handle = executor.spawn_with_priority(priority, move || priority);
        assert_eq!(handle.join(), Ok(priority));
    }
    let token = CancellationToken::new();
    let handle = executor.spawn_cancellable(Priority::Normal, &token, |ctx| ctx.is_cancelled());
    assert_eq!(handle.join(), Ok(false));
    let owned = executor.spawn(|| String::from("owned result"));
    assert_eq!(owned.join().as_deref(), Ok("owned result"));
}

fn ten_thousand_small_tasks_all_complete(executor: impl Strategy) {
    const TASKS: usize = 10_000;
    let ran = Arc::new(AtomicUsize::new(0));
    let handles: Vec<JoinHandle<usize>> = (0..TASKS)
        .map(|i| {
            let ran = Arc::clone(&ran);
            executor.spawn(move || {
                ran.fetch_add(1, Ordering::Relaxed);
                i
            })
        })
        .collect();
    let results: Vec<usize> = handles.into_iter().map(|h| h.join().unwrap()).collect();
    assert_eq!(results, (0..TASKS).collect::<Vec<_>>());
    assert_eq!(ran.load(Ordering::Relaxed), TASKS);
}

fn a_task_can_spawn_children_and_grandchildren_on_its_own_executor<E: Strategy>(executor: E) {
    let executor = Arc::new(executor);
    let inner = Arc::clone(&executor);
    // The parent hands back its children's handles instead of joining them,
    // so the test cannot deadlock a pool whose workers are all parents.
    let parent = executor.spawn(move || {
        (0..10_u32)
            .map(|i| {
                let innermost = Arc::clone(&inner);
                inner.spawn(move || (i, innermost.spawn(move || i * 100)))
            })
            .collect::<Vec<_>>()
    });
    let mut total = 0;
    for child in parent.join().unwrap() {
        let (i, grandchild) = child.join().unwrap();
        assert_eq!(grandchild.join(), Ok(i * 100));
        total += i;
    }
    assert_eq!(total, (0..10).sum());
    executor.shut_down();
}

#[test]
fn a_global_queue_pool_runs_tasks_on_its_named_workers() {
    without_hanging(|| {
        let pool = GlobalQueuePool::new(2).unwrap();
        assert_eq!(pool.threads(), 2);
        let names: HashSet<String> = (0..200)
            .map(|_| pool.spawn(|| thread::current().name().map(str::to_owned)))
            .collect::<Vec<_>>()
            .into_iter()
            .map(|h| h.join().unwrap().expect("workers are named"))
            .collect();
        let allowed: HashSet<String> =
            ["global-queue-0".to_owned(), "global-queue-1".to_owned()].into();
        assert!(!names.is_empty());
        assert!(
            names.is_subset(&allowed),
            "unexpected worker names {names:?}"
        );
    })
}

#[test]
fn a_global_queue_pool_starts_as_many_workers_as_asked() {
    without_hanging(|| {
        let pool = Arc::new(GlobalQueuePool::new(3).unwrap());
        assert_eq!(pool.threads(), 3);
        // Three tasks that each wait for the other two can only finish if three
        // workers run them at the same time.
        let barrier = Arc::new(std::sync::Barrier::new(3));
        let handles: Vec<_> = (0..3)
            .map(|_| {
                let barrier = Arc::clone(&barrier);
                pool.spawn(move || {
                    barrier.wait();
                    thread::current().id()
                })
            })
            .collect();
        let ids: HashSet<_> =
            common::without_deadlock("three concurrent tasks on three workers", move || {
                handles.into_iter().map(|h| h.join().unwrap()).collect()
            });
        assert_eq!(ids.len(), 3);
    })
}

#[test]
fn thread_per_task_runs_every_task_on_a_new_thread() {
    without_hanging(|| {
        let executor = ThreadPerTask::new();
        let caller = thread::current().id();
        // Joined one by one, so no two tasks overlap; distinct ids then prove
        // fresh threads (std never reuses a `ThreadId`).
        let ids: Vec<_> = (0..20)
            .map(|_| {
                executor
                    .spawn(|| {
                        (
                            thread::current().id(),
                            thread::current().name().map(str::to_owned),
                        )
                    })
                    .join()
                    .unwrap()
            })
            .collect();
        let distinct: HashSet<_> = ids.iter().map(|(id, _)| *id).collect();
        assert_eq!(distinct.len(), ids.len());
        assert!(!distinct.contains(&caller));
        assert!(ids
            .iter()
            .all(|(_, name)| name.as_deref() == Some("thread-per-task")));
    })
}

#[test]
fn single_threaded_runs_each_task_on_the_caller_before_spawn_returns() {
    without_hanging(|| {
        let executor = Arc::new(SingleThreaded::new());
        let caller = thread::current().id();
        let inner = Arc::clone(&executor);
        let handle = executor.spawn(move || {
            let nested = inner.spawn(|| thread::current().id());
            assert!(nested.is_finished(), "a nested spawn also runs inline");
            (thread::current().id(), nested.join().unwrap())
        });
        assert!(handle.is_finished());
        assert_eq!(handle.join(), Ok((caller, caller)));
    })
}

#[test]
fn debug_output_names_each_executor_and_its_state() {
    without_hanging(|| {
        let pool = GlobalQueuePool::new(1).unwrap();
        let debug = format!("{pool:?}");
        assert!(debug.starts_with("GlobalQueuePool"), "{debug}");
        assert!(debug.contains("threads: 1"), "{debug}");
        assert!(debug.contains("shut_down: false"), "{debug}");
        pool.shutdown();
        assert!(format!("{pool:?}").contains("shut_down: true"));

        let per_task = ThreadPerTask::new();
        assert!(format!("{per_task:?}").starts_with("ThreadPerTask"));
        let inline = SingleThreaded::new();
        assert!(format!("{inline:?}").starts_with("SingleThreaded"));
    })
}

/// The inherent methods work without `rt_handle::Executor` in scope.
mod without_the_trait_in_scope {
    use rt_baselines::{GlobalQueuePool, SingleThreaded, ThreadPerTask};
    use rt_handle::{CancellationToken, Priority};

    #[test]
    fn every_strategy_offers_spawn_methods_and_shutdown_directly() {
        let token = CancellationToken::new();

        let pool = GlobalQueuePool::new(1).unwrap();
        assert_eq!(pool.spawn(|| 1).join(), Ok(1));
        assert_eq!(pool.spawn_with_priority(Priority::High, || 2).join(), Ok(2));
        assert_eq!(
            pool.spawn_cancellable(Priority::Background, &token, |_| 3)
                .join(),
            Ok(3)
        );
        pool.shutdown();

        let per_task = ThreadPerTask::new();
        assert_eq!(per_task.spawn(|| 1).join(), Ok(1));
        assert_eq!(
            per_task.spawn_with_priority(Priority::High, || 2).join(),
            Ok(2)
        );
        assert_eq!(
            per_task
                .spawn_cancellable(Priority::Background, &token, |_| 3)
                .join(),
            Ok(3)
        );
        per_task.shutdown();

        let inline = SingleThreaded::new();
        assert_eq!(inline.spawn(|| 1).join(), Ok(1));
        assert_eq!(
            inline.spawn_with_priority(Priority::High, || 2).join(),
            Ok(2)
        );
        assert_eq!(
            inline
                .spawn_cancellable(Priority::Background, &token, |_| 3)
                .join(),
            Ok(3)
        );
        inline.shutdown();
    }
}
