//! A node may take a permit that a later node gives back
//! (`add_limit_until`, Taskflow's acquire on one task and release on
//! another): between the two, at most `permits` stretches of the graph are
//! under way. A permit never outlives its run: a failure, a cancellation
//! or a rejection that keeps the giving node from running gives it back at
//! once, and nothing waits for it in vain.

mod common;

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::Duration;

use common::{quiet_expected_panics, DropsJobs, Inline, ThreadPerJob, EXPECTED};
use rt_core::Runtime;
use rt_dag::{
    CancellationToken, Executor, GraphError, GraphOutcome, Job, Limit, NodeStatus, Priority,
    ReadyOrder, TaskGraph,
};
use rt_testkit::{wait_until, without_hanging};

#[test]
fn at_most_k_stretches_between_the_taking_node_and_the_giving_node_are_under_way() {
    without_hanging(|| {
        let rt = Runtime::new(4).unwrap();
        let in_flight = Limit::new(2).unwrap();
        let (now, most) = (Arc::new(AtomicUsize::new(0)), Arc::new(AtomicUsize::new(0)));
        let mut graph = TaskGraph::new();
        for _ in 0..40 {
            let read = {
                let (now, most) = (now.clone(), most.clone());
                graph.add_task(move |_| {
                    let inside = now.fetch_add(1, Ordering::SeqCst) + 1;
                    most.fetch_max(inside, Ordering::SeqCst);
                })
            };
            let work = graph
                .add_task_after(&[read], |_| std::thread::sleep(Duration::from_micros(100)))
                .unwrap();
            let write = {
                let now = now.clone();
                graph
                    .add_task_after(&[work], move |_| {
                        now.fetch_sub(1, Ordering::SeqCst);
                    })
                    .unwrap()
            };
            graph.add_limit_until(read, &in_flight, write).unwrap();
        }
        for _ in 0..3 {
            assert!(graph.run(&rt).all_completed());
        }
        assert!(most.load(Ordering::SeqCst) <= 2, "{most:?}");
        assert_eq!(in_flight.available(), 2);
    })
}

#[test]
fn the_permit_stays_taken_after_the_taking_node_ran_until_the_giving_node_ran() {
    without_hanging(|| {
        let limit = Limit::new(1).unwrap();
        let mut graph = TaskGraph::new();
        let take = graph.add_task(|_| ());
        let between = {
            let limit = limit.clone();
            graph
                .add_task_after(&[take], move |_| limit.available())
                .unwrap()
        };
        let give = graph.add_task_after(&[between], |_| ()).unwrap();
        let after = {
            let limit = limit.clone();
            graph
                .add_task_after(&[give], move |_| limit.available())
                .unwrap()
        };
        graph.add_limit_until(take, &limit, give).unwrap();
        assert_eq!(
            graph
                .limits(take)
                .unwrap()
                .map(|(_, until)| until)
                .collect::<Vec<_>>(),
            vec![give]
        );
        let outcome = graph.run(&Runtime::new(2).unwrap());
        assert_eq!(outcome.get::<usize>(between), Ok(&0));
        assert_eq!(outcome.get::<usize>(after), Ok(&1));
    })
}

/// A graph in which `take` holds the only permit of `limit` for `give`,
/// `middle` between them runs `middle_work`, and `other`, which waits for
/// `take` but not for `give`, needs the permit too.
fn held_across(
    limit: &Limit,
    middle_work: impl FnMut(&rt_dag::DependencyResults<'_>) + Send + 'static,
) -> (TaskGraph, [rt_dag::NodeId; 4]) {
    let mut graph = TaskGraph::new();
    let take = graph.add_task(|_| ());
    let middle = graph.add_task_after(&[take], middle_work).unwrap();
    let give = graph.add_task_after(&[middle], |_| ()).unwrap();
    let other = graph.add_task_after(&[take], |_| "other ran").unwrap();
    graph.add_limit_until(take, limit, give).unwrap();
    graph.set_limit(other, limit).unwrap();
    (graph, [take, middle, give, other])
}

#[test]
fn a_failure_before_the_giving_node_gives_the_permit_back_at_once() {
    without_hanging(|| {
        quiet_expected_panics();
        let limit = Limit::new(1).unwrap();
        let (mut graph, [_, middle, give, other]) = held_across(&limit, |_| {
            panic!("{EXPECTED}: between");
        });
        // `other` waits for the permit until `middle` fails: were it kept
        // until the run ends, the run, waiting for `other`, never would.
        let outcome = graph.run(&Runtime::new(2).unwrap());
        assert!(matches!(
            outcome.status(middle),
            Ok(NodeStatus::Panicked(_))
        ));
        assert_eq!(
            outcome.status(give),
            Ok(&NodeStatus::Skipped {
                prerequisite: middle.into()
            })
        );
        assert_eq!(outcome.get::<&str>(other), Ok(&"other ran"));
        assert_eq!(limit.available(), 1);
    })
}

#[test]
fn a_cancellation_before_the_giving_node_gives_the_permit_back() {
    without_hanging(|| {
        let limit = Limit::new(1).unwrap();
        let token = CancellationToken::new();
        let (mut graph, [_, middle, give, other]) = {
            let (limit, token) = (limit.clone(), token.clone());
            held_across(&limit.clone(), move |_| {
                wait_until("`other` waits", || limit.waiting() == 1);
                token.cancel();
            })
        };
        let outcome = graph.run_cancellable(&ThreadPerJob, &token);
        assert_eq!(outcome.status(middle), Ok(&NodeStatus::Completed));
        assert_eq!(outcome.status(give), Ok(&NodeStatus::Cancelled));
        // `other` got the permit, saw the cancellation, and passed it on.
        assert_eq!(outcome.status(other), Ok(&NodeStatus::Cancelled));
        assert_eq!((limit.available(), limit.waiting()), (1, 0));
    })
}

/// Runs jobs on new threads, but drops those of background nodes.
struct DropsBackground;

impl Executor for DropsBackground {
    fn submit(&self, priority: Priority, job: Job) -> Result<(), Job> {
        if priority == Priority::Background {
            drop(job);
            Ok(())
        } else {
            ThreadPerJob.submit(priority, job)
        }
    }
}

#[test]
fn a_giving_node_the_executor_drops_gives_the_permit_back() {
    without_hanging(|| {
        // `give`, of a less urgent class than `take`, is submitted as a job
        // of its own, which the executor drops; `second` waits for the
        // permit `take` kept for it.
        let limit = Limit::new(1).unwrap();
        let mut graph = TaskGraph::new();
        let take = graph.add_task(|_| ());
        let give = graph
            .add_task_after_with_priority(&[take], Priority::Background, |_| ())
            .unwrap();
        let second = graph.add_task_after(&[take], |_| "second").unwrap();
        graph.add_limit_until(take, &limit, give).unwrap();
        graph.set_limit(second, &limit).unwrap();
        let outcome = graph.run(&DropsBackground);
        assert_eq!(outcome.status(give), Ok(&NodeStatus::Rejected));
        assert_eq!(outcome.get::<&str>(second), Ok(&"second"));
        assert_eq!(limit.available(), 1);
    })
}

#[test]
fn a_taking_node_that_runs_after_its_giving_node_is_known_not_to_run_gives_its_permit_back_when_it_ran(
) {
    without_hanging(|| {
        quiet_expected_panics();
        // On one thread, in the order the nodes were added: `bad` fails
        // (so `give` will not run), then `take` runs, then `next` needs the
        // permit `take` would have kept for `give`.
        let limit = Limit::new(1).unwrap();
        let mut graph = TaskGraph::new();
        graph.set_ready_order(ReadyOrder::Declared);
        let bad = graph.add_task(|_| panic!("{EXPECTED}: before"));
        let take = graph.add_task(|_| ());
        let give = graph.add_task_after(&[take, bad], |_| ()).unwrap();
        let next = graph.add_task_after(&[take], |_| "next").unwrap();
        graph.add_limit_until(take, &limit, give).unwrap();
        graph.set_limit(next, &limit).unwrap();
        let outcome = graph.run(&Inline);
        assert_eq!(
            outcome.status(give),
            Ok(&NodeStatus::Skipped {
                prerequisite: bad.into()
            })
        );
        assert_eq!(outcome.get::<&str>(next), Ok(&"next"));
        assert_eq!(limit.available(), 1);
    })
}

#[test]
fn a_taking_node_that_fails_gives_its_permit_back_at_once() {
    without_hanging(|| {
        quiet_expected_panics();
        let limit = Limit::new(1).unwrap();
        let mut graph = TaskGraph::new();
        let take = graph.add_task(|_| panic!("{EXPECTED}: taking"));
        let give = graph.add_task_after(&[take], |_| ()).unwrap();
        let other = graph.add_task(|_| ());
        graph.add_limit_until(take, &limit, give).unwrap();
        graph.set_limit(other, &limit).unwrap();
        let outcome = graph.run(&Runtime::new(2).unwrap());
        assert_eq!(outcome.status(other), Ok(&NodeStatus::Completed));
        assert_eq!(limit.available(), 1);
    })
}

#[test]
fn a_graph_node_may_give_back_a_permit_once_its_graph_ran() {
    without_hanging(|| {
        let limit = Limit::new(1).unwrap();
        let mut inner = TaskGraph::new();
        let inside = {
            let limit = limit.clone();
            inner.add_task(move |_| limit.available())
        };
        let mut graph = TaskGraph::new();
        let take = graph.add_task(|_| ());
        let module = graph.add_graph_after(&[take], inner).unwrap();
        let after = {
            let limit = limit.clone();
            graph
                .add_task_after(&[module], move |_| limit.available())
                .unwrap()
        };
        graph.add_limit_until(take, &limit, module).unwrap();
        let outcome = graph.run(&Runtime::new(2).unwrap());
        let inner_outcome = outcome.get::<GraphOutcome>(module).unwrap();
        assert_eq!(inner_outcome.get::<usize>(inside), Ok(&0));
        assert_eq!(outcome.get::<usize>(after), Ok(&1));
    })
}

#[test]
fn a_giving_node_that_does_not_run_after_the_taking_node_is_refused() {
    without_hanging(|| {
        let limit = Limit::new(1).unwrap();
        let mut graph = TaskGraph::new();
        let a = graph.add_task(|_| ());
        let b = graph.add_task(|_| ());
        let before_a = graph.add_task(|_| ());
        graph.precede(before_a, &[a]).unwrap();
        for until in [b, before_a] {
            assert_eq!(
                graph.add_limit_until(a, &limit, until),
                Err(GraphError::ReleaseNotAfter {
                    node: a.into(),
                    until: until.into()
                })
            );
        }
        assert_eq!(graph.limits(a).unwrap().len(), 0);
        // Through an edge added later, in any order, it is after.
        graph.precede(a, &[b]).unwrap();
        graph.add_limit_until(a, &limit, b).unwrap();
    })
}

#[test]
fn removing_the_edge_that_puts_the_giving_node_after_the_taking_node_is_refused() {
    without_hanging(|| {
        let limit = Limit::new(1).unwrap();
        let mut graph = TaskGraph::new();
        let take = graph.add_task(|_| ());
        let middle = graph.add_task_after(&[take], |_| ()).unwrap();
        let give = graph.add_task_after(&[middle], |_| ()).unwrap();
        graph.add_limit_until(take, &limit, give).unwrap();
        assert_eq!(
            graph.remove_dependency(take, middle),
            Err(GraphError::ReleaseNotAfter {
                node: take.into(),
                until: give.into()
            })
        );
        assert_eq!(graph.dependencies(middle).unwrap().len(), 1);
        // Another way from `take` to `give` lets the edge go.
        graph.precede(take, &[give]).unwrap();
        assert_eq!(graph.remove_dependency(take, middle), Ok(true));
    })
}

#[test]
fn held_permits_and_branches_do_not_mix_in_one_graph() {
    without_hanging(|| {
        let limit = Limit::new(1).unwrap();
        let mut graph = TaskGraph::new();
        let take = graph.add_task(|_| ());
        let give = graph.add_task_after(&[take], |_| ()).unwrap();
        let choose = graph.add_condition(|_| 0);
        let target = graph.add_task(|_| ());
        graph.add_limit_until(take, &limit, give).unwrap();
        assert_eq!(
            graph.set_branches(choose, &[target]),
            Err(GraphError::BranchesWithHolds {
                node: choose.into()
            })
        );

        let mut branched = TaskGraph::new();
        let take = branched.add_task(|_| ());
        let give = branched.add_task_after(&[take], |_| ()).unwrap();
        let choose = branched.add_condition(|_| 0);
        let target = branched.add_task(|_| ());
        branched.set_branches(choose, &[target]).unwrap();
        assert_eq!(
            branched.add_limit_until(take, &limit, give),
            Err(GraphError::BranchesWithHolds { node: take.into() })
        );
        // A limit held while the node runs is fine with branches.
        branched.add_limit(take, &limit).unwrap();
    })
}

#[test]
fn a_permit_held_across_nodes_is_back_after_every_run() {
    without_hanging(|| {
        let limit = Limit::new(3).unwrap();
        let mut graph = TaskGraph::new();
        let mut takes = Vec::new();
        for _ in 0..6 {
            let take = graph.add_task(|_| ());
            let give = graph.add_task_after(&[take], |_| ()).unwrap();
            graph.add_limit_until(take, &limit, give).unwrap();
            takes.push(take);
        }
        for _ in 0..5 {
            assert!(graph.run(&Runtime::new(2).unwrap()).all_completed());
            assert_eq!(limit.available(), 3);
        }
        assert!(graph.run(&DropsJobs).iter().all(|(_, s)| !s.ran()));
        assert_eq!(limit.available(), 3);
    })
}

#[test]
fn a_pipeline_node_gives_back_the_permit_held_until_it_once_its_pipeline_is_over() {
    without_hanging(|| {
        let limit = Limit::new(1).unwrap();
        let items = Arc::new(AtomicUsize::new(0));
        let mut graph = TaskGraph::new();
        let take = graph.add_task(|_| ());
        let counted = items.clone();
        let stream = graph
            .add_pipeline_after(
                &[take],
                rt_dag::Pipeline::from_fn(3, {
                    let mut produced = 0u32;
                    move || {
                        if produced == 40 {
                            produced = 0; // forty items each run
                            return None;
                        }
                        produced += 1;
                        Some(produced)
                    }
                })
                .serial(move |_| {
                    counted.fetch_add(1, Ordering::SeqCst);
                }),
            )
            .unwrap();
        graph.add_limit_until(take, &limit, stream).unwrap();
        // `other` needs the permit `take` keeps until the pipeline is over.
        let seen = items.clone();
        let other = graph
            .add_task_after(&[take], move |_| seen.load(Ordering::SeqCst))
            .unwrap();
        graph.set_limit(other, &limit).unwrap();
        for _ in 0..3 {
            let outcome = graph.run(&Runtime::new(2).unwrap());
            assert!(outcome.all_completed(), "{outcome:?}");
            assert_eq!(outcome.get::<usize>(other), Ok(&40));
            assert_eq!(limit.available(), 1);
            items.store(0, Ordering::SeqCst);
        }
    })
}

#[test]
fn a_fallible_taking_node_that_returns_an_error_gives_its_permit_back_at_once() {
    without_hanging(|| {
        let limit = Limit::new(1).unwrap();
        let mut graph = TaskGraph::new();
        let take = graph.add_fallible_task(|_| -> Result<(), String> { Err("no input".into()) });
        let give = graph.add_task_after(&[take], |_| ()).unwrap();
        let other = graph.add_task(|_| "other ran");
        graph.add_limit_until(take, &limit, give).unwrap();
        graph.set_limit(other, &limit).unwrap();
        for executor in [&Inline as &dyn Executor, &Runtime::new(2).unwrap()] {
            let outcome = graph.run(executor);
            assert!(matches!(outcome.status(take), Ok(NodeStatus::Failed(_))));
            assert_eq!(
                outcome.status(give),
                Ok(&NodeStatus::Skipped {
                    prerequisite: take.into()
                })
            );
            assert_eq!(outcome.get::<&str>(other), Ok(&"other ran"));
            assert_eq!(limit.available(), 1);
        }
    })
}
