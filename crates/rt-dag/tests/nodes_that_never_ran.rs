//! Every node ends with one status; a node that never ran says why: a
//! failure upstream (`Skipped`), a cancellation (`Cancelled`), or no taken
//! branch leading to it (`NotReached`). Failure wins over cancellation,
//! which wins over not being reached.

mod common;

use common::{quiet_expected_panics, Inline, EXPECTED};
use rt_dag::{CancellationToken, DependencyError, NodeStatus, ReadyOrder, TaskGraph};
use rt_testkit::without_hanging;

#[test]
fn a_node_after_a_branch_not_taken_and_a_failure_is_skipped() {
    without_hanging(|| {
        quiet_expected_panics();
        let mut graph = TaskGraph::new();
        let choose = graph.add_condition(|_| 1);
        let not_taken = graph.add_task(|_| ());
        let taken = graph.add_task(|_| ());
        graph.set_branches(choose, &[not_taken, taken]).unwrap();
        let bad = graph.add_task(|_| -> () { panic!("{EXPECTED}: fails") });
        let both = graph.add_task_after(&[not_taken, bad], |_| ()).unwrap();
        let only_branch = graph.add_task_after(&[not_taken], |_| ()).unwrap();
        let outcome = graph.run(&Inline);
        assert_eq!(outcome.status(not_taken), Ok(&NodeStatus::NotReached));
        assert_eq!(outcome.status(only_branch), Ok(&NodeStatus::NotReached));
        assert_eq!(
            outcome.status(both),
            Ok(&NodeStatus::Skipped {
                prerequisite: bad.into()
            })
        );
        assert_eq!(outcome.status(taken), Ok(&NodeStatus::Completed));
        assert!(!outcome.is_success());
    })
}

#[test]
fn a_node_after_a_cancelled_node_and_a_branch_not_taken_is_cancelled() {
    without_hanging(|| {
        let token = CancellationToken::new();
        let mut graph = TaskGraph::new();
        graph.set_ready_order(ReadyOrder::Declared);
        let choose = graph.add_condition(|_| 1);
        let not_taken = graph.add_task(|_| ());
        let taken = {
            let token = token.clone();
            graph.add_task(move |_| token.cancel())
        };
        graph.set_branches(choose, &[not_taken, taken]).unwrap();
        let cancelled = graph.add_task_after(&[taken], |_| ()).unwrap();
        let both = graph
            .add_task_after(&[cancelled, not_taken], |_| ())
            .unwrap();
        let outcome = graph.run_cancellable(&Inline, &token);
        assert_eq!(outcome.status(taken), Ok(&NodeStatus::Completed));
        assert_eq!(outcome.status(cancelled), Ok(&NodeStatus::Cancelled));
        assert_eq!(outcome.status(both), Ok(&NodeStatus::Cancelled));
        assert_eq!(outcome.status(not_taken), Ok(&NodeStatus::NotReached));
    })
}

#[test]
fn every_status_says_whether_the_closure_ran_and_whether_it_is_a_failure() {
    without_hanging(|| {
        let cases = [
            (NodeStatus::Completed, true, false),
            (NodeStatus::Panicked("p".into()), true, true),
            (
                NodeStatus::SubgraphFailed {
                    node: rt_dag::TaskGraph::new().add_task(|_| ()).into(),
                    status: Box::new(NodeStatus::Rejected),
                },
                true,
                true,
            ),
            (NodeStatus::SubgraphCancelled, true, false),
            (
                NodeStatus::Skipped {
                    prerequisite: rt_dag::TaskGraph::new().add_task(|_| ()).into(),
                },
                false,
                true,
            ),
            (NodeStatus::Cancelled, false, false),
            (NodeStatus::Rejected, false, true),
            (NodeStatus::NotReached, false, false),
        ];
        for (status, ran, failure) in cases {
            assert_eq!(status.ran(), ran, "{status}");
            assert_eq!(status.is_failure(), failure, "{status}");
            assert!(!status.to_string().is_empty());
        }
    })
}

#[test]
fn a_branch_target_started_before_its_prerequisite_completed_gets_no_output_for_it() {
    without_hanging(|| {
        let mut graph = TaskGraph::new();
        graph.set_ready_order(ReadyOrder::Declared);
        let jump = graph.add_condition(|_| 0);
        // `never` has a prerequisite that fails: it never completes.
        let fails = graph.add_condition(|_| 9);
        let never = graph.add_task(|_| 1u8);
        graph.set_branches(fails, &[never]).unwrap();
        let target = graph
            .add_task_after(&[never], move |d| d.get::<u8>(never).copied())
            .unwrap();
        graph.set_branches(jump, &[target]).unwrap();
        let outcome = graph.run(&Inline);
        assert!(matches!(
            outcome.get::<Result<u8, DependencyError>>(target),
            Ok(Err(DependencyError::NoOutput { .. }))
        ));
        assert_eq!(outcome.status(never), Ok(&NodeStatus::NotReached));
    })
}
