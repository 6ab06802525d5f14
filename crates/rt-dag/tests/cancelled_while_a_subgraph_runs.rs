//! A run cancelled while a subgraph (or a graph node's graph) runs: the
//! node's closure ran, so it is not `Cancelled` — it is
//! `SubgraphCancelled`, counted as one run — and a graph node keeps its
//! inner outcome.

mod common;

use common::{Inline, Pool};
use rt_core::Runtime;
use rt_dag::{CancellationToken, Executor, GraphOutcome, NodeStatus, TaskGraph};
use rt_testkit::without_hanging;

/// A subgraph node whose subgraph cancels the run in its first node; a
/// second node of the subgraph, and the node's dependent, never run.
fn a_subgraph_node_cancelled_while_its_subgraph_runs_on(executor: &impl Executor) {
    let token = CancellationToken::new();
    let mut graph = TaskGraph::new();
    let node = {
        let token = token.clone();
        graph.add_subgraph(move |_, sub| {
            let token = token.clone();
            let first = sub.add_task(move |_| token.cancel());
            sub.add_task_after(&[first], |_| ()).unwrap();
            "the closure ran"
        })
    };
    let after = graph.add_task_after(&[node], |_| ()).unwrap();

    let outcome = graph.run_cancellable(executor, &token);

    let status = outcome.status(node).unwrap();
    assert!(
        status.ran(),
        "the closure ran, yet the node reports {status:?}"
    );
    assert_eq!(status, &NodeStatus::SubgraphCancelled);
    assert_eq!(outcome.runs(node), Ok(1));
    // The closure returned: its output is kept.
    assert_eq!(outcome.get::<&str>(node), Ok(&"the closure ran"));
    assert_eq!(outcome.status(after), Ok(&NodeStatus::Cancelled));
    assert!(!outcome.is_success());
}

#[test]
fn a_subgraph_node_cancelled_while_its_subgraph_runs_reports_that_its_closure_ran_inline() {
    without_hanging(|| a_subgraph_node_cancelled_while_its_subgraph_runs_on(&Inline))
}

#[test]
fn a_subgraph_node_cancelled_while_its_subgraph_runs_reports_that_its_closure_ran_on_the_runtime() {
    without_hanging(|| {
        a_subgraph_node_cancelled_while_its_subgraph_runs_on(&Runtime::new(2).unwrap())
    })
}

#[test]
fn a_subgraph_node_cancelled_while_its_subgraph_runs_reports_that_its_closure_ran_on_a_pool() {
    without_hanging(|| a_subgraph_node_cancelled_while_its_subgraph_runs_on(&Pool::new(2)))
}

#[test]
fn a_graph_node_cancelled_while_its_graph_runs_keeps_the_inner_outcome() {
    without_hanging(|| {
        let token = CancellationToken::new();
        let mut inner = TaskGraph::new();
        let canceller = {
            let token = token.clone();
            inner.add_task(move |_| {
                token.cancel();
                7u8
            })
        };
        let stopped = inner.add_task_after(&[canceller], |_| ()).unwrap();
        let mut outer = TaskGraph::new();
        let module = outer.add_graph(inner);
        let after = outer.add_task_after(&[module], |_| ()).unwrap();

        let outcome = outer.run_cancellable(&Runtime::new(2).unwrap(), &token);

        let status = outcome.status(module).unwrap();
        assert!(
            status.ran(),
            "the inner graph ran, yet the node reports {status:?}"
        );
        assert_eq!(status, &NodeStatus::SubgraphCancelled);
        assert_eq!(outcome.runs(module), Ok(1));
        assert_eq!(outcome.status(after), Ok(&NodeStatus::Cancelled));
        let inner_outcome = outcome
            .get::<GraphOutcome>(module)
            .expect("the inner outcome is kept");
        assert_eq!(inner_outcome.get::<u8>(canceller), Ok(&7));
        assert_eq!(inner_outcome.status(stopped), Ok(&NodeStatus::Cancelled));
    })
}

#[test]
fn a_subgraph_node_in_a_loop_cancelled_while_its_subgraph_runs_counts_every_run() {
    without_hanging(|| {
        let token = CancellationToken::new();
        let mut graph = TaskGraph::new();
        let init = graph.add_task(|_| ());
        let mut round = 0;
        let node = {
            let token = token.clone();
            graph
                .add_subgraph_after(&[init], move |_, sub| {
                    round += 1;
                    if round == 3 {
                        let token = token.clone();
                        let first = sub.add_task(move |_| token.cancel());
                        sub.add_task_after(&[first], |_| ()).unwrap();
                    } else {
                        sub.add_task(|_| ());
                    }
                })
                .unwrap()
        };
        let again = graph.add_condition_after(&[node], |_| 0).unwrap();
        graph.set_branches(again, &[node]).unwrap();

        let outcome = graph.run_cancellable(&Inline, &token);

        assert_eq!(outcome.runs(node), Ok(3));
        assert_eq!(outcome.status(node), Ok(&NodeStatus::SubgraphCancelled));
        assert_eq!(outcome.runs(again), Ok(2));
    })
}
