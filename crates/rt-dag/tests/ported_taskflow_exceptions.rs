//! Ported from Taskflow's `unittests/test_exceptions.cpp` (cases
//! `Exception.StaticTask`, `ConditionTask`, `SubflowTask`,
//! `JoinedSubflow1`, `JoinedSubflow2`, `JoinedSubflow3`, `NestedSubflow`,
//! `ModuleTask`, `Async`, `Async.Runtime`, `DependentAsync.Runtime`,
//! `ThreadSafety` and `TaskGroup.Async`).
//!
//! Taskflow's `throw std::runtime_error("x")` is a fallible task returning
//! `Err(RuntimeError("x"))` where a task can (the error comes back typed,
//! as `REQUIRE_THROWS_WITH_AS(..., "x", std::runtime_error)` checks), and
//! a panic with "x" elsewhere (conditions, subgraph closures, group tasks);
//! `run(...).get()` throwing is the run's `first_failure`, whose root cause
//! is followed through subflows (subgraphs) and modules (graph nodes).
//! Where Taskflow cancels the rest of the run on an exception, a node
//! failing here skips what waits for it; its other nodes run, and a task
//! group does not cancel its other tasks (so `TaskGroup.Async` counts all
//! 100 silent tasks, where Taskflow counts at most the worker count).

mod common;

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

use common::{quiet_expected_panics, Pool, EXPECTED};
use rt_core::Runtime;
use rt_dag::{
    task_group, Executor, GraphOutcome, NodeStatus, RootCause, TaskError, TaskGraph, TaskGroupError,
};
use rt_testkit::without_hanging;

/// `std::runtime_error`.
#[derive(Debug, PartialEq, thiserror::Error)]
#[error("{0}")]
struct RuntimeError(&'static str);

/// What `run(...).get()` would throw, as `REQUIRE_THROWS_WITH_AS` checks
/// it: a `RuntimeError` with `what`.
fn throws_runtime_error(outcome: &GraphOutcome, what: &str) {
    let cause = outcome.first_failure().expect("the run failed");
    let error = cause.error().expect("with an error");
    assert_eq!(
        error.downcast_ref::<RuntimeError>().map(|e| e.0),
        Some(what),
        "{cause}"
    );
}

/// The same, for a panic with a message containing `what`.
fn throws_panic(cause: Option<RootCause<'_>>, what: &str) {
    let cause = cause.expect("the run failed");
    let message = cause.panic_message().expect("with a panic");
    assert!(message.contains(what), "{cause}");
}

fn executors() -> Vec<Box<dyn Executor>> {
    vec![
        Box::new(Runtime::new(1).unwrap()),
        Box::new(Runtime::new(2).unwrap()),
        Box::new(Pool::new(4)),
    ]
}

/// A chain of six counting nodes, C failing with "x" when `fail` is set.
fn counting_chain(counter: &Arc<AtomicUsize>, fail: bool, conditions: bool) -> TaskGraph {
    let mut graph = TaskGraph::new();
    let mut previous = None;
    for name in ["A", "B", "C", "D", "E", "F"] {
        let counter = counter.clone();
        let deps: Vec<_> = previous.into_iter().collect();
        let failing = fail && name == "C";
        let node = if conditions {
            // A condition with no branches: it returns 0, and takes none.
            graph
                .add_condition_after(&deps, move |_| {
                    if failing {
                        panic!("{EXPECTED}: x");
                    }
                    counter.fetch_add(1, Ordering::SeqCst);
                    0
                })
                .unwrap()
        } else {
            graph
                .add_fallible_task_after(&deps, move |_| {
                    if failing {
                        return Err(RuntimeError("x"));
                    }
                    counter.fetch_add(1, Ordering::SeqCst);
                    Ok(())
                })
                .unwrap()
        };
        graph.set_label(node, name).unwrap();
        previous = Some(node);
    }
    graph
}

#[test]
fn a_failing_task_in_a_chain_stops_the_chain_and_the_run_reports_its_error() {
    // Exception.StaticTask
    without_hanging(|| {
        for executor in executors() {
            let counter = Arc::new(AtomicUsize::new(0));
            let outcome = counting_chain(&counter, false, false).run(&*executor);
            assert!(outcome.first_failure().is_none());
            assert_eq!(counter.swap(0, Ordering::SeqCst), 6);
            let mut failing = counting_chain(&counter, true, false);
            for _ in 0..2 {
                let outcome = failing.run(&*executor);
                throws_runtime_error(&outcome, "x");
                assert_eq!(outcome.first_failure().unwrap().node().label(), Some("C"));
                assert_eq!(counter.swap(0, Ordering::SeqCst), 2);
            }
        }
    })
}

#[test]
fn a_failing_condition_in_a_chain_stops_the_chain_and_the_run_reports_its_panic() {
    // Exception.ConditionTask (and MultiConditionTask: one branch index)
    without_hanging(|| {
        quiet_expected_panics();
        for executor in executors() {
            let counter = Arc::new(AtomicUsize::new(0));
            assert!(counting_chain(&counter, false, true)
                .run(&*executor)
                .is_success());
            assert_eq!(counter.swap(0, Ordering::SeqCst), 6);
            let mut failing = counting_chain(&counter, true, true);
            for _ in 0..2 {
                let outcome = failing.run(&*executor);
                throws_panic(outcome.first_failure(), "x");
                assert_eq!(counter.swap(0, Ordering::SeqCst), 2);
            }
        }
    })
}

#[test]
fn a_failing_subgraph_closure_or_subgraph_task_fails_the_run() {
    // Exception.SubflowTask
    without_hanging(|| {
        quiet_expected_panics();
        for executor in executors() {
            let mut graph = TaskGraph::new();
            for _ in 0..100 {
                graph.add_subgraph(|_, sub| {
                    sub.add_task(|_| ());
                    sub.add_task(|_| panic!("{EXPECTED}: z"));
                    panic!("{EXPECTED}: x");
                });
            }
            // The closure's own panic: its subgraph never runs.
            throws_panic(graph.run(&*executor).first_failure(), "x");

            let mut graph = TaskGraph::new();
            for _ in 0..100 {
                graph.add_subgraph(|_, sub| {
                    sub.add_task(|_| ());
                    sub.add_fallible_task(|_| -> Result<(), RuntimeError> {
                        Err(RuntimeError("y"))
                    });
                });
            }
            throws_runtime_error(&graph.run(&*executor), "y");
        }
    })
}

#[test]
fn failures_deep_in_nested_joined_subgraphs_reach_the_run() {
    // Exception.JoinedSubflow1 and JoinedSubflow2
    without_hanging(|| {
        for executor in executors() {
            let mut graph = TaskGraph::new();
            let sf0 = graph.add_subgraph(|_, sf0| {
                for i in 0..100 {
                    let sf1 = sf0.add_subgraph(|_, sf1| {
                        for j in 0..2 {
                            let child = sf1.add_fallible_task(|_| -> Result<(), RuntimeError> {
                                Err(RuntimeError("x"))
                            });
                            sf1.set_label(child, format!("sf1-child-{j}")).unwrap();
                        }
                    });
                    sf0.set_label(sf1, format!("sf1-{i}")).unwrap();
                }
            });
            graph.set_label(sf0, "sf0").unwrap();
            let outcome = graph.run(&*executor);
            throws_runtime_error(&outcome, "x");
            let names: Vec<_> = outcome
                .first_failure()
                .unwrap()
                .path()
                .iter()
                .map(|n| n.label().unwrap().to_string())
                .collect();
            assert_eq!(names, ["sf0", "sf1-0", "sf1-child-0"]);

            // JoinedSubflow2: sixteen failing children; the node's status
            // says so, and nothing after the subflow's join runs.
            let post_join = Arc::new(AtomicUsize::new(0));
            let mut graph = TaskGraph::new();
            let sf0 = graph.add_subgraph(|_, sf0| {
                for _ in 0..16 {
                    sf0.add_fallible_task(|_| -> Result<(), RuntimeError> {
                        Err(RuntimeError("x"))
                    });
                }
            });
            let p = post_join.clone();
            graph
                .add_task_after(&[sf0], move |_| p.fetch_add(1, Ordering::SeqCst))
                .unwrap();
            let outcome = graph.run(&*executor);
            assert!(matches!(
                outcome.status(sf0),
                Ok(NodeStatus::SubgraphFailed { .. })
            ));
            assert_eq!(post_join.load(Ordering::SeqCst), 0);
        }
    })
}

#[test]
fn a_failure_in_a_subgraph_chain_stops_the_chain_after_two_tasks() {
    // Exception.JoinedSubflow3: W → X (fails) → Y → Z inside a subflow
    without_hanging(|| {
        for executor in executors() {
            let tasks = Arc::new(AtomicUsize::new(0));
            let mut graph = TaskGraph::new();
            let t = tasks.clone();
            graph.add_subgraph(move |_, sf| {
                let count = |t: &Arc<AtomicUsize>| {
                    let t = t.clone();
                    move |_: &rt_dag::DependencyResults<'_>| {
                        t.fetch_add(1, Ordering::SeqCst);
                    }
                };
                let w = sf.add_task(count(&t));
                let t2 = t.clone();
                let x = sf
                    .add_fallible_task_after(&[w], move |_| -> Result<(), RuntimeError> {
                        t2.fetch_add(1, Ordering::SeqCst);
                        Err(RuntimeError("x"))
                    })
                    .unwrap();
                let y = sf.add_task_after(&[x], count(&t)).unwrap();
                sf.add_task_after(&[y], count(&t)).unwrap();
            });
            throws_runtime_error(&graph.run(&*executor), "x");
            assert_eq!(tasks.load(Ordering::SeqCst), 2);
        }
    })
}

/// NestedSubflow's graph: four levels of subflows, each V → W → X → Y → Z
/// where X is the next level, and X4 fails with "x": 12 tasks run.
fn nested_subflows(tasks: &Arc<AtomicUsize>) -> TaskGraph {
    fn level(sub: &mut TaskGraph, depth: usize, tasks: Arc<AtomicUsize>) {
        let count = |tasks: &Arc<AtomicUsize>| {
            let tasks = tasks.clone();
            move |_: &rt_dag::DependencyResults<'_>| {
                tasks.fetch_add(1, Ordering::SeqCst);
            }
        };
        let v = sub.add_task(count(&tasks));
        let w = sub.add_task_after(&[v], count(&tasks)).unwrap();
        let x = if depth == 4 {
            let t = tasks.clone();
            sub.add_fallible_task_after(&[w], move |_| -> Result<(), RuntimeError> {
                t.fetch_add(1, Ordering::SeqCst);
                Err(RuntimeError("x"))
            })
            .unwrap()
        } else {
            let t = tasks.clone();
            sub.add_subgraph_after(&[w], move |_, next| {
                t.fetch_add(1, Ordering::SeqCst);
                level(next, depth + 1, t.clone());
            })
            .unwrap()
        };
        sub.set_label(x, format!("X{depth}")).unwrap();
        let y = sub.add_task_after(&[x], count(&tasks)).unwrap();
        sub.add_task_after(&[y], count(&tasks)).unwrap();
    }
    let mut graph = TaskGraph::new();
    let t = tasks.clone();
    graph.add_subgraph(move |_, sf1| level(sf1, 1, t.clone()));
    graph
}

#[test]
fn a_failure_four_subgraphs_down_stops_the_run_after_twelve_tasks() {
    // Exception.NestedSubflow: `run_n(taskflow, 10).get()` throws after the
    // first run; here `run_until` stops at the first failed run.
    without_hanging(|| {
        for executor in executors() {
            let tasks = Arc::new(AtomicUsize::new(0));
            let mut graph = nested_subflows(&tasks);
            let outcome = graph
                .run_until(&*executor, |last| {
                    last.is_some_and(|o| o.first_failure().is_some())
                })
                .unwrap();
            throws_runtime_error(&outcome, "x");
            assert_eq!(tasks.load(Ordering::SeqCst), 12);
            assert_eq!(outcome.first_failure().unwrap().node().label(), Some("X4"));

            // Run from inside a task (Taskflow's `corun` from an async task).
            tasks.store(0, Ordering::SeqCst);
            let executor: &dyn Executor = &*executor;
            task_group(executor, |group| {
                let graph = &mut graph;
                let handle = group.spawn(move |_| {
                    let mut outcome = graph.run(executor);
                    throws_runtime_error(&outcome, "x");
                    let first = outcome.iter().next().unwrap().0;
                    outcome.take_panic(first).is_err()
                });
                assert!(handle.join().unwrap(), "an error is not a panic");
            });
            assert_eq!(tasks.load(Ordering::SeqCst), 12);
        }
    })
}

#[test]
fn a_failure_inside_a_graph_node_fails_the_run() {
    // Exception.ModuleTask
    without_hanging(|| {
        for executor in executors() {
            let mut inner = TaskGraph::new();
            inner.add_fallible_task(|_| -> Result<(), RuntimeError> { Err(RuntimeError("x")) });
            let mut outer = TaskGraph::new();
            outer.add_graph(inner);
            throws_runtime_error(&outer.run(&*executor), "x");
        }
    })
}

#[test]
fn a_thousand_failing_nodes_fail_the_run_once() {
    // Exception.ThreadSafety
    without_hanging(|| {
        for executor in executors() {
            let mut graph = TaskGraph::new();
            for _ in 0..1_000 {
                graph.add_fallible_task(|_| -> Result<(), RuntimeError> { Err(RuntimeError("x")) });
            }
            let outcome = graph.run(&*executor);
            throws_runtime_error(&outcome, "x");
            assert!(outcome
                .iter()
                .all(|(_, s)| matches!(s, NodeStatus::Failed(_))));
        }
    })
}

#[test]
fn a_panicking_async_task_reports_its_panic_to_its_handle_or_to_wait_for_all() {
    // Exception.Async, Exception.Async.Runtime, Exception.DependentAsync.Runtime
    without_hanging(|| {
        quiet_expected_panics();
        for executor in executors() {
            task_group(&*executor, |group| {
                assert_eq!(group.spawn(|_| 1).join(), Ok(1));
                let failing = group.spawn(|_| -> i32 { panic!("{EXPECTED}: x") });
                assert!(matches!(
                    failing.join(),
                    Err(TaskError::Panicked { message, .. }) if message.contains("x")
                ));
                let handles: Vec<_> = (0..1_024)
                    .map(|i| {
                        if i % 2 == 0 {
                            group.spawn(|_| -> () { panic!("{EXPECTED}: x") })
                        } else {
                            group
                                .spawn_after(&[], |_| -> () { panic!("{EXPECTED}: x") })
                                .unwrap()
                        }
                    })
                    .collect();
                for handle in handles {
                    assert!(matches!(handle.join(), Err(TaskError::Panicked { .. })));
                }
                // silent_async: nobody joins it; the wait reports it.
                group.spawn(|_| panic!("{EXPECTED}: y"));
                assert!(matches!(
                    group.wait_for_all(),
                    Err(TaskGroupError::Panicked { message, .. }) if message.contains("y")
                ));
            });
        }
    })
}

#[test]
fn a_task_group_reports_joined_panics_to_their_handles_and_silent_ones_to_its_wait() {
    // Exception.TaskGroup.Async: the group runs inside a task.
    without_hanging(|| {
        quiet_expected_panics();
        for executor in executors() {
            let executor: &dyn Executor = &*executor;
            task_group(executor, |outer| {
                outer.spawn(move |_| {
                    let counter = AtomicUsize::new(0);
                    task_group(executor, |group| {
                        for _ in 0..20 {
                            counter.store(0, Ordering::SeqCst);
                            let handles: Vec<_> = (0..100)
                                .map(|_| {
                                    group.spawn(|_| -> () {
                                        counter.fetch_add(1, Ordering::SeqCst);
                                        panic!("{EXPECTED}: x")
                                    })
                                })
                                .collect();
                            // Kept handles: the panics are theirs.
                            assert_eq!(group.wait_for_all(), Ok(()));
                            assert_eq!(counter.load(Ordering::SeqCst), 100);
                            drop(handles);
                            // Dropped handles: the wait reports one panic each time.
                            let mut reported = 0;
                            while let Err(TaskGroupError::Panicked { .. }) = group.wait_for_all() {
                                reported += 1;
                            }
                            assert_eq!(reported, 100);
                        }
                    })
                });
            });
        }
    })
}
