//! Taskflow's tests of module tasks, ported from `unittests/test_modules.cpp`
//! (taskflow/taskflow): the test cases `Module1.*`, `Module2.*`,
//! `Module3.*`, `Module4.*`, `ParallelModules.*`, `Module.AsyncLaunch.*`
//! and `Module.SilentAsyncLaunch.*`, `AdoptedModule.*`.
//!
//! How they map: `f1.composed_of(f0)` is `f1.add_module(&f0)` with `f0` a
//! `Module` (a graph shared by reference); `f1.emplace(make_module_task(f0))`
//! (`Module4`) is a placeholder given the module as its work
//! (`set_module`); launching a module task asynchronously on its own
//! (`Module.AsyncLaunch`, `Module.SilentAsyncLaunch`) is `Module::run`;
//! `f1.adopt(std::move(f0.graph()))` (`AdoptedModule`) moves the graph in
//! by value (`add_graph`). Taskflow's `executor.run(f)` called a hundred
//! times, then `wait_for_all`, runs the graph a hundred times one after
//! another, as `run_n` does. Executors of `W` workers are runtimes of `W`
//! workers, `W` up to 4 on this project's machines; the counters are
//! atomics.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

use rt_core::Runtime;
use rt_dag::{GraphOutcome, Module, NodeId, TaskGraph};
use rt_testkit::without_hanging;

const WORKERS: [usize; 4] = [1, 2, 3, 4];

/// Adds a chain of five nodes counting on `cnt`; returns its last node.
fn chain_of_five(graph: &mut TaskGraph, cnt: &Arc<AtomicUsize>) -> NodeId {
    let mut last: Option<NodeId> = None;
    for _ in 0..5 {
        let cnt = cnt.clone();
        let node = graph.add_task(move |_| {
            cnt.fetch_add(1, Ordering::Relaxed);
        });
        if let Some(before) = last {
            graph.precede(before, &[node]).unwrap();
        }
        last = Some(node);
    }
    last.unwrap()
}

/// `f0`: a module of five nodes in a chain, counting on `cnt`.
fn module_of_five(cnt: &Arc<AtomicUsize>) -> Module {
    let mut f0 = TaskGraph::new();
    chain_of_five(&mut f0, cnt);
    Module::new(f0)
}

fn count(cnt: &AtomicUsize) -> usize {
    cnt.load(Ordering::Relaxed)
}

/// The end of `Module1` and `Module4`: `f1` (five nodes, then `m1_1`)
/// gets a second module node after the first.
fn run_with_one_module_node_then_two(
    rt: &Runtime,
    f1: &mut TaskGraph,
    f0: &Module,
    m1_1: NodeId,
    cnt: &Arc<AtomicUsize>,
) {
    assert!(f1.run(rt).all_completed());
    assert_eq!(count(cnt), 10);
    cnt.store(0, Ordering::Relaxed);
    assert!(f1.run_n(rt, 100).iter().all(|o| o.all_completed()));
    assert_eq!(count(cnt), 10 * 100);

    let m1_2 = f1.add_module(f0).unwrap();
    f1.precede(m1_1, &[m1_2]).unwrap();
    for n in 0..100 {
        cnt.store(0, Ordering::Relaxed);
        assert!(f1.run_n(rt, n).iter().all(|o| o.all_completed()));
        assert_eq!(count(cnt), 15 * n);
    }
    cnt.store(0, Ordering::Relaxed);
    for _ in 0..100 {
        assert!(f1.run(rt).all_completed());
    }
    assert_eq!(count(cnt), 1500);
}

/// `Module1`: a graph of five nodes, then a module of five; then a second
/// module node of the same module after the first.
#[test]
fn a_module_composed_after_a_chain_runs_with_it_and_a_second_node_of_it_runs_it_again() {
    without_hanging(|| {
        for workers in WORKERS {
            let rt = Runtime::new(workers).unwrap();
            let cnt = Arc::new(AtomicUsize::new(0));
            let f0 = module_of_five(&cnt);
            let mut f1 = TaskGraph::new();
            let e = chain_of_five(&mut f1, &cnt);
            let m1_1 = f1.add_module(&f0).unwrap();
            f1.precede(e, &[m1_1]).unwrap();
            run_with_one_module_node_then_two(&rt, &mut f1, &f0, m1_1, &cnt);
        }
    })
}

/// Two module nodes of `module`, one after the other, as a module.
fn twice(module: &Module) -> Module {
    let mut graph = TaskGraph::new();
    let first = graph.add_module(module).unwrap();
    let second = graph.add_module(module).unwrap();
    graph.precede(first, &[second]).unwrap();
    Module::new(graph)
}

/// `Module2`: modules of modules, two levels up (20 nodes a run).
#[test]
fn modules_of_modules_run_every_inner_node_on_every_run() {
    without_hanging(|| {
        for workers in WORKERS {
            let rt = Runtime::new(workers).unwrap();
            let cnt = Arc::new(AtomicUsize::new(0));
            let f0 = module_of_five(&cnt);
            let f1 = twice(&f0);
            let mut f2 = TaskGraph::new();
            let m2_1 = f2.add_module(&f1).unwrap();
            let m2_2 = f2.add_module(&f1).unwrap();
            f2.precede(m2_1, &[m2_2]).unwrap();
            for n in 0..100 {
                cnt.store(0, Ordering::Relaxed);
                assert!(f2.run_n(&rt, n).iter().all(|o| o.all_completed()));
                assert_eq!(count(&cnt), 20 * n);
            }
            cnt.store(0, Ordering::Relaxed);
            for _ in 0..100 {
                assert!(f2.run(&rt).all_completed());
            }
            assert_eq!(count(&cnt), 100 * 20);
        }
    })
}

/// `Module3`: three levels of modules over a module of two nodes (16 nodes
/// a run).
#[test]
fn three_levels_of_modules_run_every_inner_node_on_every_run() {
    without_hanging(|| {
        for workers in WORKERS {
            let rt = Runtime::new(workers).unwrap();
            let cnt = Arc::new(AtomicUsize::new(0));
            let mut f0 = TaskGraph::new();
            let [a, b] = [(); 2].map(|_| {
                let cnt = cnt.clone();
                f0.add_task(move |_| {
                    cnt.fetch_add(1, Ordering::Relaxed);
                })
            });
            f0.precede(a, &[b]).unwrap();
            let f0 = Module::new(f0);
            let f1 = twice(&f0);
            let f2 = twice(&f1);
            let mut f3 = TaskGraph::new();
            let m3_1 = f3.add_module(&f2).unwrap();
            let m3_2 = f3.add_module(&f2).unwrap();
            f3.precede(m3_1, &[m3_2]).unwrap();
            for n in 0..100 {
                cnt.store(0, Ordering::Relaxed);
                assert!(f3.run_n(&rt, n).iter().all(|o| o.all_completed()));
                assert_eq!(count(&cnt), 16 * n);
            }
            cnt.store(0, Ordering::Relaxed);
            for _ in 0..100 {
                assert!(f3.run(&rt).all_completed());
            }
            assert_eq!(count(&cnt), 16 * 100);
        }
    })
}

/// `Module4`: as `Module1`, the first module node made from a placeholder
/// given the module as its work.
#[test]
fn a_placeholder_given_a_module_as_its_work_runs_it_as_a_module_node() {
    without_hanging(|| {
        for workers in WORKERS {
            let rt = Runtime::new(workers).unwrap();
            let cnt = Arc::new(AtomicUsize::new(0));
            let f0 = module_of_five(&cnt);
            let mut f1 = TaskGraph::new();
            let e = chain_of_five(&mut f1, &cnt);
            let m1_1 = f1.add_placeholder();
            f1.set_module(m1_1, &f0).unwrap();
            f1.precede(e, &[m1_1]).unwrap();
            run_with_one_module_node_then_two(&rt, &mut f1, &f0, m1_1, &cnt);
        }
    })
}

/// `ParallelModules`: a hundred modules of 800 nodes each, side by side in
/// one graph.
#[test]
fn a_hundred_modules_side_by_side_run_every_node() {
    without_hanging(|| {
        for workers in WORKERS {
            let rt = Runtime::new(workers).unwrap();
            let counter = Arc::new(AtomicUsize::new(0));
            let mut taskflow = TaskGraph::new();
            let mut modules = Vec::new();
            for _ in 0..100 {
                let mut tf = TaskGraph::new();
                for _ in 0..100 {
                    let [a, b, c, d, e, f, _g, _h] = [(); 8].map(|_| {
                        let counter = counter.clone();
                        tf.add_task(move |_| {
                            counter.fetch_add(1, Ordering::Relaxed);
                        })
                    });
                    tf.precede(a, &[b, c]).unwrap();
                    tf.precede(d, &[e, f]).unwrap();
                }
                let module = Module::new(tf);
                taskflow.add_module(&module).unwrap();
                modules.push(module);
            }
            let outcome = taskflow.run(&rt);
            assert!(outcome.all_completed());
            assert_eq!(count(&counter), 80_000);
        }
    })
}

/// `Module.AsyncLaunch` and `Module.SilentAsyncLaunch`: `f1` (five nodes,
/// then a module node of `f0`) launched on its own, as a module.
#[test]
fn a_module_holding_a_module_runs_on_its_own() {
    without_hanging(|| {
        for workers in WORKERS {
            let rt = Runtime::new(workers).unwrap();
            let cnt = Arc::new(AtomicUsize::new(0));
            let f0 = module_of_five(&cnt);
            let mut f1 = TaskGraph::new();
            let e = chain_of_five(&mut f1, &cnt);
            let m1_1 = f1.add_module(&f0).unwrap();
            f1.precede(e, &[m1_1]).unwrap();
            let f1 = Module::new(f1);
            let outcome = f1.run(&rt).unwrap();
            assert!(outcome.all_completed());
            assert!(outcome.get::<GraphOutcome>(m1_1).unwrap().all_completed());
            assert_eq!(count(&cnt), 10);
        }
    })
}

/// `AdoptedModule`: `f0`'s graph moved into `f1` as one node.
#[test]
fn a_graph_moved_in_by_value_runs_as_one_node() {
    without_hanging(|| {
        for workers in WORKERS {
            let rt = Runtime::new(workers).unwrap();
            let cnt = Arc::new(AtomicUsize::new(0));
            let mut f0 = TaskGraph::new();
            chain_of_five(&mut f0, &cnt);
            let mut f1 = TaskGraph::new();
            let e = chain_of_five(&mut f1, &cnt);
            let m1_1 = f1.add_graph(f0);
            f1.precede(e, &[m1_1]).unwrap();
            assert!(f1.run(&rt).all_completed());
            assert_eq!(count(&cnt), 10);
        }
    })
}
