//! `GraphOutcome::root_cause` follows a failure to where it started:
//! back through skipped nodes, down through failed subgraphs and graph
//! nodes; `first_failure` does it for the first failed node;
//! `NodeStatus::root_cause` follows nested subgraphs.

mod common;

use std::sync::{Arc, Mutex};

use common::{quiet_expected_panics, Inline, Pool, EXPECTED};
use rt_core::Runtime;
use rt_dag::{CancellationToken, NodeId, NodeStatus, TaskGraph};
use rt_testkit::without_hanging;

#[test]
fn the_root_cause_of_a_skipped_node_is_the_panic_it_was_skipped_after() {
    without_hanging(|| {
        quiet_expected_panics();
        let mut graph = TaskGraph::new();
        let root = graph.add_task(|_| ());
        let bad = graph
            .add_task_after(&[root], |_| panic!("{EXPECTED}: root cause"))
            .unwrap();
        let middle = graph.add_task_after(&[bad], |_| ()).unwrap();
        let last = graph.add_task_after(&[root, middle], |_| ()).unwrap();
        let outcome = graph.run(&Runtime::new(2).unwrap());

        let cause = outcome.root_cause(last).unwrap().unwrap();
        assert_eq!(cause.node().id(), bad);
        let path: Vec<NodeId> = cause.path().iter().map(|n| n.id()).collect();
        assert_eq!(path, [last, middle, bad]);
        assert_eq!(
            cause.panic_message(),
            Some(&*format!("{EXPECTED}: root cause"))
        );
        assert!(cause.error().is_none());
        assert_eq!(
            cause.to_string(),
            format!("node 1 panicked: {EXPECTED}: root cause (reached from node 3 through node 2)")
        );
        // The failed node is its own root cause.
        let own = outcome.root_cause(bad).unwrap().unwrap();
        assert_eq!(own.path().len(), 1);
        assert_eq!(
            own.to_string(),
            format!("node 1 panicked: {EXPECTED}: root cause")
        );
    })
}

#[test]
fn a_node_that_did_not_fail_has_no_root_cause() {
    without_hanging(|| {
        let token = CancellationToken::new();
        token.cancel();
        let mut graph = TaskGraph::new();
        let node = graph.add_task(|_| ());
        assert!(graph.run(&Inline).root_cause(node).unwrap().is_none());
        assert!(graph.run(&Inline).first_failure().is_none());
        let cancelled = graph.run_cancellable(&Inline, &token);
        assert!(cancelled.root_cause(node).unwrap().is_none());
        assert!(cancelled.first_failure().is_none());
    })
}

#[test]
fn the_root_cause_goes_down_through_nested_subgraphs_and_graph_nodes() {
    without_hanging(|| {
        quiet_expected_panics();
        let innermost_id = Arc::new(Mutex::new(None));
        let mut inner = TaskGraph::new();
        let spawner = {
            let innermost_id = innermost_id.clone();
            inner.add_subgraph(move |_, sub| {
                sub.add_task(|_| ());
                let failing = sub.add_task(|_| panic!("{EXPECTED}: deep down"));
                sub.set_label(failing, "deep").unwrap();
                *innermost_id.lock().unwrap() = Some(failing);
            })
        };
        inner.set_label(spawner, "spawner").unwrap();
        let mut outer = TaskGraph::new();
        let module = outer.add_graph(inner);
        outer.set_label(module, "module").unwrap();
        let after = outer.add_task_after(&[module], |_| ()).unwrap();
        let outcome = outer.run(&Pool::new(2));

        let deep = innermost_id.lock().unwrap().unwrap();
        let cause = outcome.root_cause(after).unwrap().unwrap();
        let path: Vec<String> = cause.path().iter().map(|n| n.to_string()).collect();
        assert_eq!(
            path,
            [
                "node 1",
                r#"node 0 "module""#,
                r#"node 0 "spawner""#,
                r#"node 1 "deep""#
            ]
        );
        assert_eq!(cause.node().id(), deep);
        assert_eq!(
            cause.panic_message(),
            Some(&*format!("{EXPECTED}: deep down"))
        );
        // The status alone follows the subgraphs down.
        let status = outcome.status(module).unwrap();
        assert!(matches!(status.root_cause(), NodeStatus::Panicked(m) if m.contains("deep down")));
        // The whole run's first failure is the same.
        assert_eq!(outcome.first_failure().unwrap().node().id(), deep);
    })
}

#[test]
fn the_first_failure_is_that_of_the_first_failed_node_in_the_order_added() {
    without_hanging(|| {
        quiet_expected_panics();
        let mut graph = TaskGraph::new();
        graph.add_task(|_| ());
        let first = graph.add_fallible_task(|_| -> Result<(), String> { Err("first".into()) });
        graph.add_task_after(&[first], |_| ()).unwrap();
        graph.add_task(|_| panic!("{EXPECTED}: second"));
        let outcome = graph.run(&Inline);
        let cause = outcome.first_failure().unwrap();
        assert_eq!(cause.node().id(), first);
        assert_eq!(cause.error().unwrap().to_string(), "first");
    })
}

#[test]
fn a_rejected_node_is_the_root_cause_of_what_it_skipped() {
    without_hanging(|| {
        let pool = Pool::new(1);
        pool.shutdown();
        let mut graph = TaskGraph::new();
        let a = graph.add_task(|_| ());
        let b = graph.add_task_after(&[a], |_| ()).unwrap();
        let outcome = graph.run(&pool);
        let cause = outcome.root_cause(b).unwrap().unwrap();
        assert_eq!(cause.node().id(), a);
        assert_eq!(cause.status(), &NodeStatus::Rejected);
        assert_eq!(
            cause.to_string(),
            "node 0 rejected by the executor (reached from node 1)"
        );
    })
}
