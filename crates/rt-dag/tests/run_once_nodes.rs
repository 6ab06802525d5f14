//! `FnOnce` nodes, for a graph that runs once: the closure may move its
//! captures out; started again after it ran (another run, a loop), the
//! node does not run and is `Invalid(AlreadyRan)`, and what waits for it
//! is skipped.

mod common;

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

use common::{quiet_expected_panics, Inline, EXPECTED};
use rt_core::Runtime;
use rt_dag::{run_graph, GraphError, NodeKind, NodeStatus, TaskGraph};
use rt_testkit::without_hanging;

#[test]
fn a_run_once_node_moves_its_capture_into_its_output() {
    without_hanging(|| {
        let buffer = vec![7u8; 1024];
        let mut graph = TaskGraph::new();
        let give = graph.add_task_once(move |_| buffer);
        let length = graph
            .add_task_once_after(&[give], move |d| d.get::<Vec<u8>>(give).unwrap().len())
            .unwrap();
        assert_eq!(graph.kind(give), Ok(NodeKind::Task));
        let mut outcome = run_graph(&Runtime::new(2).unwrap(), graph);
        assert_eq!(outcome.get::<usize>(length), Ok(&1024));
        assert_eq!(outcome.take::<Vec<u8>>(give).unwrap(), vec![7u8; 1024]);
    })
}

#[test]
fn a_run_once_node_run_again_is_invalid_and_skips_its_dependents() {
    without_hanging(|| {
        let calls = Arc::new(AtomicUsize::new(0));
        let mut graph = TaskGraph::new();
        let once = {
            let calls = calls.clone();
            graph.add_task_once(move |_| calls.fetch_add(1, Ordering::SeqCst))
        };
        let after = graph.add_task_after(&[once], |_| ()).unwrap();
        assert!(graph.run(&Inline).all_completed());
        let again = graph.run(&Inline);
        assert_eq!(
            again.status(once),
            Ok(&NodeStatus::Invalid(GraphError::AlreadyRan {
                node: once.into()
            }))
        );
        assert_eq!(
            again.status(after),
            Ok(&NodeStatus::Skipped {
                prerequisite: once.into()
            })
        );
        assert_eq!(again.runs(once), Ok(0));
        assert_eq!(calls.load(Ordering::SeqCst), 1);
    })
}

#[test]
fn a_run_once_node_in_a_loop_runs_once_and_its_second_activation_is_invalid() {
    without_hanging(|| {
        let calls = Arc::new(AtomicUsize::new(0));
        let mut graph = TaskGraph::new();
        let init = graph.add_task(|_| ());
        let body = {
            let calls = calls.clone();
            graph
                .add_task_once_after(&[init], move |_| calls.fetch_add(1, Ordering::SeqCst))
                .unwrap()
        };
        let again = graph.add_condition_after(&[body], |_| 0).unwrap();
        graph.set_branches(again, &[body]).unwrap();
        let outcome = graph.run(&Runtime::new(2).unwrap());
        assert_eq!(calls.load(Ordering::SeqCst), 1);
        assert_eq!(outcome.runs(body), Ok(1));
        assert_eq!(
            outcome.status(body),
            Ok(&NodeStatus::Invalid(GraphError::AlreadyRan {
                node: body.into()
            }))
        );
    })
}

#[test]
fn a_run_once_node_that_panics_is_spent() {
    without_hanging(|| {
        quiet_expected_panics();
        let mut graph = TaskGraph::new();
        let once = graph.add_task_once(|_| -> u8 { panic!("{EXPECTED}: once") });
        let first = graph.run(&Inline);
        assert_eq!(
            first.status(once),
            Ok(&NodeStatus::Panicked(format!("{EXPECTED}: once").into()))
        );
        let second = graph.run(&Inline);
        assert_eq!(
            second.status(once),
            Ok(&NodeStatus::Invalid(GraphError::AlreadyRan {
                node: once.into()
            }))
        );
    })
}

#[test]
fn a_run_once_node_that_never_ran_keeps_its_closure_for_the_next_run() {
    without_hanging(|| {
        quiet_expected_panics();
        let fail = Arc::new(AtomicUsize::new(1));
        let mut graph = TaskGraph::new();
        let gate = {
            let fail = fail.clone();
            graph.add_task(move |_| {
                if fail.fetch_sub(1, Ordering::SeqCst) == 1 {
                    panic!("{EXPECTED}: first run");
                }
            })
        };
        let once = graph.add_task_once_after(&[gate], |_| "ran").unwrap();
        let first = graph.run(&Inline);
        assert_eq!(
            first.status(once),
            Ok(&NodeStatus::Skipped {
                prerequisite: gate.into()
            })
        );
        let second = graph.run(&Inline);
        assert_eq!(second.get::<&str>(once), Ok(&"ran"));
    })
}
