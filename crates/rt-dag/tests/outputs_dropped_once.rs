//! Every output a node returns is dropped exactly once: taken by the
//! caller, left in an outcome that is dropped, replaced by the node's next
//! run in a loop, or discarded because the node failed later — whatever
//! panics, on every kind of node.

mod common;

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

use common::{quiet_expected_panics, Inline, Pool, EXPECTED};
use rt_core::Runtime;
use rt_dag::{Executor, TaskGraph};
use rt_testkit::without_hanging;

/// An output that counts how many were made and how many dropped.
struct Counted(Arc<(AtomicUsize, AtomicUsize)>);

impl Counted {
    fn new(counts: &Arc<(AtomicUsize, AtomicUsize)>) -> Self {
        counts.0.fetch_add(1, Ordering::SeqCst);
        Self(counts.clone())
    }
}

impl Drop for Counted {
    fn drop(&mut self) {
        (self.0).1.fetch_add(1, Ordering::SeqCst);
    }
}

/// A loop whose body returns a counted output each round and panics in
/// round `fail_at` (never if 0), a subgraph of counted nodes, and a chain
/// reading outputs.
fn graph(counts: &Arc<(AtomicUsize, AtomicUsize)>, fail_at: usize) -> TaskGraph {
    let mut graph = TaskGraph::new();
    let init = {
        let c = counts.clone();
        graph.add_task(move |_| Counted::new(&c))
    };
    let mut round = 0;
    let body = {
        let c = counts.clone();
        graph
            .add_task_after(&[init], move |deps| {
                assert!(deps.get::<Counted>(init).is_ok());
                round += 1;
                if round == fail_at {
                    panic!("{EXPECTED}: round {round}");
                }
                Counted::new(&c)
            })
            .unwrap()
    };
    let mut left = 0;
    let check = graph
        .add_condition_after(&[body], move |deps| {
            assert!(deps.get::<Counted>(body).is_ok());
            if left == 0 {
                left = 4;
            }
            left -= 1;
            usize::from(left == 0)
        })
        .unwrap();
    let sub = {
        let c = counts.clone();
        graph.add_subgraph(move |_, sub| {
            for _ in 0..3 {
                let c = c.clone();
                sub.add_task(move |_| Counted::new(&c));
            }
            Counted::new(&c)
        })
    };
    let after = {
        let c = counts.clone();
        graph
            .add_task_after(&[sub], move |deps| {
                assert!(deps.get::<Counted>(sub).is_ok());
                Counted::new(&c)
            })
            .unwrap()
    };
    let exit = graph.add_task(|_| ());
    graph.set_branches(check, &[body, exit]).unwrap();
    let _ = after;
    graph
}

fn every_output_is_dropped_once_on(executor: &impl Executor) {
    quiet_expected_panics();
    for fail_at in 0..6 {
        let counts = Arc::new((AtomicUsize::new(0), AtomicUsize::new(0)));
        {
            let mut graph = graph(&counts, fail_at);
            for run in 0..3 {
                let mut outcome = graph.run(executor);
                if run == 1 {
                    // Take what can be taken; the rest goes with the outcome.
                    for (id, status) in outcome
                        .iter()
                        .map(|(id, s)| (id, s.clone()))
                        .collect::<Vec<_>>()
                    {
                        if status.is_completed() {
                            let _ = outcome.take::<Counted>(id);
                        }
                    }
                }
            }
        }
        let (made, dropped) = (
            counts.0.load(Ordering::SeqCst),
            counts.1.load(Ordering::SeqCst),
        );
        assert!(made > 0);
        assert_eq!(made, dropped, "failing at round {fail_at}");
    }
}

#[test]
fn every_output_is_dropped_once_on_the_runtime() {
    without_hanging(|| every_output_is_dropped_once_on(&Runtime::new(2).unwrap()))
}

#[test]
fn every_output_is_dropped_once_on_a_pool() {
    without_hanging(|| every_output_is_dropped_once_on(&Pool::new(2)))
}

#[test]
fn every_output_is_dropped_once_inline() {
    without_hanging(|| every_output_is_dropped_once_on(&Inline))
}
