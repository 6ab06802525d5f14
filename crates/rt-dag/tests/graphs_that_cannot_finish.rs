//! A graph that could never finish (some node waits on a cycle, whatever
//! the conditions choose) is refused when it is built; a graph that is
//! accepted always finishes.

mod common;

use common::Inline;
use rt_dag::{GraphError, NodeStatus, TaskGraph};
use rt_testkit::without_hanging;

#[test]
fn a_branch_back_to_the_only_entry_is_refused_and_the_graph_is_unchanged() {
    without_hanging(|| {
        let mut graph = TaskGraph::new();
        let start = graph.add_task(|_| ());
        let check = graph.add_condition_after(&[start], |_| 0).unwrap();
        assert_eq!(
            graph.set_branches(check, &[start]),
            Err(GraphError::NeverRuns { node: start.into() })
        );
        assert_eq!(graph.branches(check).unwrap().len(), 0);
        let outcome = graph.run(&Inline);
        assert!(outcome.all_completed());
    })
}

#[test]
fn two_conditions_that_only_start_each_other_are_refused() {
    without_hanging(|| {
        let mut graph = TaskGraph::new();
        let ping = graph.add_condition(|_| 0);
        let pong = graph.add_condition(|_| 0);
        graph.set_branches(ping, &[pong]).unwrap();
        let err = graph.set_branches(pong, &[ping]).unwrap_err();
        assert_eq!(err, GraphError::NeverRuns { node: ping.into() });
        assert!(err.to_string().contains("could never start"), "{err}");
    })
}

#[test]
fn a_node_waiting_for_a_node_only_its_own_descendant_can_start_is_refused() {
    without_hanging(|| {
        let mut graph = TaskGraph::new();
        let a = graph.add_task(|_| ());
        let t = graph.add_task(|_| ());
        let n = graph.add_task_after(&[a, t], |_| ()).unwrap();
        let c = graph.add_condition_after(&[n], |_| 0).unwrap();
        // `t` would start only when `c` takes it, `c` only after `n`, and
        // `n` only after `t`.
        assert_eq!(
            graph.set_branches(c, &[t]),
            Err(GraphError::NeverRuns { node: t.into() })
        );
    })
}

#[test]
fn a_loop_with_a_way_in_is_accepted_and_finishes() {
    without_hanging(|| {
        let mut graph = TaskGraph::new();
        let start = graph.add_task(|_| ());
        let mut left = 3;
        let body = graph.add_task_after(&[start], |_| ()).unwrap();
        let check = graph
            .add_condition_after(&[body], move |_| {
                left -= 1;
                usize::from(left == 0)
            })
            .unwrap();
        let end = graph.add_task(|_| ());
        graph.set_branches(check, &[body, end]).unwrap();
        let outcome = graph.run(&Inline);
        assert_eq!(outcome.runs(body), Ok(3));
        assert_eq!(outcome.status(end), Ok(&NodeStatus::Completed));
    })
}

#[test]
fn a_subgraph_refuses_branches_that_could_never_finish_while_it_is_built() {
    without_hanging(|| {
        let mut graph = TaskGraph::new();
        let node = graph.add_subgraph(|_, sub| {
            let a = sub.add_task(|_| ());
            let c = sub.add_condition_after(&[a], |_| 0).unwrap();
            sub.set_branches(c, &[a]).unwrap_err()
        });
        let outcome = graph.run(&Inline);
        assert!(matches!(
            outcome.get::<GraphError>(node),
            Ok(GraphError::NeverRuns { .. })
        ));
    })
}
