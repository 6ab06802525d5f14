//! The scheduler is an `Executor`: `JoinHandle`s, `spawn` and `run_graph`
//! work on it unchanged (jobs run as soon as possible on the timer thread).

use rt_dag::{run_graph, NodeStatus, TaskGraph};
use rt_testkit::without_hanging;
use rt_timer::{CancellationToken, DelayedTaskScheduler, Executor, Job, JoinError, Priority};

#[test]
fn spawn_runs_the_closure_on_the_timer_thread_as_soon_as_possible() {
    without_hanging(|| {
        let timer = DelayedTaskScheduler::builder()
            .thread_name("tick")
            .build()
            .unwrap();
        let name = timer.spawn(|| std::thread::current().name().map(str::to_owned));
        assert_eq!(name.join().unwrap().as_deref(), Some("tick"));
        assert_eq!(timer.thread_name(), "tick");
        assert_eq!(
            timer.spawn_with_priority(Priority::High, || 1).join(),
            Ok(1)
        );
    })
}

#[test]
fn a_cancelled_token_skips_a_spawned_job() {
    without_hanging(|| {
        let timer = DelayedTaskScheduler::new().unwrap();
        let token = CancellationToken::new();
        token.cancel();
        let skipped = timer.spawn_cancellable(Priority::Normal, &token, |_| ());
        assert_eq!(skipped.join(), Err(JoinError::Cancelled));
    })
}

#[test]
fn a_task_graph_runs_on_the_scheduler() {
    without_hanging(|| {
        let timer = DelayedTaskScheduler::new().unwrap();
        let mut graph = TaskGraph::new();
        let a = graph.add_task(|_| 20u32);
        let b = graph.add_task(|_| 22u32);
        let sum = graph
            .add_task_after(&[a, b], move |deps| {
                deps.get::<u32>(a).unwrap() + deps.get::<u32>(b).unwrap()
            })
            .unwrap();
        let mut outcome = run_graph(&timer, graph);
        assert_eq!(outcome.status(sum).unwrap(), &NodeStatus::Completed);
        assert_eq!(outcome.take::<u32>(sum).unwrap(), 42);
    })
}

#[test]
fn generic_code_over_executors_accepts_the_scheduler() {
    without_hanging(|| {
        fn double_on<E: Executor>(executor: &E, x: u64) -> u64 {
            executor.spawn(move || x * 2).join().unwrap()
        }
        let timer = DelayedTaskScheduler::new().unwrap();
        assert_eq!(double_on(&timer, 21), 42);
    })
}

#[test]
fn every_public_type_can_be_debug_printed() {
    without_hanging(|| {
        let timer = DelayedTaskScheduler::new().unwrap();
        let handle = timer
            .schedule(std::time::Duration::from_secs(60), || ())
            .unwrap();
        let text = format!("{timer:?} {handle:?} {:?}", DelayedTaskScheduler::builder());
        assert!(text.contains("DelayedTaskScheduler"));
        assert!(text.contains("ScheduledHandle"));
        assert!(text.contains("Builder"));
    })
}

#[test]
fn the_scheduler_and_its_handles_can_be_shared_between_threads() {
    without_hanging(|| {
        fn assert_send_sync<T: Send + Sync + 'static>() {}
        assert_send_sync::<DelayedTaskScheduler>();
        assert_send_sync::<rt_timer::ScheduledHandle<String>>();
        assert_send_sync::<rt_timer::Builder>();
    })
}

#[test]
fn submitted_jobs_run_until_shutdown_and_are_handed_back_after_it() {
    without_hanging(|| {
        let timer = DelayedTaskScheduler::new().unwrap();
        let (job, handle) = Job::new(|| 1);
        assert!(Executor::submit(&timer, Priority::Normal, job).is_ok());
        assert_eq!(handle.join(), Ok(1));
        timer.shutdown();
        let (job, handle) = Job::new(|| 2);
        let refused = Executor::submit(&timer, Priority::Normal, job).unwrap_err();
        refused.reject();
        assert_eq!(handle.join(), Err(JoinError::Rejected));
    })
}
