//! `run_graph` called from inside a task of the runtime completes, even when
//! the runtime has a single worker: the waiting task runs the graph's nodes.

use std::sync::Arc;

use rt_core::Runtime;
use rt_dag::{run_graph, NodeStatus, TaskGraph};
use rt_testkit::without_hanging;

fn chain_sum_inside_a_task(workers: usize) -> u64 {
    without_hanging(move || {
        let rt = Arc::new(Runtime::new(workers).unwrap());
        let inner = rt.clone();
        rt.spawn(move || {
            let mut graph = TaskGraph::new();
            let mut last = graph.add_task(|_| 1u64);
            for _ in 0..20 {
                let prev = last;
                last = graph
                    .add_task_after(&[prev], move |deps| deps.get::<u64>(prev).unwrap() + 1)
                    .unwrap();
            }
            let side = graph.add_task(|_| 100u64);
            let mut outcome = run_graph(&*inner, graph);
            assert_eq!(outcome.status(side).unwrap(), &NodeStatus::Completed);
            outcome.take::<u64>(last).unwrap() + outcome.take::<u64>(side).unwrap()
        })
        .join()
        .unwrap()
    })
}

#[test]
fn run_graph_inside_a_task_of_a_one_worker_runtime_completes() {
    assert_eq!(chain_sum_inside_a_task(1), 121);
}

#[test]
fn run_graph_inside_a_task_of_a_two_worker_runtime_completes() {
    assert_eq!(chain_sum_inside_a_task(2), 121);
}
