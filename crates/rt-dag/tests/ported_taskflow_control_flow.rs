//! Taskflow's tests of multi-condition tasks, ported from
//! `unittests/test_control_flow.cpp` (taskflow/taskflow): the test cases
//! `MultiCond.Types`, `MultipleBranches.{1..8}threads`,
//! `MultipleLoops.{1..8}threads`, `MultiCondBinaryTree.{1..4}threads` and
//! `MultiCond.MultipleRuns.{1..4}threads`.
//!
//! How they map: a Taskflow task whose callable returns a
//! `SmallVector<int>` is `add_multi_condition` (a plain `int` is
//! `add_condition`); Taskflow's `precede` from a condition task makes
//! branches, which is `set_branches` here (`precede` makes prerequisites);
//! an index of `-1` is an index past the last branch (`usize::MAX`). The
//! executors of `W` workers are runtimes of `W` workers, `W` from 1 to 4 on
//! this project's machines. `rand()` is a seeded generator.

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Arc;

use rt_core::Runtime;
use rt_dag::{NodeId, NodeKind, NodeStatus, TaskGraph};
use rt_testkit::without_hanging;

const WORKERS: [usize; 4] = [1, 2, 3, 4];

/// A small deterministic generator standing in for `rand()`.
struct Lcg(u64);

impl Lcg {
    fn next(&mut self) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        self.0 >> 33
    }
}

/// `MultiCond.Types`: a closure returning several indices, none or many,
/// makes a multi-condition node.
#[test]
fn closures_returning_several_branches_make_multi_condition_nodes() {
    without_hanging(|| {
        let mut graph = TaskGraph::new();
        let explicit = graph.add_multi_condition(|_| Vec::<usize>::new());
        let implicit = graph.add_multi_condition(|_| [1, 2, 3, 9]);
        assert_eq!(graph.kind(explicit), Ok(NodeKind::MultiCondition));
        assert_eq!(graph.kind(implicit), Ok(NodeKind::MultiCondition));
    })
}

/// `MultipleBranches`: a placeholder made a multi-condition starts the
/// hundred two-node chains it names, and only those.
#[test]
fn a_multi_condition_starts_exactly_the_chains_it_names() {
    without_hanging(|| {
        for (round, workers) in WORKERS.into_iter().enumerate() {
            let rt = Runtime::new(workers).unwrap();
            let counter = Arc::new(AtomicUsize::new(0));
            let mut graph = TaskGraph::new();
            let a = graph.add_placeholder();
            let mut heads = Vec::new();
            for _ in 0..100 {
                let count = |counter: &Arc<AtomicUsize>| {
                    let counter = counter.clone();
                    move |_: &rt_dag::DependencyResults<'_>| {
                        counter.fetch_add(1, Ordering::Relaxed);
                    }
                };
                let x = graph.add_task(count(&counter));
                let y = graph.add_task(count(&counter));
                graph.precede(x, &[y]).unwrap();
                heads.push(x);
            }
            let mut random = Lcg(round as u64 + 1);
            let mut answer = 0;
            let mut conditions = Vec::new();
            for i in -10i64..=110 {
                if random.next() % 10 == 0 {
                    // A negative index names no branch, as one past the last.
                    conditions.push(usize::try_from(i).unwrap_or(usize::MAX));
                    if (0..100).contains(&i) {
                        answer += 1;
                    }
                }
            }
            graph
                .set_multi_condition(a, move |_| conditions.clone())
                .unwrap();
            graph.set_branches(a, &heads).unwrap();
            let outcome = graph.run(&rt);
            assert!(outcome.is_success());
            assert_eq!(counter.load(Ordering::Relaxed), 2 * answer);
        }
    })
}

/// `MultipleLoops`: four multi-conditions in a row, each looping on itself
/// ten times and, in its first round, starting the next one too.
#[test]
fn multi_conditions_loop_on_themselves_and_start_the_next_loop() {
    without_hanging(|| {
        for workers in WORKERS {
            let rt = Runtime::new(workers).unwrap();
            let counter = Arc::new(AtomicUsize::new(0));
            let mut graph = TaskGraph::new();
            let a = graph.add_task(|_| ());
            let mut looping = || {
                let counter = counter.clone();
                let (mut first, mut c) = (true, 0);
                graph.add_multi_condition(move |_| {
                    if std::mem::take(&mut first) {
                        vec![0, 1]
                    } else {
                        counter.fetch_add(1, Ordering::Relaxed);
                        c += 1;
                        vec![if c < 10 { 0 } else { usize::MAX }]
                    }
                })
            };
            let [b, c, d, e] = [(); 4].map(|_| looping());
            graph.precede(a, &[b]).unwrap();
            graph.set_branches(b, &[b, c]).unwrap();
            graph.set_branches(c, &[c, d]).unwrap();
            graph.set_branches(d, &[d, e]).unwrap();
            graph.set_branches(e, &[e]).unwrap();
            let outcome = graph.run(&rt);
            assert!(outcome.all_completed());
            assert_eq!(counter.load(Ordering::Relaxed), 40);
        }
    })
}

/// `MultiCondBinaryTree`: a complete binary tree of 1023 multi-conditions,
/// each starting both its children, run ten times.
#[test]
fn a_tree_of_multi_conditions_runs_every_node_on_every_run() {
    without_hanging(|| {
        const N: usize = 10;
        for workers in WORKERS {
            let rt = Runtime::new(workers).unwrap();
            let counter = Arc::new(AtomicUsize::new(0));
            let mut graph = TaskGraph::new();
            let tasks: Vec<NodeId> = (1..(1 << N))
                .map(|_| {
                    let counter = counter.clone();
                    graph.add_multi_condition(move |_| {
                        counter.fetch_add(1, Ordering::Relaxed);
                        [0, 1]
                    })
                })
                .collect();
            for i in 0..tasks.len() {
                let children: Vec<NodeId> = [2 * i + 1, 2 * i + 2]
                    .into_iter()
                    .filter_map(|child| tasks.get(child).copied())
                    .collect();
                graph.set_branches(tasks[i], &children).unwrap();
            }
            let outcomes = graph.run_n(&rt, N);
            assert!(outcomes.iter().all(|outcome| outcome.all_completed()));
            assert_eq!(counter.load(Ordering::Relaxed), ((1 << N) - 1) * N);
        }
    })
}

/// `MultiCond.MultipleRuns`: a node that waits for the branches of two
/// conditions, one of which takes no branch, never runs, however many
/// times the graph runs.
#[test]
fn a_node_waiting_for_a_branch_not_taken_never_runs_in_any_run() {
    without_hanging(|| {
        for workers in WORKERS {
            let rt = Runtime::new(workers).unwrap();
            let flag = Arc::new(AtomicBool::new(false));
            let mut graph = TaskGraph::new();
            let init = graph.add_task(|_| ());
            let cond1 = graph.add_condition(|_| 0);
            let cond2 = graph.add_condition(|_| 1);
            let yes = {
                let flag = flag.clone();
                graph.add_task(move |_| flag.store(true, Ordering::SeqCst))
            };
            let _no = graph.add_task(|_| ());
            let temp1 = graph.add_task(|_| ());
            let temp2 = graph.add_task(|_| ());
            graph.set_branches(cond2, &[temp2]).unwrap();
            graph.precede(temp2, &[yes]).unwrap();
            graph.precede(init, &[yes]).unwrap();
            graph.set_branches(cond1, &[temp1]).unwrap();
            graph.precede(temp1, &[yes]).unwrap();

            assert!(!flag.load(Ordering::SeqCst));
            for runs in 1..=3 {
                for outcome in graph.run_n(&rt, runs) {
                    assert_eq!(outcome.status(yes), Ok(&NodeStatus::NotReached));
                    assert_eq!(outcome.status(temp1), Ok(&NodeStatus::Completed));
                    assert_eq!(outcome.status(temp2), Ok(&NodeStatus::NotReached));
                }
                assert!(!flag.load(Ordering::SeqCst));
            }
        }
    })
}
