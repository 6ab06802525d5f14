//! Branches that point back make loops: the loop runs until its condition
//! says stop; a node that ran several times reports its last run and how
//! many times it ran.

mod common;

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

use common::{quiet_expected_panics, Inline, Pool, EXPECTED};
use rt_core::Runtime;
use rt_dag::{CancellationToken, Executor, NodeId, NodeStatus, TaskGraph};
use rt_testkit::without_hanging;

/// init → body → check → (body | done), the body counting from 1.
fn counting_loop(times: usize) -> (TaskGraph, NodeId, NodeId, NodeId) {
    let mut graph = TaskGraph::new();
    let init = graph.add_task(|_| 0usize);
    let mut count = 0usize;
    let body = graph
        .add_task_after(&[init], move |_| {
            count += 1;
            count
        })
        .unwrap();
    let check = graph
        .add_condition_after(&[body], move |d| {
            usize::from(*d.get::<usize>(body).unwrap() >= times)
        })
        .unwrap();
    let done = graph.add_task_after(&[], |_| "done").unwrap();
    graph.set_branches(check, &[body, done]).unwrap();
    (graph, body, check, done)
}

fn a_loop_runs_until_its_condition_says_stop_on(executor: &impl Executor) {
    let (mut graph, body, check, done) = counting_loop(10);
    let outcome = graph.run(executor);
    assert_eq!(outcome.runs(body), Ok(10));
    assert_eq!(outcome.runs(check), Ok(10));
    assert_eq!(outcome.runs(done), Ok(1));
    // The last run's output and status.
    assert_eq!(outcome.get::<usize>(body), Ok(&10));
    assert_eq!(outcome.get::<usize>(check), Ok(&1));
    assert_eq!(outcome.status(done), Ok(&NodeStatus::Completed));
    assert!(outcome.all_completed());
}

#[test]
fn a_loop_runs_until_its_condition_says_stop_on_the_runtime() {
    without_hanging(|| a_loop_runs_until_its_condition_says_stop_on(&Runtime::new(2).unwrap()))
}

#[test]
fn a_loop_runs_until_its_condition_says_stop_inline() {
    without_hanging(|| a_loop_runs_until_its_condition_says_stop_on(&Inline))
}

#[test]
fn a_loop_runs_until_its_condition_says_stop_on_a_pool() {
    without_hanging(|| a_loop_runs_until_its_condition_says_stop_on(&Pool::new(2)))
}

#[test]
fn a_loop_of_a_hundred_thousand_rounds_inline_does_not_grow_the_stack() {
    without_hanging(|| {
        let (mut graph, body, _, _) = counting_loop(100_000);
        assert_eq!(graph.run(&Inline).runs(body), Ok(100_000));
    })
}

#[test]
fn a_loop_runs_again_from_its_start_in_the_next_run_of_the_graph() {
    without_hanging(|| {
        let rt = Runtime::new(2).unwrap();
        let mut graph = TaskGraph::new();
        let mut round = 0;
        // A node a condition may take needs a way in besides: `init`.
        let init = graph.add_task(|_| ());
        let step = graph.add_task_after(&[init], |_| ()).unwrap();
        let check = graph
            .add_condition_after(&[step], move |_| {
                round += 1;
                usize::from(round % 3 == 0)
            })
            .unwrap();
        let exit = graph.add_task(|_| ());
        graph.set_branches(check, &[step, exit]).unwrap();
        for _ in 0..5 {
            let outcome = graph.run(&rt);
            assert_eq!(outcome.runs(step), Ok(3));
            assert_eq!(outcome.runs(exit), Ok(1));
        }
    })
}

#[test]
fn a_condition_may_take_itself_as_a_branch() {
    without_hanging(|| {
        let mut graph = TaskGraph::new();
        let mut left = 5;
        let init = graph.add_task(|_| ());
        let spin = graph
            .add_condition_after(&[init], move |_| {
                left -= 1;
                usize::from(left == 0)
            })
            .unwrap();
        let out = graph.add_task(|_| ());
        graph.set_branches(spin, &[spin, out]).unwrap();
        let outcome = graph.run(&Pool::new(2));
        assert_eq!(outcome.runs(spin), Ok(5));
        assert_eq!(outcome.status(out), Ok(&NodeStatus::Completed));
    })
}

#[test]
fn nested_loops_run_the_inner_loop_in_full_on_each_outer_round() {
    without_hanging(|| {
        let rt = Runtime::new(2).unwrap();
        let inner_runs = Arc::new(AtomicUsize::new(0));
        let mut graph = TaskGraph::new();
        let init = graph.add_task(|_| ());
        let outer_start = graph.add_task_after(&[init], |_| ()).unwrap();
        let inner_body = {
            let inner_runs = inner_runs.clone();
            graph
                .add_task_after(&[outer_start], move |_| {
                    inner_runs.fetch_add(1, Ordering::SeqCst);
                })
                .unwrap()
        };
        let mut inner_left = 0;
        let inner_check = graph
            .add_condition_after(&[inner_body], move |_| {
                if inner_left == 0 {
                    inner_left = 4;
                }
                inner_left -= 1;
                usize::from(inner_left == 0)
            })
            .unwrap();
        let mut outer_left = 3;
        let outer_check = graph.add_condition(move |_| {
            outer_left -= 1;
            usize::from(outer_left == 0)
        });
        let end = graph.add_task(|_| ());
        graph
            .set_branches(inner_check, &[inner_body, outer_check])
            .unwrap();
        graph
            .set_branches(outer_check, &[outer_start, end])
            .unwrap();
        let outcome = graph.run(&rt);
        assert_eq!(inner_runs.load(Ordering::SeqCst), 12);
        assert_eq!(outcome.runs(outer_start), Ok(3));
        assert_eq!(outcome.runs(end), Ok(1));
    })
}

#[test]
fn a_panic_inside_a_loop_ends_it_and_the_exit_is_not_reached() {
    without_hanging(|| {
        quiet_expected_panics();
        let mut graph = TaskGraph::new();
        let mut round = 0;
        let init = graph.add_task(|_| ());
        let body = graph
            .add_task_after(&[init], move |_| {
                round += 1;
                if round == 3 {
                    panic!("{EXPECTED}: round 3");
                }
            })
            .unwrap();
        let check = graph.add_condition_after(&[body], |_| 0).unwrap();
        let exit = graph.add_task(|_| ());
        graph.set_branches(check, &[body, exit]).unwrap();
        let outcome = graph.run(&Runtime::new(2).unwrap());
        assert_eq!(
            outcome.status(body),
            Ok(&NodeStatus::Panicked(format!("{EXPECTED}: round 3").into()))
        );
        assert_eq!(outcome.runs(body), Ok(3));
        // `check` completed its last round (the second).
        assert_eq!(outcome.runs(check), Ok(2));
        assert_eq!(outcome.status(check), Ok(&NodeStatus::Completed));
        assert_eq!(outcome.status(exit), Ok(&NodeStatus::NotReached));
    })
}

/// init → body → report → check → (body | exit); `body` panics in its
/// fifth round.
fn a_loop_whose_body_panics_in_round_five() -> (TaskGraph, [NodeId; 4]) {
    let mut graph = TaskGraph::new();
    let init = graph.add_task(|_| ());
    let mut round = 0_usize;
    let body = graph
        .add_task_after(&[init], move |_| {
            round += 1;
            if round == 5 {
                panic!("{EXPECTED}: round 5");
            }
            round
        })
        .unwrap();
    let report = graph
        .add_task_after(&[body], move |d| *d.get::<usize>(body).unwrap() * 10)
        .unwrap();
    let check = graph.add_condition_after(&[report], |_| 0).unwrap();
    let exit = graph.add_task(|_| ());
    graph.set_branches(check, &[body, exit]).unwrap();
    (graph, [body, report, check, exit])
}

/// `NodeStatus::Panicked`'s rule in a loop: a node's status is its last
/// activation's, so the nodes that wait for the body and completed in
/// rounds 1 to 4 keep `Completed`, their runs and their last output; only
/// nodes that never ran in the run are skipped.
fn a_body_that_panics_in_round_five_leaves_what_ran_before_completed_on(executor: &dyn Executor) {
    let (mut graph, [body, report, check, exit]) = a_loop_whose_body_panics_in_round_five();
    let outcome = graph.run(executor);
    assert!(matches!(outcome.status(body), Ok(NodeStatus::Panicked(_))));
    assert_eq!(outcome.runs(body), Ok(5));
    assert_eq!(outcome.status(report), Ok(&NodeStatus::Completed));
    assert_eq!(outcome.runs(report), Ok(4));
    assert_eq!(outcome.get::<usize>(report), Ok(&40));
    assert_eq!(outcome.status(check), Ok(&NodeStatus::Completed));
    assert_eq!(outcome.runs(check), Ok(4));
    assert_eq!(outcome.status(exit), Ok(&NodeStatus::NotReached));
    assert!(!outcome.is_success());
    assert_eq!(outcome.first_failure().unwrap().node().id(), body);
}

#[test]
fn a_body_that_panics_in_its_fifth_round_leaves_its_dependents_completed_on_the_runtime() {
    without_hanging(|| {
        quiet_expected_panics();
        a_body_that_panics_in_round_five_leaves_what_ran_before_completed_on(
            &Runtime::new(2).unwrap(),
        )
    })
}

#[test]
fn a_body_that_panics_in_its_fifth_round_leaves_its_dependents_completed_inline() {
    without_hanging(|| {
        quiet_expected_panics();
        a_body_that_panics_in_round_five_leaves_what_ran_before_completed_on(&Inline)
    })
}

#[test]
fn a_body_that_panics_in_its_first_round_skips_its_dependents() {
    without_hanging(|| {
        quiet_expected_panics();
        let mut graph = TaskGraph::new();
        let init = graph.add_task(|_| ());
        let body = graph
            .add_task_after(&[init], |_| panic!("{EXPECTED}: round 1"))
            .unwrap();
        let report = graph.add_task_after(&[body], |_| ()).unwrap();
        let check = graph.add_condition_after(&[report], |_| 0).unwrap();
        let exit = graph.add_task(|_| ());
        graph.set_branches(check, &[body, exit]).unwrap();
        let outcome = graph.run(&Pool::new(2));
        assert_eq!(
            outcome.status(report),
            Ok(&NodeStatus::Skipped {
                prerequisite: body.into()
            })
        );
        assert_eq!(
            outcome.status(check),
            Ok(&NodeStatus::Skipped {
                prerequisite: report.into()
            })
        );
        assert_eq!(
            outcome.status(exit),
            Ok(&NodeStatus::Skipped {
                prerequisite: check.into()
            })
        );
    })
}

#[test]
fn a_loop_that_never_stops_ends_when_its_run_is_cancelled() {
    without_hanging(|| {
        let rt = Runtime::new(2).unwrap();
        let token = CancellationToken::new();
        let rounds = Arc::new(AtomicUsize::new(0));
        let mut graph = TaskGraph::new();
        let init = graph.add_task(|_| ());
        let body = {
            let (rounds, token) = (rounds.clone(), token.clone());
            graph
                .add_task_after(&[init], move |_| {
                    if rounds.fetch_add(1, Ordering::SeqCst) == 1_000 {
                        token.cancel();
                    }
                })
                .unwrap()
        };
        let forever = graph.add_condition_after(&[body], |_| 0).unwrap();
        graph.set_branches(forever, &[body]).unwrap();
        let outcome = graph.run_cancellable(&rt, &token);
        assert!(rounds.load(Ordering::SeqCst) > 1_000);
        let statuses = [
            outcome.status(body).unwrap(),
            outcome.status(forever).unwrap(),
        ];
        assert!(statuses.contains(&&NodeStatus::Cancelled), "{statuses:?}");
    })
}
