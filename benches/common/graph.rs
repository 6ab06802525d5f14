//! The fan-out → join graph built with `rt-dag` and run by `run_graph`.

use rt::dag::{run_graph, NodeId, TaskGraph};
use rt::Executor;

use super::workloads::TaskFn;

/// Runs `width` independent nodes and one node that depends on all of them.
/// Building the graph is part of the measured cost, as it is for a user.
pub fn fan_out_join<E: Executor>(exec: &E, width: usize, task: TaskFn) -> bool {
    let mut graph = TaskGraph::new();
    let fan: Vec<NodeId> = (0..width)
        .map(|i| graph.add_task(move |_| task(i)))
        .collect();
    graph
        .add_task_after(&fan, move |_| task(width))
        .expect("ids from this graph");
    let outcome = run_graph(exec, graph);
    assert!(
        outcome.all_completed(),
        "every node of the benchmark graph completes"
    );
    true
}
