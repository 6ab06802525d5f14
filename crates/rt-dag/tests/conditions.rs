//! A condition node starts the branch its closure chooses; the branches
//! not taken, and what only they lead to, are `NotReached`.

mod common;

use common::{quiet_expected_panics, Inline, Pool, EXPECTED};
use rt_core::Runtime;
use rt_dag::{DependencyError, Executor, GraphError, NodeKind, NodeStatus, TaskGraph};
use rt_testkit::{without_hanging, Gate};

fn the_chosen_branch_runs_and_the_other_is_not_reached_on(executor: &impl Executor) {
    let mut graph = TaskGraph::new();
    let input = graph.add_task(|_| 7u32);
    let is_odd = graph
        .add_condition_after(&[input], move |d| {
            (*d.get::<u32>(input).unwrap() % 2) as usize
        })
        .unwrap();
    let even = graph.add_task(|_| "even");
    let odd = graph.add_task(|_| "odd");
    let after_even = graph.add_task_after(&[even], |_| ()).unwrap();
    graph.set_branches(is_odd, &[even, odd]).unwrap();
    assert_eq!(graph.kind(is_odd), Ok(NodeKind::Condition));
    assert_eq!(
        graph.branches(is_odd).unwrap().collect::<Vec<_>>(),
        vec![even, odd]
    );

    let outcome = graph.run(executor);

    assert_eq!(outcome.get::<&str>(odd), Ok(&"odd"));
    assert_eq!(outcome.status(even), Ok(&NodeStatus::NotReached));
    assert_eq!(outcome.status(after_even), Ok(&NodeStatus::NotReached));
    assert_eq!(outcome.runs(even), Ok(0));
    assert!(outcome.is_success());
    assert!(!outcome.all_completed());
}

#[test]
fn a_condition_starts_the_branch_it_chooses_and_the_other_is_not_reached_on_the_runtime() {
    without_hanging(|| {
        the_chosen_branch_runs_and_the_other_is_not_reached_on(&Runtime::new(2).unwrap())
    })
}

#[test]
fn a_condition_starts_the_branch_it_chooses_and_the_other_is_not_reached_inline() {
    without_hanging(|| the_chosen_branch_runs_and_the_other_is_not_reached_on(&Inline))
}

#[test]
fn a_condition_starts_the_branch_it_chooses_and_the_other_is_not_reached_on_a_pool() {
    without_hanging(|| the_chosen_branch_runs_and_the_other_is_not_reached_on(&Pool::new(2)))
}

#[test]
fn an_index_past_the_last_branch_takes_no_branch() {
    without_hanging(|| {
        let mut graph = TaskGraph::new();
        let stop = graph.add_condition(|_| 5);
        let a = graph.add_task(|_| ());
        graph.set_branches(stop, &[a]).unwrap();
        let outcome = graph.run(&Inline);
        assert_eq!(outcome.status(stop), Ok(&NodeStatus::Completed));
        assert_eq!(outcome.get::<usize>(stop), Ok(&5));
        assert_eq!(outcome.status(a), Ok(&NodeStatus::NotReached));
    })
}

#[test]
fn a_condition_s_choice_is_its_output_which_its_dependents_read() {
    without_hanging(|| {
        let rt = Runtime::new(2).unwrap();
        let mut graph = TaskGraph::new();
        let choose = graph.add_condition(|_| 1);
        let report = graph
            .add_task_after(&[choose], move |d| {
                format!("took {}", d.get::<usize>(choose).unwrap())
            })
            .unwrap();
        let outcome = graph.run(&rt);
        assert_eq!(
            outcome.get::<String>(report).map(String::as_str),
            Ok("took 1")
        );
    })
}

#[test]
fn a_panicking_condition_skips_its_branches_and_what_follows_them() {
    without_hanging(|| {
        quiet_expected_panics();
        let mut graph = TaskGraph::new();
        let bad = graph.add_condition(|_| panic!("{EXPECTED}: cannot choose"));
        let left = graph.add_task(|_| ());
        let right = graph.add_task(|_| ());
        let after = graph.add_task_after(&[left], |_| ()).unwrap();
        let unrelated = graph.add_task(|_| 3);
        graph.set_branches(bad, &[left, right]).unwrap();
        let outcome = graph.run(&Pool::new(2));
        assert_eq!(
            outcome.status(bad),
            Ok(&NodeStatus::Panicked(
                format!("{EXPECTED}: cannot choose").into()
            ))
        );
        for (id, prerequisite) in [(left, bad), (right, bad), (after, left)] {
            assert_eq!(
                outcome.status(id),
                Ok(&NodeStatus::Skipped {
                    prerequisite: prerequisite.into()
                }),
                "{id}"
            );
        }
        assert_eq!(outcome.get::<i32>(unrelated), Ok(&3));
    })
}

#[test]
fn branches_are_refused_on_a_node_that_is_not_a_condition_and_the_graph_is_unchanged() {
    without_hanging(|| {
        let mut other = TaskGraph::new();
        let foreign = other.add_task(|_| ());
        let mut graph = TaskGraph::new();
        let task = graph.add_task(|_| ());
        let cond = graph.add_condition(|_| 0);
        assert_eq!(
            graph.set_branches(task, &[cond]),
            Err(GraphError::NotACondition { node: task.into() })
        );
        assert_eq!(
            graph.set_branches(cond, &[foreign]),
            Err(GraphError::ForeignNode {
                node: foreign,
                expected: graph.id()
            })
        );
        assert_eq!(graph.branches(cond).unwrap().len(), 0);
        // `task` is still an entry: it runs.
        assert!(graph.run(&Inline).status(task).unwrap().is_completed());
    })
}

#[test]
fn a_branch_target_starts_when_taken_and_again_when_its_prerequisite_completes() {
    without_hanging(|| {
        let rt = Runtime::new(2).unwrap();
        let gate = Gate::new();
        let mut graph = TaskGraph::new();
        // `slow` completes only once `target` has run once.
        let slow = {
            let gate = gate.clone();
            graph.add_task(move |_| {
                gate.wait();
                "slow output"
            })
        };
        let jump = graph.add_condition(|_| 0);
        let target = {
            let gate = gate.clone();
            graph
                .add_task_after(&[slow], move |d| {
                    let seen = d.get::<&str>(slow).copied();
                    gate.open();
                    seen
                })
                .unwrap()
        };
        graph.set_branches(jump, &[target]).unwrap();
        let outcome = graph.run(&rt);
        // Taken first, before `slow` completed; then started again by it.
        assert_eq!(outcome.runs(target), Ok(2));
        assert_eq!(
            outcome.get::<Result<&str, DependencyError>>(target),
            Ok(&Ok("slow output"))
        );
    })
}
