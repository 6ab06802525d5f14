//! A placeholder is a node added now whose work is set later, once, and
//! decides its kind; one whose work was never set does not run: it is
//! `Invalid(NoWork)`, what waits for it is skipped, and the run ends.

mod common;

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

use common::{DropsJobs, Inline, Pool};
use rt_core::Runtime;
use rt_dag::{
    Executor, GraphError, GraphOutcome, Limit, Module, NodeKind, NodeStatus, Pipeline,
    PipelineReport, TaskGraph,
};
use rt_testkit::without_hanging;

#[test]
fn a_placeholder_takes_the_work_set_later_and_its_dependents_read_its_output() {
    without_hanging(|| {
        let mut graph = TaskGraph::new();
        let source = graph.add_placeholder();
        let double = graph
            .add_task_after(&[source], move |d| d.get::<u64>(source).unwrap() * 2)
            .unwrap();
        assert_eq!(graph.kind(source), Ok(NodeKind::Placeholder));
        graph.set_task(source, |_| 21u64).unwrap();
        assert_eq!(graph.kind(source), Ok(NodeKind::Task));
        let outcome = graph.run(&Runtime::new(2).unwrap());
        assert_eq!(outcome.get::<u64>(double), Ok(&42));
        assert_eq!(outcome.get::<u64>(source), Ok(&21));
    })
}

fn an_unset_placeholder_is_invalid_and_skips_its_dependents_on(executor: &impl Executor) {
    let ran = Arc::new(AtomicUsize::new(0));
    let mut graph = TaskGraph::new();
    let unset = graph.add_placeholder();
    let after = {
        let ran = ran.clone();
        graph
            .add_task_after(&[unset], move |_| ran.fetch_add(1, Ordering::SeqCst))
            .unwrap()
    };
    let independent = {
        let ran = ran.clone();
        graph.add_task(move |_| ran.fetch_add(1, Ordering::SeqCst))
    };
    let outcome = graph.run(executor);
    assert_eq!(
        outcome.status(unset),
        Ok(&NodeStatus::Invalid(GraphError::NoWork {
            node: unset.into()
        }))
    );
    assert_eq!(
        outcome.status(after),
        Ok(&NodeStatus::Skipped {
            prerequisite: unset.into()
        })
    );
    assert_eq!(outcome.status(independent), Ok(&NodeStatus::Completed));
    assert_eq!(ran.load(Ordering::SeqCst), 1);
    assert_eq!(outcome.runs(unset), Ok(0));
    assert!(!outcome.is_success());
    let status = outcome.status(unset).unwrap();
    assert!(status.is_failure() && !status.ran());
    assert!(status.to_string().contains("never set"), "{status}");
}

#[test]
fn an_unset_placeholder_is_invalid_and_skips_its_dependents_on_the_runtime() {
    without_hanging(|| {
        an_unset_placeholder_is_invalid_and_skips_its_dependents_on(&Runtime::new(2).unwrap())
    })
}

#[test]
fn an_unset_placeholder_is_invalid_and_skips_its_dependents_inline() {
    without_hanging(|| an_unset_placeholder_is_invalid_and_skips_its_dependents_on(&Inline))
}

#[test]
fn an_unset_placeholder_is_invalid_and_skips_its_dependents_on_a_pool() {
    without_hanging(|| an_unset_placeholder_is_invalid_and_skips_its_dependents_on(&Pool::new(2)))
}

#[test]
fn an_unset_placeholder_in_a_loop_ends_the_loop_without_hanging() {
    without_hanging(|| {
        let mut graph = TaskGraph::new();
        let init = graph.add_task(|_| ());
        let body = graph.add_placeholder();
        graph.precede(init, &[body]).unwrap();
        let again = graph.add_condition_after(&[body], |_| 0).unwrap();
        graph.set_branches(again, &[body]).unwrap();
        let outcome = graph.run(&Runtime::new(2).unwrap());
        assert_eq!(
            outcome.status(body),
            Ok(&NodeStatus::Invalid(GraphError::NoWork {
                node: body.into()
            }))
        );
        assert_eq!(
            outcome.status(again),
            Ok(&NodeStatus::Skipped {
                prerequisite: body.into()
            })
        );
    })
}

#[test]
fn an_unset_placeholder_inside_a_graph_node_fails_the_node() {
    without_hanging(|| {
        let mut inner = TaskGraph::new();
        let unset = inner.add_placeholder();
        let mut outer = TaskGraph::new();
        let module = outer.add_graph(inner);
        let outcome = outer.run(&Inline);
        assert_eq!(
            outcome.status(module),
            Ok(&NodeStatus::SubgraphFailed {
                node: unset.into(),
                status: Box::new(NodeStatus::Invalid(GraphError::NoWork {
                    node: unset.into()
                })),
            })
        );
    })
}

#[test]
fn a_placeholder_s_work_is_set_once() {
    without_hanging(|| {
        let mut graph = TaskGraph::new();
        let node = graph.add_placeholder();
        graph.set_task(node, |_| 1u8).unwrap();
        let expected = Err(GraphError::NotAPlaceholder { node: node.into() });
        assert_eq!(graph.set_task(node, |_| 2u8), expected);
        assert_eq!(graph.set_condition(node, |_| 0), expected);
        assert_eq!(graph.set_graph(node, TaskGraph::new()), expected);
        let task = graph.add_task(|_| ());
        assert_eq!(
            graph.set_task(task, |_| ()),
            Err(GraphError::NotAPlaceholder { node: task.into() })
        );
        let mut outcome = graph.run(&Inline);
        assert_eq!(outcome.take::<u8>(node), Ok(1));
    })
}

#[test]
fn a_placeholder_becomes_any_kind_of_node() {
    without_hanging(|| {
        let shared = Module::new({
            let mut g = TaskGraph::new();
            g.add_task(|_| "module");
            g
        });
        let mut graph = TaskGraph::new();
        let [task, once, condition, multi, subgraph, inner, module, target_a, target_b] =
            [(); 9].map(|_| graph.add_placeholder());
        graph.set_task(task, |_| "task").unwrap();
        graph.set_task_once(once, |_| "once").unwrap();
        graph.set_condition(condition, |_| 0).unwrap();
        graph.set_multi_condition(multi, |_| vec![0]).unwrap();
        graph
            .set_subgraph(subgraph, |_, sub| {
                sub.add_task(|_| ());
                "subgraph"
            })
            .unwrap();
        graph.set_graph(inner, TaskGraph::new()).unwrap();
        graph.set_module(module, &shared).unwrap();
        graph.set_task(target_a, |_| ()).unwrap();
        graph.set_task(target_b, |_| ()).unwrap();
        graph.set_branches(condition, &[target_a]).unwrap();
        graph.set_branches(multi, &[target_b]).unwrap();
        let kinds: Vec<NodeKind> = [task, once, condition, multi, subgraph, inner, module]
            .iter()
            .map(|&n| graph.kind(n).unwrap())
            .collect();
        assert_eq!(
            kinds,
            [
                NodeKind::Task,
                NodeKind::Task,
                NodeKind::Condition,
                NodeKind::MultiCondition,
                NodeKind::Subgraph,
                NodeKind::Graph,
                NodeKind::Module
            ]
        );
        let outcome = graph.run(&Runtime::new(2).unwrap());
        assert!(outcome.all_completed(), "{outcome:?}");
        assert_eq!(outcome.get::<&str>(task), Ok(&"task"));
        assert_eq!(outcome.get::<&str>(once), Ok(&"once"));
        assert_eq!(outcome.get::<usize>(condition), Ok(&0));
        assert_eq!(outcome.get::<Vec<usize>>(multi), Ok(&vec![0]));
        assert_eq!(outcome.get::<&str>(subgraph), Ok(&"subgraph"));
        assert!(outcome.get::<GraphOutcome>(inner).unwrap().is_empty());
        assert!(outcome.get::<GraphOutcome>(module).unwrap().all_completed());
    })
}

#[test]
fn a_limited_placeholder_cannot_become_a_graph_node() {
    without_hanging(|| {
        let mut graph = TaskGraph::new();
        let node = graph.add_placeholder();
        graph.set_limit(node, &Limit::new(1).unwrap()).unwrap();
        assert_eq!(
            graph.set_graph(node, TaskGraph::new()),
            Err(GraphError::GraphNodeLimited { node: node.into() })
        );
        assert_eq!(
            graph.set_module(node, &Module::new(TaskGraph::new())),
            Err(GraphError::GraphNodeLimited { node: node.into() })
        );
        assert_eq!(
            graph.set_pipeline(node, Pipeline::from_iter(2, 0..3u8).parallel(|x| x)),
            Err(GraphError::GraphNodeLimited { node: node.into() })
        );
        assert_eq!(graph.kind(node), Ok(NodeKind::Placeholder));
    })
}

#[test]
fn a_placeholder_becomes_a_fallible_task_or_a_pipeline_node() {
    without_hanging(|| {
        let mut graph = TaskGraph::new();
        let [parsed, failed, stream] = [(); 3].map(|_| graph.add_placeholder());
        let after_failed = graph.add_task_after(&[failed], |_| ()).unwrap();
        let items = graph
            .add_task_after(&[stream], move |d| {
                d.get::<PipelineReport>(stream).unwrap().items()
            })
            .unwrap();
        graph
            .set_fallible_task(parsed, |_| "42".parse::<u32>())
            .unwrap();
        graph
            .set_fallible_task(failed, |_| "x".parse::<u32>())
            .unwrap();
        graph
            .set_pipeline(stream, Pipeline::from_iter(2, 0..10u32).parallel(|x| x + 1))
            .unwrap();
        assert_eq!(graph.kind(parsed), Ok(NodeKind::Task));
        assert_eq!(graph.kind(stream), Ok(NodeKind::Pipeline));
        assert_eq!(
            graph.set_pipeline(stream, Pipeline::from_iter(2, 0..1u8).parallel(|x| x)),
            Err(GraphError::NotAPlaceholder {
                node: stream.into()
            })
        );
        let outcome = graph.run(&Runtime::new(2).unwrap());
        assert_eq!(outcome.get::<u32>(parsed), Ok(&42));
        let Ok(NodeStatus::Failed(error)) = outcome.status(failed) else {
            panic!("{:?}", outcome.status(failed));
        };
        assert!(error.downcast_ref::<std::num::ParseIntError>().is_some());
        assert_eq!(
            outcome.status(after_failed),
            Ok(&NodeStatus::Skipped {
                prerequisite: failed.into()
            })
        );
        assert_eq!(outcome.get::<u64>(items), Ok(&10));
    })
}

#[test]
fn a_limited_unset_placeholder_takes_no_permit_and_ends() {
    without_hanging(|| {
        let limit = Limit::new(1).unwrap();
        let mut graph = TaskGraph::new();
        let node = graph.add_placeholder();
        graph.set_limit(node, &limit).unwrap();
        let outcome = graph.run(&Runtime::new(2).unwrap());
        assert!(matches!(outcome.status(node), Ok(NodeStatus::Invalid(_))));
        assert_eq!(limit.available(), 1);
    })
}

#[test]
fn a_placeholder_rejected_by_the_executor_is_rejected() {
    without_hanging(|| {
        let mut graph = TaskGraph::new();
        let node = graph.add_placeholder();
        let outcome = graph.run(&DropsJobs);
        assert_eq!(outcome.status(node), Ok(&NodeStatus::Rejected));
    })
}

#[test]
fn an_id_of_another_graph_is_refused_by_the_placeholder_setters() {
    without_hanging(|| {
        let mut other = TaskGraph::new();
        let foreign = other.add_placeholder();
        let mut graph = TaskGraph::new();
        assert_eq!(
            graph.set_task(foreign, |_| ()),
            Err(GraphError::ForeignNode {
                node: foreign,
                expected: graph.id()
            })
        );
    })
}
