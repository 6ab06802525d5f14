//! Classic graph shapes run to completion with correct outputs and order.

mod common;

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

use common::{Inline, Pool, ThreadPerJob};
use rt_dag::{run_graph, Executor, NodeId, Priority, ReadyOrder, TaskGraph};
use rt_testkit::without_hanging;

fn linear_chain_of_1000_nodes_runs_in_order_on(executor: &impl Executor) {
    let order = Arc::new(Mutex::new(Vec::new()));
    let mut graph = TaskGraph::new();
    let first = graph.add_task({
        let order = Arc::clone(&order);
        move |_| {
            order.lock().unwrap().push(0);
            1_u64
        }
    });
    let mut last = first;
    for i in 1..1000 {
        let prev = last;
        let order = Arc::clone(&order);
        last = graph
            .add_task_after(&[prev], move |deps| {
                order.lock().unwrap().push(i);
                deps.get::<u64>(prev).unwrap() + 1
            })
            .unwrap();
    }
    let mut outcome = run_graph(executor, graph);
    assert!(outcome.all_completed());
    assert_eq!(outcome.take::<u64>(last), Ok(1000));
    assert_eq!(*order.lock().unwrap(), (0..1000).collect::<Vec<_>>());
}

#[test]
fn a_linear_chain_of_1000_nodes_runs_in_order_on_a_pool() {
    without_hanging(|| {
        linear_chain_of_1000_nodes_runs_in_order_on(&Pool::new(2));
    })
}

#[test]
fn a_linear_chain_of_1000_nodes_runs_in_order_inline() {
    without_hanging(|| {
        linear_chain_of_1000_nodes_runs_in_order_on(&Inline);
    })
}

#[test]
fn a_linear_chain_of_1000_nodes_runs_in_order_with_a_thread_per_job() {
    without_hanging(|| {
        linear_chain_of_1000_nodes_runs_in_order_on(&ThreadPerJob);
    })
}

fn fan_out_of_200_then_join_sums_every_branch_on(executor: &impl Executor) {
    let mut graph = TaskGraph::new();
    let root = graph.add_task(|_| 1_000_u64);
    let branches: Vec<NodeId> = (0..200_u64)
        .map(|i| {
            graph
                .add_task_after(&[root], move |deps| deps.get::<u64>(root).unwrap() + i)
                .unwrap()
        })
        .collect();
    let join = {
        let branches = branches.clone();
        graph
            .add_task_after(&branches.clone(), move |deps| {
                assert_eq!(deps.len(), 200);
                branches
                    .iter()
                    .map(|&b| *deps.get::<u64>(b).unwrap())
                    .sum::<u64>()
            })
            .unwrap()
    };
    let mut outcome = run_graph(executor, graph);
    assert!(outcome.all_completed());
    assert_eq!(
        outcome.take::<u64>(join),
        Ok(200 * 1_000 + (0..200).sum::<u64>())
    );
    for (i, &b) in branches.iter().enumerate() {
        assert_eq!(outcome.get::<u64>(b), Ok(&(1_000 + i as u64)));
    }
}

#[test]
fn a_fan_out_of_200_then_a_join_sums_every_branch_on_a_pool() {
    without_hanging(|| {
        fan_out_of_200_then_join_sums_every_branch_on(&Pool::new(2));
    })
}

#[test]
fn a_fan_out_of_200_then_a_join_sums_every_branch_inline() {
    without_hanging(|| {
        fan_out_of_200_then_join_sums_every_branch_on(&Inline);
    })
}

#[test]
fn a_fan_out_of_200_then_a_join_sums_every_branch_with_a_thread_per_job() {
    without_hanging(|| {
        fan_out_of_200_then_join_sums_every_branch_on(&ThreadPerJob);
    })
}

#[test]
fn a_diamond_runs_the_join_once_after_both_sides() {
    without_hanging(|| {
        let runs = Arc::new(AtomicUsize::new(0));
        let mut graph = TaskGraph::new();
        let top = graph.add_task(|_| String::from("top"));
        let left = graph
            .add_task_after(&[top], move |deps| {
                format!("{}-left", deps.get::<String>(top).unwrap())
            })
            .unwrap();
        let right = graph
            .add_task_after(&[top], move |deps| deps.get::<String>(top).unwrap().len())
            .unwrap();
        let bottom = {
            let runs = Arc::clone(&runs);
            graph
                .add_task_after(&[left, right], move |deps| {
                    runs.fetch_add(1, Ordering::SeqCst);
                    format!(
                        "{}+{}",
                        deps.get::<String>(left).unwrap(),
                        deps.get::<usize>(right).unwrap()
                    )
                })
                .unwrap()
        };
        let mut outcome = run_graph(&Pool::new(2), graph);
        assert!(outcome.all_completed());
        assert_eq!(outcome.take::<String>(bottom).unwrap(), "top-left+3");
        assert_eq!(runs.load(Ordering::SeqCst), 1);
        // The shared output was only read by the dependents, never consumed.
        assert_eq!(outcome.take::<String>(top).unwrap(), "top");
    })
}

#[test]
fn an_empty_graph_completes_at_once_with_an_empty_outcome() {
    without_hanging(|| {
        let outcome = run_graph(&Pool::new(1), TaskGraph::new());
        assert!(outcome.is_empty());
        assert!(outcome.all_completed());
    })
}

#[test]
fn a_node_can_depend_on_the_same_node_twice_and_runs_once() {
    without_hanging(|| {
        let mut graph = TaskGraph::new();
        let a = graph.add_task(|_| 2_i32);
        let b = graph
            .add_task_after(&[a, a, a], move |deps| {
                assert_eq!(deps.dependencies().collect::<Vec<_>>(), vec![a]);
                deps.get::<i32>(a).unwrap() * 10
            })
            .unwrap();
        let mut outcome = run_graph(&Inline, graph);
        assert_eq!(outcome.take::<i32>(b), Ok(20));
    })
}

#[test]
fn a_dependent_of_a_less_urgent_class_is_submitted_at_its_priority_and_a_more_urgent_one_runs_next()
{
    without_hanging(|| {
        let pool = Pool::new(1);
        let mut graph = TaskGraph::new();
        let high = graph.add_task_with_priority(Priority::High, |_| ());
        let background = graph
            .add_task_after_with_priority(&[high], Priority::Background, |_| ())
            .unwrap();
        let normal = graph.add_task_after(&[background], |_| ()).unwrap();
        graph
            .add_task_after_with_priority(&[normal], Priority::High, |_| ())
            .unwrap();
        let outcome = run_graph(&pool, graph);
        assert!(outcome.all_completed());
        // The entry, then the Background node, less urgent than the High
        // node that released it; the Normal and High nodes after it run on
        // the thread that released them, without a job of their own.
        assert_eq!(
            *pool.priorities.lock().unwrap(),
            vec![Priority::High, Priority::Background]
        );
    })
}

#[test]
fn on_an_inline_executor_each_node_released_runs_right_after_the_node_that_released_it() {
    without_hanging(|| {
        let log = Arc::new(Mutex::new(Vec::new()));
        let mut graph = TaskGraph::new();
        graph.set_ready_order(ReadyOrder::Declared);
        for i in 0..10 {
            let root = graph.add_task({
                let log = Arc::clone(&log);
                move |_| log.lock().unwrap().push(format!("root {i}"))
            });
            let log = Arc::clone(&log);
            graph
                .add_task_after(&[root], move |_| {
                    log.lock().unwrap().push(format!("dependent {i}"))
                })
                .unwrap();
        }
        assert!(run_graph(&Inline, graph).all_completed());
        let expected: Vec<String> = (0..10)
            .flat_map(|i| [format!("root {i}"), format!("dependent {i}")])
            .collect();
        assert_eq!(*log.lock().unwrap(), expected);
    })
}
