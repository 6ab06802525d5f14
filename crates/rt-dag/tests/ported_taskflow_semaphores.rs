//! Taskflow's tests of semaphores, ported from `unittests/test_semaphores.cpp`
//! (taskflow/taskflow): the test cases `Semaphore.CriticalSection.*`,
//! `Semaphore.Overlap.*`, `Semaphore.ConflictGraph.*`,
//! `Semaphore.Module.*`, `Semaphores.Module.*` and
//! `Semaphore.LinearChain.*`. (`Semaphore.Deadlock` is commented out
//! upstream: its graph deadlocks by design.)
//!
//! How they map: a `tf::Semaphore` is a `Limit`; a task that acquires and
//! releases the same semaphores is a node with those limits (`add_limit`);
//! a task that acquires before it runs and another that releases after
//! it ran is `add_limit_until`. Taskflow lets a module task acquire a
//! semaphore; rt refuses limits on graph and module nodes
//! (`GraphNodeLimited`: the module's own nodes may wait for the same
//! limit), so `m.acquire(s); m.release(s)` becomes a node before the module
//! that takes the permit until a node after it, which is what Taskflow's
//! executor does around the module's run. A counter Taskflow increments
//! without a lock because the semaphore guards it is a mutex here that
//! must always be free (`try_lock`): two nodes inside at once would fail
//! the test. Executors of `W` workers are runtimes of `W` workers, `W` up
//! to 4 on this project's machines.

use std::sync::{Arc, Mutex};

use rt_core::Runtime;
use rt_dag::{GraphError, Limit, Module, NodeId, TaskGraph};
use rt_testkit::without_hanging;

const WORKERS: [usize; 4] = [1, 2, 3, 4];

/// A counter guarded by the graph's limits, not by its mutex: a node that
/// finds the mutex taken ran beside another it should have excluded.
#[derive(Clone, Default)]
struct Guarded(Arc<Mutex<usize>>);

impl Guarded {
    fn add_one(&self) {
        let mut count = self
            .0
            .try_lock()
            .expect("two nodes the limits exclude ran at once");
        *count += 1;
    }

    fn get(&self) -> usize {
        *self.0.lock().unwrap()
    }
}

/// `Semaphore.CriticalSection`: a thousand tasks acquiring and releasing a
/// semaphore of one run one at a time, in four runs.
#[test]
fn a_thousand_nodes_with_a_limit_of_one_run_one_at_a_time() {
    without_hanging(|| {
        for workers in WORKERS {
            let rt = Runtime::new(workers).unwrap();
            let sema = Limit::new(1).unwrap();
            assert_eq!((sema.available(), sema.permits()), (1, 1));
            let counter = Guarded::default();
            let mut graph = TaskGraph::new();
            for i in 0..1000 {
                let counter = counter.clone();
                let node = graph.add_task(move |_| counter.add_one());
                graph.set_label(node, i.to_string()).unwrap();
                graph.add_limit(node, &sema).unwrap();
            }
            assert!(graph.run(&rt).all_completed());
            assert_eq!(counter.get(), 1000);
            for outcome in graph.run_n(&rt, 3) {
                assert!(outcome.all_completed());
            }
            assert_eq!(counter.get(), 4000);
            assert_eq!((sema.available(), sema.permits()), (1, 1));
        }
    })
}

/// `Semaphore.Overlap`: every task acquires a semaphore of one and one of
/// four.
#[test]
fn nodes_with_an_overlapping_limit_of_one_and_of_four_run_one_at_a_time() {
    without_hanging(|| {
        for workers in WORKERS {
            let rt = Runtime::new(workers).unwrap();
            let (semaphore1, semaphore4) = (Limit::new(1).unwrap(), Limit::new(4).unwrap());
            let counter = Guarded::default();
            let mut graph = TaskGraph::new();
            for _ in 0..1000 {
                let counter = counter.clone();
                let node = graph.add_task(move |_| counter.add_one());
                graph.add_limit(node, &semaphore1).unwrap();
                graph.add_limit(node, &semaphore4).unwrap();
            }
            assert!(graph.run(&rt).all_completed());
            assert_eq!(counter.get(), 1000);
            assert_eq!((semaphore1.available(), semaphore4.available()), (1, 4));
        }
    })
}

/// `Semaphore.ConflictGraph`: A conflicts with B and with C, which may run
/// together.
#[test]
fn a_node_conflicting_with_two_others_never_runs_beside_either() {
    without_hanging(|| {
        for workers in WORKERS {
            let rt = Runtime::new(workers).unwrap();
            let (conflict_ab, conflict_ac) = (Limit::new(1).unwrap(), Limit::new(1).unwrap());
            // A's counter is guarded by the two limits; B's and C's, which
            // may run together, by a lock of their own.
            let a_count = Guarded::default();
            let bc_count = Arc::new(Mutex::new(0usize));
            let mut graph = TaskGraph::new();
            let a = {
                let (a_count, bc_count) = (a_count.clone(), bc_count.clone());
                graph.add_task(move |_| {
                    a_count.add_one();
                    // Neither B nor C is inside: the lock is free.
                    drop(bc_count.try_lock().expect("A ran beside B or C"));
                })
            };
            let mut shares_with_a = || {
                let bc_count = bc_count.clone();
                graph.add_task(move |_| *bc_count.lock().unwrap() += 1)
            };
            let (b, c) = (shares_with_a(), shares_with_a());
            graph.add_limit(a, &conflict_ab).unwrap();
            graph.add_limit(b, &conflict_ab).unwrap();
            graph.add_limit(a, &conflict_ac).unwrap();
            graph.add_limit(c, &conflict_ac).unwrap();

            assert!(graph.run(&rt).all_completed());
            let total = || a_count.get() + *bc_count.lock().unwrap();
            assert_eq!(total(), 3);
            for _ in 0..10 {
                assert!(graph.run_n(&rt, 10).iter().all(|o| o.all_completed()));
            }
            assert_eq!(total(), 303);
        }
    })
}

/// The inner graph of the two module tests: `n` nodes taking a permit of
/// each of `limits`.
fn limited_module(n: usize, limits: &[Limit], counter: &Guarded) -> Module {
    let mut graph = TaskGraph::new();
    for _ in 0..n {
        let counter = counter.clone();
        let node = graph.add_task(move |_| counter.add_one());
        for limit in limits {
            graph.add_limit(node, limit).unwrap();
        }
    }
    Module::new(graph)
}

/// A graph running `module` while holding a permit of each of `limits`:
/// a node before it takes them, a node after it gives them back.
fn module_holding(module: &Module, limits: &[Limit]) -> (TaskGraph, NodeId) {
    let mut graph = TaskGraph::new();
    let before = graph.add_task(|_| ());
    let m = graph.add_module_after(&[before], module).unwrap();
    let after = graph.add_task_after(&[m], |_| ()).unwrap();
    for limit in limits {
        assert_eq!(
            graph.add_limit(m, limit),
            Err(GraphError::GraphNodeLimited { node: m.into() })
        );
        graph.add_limit_until(before, limit, after).unwrap();
    }
    (graph, m)
}

/// `Semaphore.Module`: a module whose 1024 tasks share a semaphore of two,
/// one permit of which the module task holds while it runs.
#[test]
fn a_module_run_while_holding_one_of_two_permits_runs_its_limited_nodes_on_the_other() {
    without_hanging(|| {
        for workers in WORKERS {
            let rt = Runtime::new(workers).unwrap();
            let semaphore = Limit::new(2).unwrap();
            let counter = Guarded::default();
            let module = limited_module(1024, std::slice::from_ref(&semaphore), &counter);
            let (mut graph, m) = module_holding(&module, std::slice::from_ref(&semaphore));
            let outcome = graph.run(&rt);
            assert!(outcome.all_completed(), "{:?}", outcome.status(m));
            assert_eq!(counter.get(), 1024);
            assert_eq!(semaphore.available(), 2);
        }
    })
}

/// `Semaphores.Module`: the same with ten semaphores of two each.
#[test]
fn a_module_run_while_holding_one_permit_of_each_of_ten_limits_runs_its_nodes_on_the_others() {
    without_hanging(|| {
        for workers in WORKERS {
            let rt = Runtime::new(workers).unwrap();
            let semaphores: Vec<Limit> = (0..10).map(|_| Limit::new(2).unwrap()).collect();
            for semaphore in &semaphores {
                assert_eq!((semaphore.available(), semaphore.permits()), (2, 2));
            }
            let counter = Guarded::default();
            let module = limited_module(1024, &semaphores, &counter);
            let (mut graph, _) = module_holding(&module, &semaphores);
            assert!(graph.run(&rt).all_completed());
            assert_eq!(counter.get(), 1024);
            assert!(semaphores.iter().all(|s| s.available() == 2));
        }
    })
}

/// `Semaphore.LinearChain`: ten thousand tasks, task `i` acquiring
/// semaphores `i - 1` and `i`, each of one: neighbours never run together.
#[test]
fn neighbours_sharing_a_limit_of_one_never_run_together() {
    without_hanging(|| {
        const L: usize = 10_000;
        for workers in WORKERS {
            let rt = Runtime::new(workers).unwrap();
            let counters: Arc<Vec<Guarded>> =
                Arc::new((0..L).map(|_| Guarded::default()).collect());
            let semaphores: Vec<Limit> = (0..L).map(|_| Limit::new(1).unwrap()).collect();
            let mut graph = TaskGraph::new();
            for i in 0..L {
                let counters = counters.clone();
                let node = graph.add_task(move |_| {
                    if i > 0 {
                        counters[i - 1].add_one();
                    }
                    counters[i].add_one();
                });
                if i > 0 {
                    graph.add_limit(node, &semaphores[i - 1]).unwrap();
                }
                graph.add_limit(node, &semaphores[i]).unwrap();
            }
            assert!(graph.run(&rt).all_completed());
            counters[L - 1].add_one();
            assert!(counters.iter().all(|c| c.get() == 2));
        }
    })
}
