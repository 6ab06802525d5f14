//! At `max_threads` with a full queue the pool is saturated: the `try_`
//! methods hand the closure back, the blocking ones wait for room, and tasks
//! submitted by the pool's own tasks are still accepted.

mod support;

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{mpsc, Arc};
use std::thread;
use std::time::Duration;

use rt_elastic::{
    ElasticPool, Executor, Job, JoinError, Priority, ProvidesSubmitter, SubmitError, Submitter,
};
use support::{blocker, without_hanging, Gate, Latch};

/// A pool of at most two workers and one queue place, with both workers
/// blocked on `gate` and the place taken.
fn saturated(gate: &Gate) -> (ElasticPool, Vec<rt_elastic::JoinHandle<()>>) {
    let pool = ElasticPool::builder()
        .core_threads(1)
        .max_threads(2)
        .queue_capacity(1)
        .build()
        .unwrap();
    let running = Latch::new(2);
    let handles = (0..3).map(|_| blocker(&pool, gate, &running)).collect();
    running.wait();
    let stats = pool.stats();
    assert_eq!((stats.live_workers, stats.queued), (2, 1), "{stats:?}");
    (pool, handles)
}

#[test]
fn try_spawn_hands_the_closure_back_when_saturated() {
    without_hanging(|| {
        let gate = Gate::new();
        let (pool, handles) = saturated(&gate);
        match pool.try_spawn(|| 41 + 1) {
            Err(SubmitError::Saturated(f)) => assert_eq!(f(), 42),
            other => panic!("expected Saturated, got {other:?}"),
        }
        gate.open();
        handles.into_iter().for_each(|h| h.join().unwrap());
        assert_eq!(pool.try_spawn(|| 1).map(|h| h.join()).ok(), Some(Ok(1)));
    })
}

#[test]
fn try_execute_hands_the_closure_back_when_saturated() {
    without_hanging(|| {
        let gate = Gate::new();
        let (pool, handles) = saturated(&gate);
        let ran = Arc::new(AtomicBool::new(false));
        let flag = ran.clone();
        let back = pool
            .try_execute(move || flag.store(true, Ordering::SeqCst))
            .unwrap_err();
        assert!(back.is_saturated());
        back.into_inner()();
        assert!(ran.load(Ordering::SeqCst));
        gate.open();
        handles.into_iter().for_each(|h| h.join().unwrap());
    })
}

#[test]
fn the_submitter_hands_the_job_back_when_saturated() {
    without_hanging(|| {
        let gate = Gate::new();
        let (pool, handles) = saturated(&gate);
        let (job, handle) = Job::new(|| 3);
        let job = pool
            .submitter()
            .try_submit(Priority::High, job)
            .unwrap_err();
        drop(job);
        assert_eq!(handle.join(), Err(JoinError::Rejected));
        gate.open();
        handles.into_iter().for_each(|h| h.join().unwrap());
    })
}

#[test]
fn spawn_blocks_while_saturated_and_proceeds_once_a_place_frees() {
    without_hanging(|| {
        let gate = Gate::new();
        let (pool, handles) = saturated(&gate);
        let pool = Arc::new(pool);
        let (tx, rx) = mpsc::channel();
        let submitter = {
            let pool = pool.clone();
            thread::spawn(move || {
                let handle = pool.spawn(|| "late");
                tx.send(()).unwrap();
                handle.join()
            })
        };
        assert!(
            rx.recv_timeout(Duration::from_millis(100)).is_err(),
            "spawn returned although the pool is saturated"
        );
        gate.open();
        rx.recv_timeout(support::PATIENCE)
            .expect("spawn never returned");
        assert_eq!(submitter.join().unwrap(), Ok("late"));
        handles.into_iter().for_each(|h| h.join().unwrap());
    })
}

#[test]
fn execute_and_executor_submit_also_block_while_saturated() {
    without_hanging(|| {
        let gate = Gate::new();
        let (pool, handles) = saturated(&gate);
        let pool = Arc::new(pool);
        let done = Latch::new(2);
        let waiter = {
            let (pool, done) = (pool.clone(), done.clone());
            thread::spawn(move || {
                let d = done.clone();
                pool.execute(move || d.count_down()).unwrap();
                let d = done.clone();
                let handle =
                    Executor::spawn_with_priority(&*pool, Priority::Background, move || {
                        d.count_down()
                    });
                handle.join()
            })
        };
        thread::sleep(Duration::from_millis(50));
        assert_eq!(pool.stats().queued, 1, "nothing got past the full queue");
        gate.open();
        assert_eq!(waiter.join().unwrap(), Ok(()));
        done.wait();
        handles.into_iter().for_each(|h| h.join().unwrap());
    })
}

#[test]
fn a_blocked_spawn_is_rejected_when_the_pool_shuts_down() {
    without_hanging(|| {
        let gate = Gate::new();
        let (pool, handles) = saturated(&gate);
        let pool = Arc::new(pool);
        let waiter = {
            let pool = pool.clone();
            thread::spawn(move || pool.spawn(|| ()).join())
        };
        thread::sleep(Duration::from_millis(50));
        let closer = {
            let pool = pool.clone();
            thread::spawn(move || pool.shutdown())
        };
        assert_eq!(waiter.join().unwrap(), Err(JoinError::Rejected));
        gate.open();
        closer.join().unwrap();
        handles.into_iter().for_each(|h| h.join().unwrap());
    })
}

#[test]
fn tasks_submitted_by_tasks_are_accepted_even_when_saturated() {
    without_hanging(|| {
        let pool = Arc::new(
            ElasticPool::builder()
                .core_threads(1)
                .max_threads(2)
                .queue_capacity(1)
                .build()
                .unwrap(),
        );
        let (gate, go) = (Gate::new(), Gate::new());
        let running = Latch::new(2);
        let fan_out = {
            let (inner, go, running) = (pool.clone(), go.clone(), running.clone());
            pool.spawn(move || {
                running.count_down();
                go.wait();
                let children: Vec<_> = (0..5).map(|i| inner.try_spawn(move || i).ok()).collect();
                let queued = inner.stats().queued;
                (queued, children)
            })
        };
        let queued = blocker(&pool, &gate, &running);
        let second = blocker(&pool, &gate, &running);
        running.wait();
        assert!(pool.try_spawn(|| ()).is_err(), "saturated for outsiders");
        go.open();
        let (queued_then, children) = fan_out.join().unwrap();
        assert!(
            children.iter().all(Option::is_some),
            "every child was accepted"
        );
        assert_eq!(queued_then, 1 + 5, "past the bound of 1");
        gate.open();
        let sum: i32 = children
            .into_iter()
            .flatten()
            .map(|h| h.join().unwrap())
            .sum();
        assert_eq!(sum, 10);
        queued.join().unwrap();
        second.join().unwrap();
    })
}

#[test]
fn try_submit_hands_the_job_back_as_saturated() {
    without_hanging(|| {
        let gate = Gate::new();
        let (pool, handles) = saturated(&gate);
        let (job, handle) = Job::new(|| 5);
        let refused = pool.try_submit(Priority::Normal, job).unwrap_err();
        assert!(refused.is_saturated());
        gate.open();
        pool.submit(Priority::Normal, refused.into_inner()).unwrap();
        assert_eq!(handle.join(), Ok(5));
        for h in handles {
            h.join().unwrap();
        }
    })
}

#[test]
fn a_waker_registered_while_saturated_is_woken_when_a_task_leaves_the_queue() {
    without_hanging(|| {
        let gate = Gate::new();
        let (pool, handles) = saturated(&gate);
        let (wakes, waker) = rt_testkit::counting_waker();
        pool.wake_when_capacity(&waker);
        assert_eq!(wakes.get(), 0, "still saturated");
        gate.open();
        rt_testkit::wait_until("the waker is woken", || wakes.get() == 1);
        for h in handles {
            h.join().unwrap();
        }
    })
}

#[test]
fn a_graph_awaited_on_a_saturated_pool_waits_without_blocking_its_thread() {
    without_hanging(|| {
        let gate = Gate::new();
        let (pool, handles) = saturated(&gate);
        let mut graph = rt_dag::TaskGraph::new();
        let node = graph.add_task(|_| 2_u8);
        let outcome = tokio::runtime::Builder::new_current_thread()
            .build()
            .unwrap()
            .block_on(async {
                // Polled after the graph: if submitting its node blocked the
                // thread, the workers would never be released.
                let release = async { gate.open() };
                let (outcome, ()) = futures::join!(rt_dag::run_graph_async(&pool, graph), release);
                outcome
            });
        assert_eq!(outcome.status(node), Ok(&rt_dag::NodeStatus::Completed));
        for h in handles {
            h.join().unwrap();
        }
    })
}
