//! A fallible task's closure returns a `Result`: `Ok` completes the node
//! with the value as its output, `Err` fails it as `NodeStatus::Failed`,
//! which keeps the error typed, apart from panics.

mod common;

use common::{Inline, Pool};
use rt_core::Runtime;
use rt_dag::{CancellationToken, Executor, Limit, NodeKind, NodeStatus, TaskGraph};
use rt_testkit::without_hanging;

#[derive(Debug, PartialEq, thiserror::Error)]
#[error("sensor {id} is offline")]
struct Offline {
    id: u32,
}

fn fallible_tasks_on(executor: &impl Executor) {
    let mut graph = TaskGraph::new();
    let good = graph.add_fallible_task(|_| -> Result<u32, Offline> { Ok(20) });
    let bad = graph.add_fallible_task(|_| -> Result<u32, Offline> { Err(Offline { id: 7 }) });
    let sum = graph
        .add_task_after(&[good], move |deps| deps.get::<u32>(good).unwrap() + 22)
        .unwrap();
    let after_bad = graph.add_task_after(&[bad], |_| ()).unwrap();
    assert_eq!(graph.kind(bad), Ok(NodeKind::Task));

    let mut outcome = graph.run(executor);

    assert_eq!(outcome.status(good), Ok(&NodeStatus::Completed));
    assert_eq!(outcome.get::<u32>(good), Ok(&20)); // the `Ok` value, not the `Result`
    assert_eq!(outcome.get::<u32>(sum), Ok(&42));
    let status = outcome.status(bad).unwrap();
    let NodeStatus::Failed(error) = status else {
        panic!("expected a failure, got {status:?}");
    };
    assert_eq!(error.downcast_ref::<Offline>(), Some(&Offline { id: 7 }));
    assert!(error.type_name().ends_with("Offline"));
    assert_eq!(status.to_string(), "failed: sensor 7 is offline");
    assert!(status.ran() && status.is_failure() && !status.has_output());
    assert_eq!(outcome.runs(bad), Ok(1));
    assert_eq!(
        outcome.status(after_bad),
        Ok(&NodeStatus::Skipped {
            prerequisite: bad.into()
        })
    );
    assert!(outcome.take_panic(bad).is_err(), "an error is not a panic");
}

#[test]
fn a_fallible_task_s_error_fails_it_typed_and_skips_its_dependents_on_the_runtime() {
    without_hanging(|| fallible_tasks_on(&Runtime::new(2).unwrap()))
}

#[test]
fn a_fallible_task_s_error_fails_it_typed_and_skips_its_dependents_inline() {
    without_hanging(|| fallible_tasks_on(&Inline))
}

#[test]
fn a_fallible_task_s_error_fails_it_typed_and_skips_its_dependents_on_a_pool() {
    without_hanging(|| fallible_tasks_on(&Pool::new(2)))
}

#[test]
fn a_string_error_keeps_its_text_and_a_boxed_error_its_type() {
    without_hanging(|| {
        let mut graph = TaskGraph::new();
        let text =
            graph.add_fallible_task(|_| -> Result<(), String> { Err("no such file".into()) });
        let boxed = graph.add_fallible_task(
            |_| -> Result<(), Box<dyn std::error::Error + Send + Sync>> {
                Err(Box::new(Offline { id: 3 }))
            },
        );
        let outcome = graph.run(&Inline);
        let NodeStatus::Failed(error) = outcome.status(text).unwrap() else {
            unreachable!()
        };
        assert_eq!(error.to_string(), "no such file");
        let NodeStatus::Failed(error) = outcome.status(boxed).unwrap() else {
            unreachable!()
        };
        assert_eq!(error.downcast_ref::<Offline>(), Some(&Offline { id: 3 }));
    })
}

#[test]
fn a_fallible_task_with_prerequisites_a_limit_and_a_token_runs_like_any_task() {
    without_hanging(|| {
        let limit = Limit::new(1).unwrap();
        let token = CancellationToken::new();
        let mut graph = TaskGraph::new();
        let first = graph.add_task(|_| 2_u64);
        let mut calls = 0;
        let parse = graph
            .add_fallible_task_after(&[first], move |deps| {
                calls += 1;
                format!("{}{calls}", deps.get::<u64>(first).unwrap()).parse::<u64>()
            })
            .unwrap();
        graph.set_limit(parse, &limit).unwrap();
        let rt = Runtime::new(2).unwrap();
        assert_eq!(
            graph.run_cancellable(&rt, &token).get::<u64>(parse),
            Ok(&21)
        );
        assert_eq!(graph.run(&rt).get::<u64>(parse), Ok(&22));
        assert_eq!(limit.available(), 1);
    })
}

#[test]
fn an_error_inside_a_subgraph_fails_the_subgraph_node_with_the_error_still_typed() {
    without_hanging(|| {
        let mut graph = TaskGraph::new();
        let node = graph.add_subgraph(|_, sub| {
            sub.add_fallible_task(|_| -> Result<(), Offline> { Err(Offline { id: 1 }) });
        });
        let outcome = graph.run(&Runtime::new(2).unwrap());
        let status = outcome.status(node).unwrap();
        assert!(matches!(status, NodeStatus::SubgraphFailed { .. }));
        let NodeStatus::Failed(error) = status.root_cause() else {
            unreachable!()
        };
        assert_eq!(error.downcast_ref::<Offline>(), Some(&Offline { id: 1 }));
    })
}
