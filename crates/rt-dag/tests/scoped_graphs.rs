//! A scoped graph's nodes borrow from the caller's stack (as
//! `std::thread::scope`'s threads do): they read and write the caller's
//! data, run again, run once (`FnOnce`), and the borrows end when the
//! graph is run once or dropped. (That a scoped graph cannot outlive what
//! its nodes borrow is checked by the compiler: `ScopedGraph`'s
//! `compile_fail` doc test.)

mod common;

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

use common::{quiet_expected_panics, Inline, Pool, EXPECTED};
use rt_core::Runtime;
use rt_dag::{Executor, GraphOutcome, NodeStatus, ScopedGraph, TaskGraph};
use rt_testkit::without_hanging;

fn nodes_read_and_write_the_caller_s_locals_on(executor: &impl Executor) {
    let input: Vec<u64> = (1..=100).collect();
    let mut evens = 0usize;
    let mut odds = 0usize;
    let total = {
        let mut graph = ScopedGraph::new();
        let sum = graph.add_task(|_| input.iter().sum::<u64>());
        graph.add_task(|_| evens = input.iter().filter(|&&x| x % 2 == 0).count());
        graph.add_task(|_| odds = input.iter().filter(|&&x| x % 2 == 1).count());
        let outcome = graph.run_once(executor);
        *outcome.get::<u64>(sum).unwrap()
    };
    assert_eq!(total, 5050);
    assert_eq!((evens, odds), (50, 50));
}

#[test]
fn nodes_read_and_write_the_caller_s_locals_on_the_runtime() {
    without_hanging(|| nodes_read_and_write_the_caller_s_locals_on(&Runtime::new(2).unwrap()))
}

#[test]
fn nodes_read_and_write_the_caller_s_locals_inline() {
    without_hanging(|| nodes_read_and_write_the_caller_s_locals_on(&Inline))
}

#[test]
fn nodes_read_and_write_the_caller_s_locals_on_a_pool() {
    without_hanging(|| nodes_read_and_write_the_caller_s_locals_on(&Pool::new(3)))
}

#[test]
fn a_scoped_graph_runs_again_and_its_nodes_keep_borrowing() {
    without_hanging(|| {
        let rt = Runtime::new(2).unwrap();
        let mut frames = 0u32;
        let log = Mutex::new(Vec::new());
        {
            let mut graph = ScopedGraph::new();
            let render = graph.add_task(|_| {
                frames += 1;
                frames
            });
            let record = graph
                .add_task_after(&[render], |d| {
                    log.lock().unwrap().push(*d.get::<u32>(render).unwrap())
                })
                .unwrap();
            for outcome in graph.run_n(&rt, 3) {
                assert_eq!(outcome.status(record), Ok(&NodeStatus::Completed));
            }
            // Asked before every run, the first included (with `None`).
            let mut asked = Vec::new();
            let last = graph
                .run_until(&rt, |o| {
                    let frame = o.map(|o| *o.get::<u32>(render).unwrap());
                    asked.push(frame);
                    frame == Some(5)
                })
                .unwrap();
            assert!(last.all_completed());
            assert_eq!(asked, [None, Some(4), Some(5)]);
            // A stop condition met before the first run runs nothing.
            assert!(graph.run_until(&rt, |_| true).is_none());
            assert_eq!(graph.len(), 2);
        }
        assert_eq!(frames, 5);
        assert_eq!(*log.lock().unwrap(), [1, 2, 3, 4, 5]);
    })
}

#[test]
fn run_once_nodes_of_a_scoped_graph_move_borrowed_and_owned_values_out() {
    without_hanging(|| {
        let rt = Runtime::new(2).unwrap();
        let mut sink: Vec<String> = Vec::new();
        let owned = String::from("moved");
        let borrowed = String::from("borrowed");
        let mut graph = ScopedGraph::new();
        let first = graph.add_task_once(|_| owned);
        graph
            .add_task_once_after(&[first], |d| {
                sink.push(d.get::<String>(first).unwrap().clone());
                sink.push(borrowed.clone());
            })
            .unwrap();
        let outcome = graph.run_once(&rt);
        assert!(outcome.all_completed());
        // The graph is gone: `sink` is the caller's again.
        sink.push(String::from("after"));
        assert_eq!(sink, ["moved", "borrowed", "after"]);
    })
}

#[test]
fn conditions_multi_conditions_and_subgraphs_of_a_scoped_graph_borrow_too() {
    without_hanging(|| {
        let rt = Runtime::new(2).unwrap();
        let limit = 4usize;
        let rounds = AtomicUsize::new(0);
        let fan = [0usize, 1];
        let spawned = AtomicUsize::new(0);
        let mut graph = ScopedGraph::new();
        let init = graph.add_task(|_| ());
        let body = graph
            .add_task_after(&[init], |_| rounds.fetch_add(1, Ordering::SeqCst))
            .unwrap();
        let again = graph
            .add_condition_after(&[body], |_| {
                usize::from(rounds.load(Ordering::SeqCst) >= limit)
            })
            .unwrap();
        let both = graph.add_multi_condition(|_| fan);
        let done = graph.add_task(|_| ());
        graph.set_branches(again, &[body, done]).unwrap();
        graph.set_branches(both, &[]).unwrap();
        let spawner = graph
            .add_subgraph_after(&[done], |_, sub| {
                spawned.fetch_add(1, Ordering::SeqCst);
                // The subgraph's own nodes are `'static`.
                sub.add_task(|_| 7u8);
            })
            .unwrap();
        let outcome = graph.run(&rt);
        assert!(outcome.all_completed(), "{outcome:?}");
        assert_eq!(outcome.runs(body), Ok(limit));
        assert_eq!(outcome.status(spawner), Ok(&NodeStatus::Completed));
        drop(graph);
        assert_eq!(rounds.into_inner(), limit);
        assert_eq!(spawned.into_inner(), 1);
    })
}

#[test]
fn a_placeholder_of_a_scoped_graph_takes_a_borrowing_closure() {
    without_hanging(|| {
        let greeting = String::from("hello");
        let mut graph = ScopedGraph::new();
        let node = graph.add_placeholder();
        graph.set_task(node, |_| greeting.len()).unwrap();
        assert_eq!(graph.run_once(&Inline).get::<usize>(node), Ok(&5));
    })
}

#[test]
fn a_scoped_graph_holds_graphs_of_both_kinds_and_modules() {
    without_hanging(|| {
        let base = 40u32;
        let mut inner = ScopedGraph::new();
        let add = inner.add_task(|_| base + 2);
        let mut owned = TaskGraph::new();
        let plain = owned.add_task(|_| "plain");
        let mut graph = ScopedGraph::new();
        let scoped = graph.add_scoped_graph(inner);
        let boxed = graph.add_graph_after(&[scoped], owned).unwrap();
        let outcome = graph.run_once(&Runtime::new(2).unwrap());
        let inner_outcome = outcome.get::<GraphOutcome>(scoped).unwrap();
        assert_eq!(inner_outcome.get::<u32>(add), Ok(&42));
        let owned_outcome = outcome.get::<GraphOutcome>(boxed).unwrap();
        assert_eq!(owned_outcome.get::<&str>(plain), Ok(&"plain"));
    })
}

#[test]
fn a_panic_in_a_borrowing_node_is_caught_and_the_borrow_ends_with_the_graph() {
    without_hanging(|| {
        quiet_expected_panics();
        let mut touched = Vec::new();
        {
            let mut graph = ScopedGraph::new();
            let bad = graph.add_task(|_| {
                touched.push(1);
                panic!("{EXPECTED}: borrowing");
            });
            let outcome = graph.run(&Runtime::new(2).unwrap());
            assert!(matches!(outcome.status(bad), Ok(NodeStatus::Panicked(_))));
        }
        touched.push(2);
        assert_eq!(touched, [1, 2]);
    })
}

#[test]
fn a_scoped_graph_dropped_without_running_drops_its_closures() {
    without_hanging(|| {
        struct Flag<'a>(&'a AtomicUsize);
        impl Drop for Flag<'_> {
            fn drop(&mut self) {
                self.0.fetch_add(1, Ordering::SeqCst);
            }
        }
        let dropped = AtomicUsize::new(0);
        let mut graph = ScopedGraph::new();
        let flag = Flag(&dropped);
        graph.add_task(move |_| {
            let _keep = &flag;
        });
        assert_eq!(graph.len(), 1);
        drop(graph);
        assert_eq!(dropped.load(Ordering::SeqCst), 1);
    })
}

#[test]
fn fallible_and_placeholder_nodes_of_a_scoped_graph_borrow_too() {
    without_hanging(|| {
        let text = String::from("12 x 30");
        let mut parsed = Vec::new();
        {
            let mut graph = ScopedGraph::new();
            let first = graph.add_fallible_task(|_| text[..2].parse::<u32>());
            let bad = graph.add_placeholder();
            graph
                .set_fallible_task(bad, |_| text[3..4].parse::<u32>())
                .unwrap();
            let last = graph
                .add_fallible_task_after(&[first], |_| text[5..].parse::<u32>())
                .unwrap();
            graph
                .add_task_once_after(&[first, last], |d| {
                    parsed.push(*d.get::<u32>(first).unwrap());
                    parsed.push(*d.get::<u32>(last).unwrap());
                })
                .unwrap();
            let outcome = graph.run_once(&Runtime::new(2).unwrap());
            assert!(matches!(outcome.status(bad), Ok(NodeStatus::Failed(_))));
        }
        assert_eq!(parsed, [12, 30]);
    })
}
