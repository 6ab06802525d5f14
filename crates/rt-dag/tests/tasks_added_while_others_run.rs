//! A task group on an executor: tasks added from outside any graph, each
//! started as soon as the tasks it names have finished, while later ones
//! are still being added; `wait_for_all` and the end of the group's scope
//! wait for every task, those spawned by tasks included.

mod common;

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

use common::{Inline, Pool};
use rt_core::Runtime;
use rt_dag::{run_graph, task_group, Executor, TaskGraph, TaskRef};
use rt_testkit::{without_hanging, Gate, Latch};

fn spawned_tasks_return_their_values_on(executor: &(impl Executor + ?Sized)) {
    let values = task_group(executor, |group| {
        let handles: Vec<_> = (0..100_u64).map(|i| group.spawn(move |_| i * 2)).collect();
        handles.into_iter().map(|h| h.join().unwrap()).sum::<u64>()
    });
    assert_eq!(values, 9_900);
}

#[test]
fn spawned_tasks_return_their_values_on_the_runtime() {
    without_hanging(|| spawned_tasks_return_their_values_on(&Runtime::new(2).unwrap()))
}

#[test]
fn spawned_tasks_return_their_values_on_one_worker() {
    without_hanging(|| spawned_tasks_return_their_values_on(&Runtime::new(1).unwrap()))
}

#[test]
fn spawned_tasks_return_their_values_on_a_pool() {
    without_hanging(|| spawned_tasks_return_their_values_on(&Pool::new(2)))
}

#[test]
fn spawned_tasks_return_their_values_inline() {
    without_hanging(|| spawned_tasks_return_their_values_on(&Inline))
}

#[test]
fn a_dependent_task_starts_once_its_prerequisites_finish_while_later_ones_are_still_being_added() {
    without_hanging(|| {
        let rt = Runtime::new(2).unwrap();
        let (gate, dependent_ran) = (Gate::new(), Latch::new(1));
        let order = Mutex::new(Vec::new());
        task_group(&rt, |group| {
            let first = {
                let gate = gate.clone();
                let order = &order;
                group.spawn(move |_| {
                    gate.wait();
                    order.lock().unwrap().push("first");
                })
            };
            let dependent = {
                let dependent_ran = dependent_ran.clone();
                let order = &order;
                group
                    .spawn_after(&[first.task()], move |_| {
                        order.lock().unwrap().push("dependent");
                        dependent_ran.count_down();
                    })
                    .unwrap()
            };
            assert!(!dependent.is_finished());
            gate.open();
            // The body has not finished adding tasks: the dependent ran
            // without waiting for it.
            dependent_ran.wait();
            group.spawn(|_| order.lock().unwrap().push("later"));
        });
        assert_eq!(*order.lock().unwrap(), ["first", "dependent", "later"]);
    })
}

#[test]
fn a_dependent_of_finished_tasks_starts_at_once() {
    without_hanging(|| {
        let rt = Runtime::new(2).unwrap();
        let total = task_group(&rt, |group| {
            let a = group.spawn(|_| 1);
            let b = group.spawn(|_| 2);
            group.wait_for_all().unwrap();
            assert!(a.is_finished() && b.is_finished());
            let refs = [a.task(), b.task()];
            group
                .spawn_after(&refs, move |_| a.join().unwrap() + b.join().unwrap())
                .unwrap()
                .join()
                .unwrap()
        });
        assert_eq!(total, 3);
    })
}

fn a_chain_of_dependent_tasks_runs_in_order_on(executor: &(impl Executor + ?Sized)) {
    let log = Mutex::new(Vec::new());
    task_group(executor, |group| {
        let mut previous: Option<TaskRef> = None;
        for i in 0..10_000 {
            let after: Vec<TaskRef> = previous.into_iter().collect();
            let log = &log;
            let handle = group
                .spawn_after(&after, move |_| log.lock().unwrap().push(i))
                .unwrap();
            previous = Some(handle.task());
        }
    });
    assert_eq!(*log.lock().unwrap(), (0..10_000).collect::<Vec<_>>());
}

#[test]
fn a_chain_of_dependent_tasks_runs_in_order_on_the_runtime() {
    without_hanging(|| a_chain_of_dependent_tasks_runs_in_order_on(&Runtime::new(2).unwrap()))
}

#[test]
fn a_chain_of_dependent_tasks_runs_in_order_inline_without_growing_the_stack() {
    without_hanging(|| a_chain_of_dependent_tasks_runs_in_order_on(&Inline))
}

#[test]
fn a_chain_of_dependent_tasks_runs_in_order_on_a_pool() {
    without_hanging(|| a_chain_of_dependent_tasks_runs_in_order_on(&Pool::new(3)))
}

#[test]
fn wait_for_all_waits_for_tasks_spawned_by_tasks() {
    without_hanging(|| {
        let rt = Runtime::new(2).unwrap();
        let count = AtomicUsize::new(0);
        task_group(&rt, |group| {
            for _ in 0..50 {
                group.spawn(|group| {
                    count.fetch_add(1, Ordering::SeqCst);
                    group.spawn(|group| {
                        count.fetch_add(1, Ordering::SeqCst);
                        group.spawn(|_| count.fetch_add(1, Ordering::SeqCst));
                    });
                });
            }
            group.wait_for_all().unwrap();
            assert_eq!(count.load(Ordering::SeqCst), 150);
        });
    })
}

#[test]
fn the_group_s_scope_ends_only_once_every_task_has_finished() {
    without_hanging(|| {
        let rt = Runtime::new(2).unwrap();
        let count = AtomicUsize::new(0);
        task_group(&rt, |group| {
            for _ in 0..100 {
                // Handles dropped at once: the tasks still run.
                group.spawn(|_| count.fetch_add(1, Ordering::SeqCst));
            }
        });
        assert_eq!(count.load(Ordering::SeqCst), 100);
    })
}

#[test]
fn a_task_joins_the_tasks_it_spawned_even_on_one_worker() {
    without_hanging(|| {
        fn fib(group: &rt_dag::TaskGroup<'_>, n: u64) -> u64 {
            if n < 2 {
                return n;
            }
            let left = group.spawn(move |group| fib(group, n - 1));
            let right = fib(group, n - 2);
            left.join().unwrap() + right
        }
        let rt = Runtime::new(1).unwrap();
        assert_eq!(task_group(&rt, |group| fib(group, 15)), 610);
    })
}

#[test]
fn a_task_joins_the_tasks_it_spawned_on_an_executor_that_runs_jobs_inside_submit() {
    without_hanging(|| {
        fn sum(group: &rt_dag::TaskGroup<'_>, n: u64) -> u64 {
            if n == 0 {
                return 0;
            }
            let rest = group.spawn(move |group| sum(group, n - 1));
            n + rest.join().unwrap()
        }
        assert_eq!(task_group(&Inline, |group| sum(group, 100)), 5_050);
    })
}

#[test]
fn a_node_runs_a_task_group_on_its_own_executor() {
    without_hanging(|| {
        let rt = Runtime::new(1).unwrap();
        let mut graph = TaskGraph::new();
        let node = graph.add_task(|deps| {
            task_group(deps.executor(), |group| {
                let a = group.spawn(|_| 40_u32);
                let b = group.spawn_after(&[a.task()], |_| 2_u32).unwrap();
                a.join().unwrap() + b.join().unwrap()
            })
        });
        assert_eq!(run_graph(&rt, graph).get::<u32>(node), Ok(&42));
    })
}
