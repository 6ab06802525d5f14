//! On an executor that runs a job inside `submit`, a graph of any shape
//! runs on the calling thread with a bounded stack.

mod common;

use common::Inline;
use rt_baselines::SingleThreaded;
use rt_dag::{Executor, NodeId, TaskGraph};
use rt_testkit::without_hanging;

/// A binary tree of `levels` levels, each node before its two children,
/// and one node after every leaf.
fn tree_then_join(levels: u32) -> TaskGraph {
    let mut graph = TaskGraph::new();
    let mut ids: Vec<NodeId> = Vec::new();
    let n = (1usize << levels) - 1;
    for i in 0..n {
        let deps: Vec<NodeId> = if i == 0 {
            vec![]
        } else {
            vec![ids[(i - 1) / 2]]
        };
        ids.push(graph.add_task_after(&deps, |_| ()).unwrap());
    }
    let leaves: Vec<NodeId> = ids[n / 2..].to_vec();
    graph.add_task_after(&leaves, |_| ()).unwrap();
    graph
}

/// Each node of a long chain also releases a leaf: every step submits.
fn comb(len: usize) -> TaskGraph {
    let mut graph = TaskGraph::new();
    let mut last = graph.add_task(|_| ());
    for _ in 0..len {
        graph.add_task_after(&[last], |_| ()).unwrap();
        last = graph.add_task_after(&[last], |_| ()).unwrap();
    }
    graph
}

fn large_graphs_run_on(executor: &impl Executor) {
    assert!(tree_then_join(16).run(executor).all_completed());
    assert!(comb(100_000).run(executor).all_completed());
}

#[test]
fn large_graphs_run_inline_without_overflowing_the_stack() {
    // The watchdog's thread has a 2 MiB stack: a recursion per node would
    // overflow it.
    without_hanging(|| large_graphs_run_on(&Inline))
}

#[test]
fn large_graphs_run_on_the_single_threaded_baseline_without_overflowing_the_stack() {
    without_hanging(|| large_graphs_run_on(&SingleThreaded::new()))
}
