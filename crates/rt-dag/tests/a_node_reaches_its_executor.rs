//! A node reaches the executor it runs on (`DependencyResults::executor`),
//! to run a nested graph, a nested pipeline or a task from inside it,
//! without capturing the executor.

mod common;

use common::Pool;
use rt_core::Runtime;
use rt_dag::{run_graph, run_graph_async, Executor, NodeStatus, Pipeline, TaskGraph};
use rt_testkit::without_hanging;

/// A graph of one node that runs, on its own executor, a nested graph of a
/// chain and a fan-in, a nested pipeline, and a spawned task it joins.
fn a_graph_whose_node_nests_work_on_its_executor() -> (TaskGraph, rt_dag::NodeId) {
    let mut graph = TaskGraph::new();
    let before = graph.add_task(|_| 1_u64);
    let node = graph
        .add_task_after(&[before], move |deps| {
            let executor: &dyn Executor = deps.executor();
            let mut nested = TaskGraph::new();
            let parts: Vec<_> = (1..=10_u64).map(|i| nested.add_task(move |_| i)).collect();
            let sum = nested
                .add_task_after(&parts.clone(), move |d| {
                    parts.iter().map(|&p| d.get::<u64>(p).unwrap()).sum::<u64>()
                })
                .unwrap();
            let from_graph = *run_graph(executor, nested).get::<u64>(sum).unwrap();
            let from_pipeline: u64 = Pipeline::from_iter(3, 1..=100_u64)
                .parallel(|x| x * 2)
                .collect(executor)
                .unwrap()
                .iter()
                .sum();
            // `spawn` needs a sized executor: a `&dyn Executor` is one.
            let from_task = Executor::spawn(&executor, || 1_000_u64).join().unwrap();
            deps.get::<u64>(before).unwrap() + from_graph + from_pipeline + from_task
        })
        .unwrap();
    (graph, node)
}

const EXPECTED_SUM: u64 = 1 + 55 + 10_100 + 1_000;

#[test]
fn a_node_runs_a_nested_graph_pipeline_and_task_on_its_executor_on_the_runtime() {
    without_hanging(|| {
        let (graph, node) = a_graph_whose_node_nests_work_on_its_executor();
        let outcome = run_graph(&Runtime::new(2).unwrap(), graph);
        assert_eq!(outcome.get::<u64>(node), Ok(&EXPECTED_SUM));
    })
}

#[test]
fn a_node_runs_a_nested_graph_pipeline_and_task_on_its_executor_on_a_one_worker_runtime() {
    without_hanging(|| {
        let (graph, node) = a_graph_whose_node_nests_work_on_its_executor();
        let outcome = run_graph(&Runtime::new(1).unwrap(), graph);
        assert_eq!(outcome.get::<u64>(node), Ok(&EXPECTED_SUM));
    })
}

#[test]
fn a_node_runs_a_nested_graph_pipeline_and_task_on_its_executor_on_a_pool() {
    without_hanging(|| {
        let (graph, node) = a_graph_whose_node_nests_work_on_its_executor();
        let outcome = run_graph(&Pool::new(3), graph);
        assert_eq!(outcome.get::<u64>(node), Ok(&EXPECTED_SUM));
    })
}

#[test]
fn a_node_of_a_subgraph_reaches_the_same_executor() {
    without_hanging(|| {
        let rt = Runtime::new(2).unwrap();
        let mut graph = TaskGraph::new();
        let node = graph.add_subgraph(|_, sub| {
            sub.add_task(|deps| {
                let mut nested = TaskGraph::new();
                nested.add_task(|_| ());
                assert!(run_graph(deps.executor(), nested).all_completed());
            });
        });
        assert_eq!(
            run_graph(&rt, graph).status(node),
            Ok(&NodeStatus::Completed)
        );
    })
}

#[test]
fn a_node_of_an_awaited_run_reaches_the_executor_through_the_run_s_future() {
    without_hanging(|| {
        let rt = Runtime::new(2).unwrap();
        let (graph, node) = a_graph_whose_node_nests_work_on_its_executor();
        let outcome = futures::executor::block_on(run_graph_async(&rt, graph));
        assert_eq!(outcome.get::<u64>(node), Ok(&EXPECTED_SUM));
    })
}

#[test]
fn the_executor_trait_is_object_safe_and_run_graph_takes_a_dyn_executor() {
    without_hanging(|| {
        let rt = Runtime::new(1).unwrap();
        let executor: &dyn Executor = &rt;
        let boxed: Box<dyn Executor> = Box::new(Pool::new(1));
        let mut graph = TaskGraph::new();
        let node = graph.add_task(|_| 3_u8);
        assert_eq!(graph.run(executor).get::<u8>(node), Ok(&3));
        assert_eq!(graph.run(&*boxed).get::<u8>(node), Ok(&3));
        assert_eq!(run_graph(executor, graph).get::<u8>(node), Ok(&3));
    })
}
