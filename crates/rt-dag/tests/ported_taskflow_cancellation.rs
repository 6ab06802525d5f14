//! Ported from Taskflow's `unittests/test_cancellation.cpp` (cases
//! `Future`, `BasicCancellation`, `MultipleCancellations`, `CancelSubflow`,
//! `CancelInfiniteLoop`, `CancelFromAnother`, `CancelFromAsync` and
//! `CancelComposition`) and `unittests/test_runtimes.cpp` (`Runtime.Cancel`).
//!
//! Taskflow's `executor.run(taskflow)` returns a future whose `cancel()`
//! stops the run; here a run is cancelled through its token
//! (`run_cancellable`, `run_n_cancellable`, `run_until_cancellable`), or by
//! dropping the future of `run_graph_async`. Taskflow's nodes sleep 100 ms
//! so that the cancellation comes while they run; these hold the first
//! node at a gate until the token is cancelled instead, with no timing.

mod common;

use std::future::Future;
use std::pin::pin;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Arc;
use std::task::Context;

use rt_core::Runtime;
use rt_dag::{
    run_graph_async, task_group, CancellationToken, GraphOutcome, NodeId, NodeStatus, TaskGraph,
};
use rt_testkit::{counting_waker, without_hanging, Gate, Latch};

/// `n` nodes that count themselves: a head, which tells `started` and
/// waits at `gate`, and the others after it. Whatever the threads do, none
/// of the others can start before the head is let go.
fn gated_nodes(n: usize, counter: &Arc<AtomicUsize>, started: &Latch, gate: &Gate) -> TaskGraph {
    let mut graph = TaskGraph::new();
    let (c, started, gate) = (counter.clone(), started.clone(), gate.clone());
    let head = graph.add_task(move |_| {
        started.count_down();
        gate.wait();
        c.fetch_add(1, Ordering::SeqCst);
    });
    for _ in 1..n {
        let counter = counter.clone();
        graph
            .add_task_after(&[head], move |_| counter.fetch_add(1, Ordering::SeqCst))
            .unwrap();
    }
    graph
}

/// Every node of a cancelled run either ran or was cancelled.
fn ran_or_was_cancelled(outcome: &GraphOutcome) {
    for (id, status) in outcome.iter() {
        assert!(
            matches!(
                status,
                NodeStatus::Completed | NodeStatus::Cancelled | NodeStatus::SubgraphCancelled
            ),
            "{id}: {status:?}"
        );
    }
}

#[test]
fn a_run_that_is_not_cancelled_runs_every_node() {
    // Future
    without_hanging(|| {
        let rt = Runtime::new(4).unwrap();
        let counter = Arc::new(AtomicUsize::new(0));
        let mut graph = TaskGraph::new();
        for _ in 0..100 {
            let counter = counter.clone();
            graph.add_task(move |_| counter.fetch_add(1, Ordering::SeqCst));
        }
        assert!(graph
            .run_cancellable(&rt, &CancellationToken::new())
            .all_completed());
        assert_eq!(counter.load(Ordering::SeqCst), 100);
    })
}

#[test]
fn cancelling_a_run_while_its_first_node_runs_stops_the_others() {
    // BasicCancellation, for a run and for run_n
    without_hanging(|| {
        let rt = Runtime::new(4).unwrap();
        for runs in [1, 100] {
            let counter = Arc::new(AtomicUsize::new(0));
            let (started, gate) = (Latch::new(1), Gate::new());
            let mut graph = gated_nodes(10_000, &counter, &started, &gate);
            let token = CancellationToken::new();
            let outcomes = std::thread::scope(|s| {
                let run = s.spawn(|| graph.run_n_cancellable(&rt, runs, &token));
                started.wait();
                token.cancel();
                gate.open();
                run.join().unwrap()
            });
            assert_eq!(outcomes.len(), 1, "no run starts after the cancellation");
            ran_or_was_cancelled(&outcomes[0]);
            // Taskflow checks fewer than 10,000; here only the head ran.
            assert_eq!(counter.load(Ordering::SeqCst), 1);
        }
    })
}

#[test]
fn dropping_the_future_of_an_awaited_run_stops_it_like_taskflow_s_cancel() {
    // BasicCancellation through the future
    without_hanging(|| {
        let rt = Runtime::new(4).unwrap();
        let counter = Arc::new(AtomicUsize::new(0));
        let (started, gate) = (Latch::new(1), Gate::new());
        let mut graph = gated_nodes(10_000, &counter, &started, &gate);
        // Opens `dropped` when the run, which owns the graph, has ended.
        struct OnDrop(Latch);
        impl Drop for OnDrop {
            fn drop(&mut self) {
                self.0.count_down();
            }
        }
        let dropped = Latch::new(1);
        let guard = OnDrop(dropped.clone());
        graph.add_task(move |_| {
            let _ = &guard;
        });
        {
            let mut future = pin!(run_graph_async(&rt, graph));
            let (_, waker) = counting_waker();
            let _ = future.as_mut().poll(&mut Context::from_waker(&waker));
            started.wait();
        }
        gate.open();
        // The nodes already queued see the cancellation when dequeued; then
        // the run ends by itself.
        dropped.wait();
        assert_eq!(counter.load(Ordering::SeqCst), 1);
    })
}

#[test]
fn four_runs_cancelled_at_once_each_stop() {
    // MultipleCancellations
    without_hanging(|| {
        let rt = Runtime::new(4).unwrap();
        let counter = Arc::new(AtomicUsize::new(0));
        let gate = Gate::new();
        let started: Vec<Latch> = (0..4).map(|_| Latch::new(1)).collect();
        let tokens: Vec<CancellationToken> = (0..4).map(|_| CancellationToken::new()).collect();
        let mut graphs: Vec<TaskGraph> = started
            .iter()
            .map(|s| gated_nodes(10_000, &counter, s, &gate))
            .collect();
        let outcomes: Vec<GraphOutcome> = std::thread::scope(|s| {
            let runs: Vec<_> = graphs
                .iter_mut()
                .zip(&tokens)
                .map(|(graph, token)| {
                    let rt = &rt;
                    s.spawn(move || graph.run_cancellable(rt, token))
                })
                .collect();
            for latch in &started {
                latch.wait();
            }
            tokens.iter().for_each(CancellationToken::cancel);
            gate.open();
            runs.into_iter().map(|r| r.join().unwrap()).collect()
        });
        outcomes.iter().for_each(ran_or_was_cancelled);
        assert_eq!(counter.load(Ordering::SeqCst), 4, "the four heads");
    })
}

#[test]
fn cancelling_runs_of_subgraphs_stops_their_children() {
    // CancelSubflow: a hundred subgraph nodes of a hundred children each
    without_hanging(|| {
        let rt = Runtime::new(4).unwrap();
        let counter = Arc::new(AtomicUsize::new(0));
        let (started, gate) = (Latch::new(1), Gate::new());
        let first = Arc::new(AtomicBool::new(true));
        let mut graph = TaskGraph::new();
        for _ in 0..100 {
            let (counter, started, gate, first) = (
                counter.clone(),
                started.clone(),
                gate.clone(),
                first.clone(),
            );
            graph.add_subgraph(move |_, sub| {
                // Its children wait for a head, held until the run is
                // cancelled.
                let (c, started, gate, first) = (
                    counter.clone(),
                    started.clone(),
                    gate.clone(),
                    first.clone(),
                );
                let head = sub.add_task(move |_| {
                    if first.swap(false, Ordering::SeqCst) {
                        started.count_down();
                    }
                    gate.wait();
                    c.fetch_add(1, Ordering::SeqCst);
                });
                for _ in 1..100 {
                    let counter = counter.clone();
                    sub.add_task_after(&[head], move |_| counter.fetch_add(1, Ordering::SeqCst))
                        .unwrap();
                }
            });
        }
        let token = CancellationToken::new();
        let outcome = std::thread::scope(|s| {
            let run = s.spawn(|| graph.run_cancellable(&rt, &token));
            started.wait();
            token.cancel();
            gate.open();
            run.join().unwrap()
        });
        ran_or_was_cancelled(&outcome);
        // Each subgraph whose head ran was cancelled while it ran (so was
        // one whose closure ran just before the cancellation, its head not
        // started yet).
        let heads = counter.load(Ordering::SeqCst);
        let cancelled_inside = outcome
            .iter()
            .filter(|(_, s)| **s == NodeStatus::SubgraphCancelled)
            .count();
        assert!((1..10_000).contains(&heads));
        assert!(cancelled_inside >= heads, "{cancelled_inside} < {heads}");
    })
}

/// `pairs` pairs `a → b` where `b` is a condition that takes itself
/// forever; `looping` opens once some `b` has run. (A loop keeps the
/// thread that runs it, round after round, until the run is cancelled:
/// with as many loops as workers, nothing else would run on them.)
fn infinite_loops(pairs: usize, looping: &Latch) -> TaskGraph {
    let mut graph = TaskGraph::new();
    for _ in 0..pairs {
        let a = graph.add_task(|_| ());
        let looping = looping.clone();
        let b = graph
            .add_condition_after(&[a], move |_| {
                looping.count_down();
                0
            })
            .unwrap();
        graph.set_branches(b, &[b]).unwrap();
    }
    graph
}

#[test]
fn cancelling_a_run_of_infinite_loops_ends_it() {
    // CancelInfiniteLoop
    without_hanging(|| {
        let rt = Runtime::new(4).unwrap();
        let looping = Latch::new(1);
        let mut graph = infinite_loops(100, &looping);
        let token = CancellationToken::new();
        let outcome = std::thread::scope(|s| {
            let run = s.spawn(|| graph.run_cancellable(&rt, &token));
            looping.wait();
            token.cancel();
            run.join().unwrap()
        });
        ran_or_was_cancelled(&outcome);
        assert!(outcome.iter().any(|(_, s)| *s == NodeStatus::Cancelled));
    })
}

#[test]
fn a_node_of_another_run_cancels_an_infinite_loop() {
    // CancelFromAnother: one loop, as in Taskflow
    without_hanging(|| {
        let rt = Runtime::new(4).unwrap();
        let looping = Latch::new(1);
        let mut graph = infinite_loops(1, &looping);
        let token = CancellationToken::new();
        std::thread::scope(|s| {
            let run = s.spawn(|| graph.run_cancellable(&rt, &token));
            let mut another = TaskGraph::new();
            let (looping, token) = (looping.clone(), token.clone());
            another.add_task(move |_| {
                looping.wait();
                token.cancel();
            });
            assert!(another.run(&rt).all_completed());
            ran_or_was_cancelled(&run.join().unwrap());
        });
    })
}

#[test]
fn a_task_cancels_runs_of_an_infinite_loop_that_another_task_started() {
    // CancelFromAsync: run_n(taskflow, 100) of one loop from a task,
    // cancelled
    without_hanging(|| {
        let rt = Runtime::new(4).unwrap();
        let looping = Latch::new(1);
        let mut graph = infinite_loops(1, &looping);
        let token = CancellationToken::new();
        task_group(&rt, |group| {
            let (graph, token_for_run) = (&mut graph, token.clone());
            let rt = &rt;
            let runs = group.spawn(move |_| graph.run_n_cancellable(rt, 100, &token_for_run));
            let (looping, canceller) = (&looping, token.clone());
            group.spawn(move |_| {
                looping.wait();
                canceller.cancel();
            });
            let outcomes = runs.join().unwrap();
            assert_eq!(outcomes.len(), 1);
            ran_or_was_cancelled(&outcomes[0]);
        });
    })
}

/// CancelComposition's graphs: f1 two tasks; f2 `f2A, f2B → f2C` beside a
/// module of f1; f3 a module of f2 beside `f3A`; f4 `module(f3) →
/// module(f2)`. Taskflow composes the same f2 twice; a graph here is owned
/// by the node that runs it, so each module gets its own copy.
fn f1() -> TaskGraph {
    let mut f1 = TaskGraph::new();
    f1.add_task(|_| ());
    f1.add_task(|_| ());
    f1
}

fn f2() -> TaskGraph {
    let mut f2 = TaskGraph::new();
    let a = f2.add_task(|_| ());
    let b = f2.add_task(|_| ());
    f2.add_task_after(&[a, b], |_| ()).unwrap();
    f2.add_graph(f1());
    f2
}

fn f4() -> (TaskGraph, NodeId) {
    let mut f3 = TaskGraph::new();
    f3.add_graph(f2());
    f3.add_task(|_| ());
    let mut f4 = TaskGraph::new();
    let module_of_f3 = f4.add_graph(f3);
    let module_of_f2 = f4.add_graph_after(&[module_of_f3], f2()).unwrap();
    (f4, module_of_f2)
}

#[test]
fn cancelling_runs_of_nested_graph_nodes_cancels_or_completes_each_node() {
    // CancelComposition: many runs, each cancelled at some point
    without_hanging(|| {
        let rt = Runtime::new(4).unwrap();
        let (mut graph, last) = f4();
        let mut cancelled = 0;
        for round in 0..100 {
            let token = CancellationToken::new();
            if round % 2 == 0 {
                token.cancel(); // before the run starts
            }
            let outcome = std::thread::scope(|s| {
                let run = s.spawn(|| graph.run_cancellable(&rt, &token));
                token.cancel();
                run.join().unwrap()
            });
            ran_or_was_cancelled(&outcome);
            if outcome.status(last) != Ok(&NodeStatus::Completed) {
                cancelled += 1;
            }
        }
        assert!(cancelled >= 50, "{cancelled}");
        // And the graph still runs in full.
        assert!(graph.run(&rt).all_completed());
    })
}

#[test]
fn a_running_node_sees_its_run_cancelled_and_returns() {
    // Runtime.Cancel
    without_hanging(|| {
        let rt = Runtime::new(4).unwrap();
        let reached = Latch::new(1);
        let saw = Arc::new(AtomicBool::new(false));
        let mut graph = TaskGraph::new();
        let (r, saw2) = (reached.clone(), saw.clone());
        let node = graph.add_task(move |deps| {
            r.count_down();
            while !deps.is_cancelled() {
                std::thread::yield_now();
            }
            saw2.store(true, Ordering::SeqCst);
        });
        let token = CancellationToken::new();
        let outcome = std::thread::scope(|s| {
            let run = s.spawn(|| graph.run_cancellable(&rt, &token));
            reached.wait();
            token.cancel();
            run.join().unwrap()
        });
        assert!(saw.load(Ordering::SeqCst));
        assert_eq!(outcome.status(node), Ok(&NodeStatus::Completed));
    })
}
