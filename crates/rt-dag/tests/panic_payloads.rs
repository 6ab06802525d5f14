//! A node's panic keeps its payload: the caller takes it out of the outcome
//! (`take_panic`) to re-raise it with `std::panic::resume_unwind` or
//! downcast it, whatever its type, through skipped nodes and subgraphs.

mod common;

use std::panic::{catch_unwind, resume_unwind, AssertUnwindSafe};

use common::{quiet_expected_panics, Inline, Pool, EXPECTED};
use rt_core::Runtime;
use rt_dag::{NodeStatus, OutcomeError, TaskGraph};
use rt_testkit::{quietly, without_hanging};

#[derive(Debug, PartialEq)]
struct Overheated(u16);

#[test]
fn a_non_string_payload_is_kept_and_can_be_resumed_by_the_caller() {
    without_hanging(|| {
        let mut graph = TaskGraph::new();
        let hot = graph.add_task(|_| -> u8 { std::panic::panic_any(Overheated(413)) });
        let mut outcome = quietly(|| graph.run(&Runtime::new(2).unwrap()));
        assert_eq!(
            outcome.status(hot),
            Ok(&NodeStatus::Panicked(rt_handle::NON_STRING_PAYLOAD.into()))
        );
        let payload = outcome.take_panic(hot).unwrap();
        let resumed = quietly(|| catch_unwind(AssertUnwindSafe(|| resume_unwind(payload))));
        let payload = resumed.unwrap_err();
        assert_eq!(payload.downcast_ref::<Overheated>(), Some(&Overheated(413)));
    })
}

#[test]
fn the_payload_is_reached_from_a_skipped_node_and_through_subgraphs() {
    without_hanging(|| {
        let mut inner = TaskGraph::new();
        inner.add_subgraph(|_, sub| {
            sub.add_task(|_| std::panic::panic_any(Overheated(7)));
        });
        let mut outer = TaskGraph::new();
        let module = outer.add_graph(inner);
        let after = outer.add_task_after(&[module], |_| ()).unwrap();
        let mut outcome = quietly(|| outer.run(&Pool::new(2)));
        let payload = outcome.take_panic(after).unwrap();
        assert_eq!(payload.downcast_ref::<Overheated>(), Some(&Overheated(7)));
    })
}

#[test]
fn taking_the_payload_again_gives_the_message_as_a_string() {
    without_hanging(|| {
        quiet_expected_panics();
        let mut graph = TaskGraph::new();
        let bad = graph.add_task(|_| panic!("{EXPECTED}: twice"));
        let mut outcome = graph.run(&Inline);
        let first = outcome.take_panic(bad).unwrap();
        assert_eq!(
            *first.downcast::<String>().unwrap(),
            format!("{EXPECTED}: twice")
        );
        let second = outcome.take_panic(bad).unwrap();
        assert_eq!(
            *second.downcast::<String>().unwrap(),
            format!("{EXPECTED}: twice")
        );
        // The status still says what happened.
        assert!(matches!(outcome.status(bad), Ok(NodeStatus::Panicked(m)) if m.contains("twice")));
    })
}

#[test]
fn a_node_whose_failure_is_not_a_panic_has_no_payload_to_take() {
    without_hanging(|| {
        let mut graph = TaskGraph::new();
        let fine = graph.add_task(|_| ());
        let failed = graph.add_fallible_task(|_| -> Result<(), String> { Err("no".into()) });
        let mut outcome = graph.run(&Inline);
        assert!(matches!(
            outcome.take_panic(fine),
            Err(OutcomeError::NoPanic {
                status: NodeStatus::Completed,
                ..
            })
        ));
        assert!(matches!(
            outcome.take_panic(failed),
            Err(OutcomeError::NoPanic {
                status: NodeStatus::Failed(_),
                ..
            })
        ));
    })
}
