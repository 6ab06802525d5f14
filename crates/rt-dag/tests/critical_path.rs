//! Among nodes ready at the same time, the one heading the longest path of
//! remaining work runs first (critical path first), its length measured in
//! nodes, estimated costs or the running times of a previous run;
//! `ReadyOrder::Declared` keeps the order nodes were added in.

mod common;

use std::sync::{Arc, Mutex};
use std::time::Duration;

use common::Inline;
use rt_dag::{NodeId, Priority, ReadyOrder, TaskGraph};
use rt_testkit::without_hanging;

type Log = Arc<Mutex<Vec<&'static str>>>;

fn logged(graph: &mut TaskGraph, log: &Log, deps: &[NodeId], name: &'static str) -> NodeId {
    let log = log.clone();
    graph
        .add_task_after(deps, move |_| log.lock().unwrap().push(name))
        .unwrap()
}

/// Five independent nodes, then a chain of three, added in that order.
fn wide_then_chain(order: ReadyOrder) -> (TaskGraph, Log) {
    let log: Log = Arc::default();
    let mut graph = TaskGraph::new();
    graph.set_ready_order(order);
    for name in ["w0", "w1", "w2", "w3", "w4"] {
        logged(&mut graph, &log, &[], name);
    }
    let c0 = logged(&mut graph, &log, &[], "c0");
    let c1 = logged(&mut graph, &log, &[c0], "c1");
    logged(&mut graph, &log, &[c1], "c2");
    (graph, log)
}

#[test]
fn the_entry_heading_the_longest_chain_starts_first() {
    without_hanging(|| {
        let (mut graph, log) = wide_then_chain(ReadyOrder::CriticalPath);
        assert!(graph.run(&Inline).all_completed());
        assert_eq!(
            *log.lock().unwrap(),
            ["c0", "c1", "c2", "w0", "w1", "w2", "w3", "w4"]
        );
    })
}

#[test]
fn declared_order_starts_the_entries_in_the_order_they_were_added() {
    without_hanging(|| {
        let (mut graph, log) = wide_then_chain(ReadyOrder::Declared);
        assert!(graph.run(&Inline).all_completed());
        assert_eq!(
            *log.lock().unwrap(),
            ["w0", "w1", "w2", "w3", "w4", "c0", "c1", "c2"]
        );
    })
}

/// `root` before a leaf (added first) and a chain of three.
fn fork(order: ReadyOrder) -> (TaskGraph, Log) {
    let log: Log = Arc::default();
    let mut graph = TaskGraph::new();
    graph.set_ready_order(order);
    let root = logged(&mut graph, &log, &[], "root");
    logged(&mut graph, &log, &[root], "leaf");
    let b = logged(&mut graph, &log, &[root], "b");
    let b2 = logged(&mut graph, &log, &[b], "b2");
    logged(&mut graph, &log, &[b2], "b3");
    (graph, log)
}

#[test]
fn the_thread_that_finishes_a_node_runs_the_dependent_on_the_longest_path_next() {
    without_hanging(|| {
        let (mut graph, log) = fork(ReadyOrder::CriticalPath);
        assert!(graph.run(&Inline).all_completed());
        assert_eq!(*log.lock().unwrap(), ["root", "b", "b2", "b3", "leaf"]);
        let (mut graph, log) = fork(ReadyOrder::Declared);
        assert!(graph.run(&Inline).all_completed());
        assert_eq!(*log.lock().unwrap(), ["root", "leaf", "b", "b2", "b3"]);
    })
}

#[test]
fn cost_estimates_outweigh_the_number_of_nodes() {
    without_hanging(|| {
        let log: Log = Arc::default();
        let mut graph = TaskGraph::new();
        let root = logged(&mut graph, &log, &[], "root");
        let quick1 = logged(&mut graph, &log, &[root], "quick 1");
        logged(&mut graph, &log, &[quick1], "quick 2");
        let slow = logged(&mut graph, &log, &[root], "slow");
        graph.set_cost(quick1, Duration::from_micros(1)).unwrap();
        graph.set_cost(slow, Duration::from_millis(50)).unwrap();
        // `quick 2` has no estimate: it counts as the mean of the others.
        assert!(graph.run(&Inline).all_completed());
        assert_eq!(*log.lock().unwrap(), ["root", "slow", "quick 1", "quick 2"]);
    })
}

#[test]
fn a_timed_run_measures_each_node_and_the_next_run_orders_by_those_times() {
    without_hanging(|| {
        let log: Log = Arc::default();
        let mut graph = TaskGraph::new();
        graph.record_timings(true);
        assert!(graph.records_timings());
        let root = logged(&mut graph, &log, &[], "root");
        let a1 = logged(&mut graph, &log, &[root], "a1");
        logged(&mut graph, &log, &[a1], "a2");
        let slow = {
            let log = log.clone();
            graph
                .add_task_after(&[root], move |_| {
                    std::thread::sleep(Duration::from_millis(20));
                    log.lock().unwrap().push("slow");
                })
                .unwrap()
        };
        // First run: nothing measured yet, the longer chain goes first.
        let first = graph.run(&Inline);
        assert_eq!(*log.lock().unwrap(), ["root", "a1", "a2", "slow"]);
        let timing = first.timing(slow).unwrap().expect("timed");
        assert!(timing.elapsed >= Duration::from_millis(20), "{timing:?}");
        assert!(first.timing(a1).unwrap().is_some());
        assert!(graph.measured_cost(slow).unwrap().unwrap() >= Duration::from_millis(20));
        // Second run: `slow` is now known to be the longest path.
        log.lock().unwrap().clear();
        assert!(graph.run(&Inline).all_completed());
        assert_eq!(*log.lock().unwrap(), ["root", "slow", "a1", "a2"]);
    })
}

#[test]
fn a_more_urgent_class_goes_before_a_longer_path() {
    without_hanging(|| {
        let log: Log = Arc::default();
        let mut graph = TaskGraph::new();
        let root = logged(&mut graph, &log, &[], "root");
        let long1 = logged(&mut graph, &log, &[root], "long 1");
        logged(&mut graph, &log, &[long1], "long 2");
        let urgent = logged(&mut graph, &log, &[root], "urgent");
        graph.set_priority(urgent, Priority::High).unwrap();
        assert!(graph.run(&Inline).all_completed());
        assert_eq!(*log.lock().unwrap(), ["root", "urgent", "long 1", "long 2"]);
    })
}

#[test]
fn without_timings_recorded_the_outcome_has_none() {
    without_hanging(|| {
        let mut graph = TaskGraph::new();
        let node = graph.add_task(|_| ());
        let outcome = graph.run(&Inline);
        assert_eq!(outcome.timing(node), Ok(None));
        assert_eq!(graph.measured_cost(node), Ok(None));
    })
}
