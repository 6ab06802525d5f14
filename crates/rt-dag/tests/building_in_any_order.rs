//! A graph is built in any order, as Taskflow builds one: nodes first,
//! edges between them afterwards (`precede`, `succeed`), edges removed
//! (`remove_dependency`), successors listed; an edge that would close a
//! cycle is refused by the call that adds it, and the graph is unchanged.

mod common;

use std::sync::{Arc, Mutex};

use common::{Inline, Pool, ThreadPerJob};
use rt_core::Runtime;
use rt_dag::{Executor, GraphError, NodeId, NodeStatus, ReadyOrder, TaskGraph};
use rt_testkit::{without_hanging, Gate};

/// A graph whose nodes are added last first and joined afterwards:
/// `nodes[i]` waits for `nodes[i + 1]`. Each node records its position in
/// the order the nodes ran.
fn chain_built_backwards(len: usize, order: &Arc<Mutex<Vec<usize>>>) -> (TaskGraph, Vec<NodeId>) {
    let mut graph = TaskGraph::new();
    let nodes: Vec<NodeId> = (0..len)
        .map(|i| {
            let order = order.clone();
            graph.add_task(move |_| order.lock().unwrap().push(i))
        })
        .collect();
    for i in 0..len - 1 {
        graph.precede(nodes[i + 1], &[nodes[i]]).unwrap();
    }
    (graph, nodes)
}

fn a_chain_built_backwards_runs_from_its_last_node_to_its_first_on(executor: &impl Executor) {
    let order = Arc::new(Mutex::new(Vec::new()));
    let (mut graph, _) = chain_built_backwards(50, &order);
    for _ in 0..3 {
        order.lock().unwrap().clear();
        assert!(graph.run(executor).all_completed());
        assert_eq!(*order.lock().unwrap(), (0..50).rev().collect::<Vec<_>>());
    }
}

#[test]
fn a_chain_built_backwards_runs_from_its_last_node_to_its_first_on_the_runtime() {
    without_hanging(|| {
        a_chain_built_backwards_runs_from_its_last_node_to_its_first_on(&Runtime::new(2).unwrap())
    })
}

#[test]
fn a_chain_built_backwards_runs_from_its_last_node_to_its_first_inline() {
    without_hanging(|| a_chain_built_backwards_runs_from_its_last_node_to_its_first_on(&Inline))
}

#[test]
fn a_chain_built_backwards_runs_from_its_last_node_to_its_first_on_a_pool() {
    without_hanging(|| {
        a_chain_built_backwards_runs_from_its_last_node_to_its_first_on(&Pool::new(3))
    })
}

#[test]
fn a_node_reads_the_output_of_a_prerequisite_added_after_it() {
    without_hanging(|| {
        let mut graph = TaskGraph::new();
        let sum = graph.add_task(|deps| {
            deps.dependencies()
                .map(|dep| *deps.get::<u32>(dep).unwrap())
                .sum::<u32>()
        });
        let a = graph.add_task(|_| 20u32);
        let b = graph.add_task(|_| 22u32);
        graph.succeed(sum, &[a, b]).unwrap();
        assert_eq!(
            graph.dependencies(sum).unwrap().collect::<Vec<_>>(),
            vec![a, b]
        );
        let outcome = graph.run(&Runtime::new(2).unwrap());
        assert_eq!(outcome.get::<u32>(sum), Ok(&42));
    })
}

#[test]
fn successors_list_the_nodes_that_wait_for_a_node_in_the_order_they_were_added() {
    without_hanging(|| {
        let mut graph = TaskGraph::new();
        let late = graph.add_task(|_| ());
        let source = graph.add_task(|_| ());
        let early = graph.add_task_after(&[source], |_| ()).unwrap();
        graph.precede(source, &[late]).unwrap();
        assert_eq!(
            graph.successors(source).unwrap().collect::<Vec<_>>(),
            vec![late, early]
        );
        assert_eq!(graph.successors(late).unwrap().len(), 0);
        graph.remove_dependency(source, late).unwrap();
        assert_eq!(
            graph.successors(source).unwrap().collect::<Vec<_>>(),
            vec![early]
        );
    })
}

#[test]
fn an_edge_that_exists_already_counts_once() {
    without_hanging(|| {
        let mut graph = TaskGraph::new();
        let a = graph.add_task(|_| ());
        let b = graph.add_task_after(&[a], |_| ()).unwrap();
        graph.precede(a, &[b, b]).unwrap();
        graph.succeed(b, &[a]).unwrap();
        assert_eq!(graph.dependencies(b).unwrap().len(), 1);
        assert!(graph.run(&Inline).all_completed());
    })
}

#[test]
fn an_edge_that_would_close_a_cycle_is_refused_and_the_graph_is_unchanged() {
    without_hanging(|| {
        let mut graph = TaskGraph::new();
        let a = graph.add_task(|_| ());
        let b = graph.add_task(|_| ());
        let c = graph.add_task(|_| ());
        graph.precede(a, &[b]).unwrap();
        graph.precede(b, &[c]).unwrap();
        let before = graph.to_dot();

        assert_eq!(
            graph.precede(c, &[a]),
            Err(GraphError::Cycle {
                from: c.into(),
                to: a.into()
            })
        );
        assert_eq!(
            graph.succeed(a, &[c]),
            Err(GraphError::Cycle {
                from: c.into(),
                to: a.into()
            })
        );
        assert_eq!(
            graph.precede(b, &[b]),
            Err(GraphError::Cycle {
                from: b.into(),
                to: b.into()
            })
        );
        let message = GraphError::Cycle {
            from: c.into(),
            to: a.into(),
        }
        .to_string();
        assert!(message.contains("cycle"), "{message}");

        assert_eq!(graph.to_dot(), before);
        assert_eq!(graph.dependencies(a).unwrap().len(), 0);
        assert!(graph.run(&Inline).all_completed());
    })
}

#[test]
fn edges_added_together_are_added_all_or_none() {
    without_hanging(|| {
        let mut graph = TaskGraph::new();
        let a = graph.add_task(|_| ());
        let b = graph.add_task_after(&[a], |_| ()).unwrap();
        let c = graph.add_task(|_| ());
        // b -> c is fine, b -> a would close a cycle: neither is added.
        assert_eq!(
            graph.precede(b, &[c, a]),
            Err(GraphError::Cycle {
                from: b.into(),
                to: a.into()
            })
        );
        assert_eq!(graph.successors(b).unwrap().len(), 0);
        assert_eq!(graph.dependencies(c).unwrap().len(), 0);
    })
}

#[test]
fn a_cycle_through_a_long_way_round_is_refused_too() {
    without_hanging(|| {
        let order = Arc::new(Mutex::new(Vec::new()));
        let (mut graph, nodes) = chain_built_backwards(200, &order);
        // nodes[199] runs first, nodes[0] last: 0 cannot come before 199.
        assert_eq!(
            graph.precede(nodes[0], &[nodes[199]]),
            Err(GraphError::Cycle {
                from: nodes[0].into(),
                to: nodes[199].into()
            })
        );
        // The other way round adds nothing new but is fine.
        graph.precede(nodes[199], &[nodes[0]]).unwrap();
        assert!(graph.run(&Inline).all_completed());
    })
}

#[test]
fn a_removed_dependency_no_longer_holds_its_node_back() {
    without_hanging(|| {
        // `blocker` waits until `after` ran: were `after` still waiting
        // for `blocker`, the run would never end.
        let gate = Gate::new();
        let mut graph = TaskGraph::new();
        let blocker = {
            let gate = gate.clone();
            graph.add_task(move |_| gate.wait())
        };
        let other = graph.add_task(|_| ());
        let after = {
            let gate = gate.clone();
            graph
                .add_task_after(&[blocker, other], move |_| gate.open())
                .unwrap()
        };
        assert_eq!(graph.remove_dependency(blocker, after), Ok(true));
        assert_eq!(graph.remove_dependency(blocker, after), Ok(false));
        assert_eq!(
            graph.dependencies(after).unwrap().collect::<Vec<_>>(),
            vec![other]
        );
        assert!(graph.run(&ThreadPerJob).all_completed());
    })
}

#[test]
fn an_edge_added_after_a_run_counts_from_the_next_run() {
    without_hanging(|| {
        let seen = Arc::new(Mutex::new(Vec::new()));
        let mut graph = TaskGraph::new();
        let record = |name: &'static str| {
            let seen = seen.clone();
            move |_: &rt_dag::DependencyResults<'_>| seen.lock().unwrap().push(name)
        };
        let second = graph.add_task(record("second"));
        let first = graph.add_task(record("first"));
        graph.set_ready_order(ReadyOrder::Declared);
        assert!(graph.run(&Inline).all_completed());
        assert_eq!(*seen.lock().unwrap(), ["second", "first"]);

        seen.lock().unwrap().clear();
        graph.precede(first, &[second]).unwrap();
        assert!(graph.run(&Inline).all_completed());
        assert_eq!(*seen.lock().unwrap(), ["first", "second"]);

        seen.lock().unwrap().clear();
        graph.remove_dependency(first, second).unwrap();
        assert!(graph.run(&Inline).all_completed());
        assert_eq!(*seen.lock().unwrap(), ["second", "first"]);
    })
}

#[test]
fn a_failure_skips_what_waits_for_it_through_edges_added_in_any_order() {
    without_hanging(|| {
        common::quiet_expected_panics();
        let mut graph = TaskGraph::new();
        let downstream = graph.add_task(|_| ());
        let middle = graph.add_task(|_| ());
        let bad = graph.add_task(|_| panic!("{}: upstream", common::EXPECTED));
        let independent = graph.add_task(|_| ());
        graph.precede(middle, &[downstream]).unwrap();
        graph.precede(bad, &[middle]).unwrap();
        let outcome = graph.run(&Runtime::new(2).unwrap());
        assert!(matches!(outcome.status(bad), Ok(NodeStatus::Panicked(_))));
        assert_eq!(
            outcome.status(middle),
            Ok(&NodeStatus::Skipped {
                prerequisite: bad.into()
            })
        );
        assert_eq!(
            outcome.status(downstream),
            Ok(&NodeStatus::Skipped {
                prerequisite: middle.into()
            })
        );
        assert_eq!(outcome.status(independent), Ok(&NodeStatus::Completed));
    })
}

#[test]
fn an_edge_that_would_leave_a_branch_target_unable_to_start_is_refused() {
    without_hanging(|| {
        let mut graph = TaskGraph::new();
        let init = graph.add_task(|_| ());
        let body = graph.add_task_after(&[init], |_| ()).unwrap();
        let check = graph.add_condition_after(&[body], |_| 1).unwrap();
        let done = graph.add_task(|_| ());
        graph.set_branches(check, &[body, done]).unwrap();
        // Without `init -> body`, `body` would start only when `check`
        // took it, and `check` only after `body`.
        assert_eq!(
            graph.remove_dependency(init, body),
            Err(GraphError::NeverRuns { node: body.into() })
        );
        assert_eq!(graph.dependencies(body).unwrap().len(), 1);
        // And `done`, started by `check` only, cannot wait for a node
        // after itself.
        let after_done = graph.add_task_after(&[done], |_| ()).unwrap();
        assert_eq!(
            graph.precede(after_done, &[check]),
            Err(GraphError::NeverRuns { node: check.into() })
        );
        let outcome = graph.run(&Inline);
        assert_eq!(outcome.status(done), Ok(&NodeStatus::Completed));
    })
}

#[test]
fn an_id_of_another_graph_is_refused_by_every_edge_method() {
    without_hanging(|| {
        let mut other = TaskGraph::new();
        let foreign = other.add_task(|_| ());
        let mut graph = TaskGraph::new();
        let local = graph.add_task(|_| ());
        let expected = GraphError::ForeignNode {
            node: foreign,
            expected: graph.id(),
        };
        assert_eq!(graph.precede(local, &[foreign]), Err(expected.clone()));
        assert_eq!(graph.precede(foreign, &[local]), Err(expected.clone()));
        assert_eq!(graph.succeed(local, &[foreign]), Err(expected.clone()));
        assert_eq!(
            graph.remove_dependency(foreign, local),
            Err(expected.clone())
        );
        assert_eq!(graph.successors(foreign).map(|_| ()), Err(expected));
    })
}

#[test]
fn a_graph_built_in_any_order_runs_its_longest_path_first() {
    without_hanging(|| {
        // Three short nodes, then a chain of five whose head was added
        // last: on one thread, the head of the longest path starts first.
        let seen = Arc::new(Mutex::new(Vec::new()));
        let mut graph = TaskGraph::new();
        for i in 0..3 {
            let seen = seen.clone();
            graph.add_task(move |_| seen.lock().unwrap().push(format!("short {i}")));
        }
        let chain: Vec<NodeId> = (0..5)
            .map(|i| {
                let seen = seen.clone();
                graph.add_task(move |_| seen.lock().unwrap().push(format!("chain {i}")))
            })
            .collect();
        for i in 0..4 {
            graph.precede(chain[i + 1], &[chain[i]]).unwrap();
        }
        assert!(graph.run(&Inline).all_completed());
        assert_eq!(seen.lock().unwrap()[0], "chain 4");
    })
}

#[test]
fn a_chain_built_backwards_completes_beside_a_failure() {
    without_hanging(|| {
        common::quiet_expected_panics();
        let order = Arc::new(Mutex::new(Vec::new()));
        let (mut graph, nodes) = chain_built_backwards(10, &order);
        let bad = graph.add_task(|_| panic!("{}: beside", common::EXPECTED));
        let outcome = graph.run(&Inline);
        assert!(matches!(outcome.status(bad), Ok(NodeStatus::Panicked(_))));
        for node in nodes {
            assert_eq!(outcome.status(node), Ok(&NodeStatus::Completed));
        }
    })
}

#[test]
fn a_large_graph_joined_afterwards_is_built_and_run_in_time_linear_in_its_size() {
    without_hanging(|| {
        // A source and a destination added first, a hundred thousand nodes
        // between them joined afterwards (Taskflow's map-reduce shape):
        // each edge is checked for a cycle in time independent of the
        // graph's size, or this would not finish under the watchdog.
        const WIDTH: usize = 100_000;
        let mut graph = TaskGraph::with_capacity(WIDTH + 2, 2 * WIDTH);
        let src = graph.add_task(|_| ());
        let dst = graph.add_task(|deps| deps.len());
        for _ in 0..WIDTH {
            let node = graph.add_task(|_| ());
            graph.precede(src, &[node]).unwrap();
            graph.succeed(dst, &[node]).unwrap();
        }
        assert_eq!(graph.successors(src).unwrap().len(), WIDTH);
        let outcome = graph.run(&Runtime::new(2).unwrap());
        assert_eq!(outcome.get::<usize>(dst), Ok(&WIDTH));
    })
}
