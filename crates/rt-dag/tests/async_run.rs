//! `run_graph_async`: a graph awaited from async code runs every node and
//! resolves to the same outcome as `run_graph`, without blocking the async
//! thread.

use rt_core::Runtime;
use rt_dag::{run_graph_async, NodeStatus, TaskGraph};
use rt_testkit::{quietly, without_hanging, Gate, Latch};

fn diamond() -> (TaskGraph, rt_dag::NodeId) {
    let mut graph = TaskGraph::new();
    let a = graph.add_task(|_| 1_u64);
    let b = graph
        .add_task_after(&[a], move |d| d.get::<u64>(a).unwrap() + 10)
        .unwrap();
    let c = graph
        .add_task_after(&[a], move |d| d.get::<u64>(a).unwrap() + 100)
        .unwrap();
    let sum = graph
        .add_task_after(&[b, c], move |d| {
            d.get::<u64>(b).unwrap() + d.get::<u64>(c).unwrap()
        })
        .unwrap();
    (graph, sum)
}

#[test]
fn a_graph_awaited_in_a_tokio_current_thread_runtime_completes_every_node() {
    without_hanging(|| {
        let rt = Runtime::new(2).unwrap();
        let (graph, sum) = diamond();
        let mut outcome = tokio::runtime::Builder::new_current_thread()
            .build()
            .unwrap()
            .block_on(run_graph_async(&rt, graph));
        assert!(outcome.all_completed());
        assert_eq!(outcome.take::<u64>(sum).unwrap(), 112);
    });
}

#[test]
fn the_async_thread_keeps_serving_other_futures_while_a_graph_runs() {
    without_hanging(|| {
        let rt = Runtime::new(1).unwrap();
        let (release_tx, release_rx) = std::sync::mpsc::channel::<()>();
        let mut graph = TaskGraph::new();
        // The node waits until another future on the same async thread has
        // run: that happens only if awaiting the graph does not block it.
        let slow = graph.add_task(move |_| release_rx.recv().is_ok());
        let outcome = tokio::runtime::Builder::new_current_thread()
            .build()
            .unwrap()
            .block_on(async {
                let other = async move { release_tx.send(()).unwrap() };
                let (outcome, ()) = futures::join!(run_graph_async(&rt, graph), other);
                outcome
            });
        assert_eq!(outcome.status(slow), Ok(&NodeStatus::Completed));
    });
}

#[test]
fn a_panicking_node_skips_its_dependents_as_with_run_graph() {
    without_hanging(|| {
        let rt = Runtime::new(2).unwrap();
        let mut graph = TaskGraph::new();
        let bad = graph.add_task(|_| -> u8 { panic!("node failed") });
        let after = graph.add_task_after(&[bad], |_| 1_u8).unwrap();
        let outcome = quietly(|| futures::executor::block_on(run_graph_async(&rt, graph)));
        assert_eq!(
            outcome.status(bad),
            Ok(&NodeStatus::Panicked("node failed".into()))
        );
        assert_eq!(
            outcome.status(after),
            Ok(&NodeStatus::Skipped {
                prerequisite: bad.into()
            })
        );
    });
}

#[test]
fn a_graph_awaited_on_a_shut_down_runtime_resolves_with_every_node_rejected_or_skipped() {
    without_hanging(|| {
        let rt = Runtime::new(1).unwrap();
        rt.shutdown();
        let (graph, sum) = diamond();
        let outcome = futures::executor::block_on(run_graph_async(&rt, graph));
        assert!(matches!(
            outcome.status(sum),
            Ok(NodeStatus::Skipped { .. })
        ));
        assert!(!outcome.all_completed());
    });
}

#[test]
fn a_graph_awaited_on_a_runtime_whose_bounded_queue_is_full_waits_without_blocking_its_thread() {
    without_hanging(|| {
        let rt = Runtime::builder()
            .threads(1)
            .queue_capacity(1)
            .build()
            .unwrap();
        // The worker is held busy, and the queue's one place is taken.
        let (gate, started) = (Gate::new(), Latch::new(1));
        let blocker = {
            let (gate, started) = (gate.clone(), started.clone());
            rt.spawn(move || {
                started.count_down();
                gate.wait();
            })
        };
        started.wait();
        let filler = rt.spawn(|| 1_u8);
        let mut graph = TaskGraph::new();
        let node = graph.add_task(|_| 2_u8);
        let outcome = tokio::runtime::Builder::new_current_thread()
            .build()
            .unwrap()
            .block_on(async {
                // Polled first: the graph's node cannot be queued, and if
                // that blocked the thread, `release` below would never run
                // and the worker would stay held.
                let release = async { gate.open() };
                let (outcome, ()) = futures::join!(run_graph_async(&rt, graph), release);
                outcome
            });
        assert_eq!(outcome.status(node), Ok(&NodeStatus::Completed));
        assert_eq!(blocker.join(), Ok(()));
        assert_eq!(filler.join(), Ok(1));
    });
}

#[test]
fn an_awaited_graph_with_a_loop_a_subgraph_and_a_limit_completes_every_node() {
    without_hanging(|| {
        let rt = Runtime::new(2).unwrap();
        let limit = rt_dag::Limit::new(1).unwrap();
        let mut graph = TaskGraph::new();
        let init = graph.add_task(|_| ());
        let mut rounds = 0u32;
        let body = graph
            .add_subgraph_after(&[init], |_, sub| {
                for i in 0..5u32 {
                    sub.add_task(move |_| i);
                }
            })
            .unwrap();
        let check = graph
            .add_condition_after(&[body], move |_| {
                rounds += 1;
                usize::from(rounds == 3)
            })
            .unwrap();
        let end = graph.add_task(|_| "end");
        graph.set_branches(check, &[body, end]).unwrap();
        for _ in 0..4 {
            let node = graph.add_task_after(&[init], |_| ()).unwrap();
            graph.set_limit(node, &limit).unwrap();
        }
        let outcome = futures::executor::block_on(run_graph_async(&rt, graph));
        assert!(outcome.all_completed());
        assert_eq!(outcome.runs(body), Ok(3));
        assert_eq!(outcome.get::<&str>(end), Ok(&"end"));
    });
}
