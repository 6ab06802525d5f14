//! A subgraph node builds nodes while it runs; they finish before the
//! node's dependents start, or, detached, by the end of the run.

mod common;

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

use common::{quiet_expected_panics, Inline, Pool, EXPECTED};
use rt_core::Runtime;
use rt_dag::{Executor, NodeKind, NodeStatus, TaskGraph};
use rt_testkit::without_hanging;

fn a_joined_subgraph_finishes_before_the_dependents_start_on(executor: &impl Executor) {
    let log = Arc::new(Mutex::new(Vec::new()));
    let mut graph = TaskGraph::new();
    let scan = {
        let log = log.clone();
        graph.add_subgraph(move |_, sub| {
            log.lock().unwrap().push("scan".to_string());
            let mut last = None;
            for i in 0..20 {
                let log = log.clone();
                let deps: Vec<_> = last.into_iter().collect();
                last = Some(
                    sub.add_task_after(&deps, move |_| {
                        log.lock().unwrap().push(format!("found {i}"))
                    })
                    .unwrap(),
                );
            }
            20usize
        })
    };
    let link = {
        let log = log.clone();
        graph
            .add_task_after(&[scan], move |d| {
                log.lock().unwrap().push("link".to_string());
                *d.get::<usize>(scan).unwrap()
            })
            .unwrap()
    };
    assert_eq!(graph.kind(scan), Ok(NodeKind::Subgraph));
    let outcome = graph.run(executor);
    assert_eq!(outcome.get::<usize>(link), Ok(&20));
    assert_eq!(outcome.status(scan), Ok(&NodeStatus::Completed));
    let log = log.lock().unwrap();
    assert_eq!(log.first().map(String::as_str), Some("scan"));
    assert_eq!(log.last().map(String::as_str), Some("link"));
    assert_eq!(log.len(), 22);
}

#[test]
fn a_joined_subgraph_finishes_before_the_node_s_dependents_start_on_the_runtime() {
    without_hanging(|| {
        a_joined_subgraph_finishes_before_the_dependents_start_on(&Runtime::new(2).unwrap())
    })
}

#[test]
fn a_joined_subgraph_finishes_before_the_node_s_dependents_start_on_one_worker() {
    without_hanging(|| {
        a_joined_subgraph_finishes_before_the_dependents_start_on(&Runtime::new(1).unwrap())
    })
}

#[test]
fn a_joined_subgraph_finishes_before_the_node_s_dependents_start_inline() {
    without_hanging(|| a_joined_subgraph_finishes_before_the_dependents_start_on(&Inline))
}

#[test]
fn a_joined_subgraph_finishes_before_the_node_s_dependents_start_on_a_pool() {
    without_hanging(|| a_joined_subgraph_finishes_before_the_dependents_start_on(&Pool::new(2)))
}

#[test]
fn subgraphs_nest_and_every_level_finishes_before_its_node_completes() {
    without_hanging(|| {
        let rt = Runtime::new(2).unwrap();
        let leaves = Arc::new(AtomicUsize::new(0));
        let mut graph = TaskGraph::new();
        let top = {
            let leaves = leaves.clone();
            graph.add_subgraph(move |_, sub| {
                for _ in 0..3 {
                    let leaves = leaves.clone();
                    sub.add_subgraph(move |_, inner| {
                        for _ in 0..4 {
                            let leaves = leaves.clone();
                            inner.add_task(move |_| leaves.fetch_add(1, Ordering::SeqCst));
                        }
                    });
                }
            })
        };
        let after = {
            let leaves = leaves.clone();
            graph
                .add_task_after(&[top], move |_| leaves.load(Ordering::SeqCst))
                .unwrap()
        };
        let outcome = graph.run(&rt);
        assert_eq!(outcome.get::<usize>(after), Ok(&12));
    })
}

#[test]
fn a_detached_subgraph_does_not_hold_the_dependents_back_and_the_run_waits_for_it() {
    without_hanging(|| {
        let rt = Runtime::new(2).unwrap();
        let gate = rt_testkit::Gate::new();
        let finished = Arc::new(AtomicUsize::new(0));
        let mut graph = TaskGraph::new();
        let spawner = {
            let (gate, finished) = (gate.clone(), finished.clone());
            graph.add_subgraph(move |_, sub| {
                let (gate, finished) = (gate.clone(), finished.clone());
                sub.add_task(move |_| {
                    gate.wait(); // held until the dependent has run
                    finished.fetch_add(1, Ordering::SeqCst);
                });
                sub.detach();
                assert!(sub.is_detached());
            })
        };
        let dependent = {
            let gate = gate.clone();
            graph
                .add_task_after(&[spawner], move |_| gate.open())
                .unwrap()
        };
        let outcome = graph.run(&rt);
        assert_eq!(outcome.status(dependent), Ok(&NodeStatus::Completed));
        // The run ended after the detached node.
        assert_eq!(finished.load(Ordering::SeqCst), 1);
        assert_eq!(outcome.detached().len(), 1);
        assert_eq!(outcome.detached()[0].0, spawner);
        assert!(outcome.detached()[0].1.all_completed());
        assert!(outcome.is_success());
    })
}

#[test]
fn a_failed_node_of_a_subgraph_fails_its_node_and_skips_the_dependents() {
    without_hanging(|| {
        quiet_expected_panics();
        let failing = Arc::new(Mutex::new(None));
        let mut graph = TaskGraph::new();
        let node = {
            let failing = failing.clone();
            graph.add_subgraph(move |_, sub| {
                sub.add_task(|_| ());
                let bad = sub.add_task(|_| panic!("{EXPECTED}: inside"));
                *failing.lock().unwrap() = Some(bad);
                "built"
            })
        };
        let after = graph.add_task_after(&[node], |_| ()).unwrap();
        let outcome = graph.run(&Pool::new(2));
        let bad = failing.lock().unwrap().unwrap();
        assert_eq!(
            outcome.status(node),
            Ok(&NodeStatus::SubgraphFailed {
                node: bad.into(),
                status: Box::new(NodeStatus::Panicked(format!("{EXPECTED}: inside").into()))
            })
        );
        assert_eq!(
            outcome.status(after),
            Ok(&NodeStatus::Skipped {
                prerequisite: node.into()
            })
        );
        assert!(outcome.status(node).unwrap().ran());
        assert!(outcome.status(node).unwrap().to_string().contains("inside"));
    })
}

#[test]
fn a_subgraph_node_whose_closure_panics_runs_no_subgraph() {
    without_hanging(|| {
        quiet_expected_panics();
        let ran = Arc::new(AtomicUsize::new(0));
        let mut graph = TaskGraph::new();
        let node = {
            let ran = ran.clone();
            graph.add_subgraph(move |_, sub| {
                let ran = ran.clone();
                sub.add_task(move |_| ran.fetch_add(1, Ordering::SeqCst));
                panic!("{EXPECTED}: before the subgraph ran")
            })
        };
        let outcome = graph.run(&Inline);
        assert!(matches!(outcome.status(node), Ok(NodeStatus::Panicked(_))));
        assert_eq!(ran.load(Ordering::SeqCst), 0);
    })
}

#[test]
fn an_empty_subgraph_completes_its_node_at_once() {
    without_hanging(|| {
        let mut graph = TaskGraph::new();
        let node = graph.add_subgraph(|_, _| 5u8);
        let outcome = graph.run(&Runtime::new(1).unwrap());
        assert_eq!(outcome.get::<u8>(node), Ok(&5));
    })
}

#[test]
fn a_subgraph_node_builds_a_fresh_subgraph_on_each_run_and_in_each_loop_round() {
    without_hanging(|| {
        let rt = Runtime::new(2).unwrap();
        let built = Arc::new(AtomicUsize::new(0));
        let mut graph = TaskGraph::new();
        let init = graph.add_task(|_| ());
        let node = {
            let built = built.clone();
            graph
                .add_subgraph_after(&[init], move |_, sub| {
                    let built = built.clone();
                    sub.add_task(move |_| built.fetch_add(1, Ordering::SeqCst));
                })
                .unwrap()
        };
        let mut rounds = 0;
        let again = graph
            .add_condition_after(&[node], move |_| {
                rounds += 1;
                usize::from(rounds % 4 == 0)
            })
            .unwrap();
        let end = graph.add_task(|_| ());
        graph.set_branches(again, &[node, end]).unwrap();
        for _ in 0..3 {
            let outcome = graph.run(&rt);
            assert_eq!(outcome.runs(node), Ok(4));
            assert!(outcome.all_completed());
        }
        assert_eq!(built.load(Ordering::SeqCst), 12);
    })
}

#[test]
fn a_subgraph_made_inside_a_task_of_a_one_worker_runtime_completes() {
    without_hanging(|| {
        let rt = Arc::new(Runtime::new(1).unwrap());
        let inner = rt.clone();
        let total = rt
            .spawn(move || {
                let mut graph = TaskGraph::new();
                let node = graph.add_subgraph(|_, sub| {
                    for i in 0..10u64 {
                        sub.add_task(move |_| i);
                    }
                    "ok"
                });
                graph.run(&*inner).take::<&str>(node)
            })
            .join()
            .unwrap();
        assert_eq!(total, Ok("ok"));
    })
}
