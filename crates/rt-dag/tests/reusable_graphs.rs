//! A built graph runs again and again, each run with its own outcome; its
//! closures are `FnMut` and keep their state between runs.

mod common;

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

use common::{quiet_expected_panics, Inline, Pool, EXPECTED};
use rt_core::Runtime;
use rt_dag::{NodeStatus, OutcomeError, TaskGraph};
use rt_testkit::without_hanging;

#[test]
fn a_graph_runs_twice_and_each_run_has_its_own_outputs() {
    without_hanging(|| {
        let rt = Runtime::new(2).unwrap();
        let mut graph = TaskGraph::new();
        let mut calls = 0u32;
        let counter = graph.add_task(move |_| {
            calls += 1;
            calls
        });
        let doubled = graph
            .add_task_after(&[counter], move |d| d.get::<u32>(counter).unwrap() * 2)
            .unwrap();
        let mut first = graph.run(&rt);
        let mut second = graph.run(&rt);
        assert_eq!(first.take::<u32>(doubled), Ok(2));
        assert_eq!(second.take::<u32>(doubled), Ok(4));
        // Taking from one outcome leaves the other alone.
        assert_eq!(second.get::<u32>(counter), Ok(&2));
        assert_eq!(
            first.take::<u32>(doubled),
            Err(OutcomeError::AlreadyTaken {
                node: doubled.into()
            })
        );
    })
}

#[test]
fn run_n_runs_the_graph_n_times_and_returns_every_outcome() {
    without_hanging(|| {
        let rt = Runtime::new(2).unwrap();
        let runs = Arc::new(AtomicUsize::new(0));
        let mut graph = TaskGraph::new();
        let a = {
            let runs = runs.clone();
            graph.add_task(move |_| runs.fetch_add(1, Ordering::SeqCst))
        };
        let b = graph
            .add_task_after(&[a], move |d| *d.get::<usize>(a).unwrap())
            .unwrap();
        let outcomes = graph.run_n(&rt, 10);
        assert_eq!(outcomes.len(), 10);
        let seen: Vec<usize> = outcomes
            .iter()
            .map(|o| *o.get::<usize>(b).unwrap())
            .collect();
        assert_eq!(seen, (0..10).collect::<Vec<_>>());
        assert_eq!(runs.load(Ordering::SeqCst), 10);
        assert!(graph.run_n(&rt, 0).is_empty());
    })
}

#[test]
fn run_until_stops_at_the_first_outcome_the_predicate_accepts() {
    without_hanging(|| {
        let mut graph = TaskGraph::new();
        let mut n = 0u64;
        let step = graph.add_task(move |_| {
            n += 1;
            n
        });
        let mut looked = 0;
        let last = graph
            .run_until(&Inline, |last| {
                looked += 1;
                last.is_some_and(|outcome| *outcome.get::<u64>(step).unwrap() == 7)
            })
            .unwrap();
        assert_eq!(last.get::<u64>(step), Ok(&7));
        // Asked before each of the 7 runs, and after the last.
        assert_eq!(looked, 8);
    })
}

#[test]
fn a_run_after_a_failed_run_starts_from_a_clean_state() {
    without_hanging(|| {
        quiet_expected_panics();
        let pool = Pool::new(2);
        let mut graph = TaskGraph::new();
        let mut first = true;
        let flaky = graph.add_task(move |_| {
            if std::mem::take(&mut first) {
                panic!("{EXPECTED}: first run fails");
            }
        });
        let other = graph.add_task(|_| ());
        // Two prerequisites: its counter is left half counted by the failed
        // run, and must be armed again.
        let join = graph.add_task_after(&[flaky, other], |_| "joined").unwrap();
        let failed = graph.run(&pool);
        assert!(matches!(failed.status(flaky), Ok(NodeStatus::Panicked(_))));
        assert_eq!(
            failed.status(join),
            Ok(&NodeStatus::Skipped {
                prerequisite: flaky.into()
            })
        );
        let mut fine = graph.run(&pool);
        assert!(fine.all_completed());
        assert_eq!(fine.take::<&str>(join), Ok("joined"));
    })
}

#[test]
fn nodes_added_between_runs_take_part_in_the_next_run() {
    without_hanging(|| {
        let rt = Runtime::new(2).unwrap();
        let mut graph = TaskGraph::new();
        let a = graph.add_task(|_| 1u32);
        assert!(graph.run(&rt).all_completed());
        let b = graph
            .add_task_after(&[a], move |d| d.get::<u32>(a).unwrap() + 1)
            .unwrap();
        let outcome = graph.run(&rt);
        assert_eq!(outcome.len(), 2);
        assert_eq!(outcome.get::<u32>(b), Ok(&2));
    })
}

#[test]
fn one_graph_runs_on_different_executors_in_turn() {
    without_hanging(|| {
        let rt = Runtime::new(2).unwrap();
        let pool = rt_baselines::GlobalQueuePool::new(2).unwrap();
        let mut graph = TaskGraph::new();
        let mut ids = Vec::new();
        for i in 0..50u64 {
            let deps: Vec<_> = ids.iter().rev().take(2).copied().collect();
            ids.push(graph.add_task_after(&deps, move |_| i).unwrap());
        }
        for _ in 0..3 {
            assert!(graph.run(&rt).all_completed());
            assert!(graph.run(&pool).all_completed());
            assert!(graph.run(&Inline).all_completed());
        }
        pool.shutdown();
    })
}

#[test]
fn a_graph_runs_a_thousand_times_without_leaking_a_count() {
    without_hanging(|| {
        let rt = Runtime::new(2).unwrap();
        let total = Arc::new(AtomicUsize::new(0));
        let mut graph = TaskGraph::new();
        let roots: Vec<_> = (0..4).map(|_| graph.add_task(|_| ())).collect();
        let total2 = total.clone();
        graph
            .add_task_after(&roots, move |_| total2.fetch_add(1, Ordering::SeqCst))
            .unwrap();
        for _ in 0..rt_testkit::scaled(1000) {
            assert!(graph.run(&rt).all_completed());
        }
        assert_eq!(total.load(Ordering::SeqCst), rt_testkit::scaled(1000));
    })
}
