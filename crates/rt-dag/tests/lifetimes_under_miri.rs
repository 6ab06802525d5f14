//! The places rt-dag erases a lifetime, exercised with closures that borrow
//! from the caller's frame, small enough to run under miri
//! (`cargo +nightly miri test -p rt-dag --test lifetimes_under_miri`):
//! miri checks that no erased borrow is used, nor dropped, after it ends.
//!
//! - `graph/work.rs`'s `erase_lifetime!` (a `ScopedGraph`'s closures, of
//!   every kind of node);
//! - `group/mod.rs`'s task bodies (`task_group`);
//! - the raw pointers a run keeps instead: the executor (`ExecutorPtr`, a
//!   pointer to the caller's `&dyn Executor`) and a pipeline's stages
//!   (`pipeline::schedule::Borrowed`).

mod common;

use std::sync::atomic::{AtomicUsize, Ordering};

use common::{Inline, ThreadPerJob};
use rt_dag::{task_group, Executor, NodeStatus, Pipeline, ScopedGraph};

/// Counts its own drop into a counter of the caller's frame.
struct Guard<'a>(&'a AtomicUsize);

impl Drop for Guard<'_> {
    fn drop(&mut self) {
        self.0.fetch_add(1, Ordering::SeqCst);
    }
}

fn scoped_graph_on(executor: &dyn Executor) {
    let words = vec![String::from("scoped"), String::from("graph")];
    let calls = AtomicUsize::new(0);
    let drops = AtomicUsize::new(0);
    {
        let mut graph = ScopedGraph::new();
        let (w, c, g) = (&words, &calls, Guard(&drops));
        let a = graph.add_task(move |_| {
            let _ = &g;
            c.fetch_add(1, Ordering::SeqCst);
            w.iter().map(String::len).sum::<usize>()
        });
        let g = Guard(&drops);
        let b = graph
            .add_fallible_task_after(&[a], move |deps| {
                let _ = &g;
                c.fetch_add(1, Ordering::SeqCst);
                Ok::<usize, std::io::Error>(*deps.get::<usize>(a).unwrap() + w.len())
            })
            .unwrap();
        let g = Guard(&drops);
        let once = graph
            .add_task_once_after(&[b], move |_| {
                let _g = g; // dropped by the call
                c.fetch_add(1, Ordering::SeqCst);
            })
            .unwrap();
        let g = Guard(&drops);
        graph
            .add_condition_after(&[b], move |_| {
                let _ = &g;
                c.fetch_add(1, Ordering::SeqCst);
                w.len() // no such branch: starts nothing
            })
            .unwrap();
        let g = Guard(&drops);
        graph
            .add_multi_condition_after(&[b], move |_| {
                let _ = &g;
                c.fetch_add(1, Ordering::SeqCst);
                Vec::<usize>::new()
            })
            .unwrap();
        let g = Guard(&drops);
        let sub = graph
            .add_subgraph_after(&[b], move |_, sub| {
                let _ = &g;
                c.fetch_add(1, Ordering::SeqCst);
                let len = w[0].len();
                sub.add_task(move |_| len);
            })
            .unwrap();
        let outcome = graph.run(executor);
        assert!(outcome.all_completed());
        assert_eq!(outcome.get::<usize>(b), Ok(&13));
        assert_eq!(calls.load(Ordering::SeqCst), 6);
        let outcome = graph.run(executor);
        assert!(matches!(outcome.status(once), Ok(NodeStatus::Invalid(_))));
        assert_eq!(outcome.status(sub), Ok(&NodeStatus::Completed));
        assert_eq!(
            calls.load(Ordering::SeqCst),
            11,
            "all but the run-once node again"
        );
        assert_eq!(
            drops.load(Ordering::SeqCst),
            1,
            "the run-once closure's guard"
        );
        drop(graph);
        // Every closure, and what it captured, dropped within the scope.
        assert_eq!(drops.load(Ordering::SeqCst), 6);
    }
    drop(words);
}

#[test]
fn scoped_closures_borrowing_the_caller_run_and_drop_within_the_scope() {
    scoped_graph_on(&Inline);
    scoped_graph_on(&ThreadPerJob);
}

#[test]
fn task_group_bodies_borrowing_the_caller_run_before_it_returns() {
    let words = vec![String::from("task"), String::from("group")];
    let drops = AtomicUsize::new(0);
    for executor in [&Inline as &dyn Executor, &ThreadPerJob] {
        let total = task_group(executor, |group| {
            let (w, g) = (&words, Guard(&drops));
            let left = group.spawn(move |_| {
                let _ = &g;
                w[0].len()
            });
            let g = Guard(&drops);
            let right = group.spawn(move |group| {
                let _ = &g;
                group.spawn(move |_| w.len());
                w[1].len()
            });
            left.join().unwrap() + right.join().unwrap()
        });
        assert_eq!(total, 9);
    }
    assert_eq!(drops.load(Ordering::SeqCst), 4);
}

#[test]
fn pipeline_stages_borrowing_the_caller_run_again_and_drop_in_place() {
    let offset = 10_u64;
    let mut seen = Vec::new();
    for executor in [&Inline as &dyn Executor, &ThreadPerJob] {
        let mut pipeline = Pipeline::from_iter(2, 0..4_u64)
            .parallel(|x| x + offset)
            .serial(|x| seen.push(x));
        assert_eq!(pipeline.run_mut(executor).unwrap().items(), 4);
        // The iterator is spent: a second run borrows the stages again.
        assert_eq!(pipeline.run_mut(executor).unwrap().items(), 0);
    }
    assert_eq!(seen, [10, 11, 12, 13, 10, 11, 12, 13]);
}
