//! A pipeline as a node of a task graph: it runs at each run of the graph
//! after its prerequisites and before its dependents, which read its
//! report; no thread waits for it (so it completes even on a pool of one
//! thread); its failure fails the node and skips what follows.

mod common;

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

use common::{quiet_expected_panics, Inline, Pool, EXPECTED};
use rt_core::Runtime;
use rt_dag::{
    CancellationToken, Executor, GraphError, NodeKind, NodeStatus, Pipe, Pipeline, PipelineReport,
    TaskGraph,
};
use rt_testkit::without_hanging;

/// A graph: `before` → a pipeline of 50 items over 4 lines → `after`,
/// which reads the pipeline's report; run three times on `executor`.
fn a_pipeline_node_runs_between_its_prerequisites_and_its_dependents_on(executor: &impl Executor) {
    let events = Arc::new(std::sync::Mutex::new(Vec::new()));
    let mut graph = TaskGraph::new();
    let e = events.clone();
    let before = graph.add_task(move |_| e.lock().unwrap().push("before"));
    let e = events.clone();
    let mut produced = 0;
    let pipeline = Pipeline::from_fn(4, move || {
        if produced == 50 {
            produced = 0; // fifty items each run
            return None;
        }
        produced += 1;
        Some(produced)
    })
    .parallel(|x| x * 2)
    .serial(move |_| e.lock().unwrap().push("item"));
    let node = graph.add_pipeline_after(&[before], pipeline).unwrap();
    assert_eq!(graph.kind(node), Ok(NodeKind::Pipeline));
    let e = events.clone();
    let after = graph
        .add_task_after(&[node], move |deps| {
            e.lock().unwrap().push("after");
            *deps.get::<PipelineReport>(node).unwrap()
        })
        .unwrap();
    for run in 1..=3u64 {
        events.lock().unwrap().clear();
        let outcome = graph.run(executor);
        assert!(outcome.all_completed());
        let report = outcome.get::<PipelineReport>(after).unwrap();
        assert_eq!((report.items(), report.tokens()), (50, 50 * run));
        let events = events.lock().unwrap();
        assert_eq!(events.len(), 52);
        assert_eq!((events[0], events[51]), ("before", "after"));
    }
    assert_eq!(graph.pipeline_mut::<()>(node).unwrap().tokens(), 150);
}

#[test]
fn a_pipeline_node_runs_between_its_prerequisites_and_its_dependents_on_the_runtime() {
    without_hanging(|| {
        a_pipeline_node_runs_between_its_prerequisites_and_its_dependents_on(
            &Runtime::new(2).unwrap(),
        )
    })
}

#[test]
fn a_pipeline_node_runs_between_its_prerequisites_and_its_dependents_inline() {
    without_hanging(|| {
        a_pipeline_node_runs_between_its_prerequisites_and_its_dependents_on(&Inline)
    })
}

#[test]
fn a_pipeline_node_completes_on_a_pool_of_one_thread_which_no_thread_waiting_for_it_could_block() {
    without_hanging(|| {
        a_pipeline_node_runs_between_its_prerequisites_and_its_dependents_on(&Pool::new(1))
    })
}

#[test]
fn a_graph_with_a_pipeline_node_run_inside_install_completes() {
    without_hanging(|| {
        let rt = Runtime::new(2).unwrap();
        rt.install(|| a_pipeline_node_runs_between_its_prerequisites_and_its_dependents_on(&rt));
    })
}

#[test]
fn a_failing_pipeline_fails_its_node_and_skips_its_dependents_and_nothing_else() {
    without_hanging(|| {
        quiet_expected_panics();
        let rt = Runtime::new(2).unwrap();
        let mut graph = TaskGraph::new();
        let node = graph.add_pipeline(Pipeline::from_iter(3, 0..100u32).serial(|x| {
            if x == 40 {
                panic!("{EXPECTED}: item 40");
            }
        }));
        let skipped = graph.add_task_after(&[node], |_| ()).unwrap();
        let independent = graph.add_task(|_| 7);
        let outcome = graph.run(&rt);
        match outcome.status(node).unwrap() {
            NodeStatus::Panicked(message) => {
                let message = message.as_str();
                assert!(
                    message.contains("item 40") && message.contains("stage 1"),
                    "{message}"
                )
            }
            other => panic!("{other:?}"),
        }
        assert_eq!(
            outcome.status(skipped),
            Ok(&NodeStatus::Skipped {
                prerequisite: outcome.name(node).unwrap()
            })
        );
        assert_eq!(outcome.get::<i32>(independent), Ok(&7));
    })
}

#[test]
fn a_cancelled_graph_run_cancels_its_pipeline_node() {
    without_hanging(|| {
        let rt = Runtime::new(2).unwrap();
        let token = CancellationToken::new();
        let cancel = token.clone();
        let seen = Arc::new(AtomicUsize::new(0));
        let s = seen.clone();
        let mut graph = TaskGraph::new();
        let node = graph.add_pipeline(Pipeline::from_iter(2, 0..u64::MAX).serial(move |x| {
            s.fetch_add(1, Ordering::SeqCst);
            if x == 20 {
                cancel.cancel();
            }
        }));
        let after = graph.add_task_after(&[node], |_| ()).unwrap();
        let outcome = graph.run_cancellable(&rt, &token);
        assert_eq!(outcome.status(node), Ok(&NodeStatus::Cancelled));
        assert_eq!(outcome.status(after), Ok(&NodeStatus::Cancelled));
        assert!(seen.load(Ordering::SeqCst) >= 21);
    })
}

#[test]
fn a_pipeline_node_on_a_shut_down_runtime_is_rejected_instead_of_hanging() {
    without_hanging(|| {
        let rt = Runtime::new(2).unwrap();
        let mut graph = TaskGraph::new();
        let entry = graph.add_task(|_| ());
        let node = graph
            .add_pipeline_after(&[entry], Pipeline::from_iter(2, 0..10).parallel(|x| x))
            .unwrap();
        // The entry's job runs inline here: the pipeline's first job is
        // refused.
        let outcome = graph.run(&common::ShutsDownAfter::new(1));
        assert_eq!(outcome.status(node), Ok(&NodeStatus::Rejected));
        drop(rt);
    })
}

#[test]
fn a_pipeline_node_that_cannot_run_fails_with_the_reason() {
    without_hanging(|| {
        let mut graph = TaskGraph::new();
        let node = graph.add_pipeline(Pipeline::from_iter(0, 0..10).parallel(|x| x));
        let outcome = graph.run(&Inline);
        match outcome.status(node) {
            Ok(NodeStatus::Failed(error)) => {
                assert_eq!(
                    error.downcast_ref::<rt_dag::PipelineError>(),
                    Some(&rt_dag::PipelineError::ZeroLines)
                );
                assert_eq!(error.to_string(), "a pipeline needs at least one line");
            }
            other => panic!("{other:?}"),
        }
    })
}

#[test]
fn pipeline_mut_names_pipeline_nodes_of_the_right_item_type_only() {
    without_hanging(|| {
        let mut graph = TaskGraph::new();
        let task = graph.add_task(|_| ());
        let node = graph.add_pipeline(Pipeline::from_iter(2, 0..3u8).parallel(|x| x));
        assert!(graph.pipeline_mut::<u8>(node).is_ok());
        assert!(matches!(
            graph.pipeline_mut::<u16>(node),
            Err(GraphError::NotAPipeline { .. })
        ));
        assert!(matches!(
            graph.pipeline_mut::<()>(task),
            Err(GraphError::NotAPipeline { .. })
        ));
        let limit = rt_dag::Limit::new(1).unwrap();
        assert_eq!(
            graph.set_limit(node, &limit),
            Err(GraphError::GraphNodeLimited { node: node.into() })
        );
    })
}

#[test]
fn an_awaited_graph_runs_its_pipeline_node() {
    without_hanging(|| {
        let rt = Runtime::new(2).unwrap();
        let mut graph = TaskGraph::new();
        let node = graph.add_pipeline(Pipeline::from_pipes(
            3,
            vec![
                Pipe::serial(|ctx| {
                    if ctx.token() == 30 {
                        ctx.stop();
                    }
                }),
                Pipe::parallel(|_| ()),
            ],
        ));
        let outcome = futures::executor::block_on(rt_dag::run_graph_async(&rt, graph));
        assert_eq!(outcome.get::<PipelineReport>(node).unwrap().items(), 30);
    })
}
