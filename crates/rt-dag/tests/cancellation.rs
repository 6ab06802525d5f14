//! Once the token is cancelled, nodes that have not started never run.

mod common;

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

use common::{quiet_expected_panics, Inline, Pool, EXPECTED};
use rt_dag::{
    run_graph, run_graph_cancellable, CancellationToken, NodeStatus, ReadyOrder, TaskGraph,
};
use rt_testkit::without_hanging;

#[test]
fn a_token_cancelled_before_the_run_cancels_every_node() {
    without_hanging(|| {
        let ran = Arc::new(AtomicUsize::new(0));
        let mut graph = TaskGraph::new();
        let mut ids = Vec::new();
        for _ in 0..5 {
            let ran = Arc::clone(&ran);
            let root = graph.add_task(move |_| ran.fetch_add(1, Ordering::SeqCst));
            ids.push(root);
            ids.push(graph.add_task_after(&[root], |_| ()).unwrap());
        }
        let token = CancellationToken::new();
        token.cancel();

        let outcome = run_graph_cancellable(&Pool::new(2), graph, &token);

        for id in ids {
            assert_eq!(outcome.status(id), Ok(&NodeStatus::Cancelled));
        }
        assert_eq!(ran.load(Ordering::SeqCst), 0);
    })
}

#[test]
fn cancelling_from_inside_a_node_lets_it_finish_and_cancels_everything_after_it() {
    without_hanging(|| {
        let token = CancellationToken::new();
        let ran_after = Arc::new(AtomicUsize::new(0));
        let mut graph = TaskGraph::new();
        let canceller = {
            let token = token.clone();
            graph.add_task(move |deps| {
                token.cancel();
                assert!(deps.is_cancelled());
                "cancelled the run"
            })
        };
        let mut downstream = Vec::new();
        let mut prev = canceller;
        for _ in 0..3 {
            let ran_after = Arc::clone(&ran_after);
            prev = graph
                .add_task_after(&[prev], move |_| ran_after.fetch_add(1, Ordering::SeqCst))
                .unwrap();
            downstream.push(prev);
        }

        let mut outcome = run_graph_cancellable(&Pool::new(2), graph, &token);

        assert_eq!(outcome.take::<&str>(canceller), Ok("cancelled the run"));
        for id in downstream {
            assert_eq!(outcome.status(id), Ok(&NodeStatus::Cancelled));
        }
        assert_eq!(ran_after.load(Ordering::SeqCst), 0);
    })
}

#[test]
fn a_job_already_queued_when_the_token_is_cancelled_does_not_start() {
    without_hanging(|| {
        // Inline runs jobs in the order they are submitted, here the order
        // the entries were added: the first root cancels, and the second
        // root, already submitted, then checks the token before its closure
        // starts.
        let token = CancellationToken::new();
        let mut graph = TaskGraph::new();
        graph.set_ready_order(ReadyOrder::Declared);
        let first = {
            let token = token.clone();
            graph.add_task(move |_| token.cancel())
        };
        let second = graph.add_task(|_| ());
        let outcome = run_graph_cancellable(&Inline, graph, &token);
        assert_eq!(outcome.status(first), Ok(&NodeStatus::Completed));
        assert_eq!(outcome.status(second), Ok(&NodeStatus::Cancelled));
    })
}

#[test]
fn a_node_downstream_of_a_panic_is_skipped_even_if_the_run_is_cancelled() {
    without_hanging(|| {
        quiet_expected_panics();
        let token = CancellationToken::new();
        let mut graph = TaskGraph::new();
        let bad = {
            let token = token.clone();
            graph.add_task(move |_| -> () {
                token.cancel();
                panic!("{EXPECTED}: failing and cancelling")
            })
        };
        let after_bad = graph.add_task_after(&[bad], |_| ()).unwrap();
        let outcome = run_graph_cancellable(&Inline, graph, &token);
        assert!(matches!(outcome.status(bad), Ok(NodeStatus::Panicked(_))));
        assert_eq!(
            outcome.status(after_bad),
            Ok(&NodeStatus::Skipped {
                prerequisite: bad.into()
            })
        );
    })
}

#[test]
fn a_node_that_depends_on_a_cancelled_node_and_a_panicked_one_is_skipped() {
    without_hanging(|| {
        quiet_expected_panics();
        let token = CancellationToken::new();
        let mut graph = TaskGraph::new();
        // Inline runs the entries in declaration order (`ReadyOrder::Declared`):
        // `bad` panics, then `canceller` cancels, so `cancelled` never starts.
        graph.set_ready_order(ReadyOrder::Declared);
        let bad = graph.add_task(|_| -> () { panic!("{EXPECTED}: independent failure") });
        let canceller = {
            let token = token.clone();
            graph.add_task(move |_| token.cancel())
        };
        let cancelled = graph.add_task_after(&[canceller], |_| ()).unwrap();
        let both = graph.add_task_after(&[cancelled, bad], |_| ()).unwrap();
        let outcome = run_graph_cancellable(&Inline, graph, &token);
        assert!(matches!(outcome.status(bad), Ok(NodeStatus::Panicked(_))));
        assert_eq!(outcome.status(canceller), Ok(&NodeStatus::Completed));
        assert_eq!(outcome.status(cancelled), Ok(&NodeStatus::Cancelled));
        assert_eq!(
            outcome.status(both),
            Ok(&NodeStatus::Skipped {
                prerequisite: bad.into()
            })
        );
    })
}

#[test]
fn without_a_token_nodes_never_see_a_cancellation() {
    without_hanging(|| {
        let mut graph = TaskGraph::new();
        let node = graph.add_task(|deps| deps.is_cancelled());
        let mut outcome = run_graph(&Inline, graph);
        assert_eq!(outcome.take::<bool>(node), Ok(false));
    })
}
