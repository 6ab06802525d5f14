//! `run_until` asks its stop condition before every run, the first
//! included; `run_n_cancellable` and `run_until_cancellable` start no run
//! once their token is cancelled, and the run in progress stops starting
//! nodes.

mod common;

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

use common::{Inline, Pool};
use rt_core::Runtime;
use rt_dag::{CancellationToken, NodeId, NodeStatus, TaskGraph};
use rt_testkit::without_hanging;

/// A graph counting its runs in `runs`, whose first node cancels `token`
/// on run number `cancel_on` (from 1); the second node waits for the
/// first.
fn counted(
    runs: &Arc<AtomicUsize>,
    token: &CancellationToken,
    cancel_on: usize,
) -> (TaskGraph, NodeId) {
    let mut graph = TaskGraph::new();
    let (runs, token) = (runs.clone(), token.clone());
    let first = graph.add_task(move |_| {
        if runs.fetch_add(1, Ordering::SeqCst) + 1 == cancel_on {
            token.cancel();
        }
    });
    let second = graph.add_task_after(&[first], |_| ()).unwrap();
    (graph, second)
}

#[test]
fn run_until_whose_stop_condition_holds_before_the_first_run_runs_the_graph_no_time() {
    without_hanging(|| {
        let runs = Arc::new(AtomicUsize::new(0));
        let (mut graph, _) = counted(&runs, &CancellationToken::new(), 0);
        let mut asked = Vec::new();
        let last = graph.run_until(&Pool::new(2), |last| {
            asked.push(last.is_some());
            true
        });
        assert!(last.is_none());
        assert_eq!(asked, [false]);
        assert_eq!(runs.load(Ordering::SeqCst), 0);
    })
}

#[test]
fn run_until_asks_its_stop_condition_with_nothing_first_then_with_each_run_s_outcome() {
    without_hanging(|| {
        let runs = Arc::new(AtomicUsize::new(0));
        let (mut graph, second) = counted(&runs, &CancellationToken::new(), 0);
        let mut asked = Vec::new();
        let last = graph
            .run_until(&Runtime::new(2).unwrap(), |last| {
                asked.push(last.map(|o| o.status(second).unwrap().clone()));
                asked.len() == 4
            })
            .unwrap();
        assert!(last.all_completed());
        assert_eq!(
            asked,
            [
                None,
                Some(NodeStatus::Completed),
                Some(NodeStatus::Completed),
                Some(NodeStatus::Completed)
            ]
        );
        assert_eq!(runs.load(Ordering::SeqCst), 3);
    })
}

#[test]
fn run_n_cancellable_starts_no_run_after_the_token_is_cancelled() {
    without_hanging(|| {
        let runs = Arc::new(AtomicUsize::new(0));
        let token = CancellationToken::new();
        let (mut graph, second) = counted(&runs, &token, 3);
        let outcomes = graph.run_n_cancellable(&Runtime::new(2).unwrap(), 1_000, &token);
        assert_eq!(outcomes.len(), 3);
        assert_eq!(runs.load(Ordering::SeqCst), 3);
        assert!(outcomes[..2].iter().all(|o| o.all_completed()));
        // The run in progress started no node after the cancellation.
        assert_eq!(outcomes[2].status(second), Ok(&NodeStatus::Cancelled));
    })
}

#[test]
fn run_n_cancellable_with_a_token_cancelled_before_the_call_runs_nothing() {
    without_hanging(|| {
        let runs = Arc::new(AtomicUsize::new(0));
        let token = CancellationToken::new();
        token.cancel();
        let (mut graph, _) = counted(&runs, &token, 0);
        assert!(graph.run_n_cancellable(&Inline, 5, &token).is_empty());
        assert_eq!(runs.load(Ordering::SeqCst), 0);
    })
}

#[test]
fn run_until_cancellable_ends_a_repetition_whose_stop_condition_never_holds() {
    without_hanging(|| {
        let runs = Arc::new(AtomicUsize::new(0));
        let token = CancellationToken::new();
        let (mut graph, second) = counted(&runs, &token, 50);
        let last = graph
            .run_until_cancellable(&Pool::new(2), &token, |_| false)
            .unwrap();
        assert_eq!(runs.load(Ordering::SeqCst), 50);
        assert_eq!(last.status(second), Ok(&NodeStatus::Cancelled));
    })
}

#[test]
fn run_until_cancellable_with_a_token_cancelled_before_the_call_runs_nothing() {
    without_hanging(|| {
        let runs = Arc::new(AtomicUsize::new(0));
        let token = CancellationToken::new();
        token.cancel();
        let (mut graph, _) = counted(&runs, &token, 0);
        assert!(graph
            .run_until_cancellable(&Inline, &token, |_| false)
            .is_none());
        assert_eq!(runs.load(Ordering::SeqCst), 0);
    })
}
