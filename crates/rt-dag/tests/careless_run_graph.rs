//! `run_graph` where a user calls it without thinking about threads: from
//! inside a task, a scope task, an `install`, a graph node; on a runtime
//! that is shut down; awaited from async code; with nodes that panic, spawn
//! and join.

use std::future::Future;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

use rt_core::Runtime;
use rt_dag::{run_graph, run_graph_async, NodeId, NodeStatus, TaskGraph};
use rt_testkit::{quietly, without_hanging, Gate, Latch};

/// A diamond of four nodes plus a chain of ten: returns the graph, the
/// diamond's sink and the chain's end.
fn sample() -> (TaskGraph, NodeId, NodeId) {
    let mut g = TaskGraph::new();
    let top = g.add_task(|_| 1u64);
    let left = g
        .add_task_after(&[top], move |d| d.get::<u64>(top).unwrap() + 1)
        .unwrap();
    let right = g
        .add_task_after(&[top], move |d| d.get::<u64>(top).unwrap() + 2)
        .unwrap();
    let sink = g
        .add_task_after(&[left, right], move |d| {
            d.get::<u64>(left).unwrap() + d.get::<u64>(right).unwrap()
        })
        .unwrap();
    let mut last = g.add_task(|_| 0u64);
    for _ in 0..10 {
        let prev = last;
        last = g
            .add_task_after(&[prev], move |d| d.get::<u64>(prev).unwrap() + 1)
            .unwrap();
    }
    (g, sink, last)
}

fn check(rt: &Runtime) -> (u64, u64) {
    let (g, sink, last) = sample();
    let mut out = run_graph(rt, g);
    assert!(out.all_completed());
    (
        out.take::<u64>(sink).unwrap(),
        out.take::<u64>(last).unwrap(),
    )
}

#[test]
fn run_graph_inside_an_install_on_one_worker_completes() {
    without_hanging(|| {
        let rt = Runtime::new(1).unwrap();
        assert_eq!(rt.install(|| check(&rt)), (5, 10));
    });
}

#[test]
fn run_graph_inside_a_scope_task_on_one_worker_completes() {
    without_hanging(|| {
        let rt = Runtime::new(1).unwrap();
        let got = rt.scope(|s| {
            let a = s.spawn(|| check(&rt));
            let b = s.spawn(|| check(&rt));
            (a.join().unwrap(), b.join().unwrap())
        });
        assert_eq!(got, ((5, 10), (5, 10)));
    });
}

#[test]
fn run_graph_inside_a_graph_node_on_one_worker_completes() {
    without_hanging(|| {
        let rt = Arc::new(Runtime::new(1).unwrap());
        let mut g = TaskGraph::new();
        let inner_rt = rt.clone();
        let outer = g.add_task(move |_| check(&inner_rt));
        let mut out = run_graph(&*rt, g);
        assert_eq!(out.take::<(u64, u64)>(outer).unwrap(), (5, 10));
    });
}

#[test]
fn a_node_that_spawns_and_joins_a_task_of_the_same_one_worker_runtime_completes() {
    without_hanging(|| {
        let rt = Arc::new(Runtime::new(1).unwrap());
        let mut g = TaskGraph::new();
        let r = rt.clone();
        let a = g.add_task(move |_| r.spawn(|| 20u32).join().unwrap());
        let r = rt.clone();
        let b = g
            .add_task_after(&[a], move |d| {
                let base = *d.get::<u32>(a).unwrap();
                r.install(|| rt_core::join(|| base, || 2)).0 + 2
            })
            .unwrap();
        let mut out = run_graph(&*rt, g);
        assert_eq!(out.take::<u32>(b).unwrap(), 22);
    });
}

#[test]
fn run_graph_on_a_shut_down_runtime_returns_with_every_node_rejected() {
    without_hanging(|| {
        let rt = Runtime::new(2).unwrap();
        rt.shutdown();
        let (g, sink, _) = sample();
        let out = run_graph(&rt, g);
        assert!(!out.all_completed());
        assert!(out.status(sink).unwrap().is_failure());
        assert!(out
            .iter()
            .all(|(_, s)| matches!(s, NodeStatus::Rejected | NodeStatus::Skipped { .. })));
    });
}

#[test]
fn a_panicking_node_is_reported_and_its_dependents_skipped_while_the_rest_completes() {
    without_hanging(|| {
        let rt = Runtime::new(2).unwrap();
        let mut g = TaskGraph::new();
        let bad = g.add_task(|_| -> u8 { panic!("node failed") });
        let after = g.add_task_after(&[bad], |_| 1u8).unwrap();
        let other = g.add_task(|_| 2u8);
        let out = quietly(|| run_graph(&rt, g));
        assert_eq!(
            out.status(bad).unwrap(),
            &NodeStatus::Panicked("node failed".into())
        );
        assert_eq!(
            out.status(after).unwrap(),
            &NodeStatus::Skipped {
                prerequisite: bad.into()
            }
        );
        assert_eq!(out.status(other).unwrap(), &NodeStatus::Completed);
        assert_eq!(rt.spawn(|| 3).join(), Ok(3));
    });
}

#[test]
fn run_graph_async_awaited_on_a_tokio_current_thread_runtime_completes() {
    without_hanging(|| {
        let rt = Runtime::new(2).unwrap();
        let tokio = tokio::runtime::Builder::new_current_thread()
            .build()
            .unwrap();
        let (g, sink, last) = sample();
        let mut out = tokio.block_on(run_graph_async(&rt, g));
        assert_eq!(out.take::<u64>(sink).unwrap(), 5);
        assert_eq!(out.take::<u64>(last).unwrap(), 10);
    });
}

#[test]
fn a_run_graph_async_future_dropped_midway_lets_submitted_nodes_finish_and_nothing_hangs() {
    without_hanging(|| {
        let rt = Runtime::new(1).unwrap();
        let ran = Arc::new(AtomicUsize::new(0));
        let (gate, started) = (Gate::new(), Latch::new(1));
        let mut g = TaskGraph::new();
        // The root holds the worker until the future is gone; then the
        // worker runs one of the 20 nodes it releases and hands the others
        // to the future, which is no longer there to submit them.
        let root = {
            let (gate, started) = (gate.clone(), started.clone());
            g.add_task(move |_| {
                started.count_down();
                gate.wait();
            })
        };
        for _ in 0..20 {
            let ran = ran.clone();
            g.add_task_after(&[root], move |_| {
                ran.fetch_add(1, Ordering::SeqCst);
            })
            .unwrap();
        }
        let mut fut = Box::pin(run_graph_async(&rt, g));
        let waker = futures::task::noop_waker();
        let mut cx = std::task::Context::from_waker(&waker);
        assert!(fut.as_mut().poll(&mut cx).is_pending());
        started.wait();
        drop(fut);
        gate.open();
        rt.shutdown();
        assert!(ran.load(Ordering::SeqCst) < 20);
        let m = rt.metrics();
        assert_eq!(m.submitted, m.finished());
    });
}

#[test]
fn an_empty_graph_completes_at_once_everywhere() {
    without_hanging(|| {
        let rt = Runtime::new(1).unwrap();
        assert!(run_graph(&rt, TaskGraph::new()).is_empty());
        assert!(rt.install(|| run_graph(&rt, TaskGraph::new())).is_empty());
        let tokio = tokio::runtime::Builder::new_current_thread()
            .build()
            .unwrap();
        assert!(tokio
            .block_on(run_graph_async(&rt, TaskGraph::new()))
            .is_empty());
    });
}
