//! Dropping the future of `run_graph_async` before it resolves cancels the
//! run: nodes that have not started never start, and nodes already running
//! finish; the run then ends by itself, dropping its graph.

use std::future::Future;
use std::pin::pin;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::task::{Context, Poll};

use rt_core::Runtime;
use rt_dag::{run_graph_async, Executor, TaskGraph};
use rt_testkit::{counting_waker, without_hanging, Gate, Latch};

/// Opens its latch when dropped: the graph that holds it is gone.
struct OnDrop(Latch);

impl Drop for OnDrop {
    fn drop(&mut self) {
        self.0.count_down();
    }
}

/// A chain of `len` nodes; the first waits at `gate` after telling
/// `started`, each counts itself in `ran`; the graph's drop opens
/// `dropped`.
fn chain(
    len: usize,
    gate: &Gate,
    started: &Latch,
    ran: &Arc<AtomicUsize>,
    dropped: &Latch,
) -> TaskGraph {
    let mut graph = TaskGraph::new();
    let (gate, started, first_ran) = (gate.clone(), started.clone(), ran.clone());
    let guard = OnDrop(dropped.clone());
    let mut last = graph.add_task(move |_| {
        let _ = &guard;
        started.count_down();
        gate.wait();
        first_ran.fetch_add(1, Ordering::SeqCst);
    });
    for _ in 1..len {
        let ran = ran.clone();
        last = graph
            .add_task_after(&[last], move |_| {
                ran.fetch_add(1, Ordering::SeqCst);
            })
            .unwrap();
    }
    graph
}

fn dropping_the_future_while_the_first_node_runs_stops_the_chain_on(executor: &impl Executor) {
    let (gate, started, dropped) = (Gate::new(), Latch::new(1), Latch::new(1));
    let ran = Arc::new(AtomicUsize::new(0));
    let graph = chain(300, &gate, &started, &ran, &dropped);
    {
        let mut future = pin!(run_graph_async(executor, graph));
        let (_, waker) = counting_waker();
        // The first poll submits the entry; it starts, and waits at the gate.
        assert!(matches!(
            future.as_mut().poll(&mut Context::from_waker(&waker)),
            Poll::Pending
        ));
        started.wait();
    } // the future is dropped here, the first node still running
    gate.open();
    // The run ends by itself once the first node is done, and drops its
    // graph.
    dropped.wait();
    assert_eq!(
        ran.load(Ordering::SeqCst),
        1,
        "the chain ran on after its future was dropped"
    );
}

#[test]
fn dropping_the_future_of_an_awaited_run_cancels_the_rest_of_a_chain_on_the_runtime() {
    without_hanging(|| {
        dropping_the_future_while_the_first_node_runs_stops_the_chain_on(&Runtime::new(2).unwrap())
    })
}

#[test]
fn dropping_the_future_of_an_awaited_run_cancels_the_rest_of_a_chain_on_one_worker() {
    without_hanging(|| {
        dropping_the_future_while_the_first_node_runs_stops_the_chain_on(&Runtime::new(1).unwrap())
    })
}

#[test]
fn dropping_the_future_of_an_awaited_run_cancels_its_subgraphs_too() {
    without_hanging(|| {
        let rt = Runtime::new(2).unwrap();
        let (gate, started, dropped) = (Gate::new(), Latch::new(1), Latch::new(1));
        let ran = Arc::new(AtomicUsize::new(0));
        let inner = chain(50, &gate, &started, &ran, &dropped);
        let mut graph = TaskGraph::new();
        graph.add_graph(inner);
        {
            let mut future = pin!(run_graph_async(&rt, graph));
            let (_, waker) = counting_waker();
            let _ = future.as_mut().poll(&mut Context::from_waker(&waker));
            started.wait();
        }
        gate.open();
        dropped.wait();
        assert_eq!(ran.load(Ordering::SeqCst), 1);
    })
}
