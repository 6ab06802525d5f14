//! The thread that finishes a node releases its dependents: it runs one
//! next itself and submits the others; nothing goes back to the thread
//! that started the run.

mod common;

use std::collections::HashSet;
use std::sync::{Arc, Mutex};

use common::{thread_name, Counting};
use rt_dag::{NodeId, TaskGraph};
use rt_testkit::without_hanging;

fn chain(graph: &mut TaskGraph, len: usize, log: &Arc<Mutex<Vec<String>>>) -> NodeId {
    let mut last: Option<NodeId> = None;
    for _ in 0..len {
        let log = log.clone();
        let deps: Vec<NodeId> = last.into_iter().collect();
        last = Some(
            graph
                .add_task_after(&deps, move |_| log.lock().unwrap().push(thread_name()))
                .unwrap(),
        );
    }
    last.unwrap()
}

#[test]
fn a_chain_of_a_thousand_nodes_reaches_the_executor_as_one_job() {
    without_hanging(|| {
        let executor = Counting::new(2);
        let log = Arc::new(Mutex::new(Vec::new()));
        let mut graph = TaskGraph::new();
        chain(&mut graph, 1000, &log);
        assert!(graph.run(&executor).all_completed());
        assert_eq!(executor.jobs(), 1);
        // Every node ran on the thread that ran the first one.
        let threads: HashSet<String> = log.lock().unwrap().iter().cloned().collect();
        assert_eq!(threads.len(), 1, "{threads:?}");
    })
}

#[test]
fn a_fan_out_submits_every_node_but_the_one_its_releaser_runs_next() {
    without_hanging(|| {
        let executor = Counting::new(2);
        let mut graph = TaskGraph::new();
        let root = graph.add_task(|_| ());
        for _ in 0..10 {
            graph.add_task_after(&[root], |_| ()).unwrap();
        }
        assert!(graph.run(&executor).all_completed());
        // The root's job, then nine of its ten dependents.
        assert_eq!(executor.jobs(), 10);
    })
}

#[test]
fn no_node_runs_on_the_thread_that_started_the_run_when_it_is_not_a_worker() {
    without_hanging(|| {
        let executor = Counting::new(2);
        let log = Arc::new(Mutex::new(Vec::new()));
        let mut graph = TaskGraph::new();
        let root = chain(&mut graph, 10, &log);
        for _ in 0..20 {
            let log = log.clone();
            graph
                .add_task_after(&[root], move |_| log.lock().unwrap().push(thread_name()))
                .unwrap();
        }
        assert!(graph.run(&executor).all_completed());
        let me = thread_name();
        assert!(log.lock().unwrap().iter().all(|t| *t != me));
    })
}

#[test]
fn a_graph_run_again_reaches_the_executor_as_often_as_the_first_time() {
    without_hanging(|| {
        let executor = Counting::new(2);
        let mut graph = TaskGraph::new();
        let a = graph.add_task(|_| ());
        let b = graph.add_task(|_| ());
        graph.add_task_after(&[a, b], |_| ()).unwrap();
        assert!(graph.run(&executor).all_completed());
        let once = executor.jobs();
        assert!(graph.run(&executor).all_completed());
        assert_eq!(executor.jobs(), 2 * once);
        assert_eq!(once, 2);
    })
}
