//! Ported from Taskflow's `unittests/test_asyncs.cpp` (cases `Async`,
//! `NestedAsync`, `AsyncRuntime` and `RecursiveAsyncRuntime`), onto
//! `task_group`: Taskflow's `executor.async` is `group.spawn` (its future
//! the handle), `silent_async` a spawn whose handle is dropped,
//! `executor.wait_for_all` the group's `wait_for_all` (or the end of its
//! scope), and a task given a `tf::Runtime` to spawn into and `corun` is a
//! graph node that runs a group on its own executor (`deps.executor()`),
//! whose scope's end is the `corun`. Taskflow runs each case on 1 to 16
//! threads; these run on 1 and 2 workers (the machine has 2 cores) and,
//! but where a node waits for its group, a pool of 4 threads, with sizes
//! scaled down under the sanitizers.

mod common;

use std::sync::atomic::{AtomicUsize, Ordering};

use common::Pool;
use rt_core::Runtime;
use rt_dag::{run_graph, task_group, Executor, TaskGraph, TaskGroup};
use rt_testkit::{scaled, without_hanging};

/// `Async`: N tasks each add one to a counter and return -2; the sum of
/// their results is -2N once all have finished.
fn spawned_tasks_all_run_and_return_their_values_on(executor: &(impl Executor + ?Sized)) {
    let n = scaled(100_000);
    let counter = AtomicUsize::new(0);
    let sum: i64 = task_group(executor, |group| {
        let handles: Vec<_> = (0..n)
            .map(|_| {
                group.spawn(|_| {
                    counter.fetch_add(1, Ordering::Relaxed);
                    -2_i64
                })
            })
            .collect();
        group.wait_for_all().unwrap();
        assert_eq!(counter.load(Ordering::Relaxed), n);
        handles.into_iter().map(|h| h.join().unwrap()).sum()
    });
    assert_eq!(-sum, 2 * n as i64);
}

#[test]
fn async_tasks_all_run_and_return_their_values_on_one_worker() {
    without_hanging(|| spawned_tasks_all_run_and_return_their_values_on(&Runtime::new(1).unwrap()))
}

#[test]
fn async_tasks_all_run_and_return_their_values_on_two_workers() {
    without_hanging(|| spawned_tasks_all_run_and_return_their_values_on(&Runtime::new(2).unwrap()))
}

#[test]
fn async_tasks_all_run_and_return_their_values_on_a_pool_of_four() {
    without_hanging(|| spawned_tasks_all_run_and_return_their_values_on(&Pool::new(4)))
}

/// `NestedAsync`: each task spawns a task that spawns a task that spawns
/// one more, fire and forget; waiting for all sees all four levels.
fn nested_tasks_are_all_waited_for_on(executor: &(impl Executor + ?Sized)) {
    let n = scaled(20_000);
    let counter = AtomicUsize::new(0);
    let sum: i64 = task_group(executor, |group| {
        let counter = &counter;
        let handles: Vec<_> = (0..n)
            .map(|_| {
                group.spawn(move |group| {
                    counter.fetch_add(1, Ordering::Relaxed);
                    group.spawn(move |group| {
                        counter.fetch_add(1, Ordering::Relaxed);
                        group.spawn(move |group| {
                            counter.fetch_add(1, Ordering::Relaxed);
                            group.spawn(move |_| counter.fetch_add(1, Ordering::Relaxed));
                        });
                    });
                    -2_i64
                })
            })
            .collect();
        group.wait_for_all().unwrap();
        assert_eq!(counter.load(Ordering::Relaxed), 4 * n);
        handles.into_iter().map(|h| h.join().unwrap()).sum()
    });
    assert_eq!(-sum, 2 * n as i64);
}

#[test]
fn nested_async_tasks_are_all_waited_for_on_one_worker() {
    without_hanging(|| nested_tasks_are_all_waited_for_on(&Runtime::new(1).unwrap()))
}

#[test]
fn nested_async_tasks_are_all_waited_for_on_two_workers() {
    without_hanging(|| nested_tasks_are_all_waited_for_on(&Runtime::new(2).unwrap()))
}

#[test]
fn nested_async_tasks_are_all_waited_for_on_a_pool_of_four() {
    without_hanging(|| nested_tasks_are_all_waited_for_on(&Pool::new(4)))
}

/// `AsyncRuntime`: a graph of three plain nodes (A, B and one more) and
/// four nodes that each spawn 1,000 tasks (S1 and S2 between A and B; S1
/// and S3 `corun` theirs, S2 and S4 leave them running, which their
/// groups wait for at their end here); 4,005 increments in all.
fn graph_nodes_spawning_tasks_on_their_executor_on(executor: &(impl Executor + ?Sized)) {
    use std::sync::Arc;
    let counter = Arc::new(AtomicUsize::new(0));
    let bump = |counter: &Arc<AtomicUsize>| {
        let counter = counter.clone();
        move |_: &rt_dag::DependencyResults<'_>| {
            counter.fetch_add(1, Ordering::Relaxed);
        }
    };
    let spawner = |counter: &Arc<AtomicUsize>, extra: bool| {
        let counter = counter.clone();
        move |deps: &rt_dag::DependencyResults<'_>| {
            task_group(deps.executor(), |group| {
                if extra {
                    group.spawn(|_| counter.fetch_add(1, Ordering::Relaxed));
                }
                for _ in 0..1_000 {
                    group.spawn(|_| counter.fetch_add(1, Ordering::Relaxed));
                }
            })
        }
    };
    let mut graph = TaskGraph::new();
    let a = graph.add_task(bump(&counter));
    graph.add_task(bump(&counter));
    let s1 = graph
        .add_task_after(&[a], spawner(&counter, false))
        .unwrap();
    let s2 = graph.add_task_after(&[a], spawner(&counter, true)).unwrap();
    graph.add_task(spawner(&counter, true));
    graph.add_task(spawner(&counter, false));
    graph.add_task_after(&[s1, s2], bump(&counter)).unwrap();
    assert!(run_graph(executor, graph).all_completed());
    assert_eq!(counter.load(Ordering::Relaxed), 4_005);
}

#[test]
fn graph_nodes_spawning_tasks_on_their_executor_finish_them_on_one_worker() {
    without_hanging(|| graph_nodes_spawning_tasks_on_their_executor_on(&Runtime::new(1).unwrap()))
}

#[test]
fn graph_nodes_spawning_tasks_on_their_executor_finish_them_on_two_workers() {
    without_hanging(|| graph_nodes_spawning_tasks_on_their_executor_on(&Runtime::new(2).unwrap()))
}

// Not on a plain pool: four nodes waiting for their groups would hold all
// its four threads while their tasks wait in its queue behind them (a wait
// there blocks; `task_group`'s documentation). The runtime's waits run the
// queued tasks instead, as Taskflow's `corun` does.

/// `RecursiveAsyncRuntime`: one task spawns N1 tasks, each of which
/// spawns N2: N2·N1 + N1 + 1 increments, through `spawn` and through
/// `spawn_after` with no prerequisite (`dependent_async`).
fn recursive_tasks_on(executor: &(impl Executor + ?Sized)) {
    const N1: usize = 100;
    const N2: usize = 10;
    fn tree<'s>(group: &TaskGroup<'s>, counter: &'s AtomicUsize, dependent: bool) -> usize {
        let root = move |group: &TaskGroup<'s>| {
            counter.fetch_add(1, Ordering::Relaxed);
            for _ in 0..N1 {
                group.spawn(move |group| {
                    counter.fetch_add(1, Ordering::Relaxed);
                    for _ in 0..N2 {
                        group.spawn(move |_| counter.fetch_add(1, Ordering::Relaxed));
                    }
                });
            }
        };
        let handle = if dependent {
            group.spawn_after(&[], root).unwrap()
        } else {
            group.spawn(root)
        };
        handle.join().unwrap();
        group.wait_for_all().unwrap();
        counter.load(Ordering::Relaxed)
    }
    for dependent in [false, true] {
        let counter = AtomicUsize::new(0);
        let counted = task_group(executor, |group| tree(group, &counter, dependent));
        assert_eq!(counted, N2 * N1 + N1 + 1);
    }
}

#[test]
fn recursive_async_tasks_are_all_waited_for_on_one_worker() {
    without_hanging(|| recursive_tasks_on(&Runtime::new(1).unwrap()))
}

#[test]
fn recursive_async_tasks_are_all_waited_for_on_two_workers() {
    without_hanging(|| recursive_tasks_on(&Runtime::new(2).unwrap()))
}

#[test]
fn recursive_async_tasks_are_all_waited_for_on_a_pool_of_four() {
    without_hanging(|| recursive_tasks_on(&Pool::new(4)))
}
