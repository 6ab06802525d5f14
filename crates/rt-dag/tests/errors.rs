//! Misuse is reported as an error that names the node and the type, never
//! as a panic or a wrong result.

mod common;

use common::{quiet_expected_panics, Inline, EXPECTED};
use rt_dag::{
    run_graph, DependencyError, GraphError, NodeStatus, OutcomeError, Priority, TaskGraph,
};
use rt_testkit::without_hanging;

#[test]
fn a_node_id_from_another_graph_is_refused_as_a_dependency_and_the_graph_is_unchanged() {
    without_hanging(|| {
        let mut other = TaskGraph::new();
        let foreign = other.add_task(|_| ());
        let mut graph = TaskGraph::new();
        let local = graph.add_task(|_| ());

        let err = graph.add_task_after(&[local, foreign], |_| ()).unwrap_err();

        assert_eq!(
            err,
            GraphError::ForeignNode {
                node: foreign,
                expected: graph.id()
            }
        );
        assert_eq!(graph.len(), 1);
        let message = err.to_string();
        assert!(message.contains("node 0"), "{message}");
        assert!(message.contains(&other.id().to_string()), "{message}");
        assert!(message.contains(&graph.id().to_string()), "{message}");
    })
}

#[test]
fn a_node_id_from_another_graph_is_refused_by_every_graph_accessor() {
    without_hanging(|| {
        let mut other = TaskGraph::new();
        let foreign = other.add_task(|_| ());
        let mut graph = TaskGraph::new();
        graph.add_task(|_| ());
        let expected = Err(GraphError::ForeignNode {
            node: foreign,
            expected: graph.id(),
        });
        assert_eq!(graph.set_label(foreign, "x"), expected);
        assert_eq!(graph.label(foreign).map(|_| ()), expected);
        assert_eq!(graph.priority(foreign).map(|_| ()), expected);
        assert_eq!(graph.dependencies(foreign).map(|_| ()), expected);
        assert_eq!(
            graph
                .add_task_after_with_priority(&[foreign], Priority::High, |_| ())
                .map(|_| ()),
            expected
        );
    })
}

#[test]
fn two_new_graphs_never_share_an_id() {
    without_hanging(|| {
        let ids: std::collections::HashSet<_> = (0..100).map(|_| TaskGraph::new().id()).collect();
        assert_eq!(ids.len(), 100);
    })
}

#[test]
fn asking_for_a_node_that_is_not_a_declared_dependency_names_it_and_the_type() {
    without_hanging(|| {
        let mut other = TaskGraph::new();
        let foreign = other.add_task(|_| ());
        let mut graph = TaskGraph::new();
        let grandparent = graph.add_task(|_| 1_u8);
        let parent = graph.add_task_after(&[grandparent], |_| 2_u8).unwrap();
        let child = graph
            .add_task_after(&[parent], move |deps| {
                (
                    deps.get::<u8>(grandparent).unwrap_err(),
                    deps.get::<u8>(foreign).unwrap_err(),
                )
            })
            .unwrap();

        let mut outcome = run_graph(&Inline, graph);
        let (indirect, foreign_err) = outcome
            .take::<(DependencyError, DependencyError)>(child)
            .unwrap();

        assert_eq!(
            indirect,
            DependencyError::NotADependency {
                node: child.into(),
                requested: grandparent.into(),
                expected: "u8"
            }
        );
        assert_eq!(
            indirect.to_string(),
            "node 0 is not a declared dependency of node 2 (asked for a `u8`)"
        );
        assert!(
            matches!(foreign_err, DependencyError::NotADependency { requested, .. } if requested == foreign)
        );
    })
}

#[test]
fn asking_a_dependency_for_the_wrong_type_names_both_types() {
    without_hanging(|| {
        let mut graph = TaskGraph::new();
        let text = graph.add_task(|_| String::from("hello"));
        let reader = graph
            .add_task_after(&[text], move |deps| deps.get::<u64>(text).unwrap_err())
            .unwrap();
        let mut outcome = run_graph(&Inline, graph);
        let err = outcome.take::<DependencyError>(reader).unwrap();
        assert_eq!(
            err,
            DependencyError::WrongType {
                node: reader.into(),
                requested: text.into(),
                expected: "u64",
                actual: std::any::type_name::<String>()
            }
        );
        assert_eq!(
            err.to_string(),
            format!(
                "node 0 produced a `{}`, not the `u64` node 1 asked for",
                std::any::type_name::<String>()
            )
        );
    })
}

#[test]
fn taking_an_output_with_the_wrong_type_is_an_error_and_keeps_the_output() {
    without_hanging(|| {
        let mut graph = TaskGraph::new();
        let node = graph.add_task(|_| 5_i64);
        let mut outcome = run_graph(&Inline, graph);
        assert_eq!(
            outcome.take::<i32>(node),
            Err(OutcomeError::WrongType {
                node: node.into(),
                expected: "i32",
                actual: "i64"
            })
        );
        assert_eq!(outcome.take::<i64>(node), Ok(5));
    })
}

#[test]
fn taking_an_output_twice_is_an_error() {
    without_hanging(|| {
        let mut graph = TaskGraph::new();
        let node = graph.add_task(|_| vec![1_u8]);
        let mut outcome = run_graph(&Inline, graph);
        assert_eq!(outcome.take::<Vec<u8>>(node), Ok(vec![1]));
        assert_eq!(
            outcome.take::<Vec<u8>>(node),
            Err(OutcomeError::AlreadyTaken { node: node.into() })
        );
        assert_eq!(
            outcome.get::<Vec<u8>>(node),
            Err(OutcomeError::AlreadyTaken { node: node.into() })
        );
        // The status does not change when the output is taken.
        assert_eq!(outcome.status(node), Ok(&NodeStatus::Completed));
    })
}

#[test]
fn taking_the_output_of_a_node_that_did_not_complete_says_what_became_of_it() {
    without_hanging(|| {
        quiet_expected_panics();
        let mut graph = TaskGraph::new();
        let bad = graph.add_task(|_| -> u32 { panic!("{EXPECTED}: no output") });
        let skipped = graph.add_task_after(&[bad], |_| 1_u32).unwrap();
        let mut outcome = run_graph(&Inline, graph);

        let err = outcome.take::<u32>(bad).unwrap_err();
        assert_eq!(
            err,
            OutcomeError::NotCompleted {
                node: bad.into(),
                status: NodeStatus::Panicked(format!("{EXPECTED}: no output").into()),
                expected: "u32"
            }
        );
        assert_eq!(
            err.to_string(),
            format!(
            "node 0 has no output (asked for a `u32`); its status: panicked: {EXPECTED}: no output"
        )
        );
        assert_eq!(
            outcome.take::<u32>(skipped),
            Err(OutcomeError::NotCompleted {
                node: skipped.into(),
                status: NodeStatus::Skipped {
                    prerequisite: bad.into()
                },
                expected: "u32"
            })
        );
    })
}

#[test]
fn an_outcome_refuses_node_ids_of_another_graph() {
    without_hanging(|| {
        let mut other = TaskGraph::new();
        let foreign = other.add_task(|_| 1_u8);
        let mut graph = TaskGraph::new();
        graph.add_task(|_| 1_u8);
        let mut outcome = run_graph(&Inline, graph);
        let expected = OutcomeError::ForeignNode {
            node: foreign,
            expected: outcome.graph(),
        };
        assert_eq!(outcome.status(foreign), Err(expected.clone()));
        assert_eq!(outcome.get::<u8>(foreign), Err(expected.clone()));
        assert_eq!(outcome.take::<u8>(foreign), Err(expected));
    })
}

#[test]
fn the_outcome_lists_every_node_in_the_order_it_was_added() {
    without_hanging(|| {
        let mut graph = TaskGraph::new();
        let ids: Vec<_> = (0..4).map(|i| graph.add_task(move |_| i)).collect();
        let outcome = run_graph(&Inline, graph);
        let listed: Vec<_> = outcome.iter().map(|(id, _)| id).collect();
        assert_eq!(listed, ids);
        assert_eq!(outcome.len(), 4);
    })
}
