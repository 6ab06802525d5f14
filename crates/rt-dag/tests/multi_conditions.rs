//! A multi-condition node returns several branches at once, and all of
//! them start (Taskflow's multi-condition tasks); the others are not
//! reached.

mod common;

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

use common::{quiet_expected_panics, Inline, Pool, EXPECTED};
use rt_core::Runtime;
use rt_dag::{Executor, GraphError, NodeId, NodeKind, NodeStatus, TaskGraph};
use rt_testkit::without_hanging;

fn every_branch_returned_starts_on(executor: &impl Executor) {
    let started = Arc::new(AtomicUsize::new(0));
    let mut graph = TaskGraph::new();
    let input = graph.add_task(|_| 4usize);
    let fan_out = graph
        .add_multi_condition_after(&[input], move |d| 0..*d.get::<usize>(input).unwrap())
        .unwrap();
    let branches: Vec<NodeId> = (0..6)
        .map(|_| {
            let started = started.clone();
            graph.add_task(move |_| started.fetch_add(1, Ordering::SeqCst))
        })
        .collect();
    let after_last = graph.add_task_after(&[branches[5]], |_| ()).unwrap();
    graph.set_branches(fan_out, &branches).unwrap();
    assert_eq!(graph.kind(fan_out), Ok(NodeKind::MultiCondition));
    assert_eq!(graph.branches(fan_out).unwrap().len(), 6);

    let outcome = graph.run(executor);

    assert_eq!(started.load(Ordering::SeqCst), 4);
    for &branch in &branches[..4] {
        assert_eq!(outcome.status(branch), Ok(&NodeStatus::Completed));
    }
    for &branch in &branches[4..] {
        assert_eq!(outcome.status(branch), Ok(&NodeStatus::NotReached));
    }
    assert_eq!(outcome.status(after_last), Ok(&NodeStatus::NotReached));
    assert_eq!(outcome.get::<Vec<usize>>(fan_out), Ok(&vec![0, 1, 2, 3]));
    assert!(outcome.is_success());
}

#[test]
fn every_branch_a_multi_condition_returns_starts_on_the_runtime() {
    without_hanging(|| every_branch_returned_starts_on(&Runtime::new(2).unwrap()))
}

#[test]
fn every_branch_a_multi_condition_returns_starts_inline() {
    without_hanging(|| every_branch_returned_starts_on(&Inline))
}

#[test]
fn every_branch_a_multi_condition_returns_starts_on_a_pool() {
    without_hanging(|| every_branch_returned_starts_on(&Pool::new(3)))
}

#[test]
fn indices_past_the_last_branch_are_ignored_and_a_repeated_one_starts_its_branch_once() {
    without_hanging(|| {
        let runs = Arc::new(AtomicUsize::new(0));
        let mut graph = TaskGraph::new();
        let choose = graph.add_multi_condition(|_| vec![1, 1, 7, usize::MAX, 1]);
        let skipped = graph.add_task(|_| ());
        let twice = {
            let runs = runs.clone();
            graph.add_task(move |_| runs.fetch_add(1, Ordering::SeqCst))
        };
        graph.set_branches(choose, &[skipped, twice]).unwrap();
        let outcome = graph.run(&Runtime::new(2).unwrap());
        assert_eq!(runs.load(Ordering::SeqCst), 1);
        assert_eq!(outcome.runs(twice), Ok(1));
        assert_eq!(outcome.status(skipped), Ok(&NodeStatus::NotReached));
        assert_eq!(
            outcome.get::<Vec<usize>>(choose),
            Ok(&vec![1, 1, 7, usize::MAX, 1])
        );
    })
}

#[test]
fn a_multi_condition_that_returns_nothing_starts_nothing() {
    without_hanging(|| {
        let mut graph = TaskGraph::new();
        let none = graph.add_multi_condition(|_| Vec::new());
        let a = graph.add_task(|_| ());
        graph.set_branches(none, &[a]).unwrap();
        let outcome = graph.run(&Inline);
        assert_eq!(outcome.status(none), Ok(&NodeStatus::Completed));
        assert_eq!(outcome.status(a), Ok(&NodeStatus::NotReached));
    })
}

#[test]
fn a_multi_condition_can_loop_back_to_itself_and_go_on_at_once() {
    without_hanging(|| {
        // Taskflow's "multiple loops": each round the node starts itself
        // again, and the first round also starts the next stage.
        let rounds = Arc::new(AtomicUsize::new(0));
        let mut graph = TaskGraph::new();
        let init = graph.add_task(|_| ());
        let mut left = 5;
        let mut first = true;
        let step = {
            let rounds = rounds.clone();
            graph
                .add_multi_condition_after(&[init], move |_| {
                    rounds.fetch_add(1, Ordering::SeqCst);
                    if std::mem::take(&mut first) {
                        vec![0, 1]
                    } else {
                        left -= 1;
                        if left > 0 {
                            vec![0]
                        } else {
                            vec![]
                        }
                    }
                })
                .unwrap()
        };
        let next_stage = graph.add_task(|_| "next");
        graph.set_branches(step, &[step, next_stage]).unwrap();
        let outcome = graph.run(&Runtime::new(2).unwrap());
        assert_eq!(rounds.load(Ordering::SeqCst), 6);
        assert_eq!(outcome.runs(step), Ok(6));
        assert_eq!(outcome.get::<&str>(next_stage), Ok(&"next"));
    })
}

#[test]
fn a_multi_condition_that_panics_takes_no_branch_and_its_branches_are_skipped() {
    without_hanging(|| {
        quiet_expected_panics();
        let mut graph = TaskGraph::new();
        let bad = graph.add_multi_condition(|_| -> Vec<usize> { panic!("{EXPECTED}: multi") });
        let a = graph.add_task(|_| ());
        let b = graph.add_task(|_| ());
        graph.set_branches(bad, &[a, b]).unwrap();
        let outcome = graph.run(&Inline);
        assert_eq!(
            outcome.status(bad),
            Ok(&NodeStatus::Panicked(format!("{EXPECTED}: multi").into()))
        );
        // Each branch names the condition that could have taken it.
        let skipped = NodeStatus::Skipped {
            prerequisite: bad.into(),
        };
        assert_eq!(outcome.status(a), Ok(&skipped));
        assert_eq!(outcome.status(b), Ok(&skipped));
    })
}

#[test]
fn branches_of_a_multi_condition_that_could_never_start_are_refused() {
    without_hanging(|| {
        let mut graph = TaskGraph::new();
        let start = graph.add_task(|_| ());
        let fan = graph.add_multi_condition_after(&[start], |_| [0]).unwrap();
        assert_eq!(
            graph.set_branches(fan, &[start]),
            Err(GraphError::NeverRuns { node: start.into() })
        );
        assert_eq!(graph.branches(fan).unwrap().len(), 0);
    })
}

#[test]
fn the_branches_of_a_multi_condition_start_whatever_their_prerequisites() {
    without_hanging(|| {
        let mut graph = TaskGraph::new();
        // `target` waits for a node no branch leads to: only the
        // multi-condition starts it.
        let choose_none = graph.add_condition(|_| 1);
        let not_taken = graph.add_task(|_| ());
        graph.set_branches(choose_none, &[not_taken]).unwrap();
        let target = graph.add_task_after(&[not_taken], |_| "started").unwrap();
        let fan = graph.add_multi_condition(|_| [0]);
        graph.set_branches(fan, &[target]).unwrap();
        let outcome = graph.run(&Inline);
        assert_eq!(outcome.get::<&str>(target), Ok(&"started"));
        assert_eq!(outcome.status(not_taken), Ok(&NodeStatus::NotReached));
    })
}
