//! Random DAGs with random panicking nodes, run on several executors:
//!
//! * every node that runs starts after all its prerequisites finished,
//! * every node runs at most once, and exactly once if it is not skipped,
//! * the dependents (direct or not) of a panicked node are skipped,
//! * every other node completes, with the output the model predicts.

mod common;

use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::Arc;

use common::{quiet_expected_panics, Inline, Pool, EXPECTED};
use proptest::prelude::*;
use proptest::sample::Index;
use proptest::test_runner::{Config, TestRunner};
use rt_baselines::{GlobalQueuePool, SingleThreaded};
use rt_core::Runtime;
use rt_dag::{run_graph, Executor, NodeId, NodeStatus, TaskGraph};
use rt_testkit::without_hanging;

/// One random node: picks among the earlier nodes, and whether it panics.
#[derive(Debug, Clone)]
struct NodeSpec {
    deps: Vec<Index>,
    panics: bool,
}

/// Up to 300 nodes, each with up to 4 edges to earlier nodes; about one node
/// in 25 panics.
fn random_dag() -> impl Strategy<Value = Vec<NodeSpec>> {
    let node = (
        prop::collection::vec(any::<Index>(), 0..=4),
        prop::bool::weighted(0.04),
    )
        .prop_map(|(deps, panics)| NodeSpec { deps, panics });
    prop::collection::vec(node, 1..=300)
}

/// The dependency indices of node `i` (possibly repeated; the graph keeps
/// each once).
fn deps_of(specs: &[NodeSpec], i: usize) -> Vec<usize> {
    if i == 0 {
        return Vec::new();
    }
    let mut deps: Vec<usize> = specs[i].deps.iter().map(|ix| ix.index(i)).collect();
    deps.sort_unstable();
    deps.dedup();
    deps
}

/// What the model expects of node `i`, and the value it returns: its index
/// plus the values of its prerequisites. A skipped node is expected to name
/// its lowest prerequisite that did not complete; any prerequisite that did
/// not complete is accepted (`run_and_check`).
fn model(specs: &[NodeSpec], ids: &[NodeId]) -> Vec<(NodeStatus, u64)> {
    let mut expected: Vec<(NodeStatus, u64)> = Vec::with_capacity(specs.len());
    for (i, spec) in specs.iter().enumerate() {
        let deps = deps_of(specs, i);
        let entry = if let Some(&failed) = deps.iter().find(|&&d| !expected[d].0.is_completed()) {
            (
                NodeStatus::Skipped {
                    prerequisite: ids[failed].into(),
                },
                0,
            )
        } else if spec.panics {
            (
                NodeStatus::Panicked(format!("{EXPECTED}: node {i}").into()),
                0,
            )
        } else {
            let value = deps
                .iter()
                .fold(i as u64, |acc, &d| acc.wrapping_add(expected[d].1));
            (NodeStatus::Completed, value)
        };
        expected.push(entry);
    }
    expected
}

const NOT_YET: u64 = u64::MAX;

/// Sequence numbers taken from one shared counter inside the node closures.
struct Trace {
    clock: AtomicU64,
    starts: Vec<AtomicU64>,
    finishes: Vec<AtomicU64>,
    runs: Vec<AtomicUsize>,
}

fn run_and_check(executor: &impl Executor, specs: &[NodeSpec]) -> Result<(), TestCaseError> {
    let n = specs.len();
    let trace = Arc::new(Trace {
        clock: AtomicU64::new(0),
        starts: (0..n).map(|_| AtomicU64::new(NOT_YET)).collect(),
        finishes: (0..n).map(|_| AtomicU64::new(NOT_YET)).collect(),
        runs: (0..n).map(|_| AtomicUsize::new(0)).collect(),
    });
    let mut graph = TaskGraph::new();
    let mut ids: Vec<NodeId> = Vec::with_capacity(n);
    for (i, spec) in specs.iter().enumerate() {
        // Declared as drawn (unsorted, maybe repeated): the graph must
        // dedupe them; the model works on the deduped list.
        let declared: Vec<NodeId> = if i == 0 {
            Vec::new()
        } else {
            spec.deps.iter().map(|ix| ids[ix.index(i)]).collect()
        };
        let dep_ids: Vec<NodeId> = deps_of(specs, i).into_iter().map(|d| ids[d]).collect();
        let trace = Arc::clone(&trace);
        let panics = spec.panics;
        let own_deps = dep_ids.clone();
        let id = graph
            .add_task_after(&declared, move |deps| {
                assert_eq!(deps.dependencies().collect::<Vec<_>>(), own_deps);
                let start = trace.clock.fetch_add(1, Ordering::SeqCst);
                trace.starts[i].store(start, Ordering::SeqCst);
                trace.runs[i].fetch_add(1, Ordering::SeqCst);
                let mut value = i as u64;
                for &dep in &own_deps {
                    value = value.wrapping_add(*deps.get::<u64>(dep).unwrap());
                }
                if panics {
                    trace.finishes[i]
                        .store(trace.clock.fetch_add(1, Ordering::SeqCst), Ordering::SeqCst);
                    panic!("{EXPECTED}: node {i}");
                }
                trace.finishes[i]
                    .store(trace.clock.fetch_add(1, Ordering::SeqCst), Ordering::SeqCst);
                value
            })
            .unwrap();
        ids.push(id);
    }

    let mut outcome = run_graph(executor, graph);
    let expected = model(specs, &ids);
    let completed: Vec<bool> = expected.iter().map(|(s, _)| s.is_completed()).collect();

    for (i, (status, value)) in expected.into_iter().enumerate() {
        let id = ids[i];
        let actual = outcome.status(id).unwrap();
        if let (NodeStatus::Skipped { .. }, NodeStatus::Skipped { prerequisite }) =
            (&status, actual)
        {
            // Which of its failed prerequisites a skipped node names is the
            // first the failure reached it through.
            let named = prerequisite.id().index();
            prop_assert!(
                deps_of(specs, i).contains(&named) && !completed[named],
                "node {} names {}, not a prerequisite that failed",
                i,
                prerequisite
            );
        } else {
            prop_assert_eq!(actual, &status, "status of node {}", i);
        }
        let runs = trace.runs[i].load(Ordering::SeqCst);
        prop_assert_eq!(runs, usize::from(status.ran()), "runs of node {}", i);
        if status.ran() {
            let start = trace.starts[i].load(Ordering::SeqCst);
            for d in deps_of(specs, i) {
                let finish = trace.finishes[d].load(Ordering::SeqCst);
                prop_assert!(
                    finish < start,
                    "node {} started at {} before its prerequisite {} finished at {}",
                    i,
                    start,
                    d,
                    finish
                );
            }
        }
        if status.is_completed() {
            prop_assert_eq!(
                outcome.take::<u64>(id).unwrap(),
                value,
                "output of node {}",
                i
            );
        }
    }
    Ok(())
}

fn check_random_dags_on(executor: &impl Executor, cases: u32) {
    quiet_expected_panics();
    let config = Config {
        cases: rt_testkit::scaled(cases as usize) as u32,
        failure_persistence: None,
        ..Config::default()
    };
    let mut runner = TestRunner::new(config);
    runner
        .run(&random_dag(), |specs| run_and_check(executor, &specs))
        .unwrap();
}

#[test]
fn random_dags_respect_dependencies_and_failures_on_the_work_stealing_runtime() {
    without_hanging(|| {
        let runtime = Runtime::new(2).unwrap();
        check_random_dags_on(&runtime, 256);
        runtime.shutdown();
    })
}

#[test]
fn random_dags_respect_dependencies_and_failures_on_the_global_queue_pool() {
    without_hanging(|| {
        let pool = GlobalQueuePool::new(2).unwrap();
        check_random_dags_on(&pool, 256);
        pool.shutdown();
    })
}

#[test]
fn random_dags_respect_dependencies_and_failures_on_the_single_threaded_baseline() {
    without_hanging(|| {
        check_random_dags_on(&SingleThreaded::new(), 32);
    })
}

#[test]
fn random_dags_respect_dependencies_and_failures_on_a_test_pool() {
    without_hanging(|| {
        check_random_dags_on(&Pool::new(2), 32);
    })
}

#[test]
fn random_dags_respect_dependencies_and_failures_inline() {
    without_hanging(|| {
        check_random_dags_on(&Inline, 32);
    })
}
