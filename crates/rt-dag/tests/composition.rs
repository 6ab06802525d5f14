//! A graph runs as one node of another: its run completes the node, whose
//! output is that run's outcome.

mod common;

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

use common::{quiet_expected_panics, Inline, Pool, EXPECTED};
use rt_core::Runtime;
use rt_dag::{GraphError, GraphOutcome, Limit, NodeKind, NodeStatus, TaskGraph};
use rt_testkit::without_hanging;

#[test]
fn a_graph_node_runs_its_graph_before_the_node_s_dependents_and_hands_over_its_outcome() {
    without_hanging(|| {
        let rt = Runtime::new(2).unwrap();
        let mut inner = TaskGraph::new();
        let a = inner.add_task(|_| 20u32);
        let b = inner
            .add_task_after(&[a], move |d| d.get::<u32>(a).unwrap() + 22)
            .unwrap();
        let mut outer = TaskGraph::new();
        let before = outer.add_task(|_| ());
        let module = outer.add_graph_after(&[before], inner).unwrap();
        let after = outer
            .add_task_after(&[module], move |d| {
                *d.get::<GraphOutcome>(module)
                    .unwrap()
                    .get::<u32>(b)
                    .unwrap()
            })
            .unwrap();
        assert_eq!(outer.kind(module), Ok(NodeKind::Graph));
        let mut outcome = outer.run(&rt);
        assert_eq!(outcome.get::<u32>(after), Ok(&42));
        let inner_outcome = outcome.take::<GraphOutcome>(module).unwrap();
        assert!(inner_outcome.all_completed());
    })
}

#[test]
fn a_graph_node_runs_its_graph_again_on_every_run_of_the_outer_graph() {
    without_hanging(|| {
        let count = Arc::new(AtomicUsize::new(0));
        let mut inner = TaskGraph::new();
        for _ in 0..5 {
            let count = count.clone();
            inner.add_task(move |_| count.fetch_add(1, Ordering::SeqCst));
        }
        let mut outer = TaskGraph::new();
        outer.add_graph(inner);
        let pool = Pool::new(2);
        for _ in 0..4 {
            assert!(outer.run(&pool).all_completed());
        }
        assert_eq!(count.load(Ordering::SeqCst), 20);
    })
}

#[test]
fn a_failure_inside_a_graph_node_fails_the_node_and_skips_its_dependents() {
    without_hanging(|| {
        quiet_expected_panics();
        let mut inner = TaskGraph::new();
        inner.add_task(|_| ());
        let bad = inner.add_task(|_| panic!("{EXPECTED}: inner"));
        let mut outer = TaskGraph::new();
        let module = outer.add_graph(inner);
        let after = outer.add_task_after(&[module], |_| ()).unwrap();
        let outcome = outer.run(&Inline);
        assert_eq!(
            outcome.status(module),
            Ok(&NodeStatus::SubgraphFailed {
                node: bad.into(),
                status: Box::new(NodeStatus::Panicked(format!("{EXPECTED}: inner").into()))
            })
        );
        assert_eq!(
            outcome.status(after),
            Ok(&NodeStatus::Skipped {
                prerequisite: module.into()
            })
        );
    })
}

#[test]
fn a_graph_node_whose_graph_failed_keeps_the_inner_outcome() {
    without_hanging(|| {
        quiet_expected_panics();
        let mut inner = TaskGraph::new();
        let fine = inner.add_task(|_| 5u8);
        let bad = inner.add_task(|_| panic!("{EXPECTED}: inner"));
        let mut outer = TaskGraph::new();
        let module = outer.add_graph(inner);
        let outcome = outer.run(&Pool::new(2));
        assert!(matches!(
            outcome.status(module),
            Ok(NodeStatus::SubgraphFailed { .. })
        ));
        let inner_outcome = outcome.get::<GraphOutcome>(module).unwrap();
        assert_eq!(inner_outcome.get::<u8>(fine), Ok(&5));
        assert!(matches!(
            inner_outcome.status(bad),
            Ok(NodeStatus::Panicked(_))
        ));
    })
}

#[test]
fn graph_nodes_nest() {
    without_hanging(|| {
        let rt = Runtime::new(2).unwrap();
        let mut innermost = TaskGraph::new();
        let leaf = innermost.add_task(|_| "leaf");
        let mut middle = TaskGraph::new();
        let m = middle.add_graph(innermost);
        let mut outer = TaskGraph::new();
        let o = outer.add_graph(middle);
        let outcome = outer.run(&rt);
        let middle_outcome = outcome.get::<GraphOutcome>(o).unwrap();
        let innermost_outcome = middle_outcome.get::<GraphOutcome>(m).unwrap();
        assert_eq!(innermost_outcome.get::<&str>(leaf), Ok(&"leaf"));
    })
}

#[test]
fn a_graph_node_cannot_hold_a_limit() {
    without_hanging(|| {
        let mut outer = TaskGraph::new();
        let module = outer.add_graph(TaskGraph::new());
        let limit = Limit::new(1).unwrap();
        assert_eq!(
            outer.set_limit(module, &limit),
            Err(GraphError::GraphNodeLimited {
                node: module.into()
            })
        );
    })
}

#[test]
fn an_empty_graph_as_a_node_completes_at_once() {
    without_hanging(|| {
        let mut outer = TaskGraph::new();
        let module = outer.add_graph(TaskGraph::new());
        let outcome = outer.run(&Runtime::new(1).unwrap());
        assert!(outcome.get::<GraphOutcome>(module).unwrap().is_empty());
    })
}
