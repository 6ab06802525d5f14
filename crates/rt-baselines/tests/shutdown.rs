//! Shutdown refuses new work, finishes accepted work (including work spawned
//! while draining), waits for its threads, and never deadlocks.

#[macro_use]
mod common;

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Arc;
use std::thread;
use std::time::Duration;

use common::{blocked_pool, without_deadlock, Gate, Strategy};
use rt_baselines::{GlobalQueuePool, SingleThreaded, ThreadPerTask};
use rt_handle::{CancellationToken, JoinError, JoinHandle, Priority, TaskStatus};
use rt_testkit::without_hanging;

on_every_strategy!(
    shutdown_is_idempotent,
    spawning_after_shutdown_is_rejected_at_once,
    dropping_without_shutdown_runs_every_accepted_task,
    shutdown_called_from_inside_a_task_does_not_deadlock,
    a_task_can_still_spawn_children_after_starting_the_shutdown,
);

fn shutdown_is_idempotent(executor: impl Strategy) {
    let before = executor.spawn(|| 1);
    executor.shut_down();
    executor.shut_down();
    assert!(executor.shutting_down());
    assert_eq!(before.join(), Ok(1));
    assert_eq!(executor.spawn(|| 2).join(), Err(JoinError::Rejected));
    executor.shut_down();
    // ...and the drop at the end of this function shuts down once more.
}

fn spawning_after_shutdown_is_rejected_at_once(executor: impl Strategy) {
    executor.shut_down();
    let ran = Arc::new(AtomicUsize::new(0));
    let token = CancellationToken::new();
    let (a, b, c) = (Arc::clone(&ran), Arc::clone(&ran), Arc::clone(&ran));
    let handles: [JoinHandle<usize>; 3] = [
        executor.spawn(move || a.fetch_add(1, Ordering::SeqCst)),
        executor.spawn_with_priority(Priority::High, move || b.fetch_add(1, Ordering::SeqCst)),
        executor.spawn_cancellable(Priority::Background, &token, move |_| {
            c.fetch_add(1, Ordering::SeqCst)
        }),
    ];
    for handle in handles {
        // Decided inside `spawn`: nothing is left to wait for.
        assert_eq!(handle.status(), TaskStatus::Rejected);
        assert_eq!(handle.join(), Err(JoinError::Rejected));
    }
    assert_eq!(ran.load(Ordering::SeqCst), 0);
}

fn dropping_without_shutdown_runs_every_accepted_task(executor: impl Strategy) {
    const TASKS: usize = 200;
    let ran = Arc::new(AtomicUsize::new(0));
    for _ in 0..TASKS {
        let ran = Arc::clone(&ran);
        // Detached on purpose: only the drop can make these tasks finish
        // before the count is read.
        drop(executor.spawn(move || {
            thread::sleep(Duration::from_micros(200));
            ran.fetch_add(1, Ordering::SeqCst);
        }));
    }
    drop(executor);
    assert_eq!(ran.load(Ordering::SeqCst), TASKS);
}

fn shutdown_called_from_inside_a_task_does_not_deadlock<E: Strategy>(executor: E) {
    let executor = Arc::new(executor);
    let inner = Arc::clone(&executor);
    let outer = Arc::clone(&executor);
    without_deadlock("a task shutting down its own executor", move || {
        let handle = outer.spawn(move || {
            inner.shut_down();
            "returned"
        });
        assert_eq!(handle.join(), Ok("returned"));
        assert!(outer.shutting_down());
        assert_eq!(outer.spawn(|| ()).join(), Err(JoinError::Rejected));
        // From outside, shutdown now waits for the threads and returns.
        outer.shut_down();
    });
}

fn a_task_can_still_spawn_children_after_starting_the_shutdown<E: Strategy>(executor: E) {
    let executor = Arc::new(executor);
    let inner = Arc::clone(&executor);
    let outer = Arc::clone(&executor);
    let result = without_deadlock("spawning while shutting down", move || {
        let parent = outer.spawn(move || {
            inner.shut_down();
            let grand = Arc::clone(&inner);
            inner.spawn(move || grand.spawn(|| "grandchild ran"))
        });
        parent.join().unwrap().join().unwrap().join()
    });
    assert_eq!(result, Ok("grandchild ran"));
    assert_eq!(
        executor.spawn(|| "outsider").join(),
        Err(JoinError::Rejected)
    );
    executor.shut_down();
}

#[test]
fn a_pool_drains_queued_tasks_and_the_children_they_spawn_before_shutdown_returns() {
    without_hanging(|| {
        const PARENTS: usize = 50;
        let gate = Arc::new(Gate::default());
        let pool = Arc::new(blocked_pool(&gate));
        let ran = Arc::new(AtomicUsize::new(0));
        let parents: Vec<JoinHandle<JoinHandle<usize>>> = (0..PARENTS)
            .map(|i| {
                let (inner, ran) = (Arc::clone(&pool), Arc::clone(&ran));
                pool.spawn(move || {
                    ran.fetch_add(1, Ordering::SeqCst);
                    let ran = Arc::clone(&ran);
                    inner.spawn(move || {
                        ran.fetch_add(1, Ordering::SeqCst);
                        i
                    })
                })
            })
            .collect();

        let (closer, counted) = (Arc::clone(&pool), Arc::clone(&ran));
        let shutdown = thread::spawn(move || {
            closer.shutdown();
            counted.load(Ordering::SeqCst)
        });
        // Only once shutdown has begun may the queued parents run, so every
        // child is spawned while the pool is draining.
        common::wait_until("shutdown has begun", || pool.is_shutdown());
        assert_eq!(pool.spawn(|| 0).join(), Err(JoinError::Rejected));
        gate.open();

        let ran_before_return =
            without_deadlock("the draining shutdown", move || shutdown.join().unwrap());
        assert_eq!(ran_before_return, 2 * PARENTS);
        for (i, parent) in parents.into_iter().enumerate() {
            assert_eq!(parent.join().unwrap().join(), Ok(i));
        }
    })
}

#[test]
fn shutdown_from_inside_the_only_worker_of_a_pool_does_not_deadlock() {
    without_hanging(|| {
        let gate = Arc::new(Gate::default());
        let pool = Arc::new(GlobalQueuePool::new(1).unwrap());
        let (inner, held) = (Arc::clone(&pool), Arc::clone(&gate));
        let first = pool.spawn(move || {
            held.wait();
            inner.shutdown();
            "shut down from inside"
        });
        // Queued behind `first` before the shutdown began: it must still run.
        let queued = pool.spawn(|| "queued before shutdown");
        gate.open();
        let outer = Arc::clone(&pool);
        let results = without_deadlock("shutdown on the only worker", move || {
            let results = (first.join(), queued.join());
            outer.shutdown();
            results
        });
        assert_eq!(
            results,
            (Ok("shut down from inside"), Ok("queued before shutdown"))
        );
        assert!(pool.is_shutdown());
    })
}

#[test]
fn a_pool_dropped_for_the_last_time_inside_its_own_task_does_not_deadlock() {
    without_hanging(|| {
        last_reference_dropped_inside_a_task(GlobalQueuePool::new(1).unwrap());
        last_reference_dropped_inside_a_task(GlobalQueuePool::new(2).unwrap());
    })
}

#[test]
fn thread_per_task_dropped_for_the_last_time_inside_its_own_task_does_not_deadlock() {
    without_hanging(|| {
        last_reference_dropped_inside_a_task(ThreadPerTask::new());
    })
}

fn last_reference_dropped_inside_a_task<E: Strategy>(executor: E) {
    let executor = Arc::new(executor);
    let inner = Arc::clone(&executor);
    let gate = Arc::new(Gate::default());
    let held = Arc::clone(&gate);
    let handle = executor.spawn(move || {
        held.wait();
        // By now the test has dropped its reference: this drop runs the
        // executor's `Drop`, and so its shutdown, on the executor's own thread.
        drop(inner);
        7
    });
    drop(executor);
    gate.open();
    assert_eq!(
        without_deadlock("the last drop inside a task", move || handle.join()),
        Ok(7)
    );
}

#[test]
fn thread_per_task_shutdown_waits_for_running_tasks_and_the_children_they_spawn() {
    without_hanging(|| {
        let executor = Arc::new(ThreadPerTask::new());
        let (gate, started) = (Arc::new(Gate::default()), Arc::new(Gate::default()));
        let (parent_done, child_done) = (
            Arc::new(AtomicBool::new(false)),
            Arc::new(AtomicBool::new(false)),
        );

        let (inner, held, signal) = (
            Arc::clone(&executor),
            Arc::clone(&gate),
            Arc::clone(&started),
        );
        let (parent_flag, child_flag) = (Arc::clone(&parent_done), Arc::clone(&child_done));
        let parent = executor.spawn(move || {
            signal.open();
            held.wait();
            // Spawned while the executor is shutting down: accepted, and waited for.
            let child = inner.spawn(move || {
                thread::sleep(Duration::from_millis(20));
                child_flag.store(true, Ordering::SeqCst);
                5
            });
            parent_flag.store(true, Ordering::SeqCst);
            child
        });
        started.wait();

        let closer = Arc::clone(&executor);
        let (parent_seen, child_seen) = (Arc::clone(&parent_done), Arc::clone(&child_done));
        let shutdown = thread::spawn(move || {
            closer.shutdown();
            (
                parent_seen.load(Ordering::SeqCst),
                child_seen.load(Ordering::SeqCst),
            )
        });
        common::wait_until("shutdown has begun", || executor.is_shutdown());
        assert_eq!(executor.spawn(|| 0).join(), Err(JoinError::Rejected));
        gate.open();

        let seen = without_deadlock("the waiting shutdown", move || shutdown.join().unwrap());
        assert_eq!(
            seen,
            (true, true),
            "shutdown returned before its tasks finished"
        );
        assert_eq!(parent.join().unwrap().join(), Ok(5));
    })
}

#[test]
fn single_threaded_shutdown_waits_for_tasks_running_inline_on_other_threads() {
    without_hanging(|| {
        let executor = Arc::new(SingleThreaded::new());
        let (gate, started) = (Arc::new(Gate::default()), Arc::new(Gate::default()));
        let finished = Arc::new(AtomicUsize::new(0));

        let (runner_executor, held, signal, count) = (
            Arc::clone(&executor),
            Arc::clone(&gate),
            Arc::clone(&started),
            Arc::clone(&finished),
        );
        let runner = thread::spawn(move || {
            let inner = Arc::clone(&runner_executor);
            runner_executor.spawn(move || {
                signal.open();
                held.wait();
                // Spawned while shutting down, from inside a task: still runs.
                let count_child = Arc::clone(&count);
                let child = inner.spawn(move || count_child.fetch_add(1, Ordering::SeqCst));
                assert!(child.join().is_ok());
                count.fetch_add(1, Ordering::SeqCst);
            })
        });
        started.wait();

        let (closer, seen) = (Arc::clone(&executor), Arc::clone(&finished));
        let shutdown = thread::spawn(move || {
            closer.shutdown();
            seen.load(Ordering::SeqCst)
        });
        common::wait_until("shutdown has begun", || executor.is_shutdown());
        assert_eq!(executor.spawn(|| 0).join(), Err(JoinError::Rejected));
        gate.open();

        let seen = without_deadlock("the waiting shutdown", move || shutdown.join().unwrap());
        assert_eq!(seen, 2, "shutdown returned before the inline task finished");
        assert_eq!(runner.join().unwrap().join(), Ok(()));
    })
}
