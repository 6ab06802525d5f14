//! Tasks run and return their values; panics are caught and never kill a
//! worker; priorities order queued work; cancellation; and the pool works
//! unchanged behind the `Executor` trait (run_graph, submitters).

mod support;

use std::sync::{Arc, Mutex};

use rt_dag::{run_graph, NodeStatus, TaskGraph};
use rt_elastic::{
    CancellationToken, ElasticPool, Executor, Job, JoinError, Priority, ProvidesSubmitter,
    Submitter,
};
use support::{eventually, occupy, quietly, without_hanging, Gate};

#[test]
fn spawned_tasks_return_their_values() {
    without_hanging(|| {
        let pool = ElasticPool::builder().core_threads(2).build().unwrap();
        let handles: Vec<_> = (0..100u64).map(|i| pool.spawn(move || i * i)).collect();
        let sum: u64 = handles.into_iter().map(|h| h.join().unwrap()).sum();
        assert_eq!(sum, (0..100u64).map(|i| i * i).sum());
    })
}

#[test]
fn a_panicking_task_reports_its_message_and_the_worker_keeps_working() {
    without_hanging(|| {
        let pool = ElasticPool::builder()
            .core_threads(1)
            .max_threads(1)
            .build()
            .unwrap();
        let results = quietly(|| {
            let bad = pool.spawn(|| -> u32 { panic!("bad input") });
            let good = pool.spawn(|| 5);
            (bad.join(), good.join())
        });
        assert_eq!(results.0, Err(JoinError::Panicked("bad input".into())));
        assert_eq!(results.1, Ok(5));
        // A task's handle completes just before the worker counts it.
        eventually(&pool, "both tasks counted", |s| {
            s.metrics.completed + s.metrics.panicked == 2
        });
        let stats = pool.stats();
        assert_eq!((stats.live_workers, stats.largest_pool_size), (1, 1));
        assert_eq!((stats.metrics.completed, stats.metrics.panicked), (1, 1));
    })
}

#[test]
fn an_executed_task_that_panics_goes_to_the_panic_handler_with_the_worker_index() {
    without_hanging(|| {
        let seen = Arc::new(Mutex::new(Vec::new()));
        let log = seen.clone();
        let pool = ElasticPool::builder()
            .core_threads(1)
            .panic_handler(move |worker, message| {
                log.lock().unwrap().push((worker, message.to_owned()))
            })
            .build()
            .unwrap();
        quietly(|| {
            pool.execute(|| panic!("fire and forget")).unwrap();
            pool.shutdown();
        });
        assert_eq!(*seen.lock().unwrap(), [(0, "fire and forget".to_owned())]);
        assert_eq!(pool.stats().metrics.panicked, 1);
    })
}

#[test]
fn queued_tasks_start_by_priority_then_in_submission_order() {
    without_hanging(|| {
        let pool = ElasticPool::builder()
            .core_threads(1)
            .max_threads(1)
            .build()
            .unwrap();
        let gate = Gate::new();
        let busy = occupy(&pool, &gate);
        let order = Arc::new(Mutex::new(Vec::new()));
        let plan = [
            (Priority::Background, "b1"),
            (Priority::Normal, "n1"),
            (Priority::High, "h1"),
            (Priority::Background, "b2"),
            (Priority::High, "h2"),
            (Priority::Normal, "n2"),
        ];
        let handles: Vec<_> = plan
            .iter()
            .map(|&(priority, tag)| {
                let order = order.clone();
                pool.spawn_with_priority(priority, move || order.lock().unwrap().push(tag))
            })
            .collect();
        assert_eq!(pool.stats().queued_by_priority, [2, 2, 2]);
        gate.open();
        busy.join().unwrap();
        handles.into_iter().for_each(|h| h.join().unwrap());
        assert_eq!(*order.lock().unwrap(), ["h1", "h2", "n1", "n2", "b1", "b2"]);
    })
}

#[test]
fn a_task_cancelled_while_queued_never_runs() {
    without_hanging(|| {
        let pool = ElasticPool::builder().core_threads(1).build().unwrap();
        let gate = Gate::new();
        let busy = occupy(&pool, &gate);
        let token = CancellationToken::new();
        let by_token = pool.spawn_cancellable(Priority::Normal, &token, |_| "ran");
        let by_handle = pool.spawn(|| "ran");
        token.cancel();
        assert!(by_handle.cancel());
        gate.open();
        busy.join().unwrap();
        assert_eq!(by_token.join(), Err(JoinError::Cancelled));
        assert_eq!(by_handle.join(), Err(JoinError::Cancelled));
        pool.shutdown();
        let stats = pool.stats();
        assert_eq!((stats.metrics.completed, stats.metrics.cancelled), (1, 2));
    })
}

#[test]
fn a_dependency_graph_runs_on_the_pool_through_the_executor_trait() {
    without_hanging(|| {
        let pool = ElasticPool::builder()
            .core_threads(1)
            .max_threads(4)
            .queue_capacity(2)
            .build()
            .unwrap();
        let mut graph = TaskGraph::new();
        let fetch = graph.add_task(|_| 20u32);
        let parts: Vec<_> = (0..6u32)
            .map(|i| {
                graph
                    .add_task_after(&[fetch], move |deps| deps.get::<u32>(fetch).unwrap() + i)
                    .unwrap()
            })
            .collect();
        let needs = parts.clone();
        let total = graph
            .add_task_after(&parts, move |deps| {
                needs
                    .iter()
                    .map(|p| *deps.get::<u32>(*p).unwrap())
                    .sum::<u32>()
            })
            .unwrap();
        let mut outcome = run_graph(&pool, graph);
        assert_eq!(outcome.status(total).unwrap(), &NodeStatus::Completed);
        assert_eq!(outcome.take::<u32>(total).unwrap(), 6 * 20 + 15);
    })
}

#[test]
fn the_pool_works_behind_the_executor_trait_and_a_submitter() {
    without_hanging(|| {
        fn spawn_on<E: Executor>(executor: &E) -> u8 {
            executor.spawn(|| 8).join().unwrap()
        }
        let pool = ElasticPool::builder().core_threads(1).build().unwrap();
        assert_eq!(spawn_on(&pool), 8);
        let submitter = pool.submitter();
        let (job, handle) = Job::new(|| 9);
        assert!(submitter.try_submit(Priority::Background, job).is_ok());
        assert_eq!(handle.join(), Ok(9));
        pool.shutdown();
        let (job, handle) = Job::new(|| 10);
        assert!(submitter.try_submit(Priority::Normal, job).is_err());
        drop(pool);
        let (job, _) = Job::new(|| 11);
        assert!(submitter.try_submit(Priority::Normal, job).is_err(), "gone");
        assert_eq!(handle.join(), Err(JoinError::Rejected));
    })
}

#[test]
fn stats_account_for_every_accepted_task_after_shutdown() {
    without_hanging(|| {
        let pool = ElasticPool::builder()
            .core_threads(1)
            .max_threads(3)
            .queue_capacity(4)
            .build()
            .unwrap();
        quietly(|| {
            for i in 0..50 {
                drop(pool.spawn(move || {
                    if i % 10 == 0 {
                        panic!("every tenth");
                    }
                }));
            }
            pool.shutdown();
        });
        let stats = pool.stats();
        assert_eq!(stats.metrics.submitted, 50);
        assert_eq!((stats.metrics.completed, stats.metrics.panicked), (45, 5));
        assert_eq!(stats.metrics.pending(), 0);
    })
}
