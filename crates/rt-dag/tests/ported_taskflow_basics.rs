//! Taskflow's tests of building a graph in any order, ported from
//! `unittests/test_basics.cpp` (taskflow/taskflow): the test case
//! `Builder` (its subcases `EmptyFlow`, `Placeholder`,
//! `EmbarrassinglyParallel`, `BinarySequence`, `LinearCounter`,
//! `Broadcast`, `Succeed`, `MapReduce`, `Linearize` and `Kite`), and the
//! test cases `Taskflow.RemoveDependency` and `Task.RemoveDependencies`.
//!
//! How they map: `emplace` is `add_task`, `placeholder().name(n)` is
//! `add_placeholder` then `set_label`, `work` is `set_task`; `precede` and
//! `succeed` keep their names; `num_predecessors` and `num_successors` are
//! the lengths of `dependencies` and `successors`; `linearize` is a
//! `precede` between each node and the next; `remove_dependency(a, b)` keeps
//! its name, and `b.remove_predecessors(a)` / `a.remove_successors(b)` are
//! `remove_dependency(a, b)` too. Taskflow keeps an edge given twice twice
//! (`a.precede(b, b)` makes two successors); rt keeps it once, so the
//! counts after repeated edges are halved and one removal removes it. The
//! `REQUIRE`s inside tasks are assertions in nodes: a failing one panics
//! the node, which the run's outcome reports. The executors are runtimes
//! of `W` workers, `W` up to 4 on this project's machines.

use std::sync::atomic::{AtomicI64, Ordering};
use std::sync::Arc;

use rt_core::Runtime;
use rt_dag::{NodeId, TaskGraph};
use rt_testkit::without_hanging;

const NUM_TASKS: i64 = 100;

fn preds(graph: &TaskGraph, node: NodeId) -> usize {
    graph.dependencies(node).unwrap().len()
}

fn succs(graph: &TaskGraph, node: NodeId) -> usize {
    graph.successors(node).unwrap().len()
}

/// A node that adds `by` to `counter`.
fn adds(
    counter: &Arc<AtomicI64>,
    by: i64,
) -> impl FnMut(&rt_dag::DependencyResults<'_>) + Send + 'static {
    let counter = counter.clone();
    move |_| {
        counter.fetch_add(by, Ordering::SeqCst);
    }
}

/// A node that asserts `counter` is `expected`, then adds `by`.
fn expects_then_adds(
    counter: &Arc<AtomicI64>,
    expected: i64,
    by: i64,
) -> impl FnMut(&rt_dag::DependencyResults<'_>) + Send + 'static {
    let counter = counter.clone();
    move |_| {
        assert_eq!(counter.load(Ordering::SeqCst), expected);
        counter.fetch_add(by, Ordering::SeqCst);
    }
}

/// `Builder/EmptyFlow`: an empty graph runs on any number of workers.
#[test]
fn an_empty_graph_runs_on_any_number_of_workers() {
    without_hanging(|| {
        for workers in 1..8 {
            let rt = Runtime::new(workers).unwrap();
            let mut graph = TaskGraph::new();
            assert_eq!(graph.len(), 0);
            assert!(graph.is_empty());
            assert!(graph.run(&rt).all_completed());
        }
    })
}

/// `Builder/Placeholder`: a hundred named placeholders without edges, given
/// their work afterwards.
#[test]
fn named_placeholders_given_their_work_afterwards_all_run() {
    without_hanging(|| {
        let counter = Arc::new(AtomicI64::new(0));
        let mut graph = TaskGraph::new();
        let silent: Vec<NodeId> = (0..NUM_TASKS)
            .map(|i| {
                let node = graph.add_placeholder();
                graph.set_label(node, i.to_string()).unwrap();
                node
            })
            .collect();
        for (i, &node) in silent.iter().enumerate() {
            assert_eq!(graph.label(node), Ok(Some(i.to_string().as_str())));
            assert_eq!(preds(&graph, node), 0);
            assert_eq!(succs(&graph, node), 0);
        }
        for &node in &silent {
            graph.set_task(node, adds(&counter, 1)).unwrap();
        }
        assert!(graph.run(&Runtime::new(4).unwrap()).all_completed());
        assert_eq!(counter.load(Ordering::SeqCst), NUM_TASKS);
    })
}

/// `Builder/EmbarrassinglyParallel`: independent nodes; more added after a
/// run join the next one.
#[test]
fn nodes_added_after_a_run_join_the_next_run() {
    without_hanging(|| {
        let rt = Runtime::new(4).unwrap();
        let counter = Arc::new(AtomicI64::new(0));
        let mut graph = TaskGraph::new();
        for _ in 0..NUM_TASKS {
            graph.add_task(adds(&counter, 1));
        }
        assert_eq!(graph.len(), NUM_TASKS as usize);
        assert!(graph.run(&rt).all_completed());
        assert_eq!(counter.load(Ordering::SeqCst), NUM_TASKS);

        counter.store(0, Ordering::SeqCst);
        for _ in 0..NUM_TASKS {
            graph.add_task(adds(&counter, 1));
        }
        assert_eq!(graph.len(), 2 * NUM_TASKS as usize);
        assert!(graph.run(&rt).all_completed());
        assert_eq!(counter.load(Ordering::SeqCst), 2 * NUM_TASKS);
    })
}

/// `Builder/BinarySequence`: a chain made with `precede`, alternately
/// adding and taking one.
#[test]
fn a_chain_made_with_precede_runs_in_order() {
    without_hanging(|| {
        let counter = Arc::new(AtomicI64::new(0));
        let mut graph = TaskGraph::new();
        let mut tasks: Vec<NodeId> = Vec::new();
        for i in 0..NUM_TASKS {
            let node = if i % 2 == 0 {
                graph.add_task(expects_then_adds(&counter, 0, 1))
            } else {
                graph.add_task(expects_then_adds(&counter, 1, -1))
            };
            if let Some(&before) = tasks.last() {
                graph.precede(before, &[node]).unwrap();
            }
            tasks.push(node);
            assert_eq!(preds(&graph, node), usize::from(i > 0));
        }
        assert!(graph.run(&Runtime::new(4).unwrap()).all_completed());
    })
}

/// `Builder/LinearCounter`: each node of a chain sees the count of the
/// nodes before it.
#[test]
fn each_node_of_a_chain_sees_every_node_before_it_done() {
    without_hanging(|| {
        let counter = Arc::new(AtomicI64::new(0));
        let mut graph = TaskGraph::new();
        let mut last: Option<NodeId> = None;
        for i in 0..NUM_TASKS {
            let node = graph.add_task(expects_then_adds(&counter, i, 1));
            if let Some(before) = last {
                graph.precede(before, &[node]).unwrap();
            }
            last = Some(node);
        }
        assert!(graph.run(&Runtime::new(4).unwrap()).all_completed());
        assert_eq!(counter.load(Ordering::SeqCst), NUM_TASKS);
        assert_eq!(graph.len(), NUM_TASKS as usize);
    })
}

/// `Builder/Broadcast`: one source preceding every other node.
#[test]
fn a_source_preceding_every_node_runs_before_them_all() {
    without_hanging(|| {
        let counter = Arc::new(AtomicI64::new(0));
        let mut graph = TaskGraph::new();
        let src = graph.add_task(adds(&counter, -1));
        for _ in 1..NUM_TASKS {
            let node = graph.add_task(expects_then_adds(&counter, -1, 0));
            graph.precede(src, &[node]).unwrap();
        }
        assert!(graph.run(&Runtime::new(4).unwrap()).all_completed());
        assert_eq!(counter.load(Ordering::SeqCst), -1);
        assert_eq!(graph.len(), NUM_TASKS as usize);
    })
}

/// `Builder/Succeed`: a destination added first that succeeds every node
/// added after it.
#[test]
fn a_destination_added_first_runs_after_every_node_it_succeeds() {
    without_hanging(|| {
        let counter = Arc::new(AtomicI64::new(0));
        let mut graph = TaskGraph::new();
        let dst = graph.add_task(expects_then_adds(&counter, NUM_TASKS - 1, 0));
        for _ in 1..NUM_TASKS {
            let node = graph.add_task(adds(&counter, 1));
            graph.succeed(dst, &[node]).unwrap();
        }
        assert!(graph.run(&Runtime::new(4).unwrap()).all_completed());
        assert_eq!(counter.load(Ordering::SeqCst), NUM_TASKS - 1);
        assert_eq!(graph.len(), NUM_TASKS as usize);
    })
}

/// `Builder/MapReduce`: a source and a destination added first, the nodes
/// between them added and joined afterwards.
#[test]
fn nodes_joined_between_a_source_and_a_destination_added_before_them_run_between_them() {
    without_hanging(|| {
        let counter = Arc::new(AtomicI64::new(0));
        let mut graph = TaskGraph::new();
        let src = {
            let counter = counter.clone();
            graph.add_task(move |_| counter.store(0, Ordering::SeqCst))
        };
        let dst = graph.add_task(expects_then_adds(&counter, NUM_TASKS, 0));
        for _ in 0..NUM_TASKS {
            let node = graph.add_task(adds(&counter, 1));
            graph.precede(src, &[node]).unwrap();
            graph.succeed(dst, &[node]).unwrap();
        }
        assert!(graph.run(&Runtime::new(4).unwrap()).all_completed());
        assert_eq!(graph.len(), NUM_TASKS as usize + 2);
    })
}

/// `Builder/Linearize`: independent nodes put in a line afterwards.
#[test]
fn independent_nodes_linearized_afterwards_run_in_line() {
    without_hanging(|| {
        let counter = Arc::new(AtomicI64::new(0));
        let mut graph = TaskGraph::new();
        let silent: Vec<NodeId> = (0..NUM_TASKS)
            .map(|i| graph.add_task(expects_then_adds(&counter, i, 1)))
            .collect();
        for pair in silent.windows(2) {
            graph.precede(pair[0], &[pair[1]]).unwrap();
        }
        assert!(graph.run(&Runtime::new(4).unwrap()).all_completed());
        assert_eq!(counter.load(Ordering::SeqCst), NUM_TASKS);
        assert_eq!(graph.len(), NUM_TASKS as usize);
    })
}

/// `Builder/Kite`: a source before a line of nodes, and a destination
/// added last after each of them.
#[test]
fn a_line_between_a_source_and_a_destination_runs_in_order() {
    without_hanging(|| {
        let counter = Arc::new(AtomicI64::new(0));
        let mut graph = TaskGraph::new();
        let src = {
            let counter = counter.clone();
            graph.add_task(move |_| counter.store(0, Ordering::SeqCst))
        };
        let silent: Vec<NodeId> = (0..NUM_TASKS)
            .map(|i| {
                let node = graph.add_task(expects_then_adds(&counter, i, 1));
                graph.precede(src, &[node]).unwrap();
                node
            })
            .collect();
        for pair in silent.windows(2) {
            graph.precede(pair[0], &[pair[1]]).unwrap();
        }
        let dst = graph.add_task(expects_then_adds(&counter, NUM_TASKS, 0));
        for &node in &silent {
            graph.succeed(dst, &[node]).unwrap();
        }
        assert!(graph.run(&Runtime::new(4).unwrap()).all_completed());
        assert_eq!(graph.len(), NUM_TASKS as usize + 2);
    })
}

/// Four named placeholders.
fn abcd(graph: &mut TaskGraph) -> [NodeId; 4] {
    ["a", "b", "c", "d"].map(|name| {
        let node = graph.add_placeholder();
        graph.set_label(node, name).unwrap();
        node
    })
}

/// `Taskflow.RemoveDependency`: edges removed one by one, then added twice
/// over (once here) and removed again.
#[test]
fn removing_dependencies_one_by_one_updates_both_ends() {
    without_hanging(|| {
        let mut graph = TaskGraph::new();
        let [a, b, c, d] = abcd(&mut graph);
        assert_eq!((succs(&graph, a), preds(&graph, a)), (0, 0));

        graph.precede(a, &[b, c, d]).unwrap();
        assert_eq!(succs(&graph, a), 3);
        assert_eq!(
            (preds(&graph, b), preds(&graph, c), preds(&graph, d)),
            (1, 1, 1)
        );

        graph.remove_dependency(a, b).unwrap();
        assert_eq!((succs(&graph, a), preds(&graph, b)), (2, 0));
        graph.remove_dependency(a, c).unwrap();
        assert_eq!((succs(&graph, a), preds(&graph, c)), (1, 0));
        graph.remove_dependency(a, d).unwrap();
        assert_eq!((succs(&graph, a), preds(&graph, d)), (0, 0));

        // Taskflow: 6 successors, b with 2 predecessors; each edge once here.
        graph.precede(a, &[b, b, c, c, d, d]).unwrap();
        assert_eq!((succs(&graph, a), preds(&graph, b)), (3, 1));

        graph.remove_dependency(a, b).unwrap();
        assert_eq!((succs(&graph, a), preds(&graph, b)), (2, 0));
        graph.remove_dependency(a, c).unwrap();
        assert_eq!((succs(&graph, a), preds(&graph, b)), (1, 0));
        graph.remove_dependency(a, d).unwrap();
        assert_eq!((succs(&graph, a), preds(&graph, d)), (0, 0));
    })
}

/// `Task.RemoveDependencies`: removing a predecessor a node does not have
/// changes nothing; removing a successor updates both ends.
#[test]
fn removing_a_dependency_that_is_not_there_changes_nothing() {
    without_hanging(|| {
        let mut graph = TaskGraph::new();
        let [a, b, c, d] = abcd(&mut graph);
        graph.precede(a, &[b, c, d]).unwrap();
        assert_eq!(succs(&graph, a), 3);

        // a.remove_predecessors(c): c does not precede a.
        assert_eq!(graph.remove_dependency(c, a), Ok(false));
        assert_eq!(
            (preds(&graph, b), preds(&graph, c), preds(&graph, d)),
            (1, 1, 1)
        );
        assert_eq!((succs(&graph, a), preds(&graph, a)), (3, 0));

        // a.remove_successors(c).
        assert_eq!(graph.remove_dependency(a, c), Ok(true));
        assert_eq!((succs(&graph, a), preds(&graph, a)), (2, 0));
        assert_eq!(
            (preds(&graph, b), preds(&graph, c), preds(&graph, d)),
            (1, 0, 1)
        );
    })
}
