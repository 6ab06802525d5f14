//! A node may have several limits: it holds a permit of each while it
//! runs, taking them in one order common to every node, so that nodes
//! needing the same limits never wait for each other; `set_limit` replaces
//! them all.

mod common;

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::Duration;

use common::{quiet_expected_panics, Inline, ThreadPerJob, EXPECTED};
use rt_core::Runtime;
use rt_dag::{CancellationToken, GraphError, Limit, Module, NodeStatus, TaskGraph};
use rt_testkit::{wait_until, without_hanging};

/// How many closures are inside at once, and the most seen.
#[derive(Default)]
struct Inside {
    now: AtomicUsize,
    most: AtomicUsize,
}

impl Inside {
    fn enter(&self) {
        let now = self.now.fetch_add(1, Ordering::SeqCst) + 1;
        self.most.fetch_max(now, Ordering::SeqCst);
    }
    fn leave(&self) {
        self.now.fetch_sub(1, Ordering::SeqCst);
    }
    fn most(&self) -> usize {
        self.most.load(Ordering::SeqCst)
    }
}

#[test]
fn a_node_with_two_limits_runs_within_both() {
    without_hanging(|| {
        let rt = Runtime::new(4).unwrap();
        let (narrow, wide) = (Limit::new(2).unwrap(), Limit::new(3).unwrap());
        let (in_narrow, in_wide) = (Arc::new(Inside::default()), Arc::new(Inside::default()));
        let mut graph = TaskGraph::new();
        for i in 0..80 {
            let both = i % 2 == 0;
            let (in_narrow, in_wide) = (in_narrow.clone(), in_wide.clone());
            let node = graph.add_task(move |_| {
                if both {
                    in_narrow.enter();
                }
                in_wide.enter();
                std::thread::sleep(Duration::from_micros(100));
                in_wide.leave();
                if both {
                    in_narrow.leave();
                }
            });
            graph.add_limit(node, &wide).unwrap();
            if both {
                graph.add_limit(node, &narrow).unwrap();
            }
        }
        for _ in 0..2 {
            assert!(graph.run(&rt).all_completed());
        }
        assert!(in_narrow.most() <= 2, "{}", in_narrow.most());
        assert!(in_wide.most() <= 3, "{}", in_wide.most());
        assert_eq!((narrow.available(), wide.available()), (2, 3));
    })
}

#[test]
fn nodes_adding_the_same_limits_in_opposite_orders_never_wait_for_each_other() {
    without_hanging(|| {
        // `first` holds both permits until `ab` and `ba` wait. Were they to
        // take the limits in the order each added them, `ab` would wait
        // for `a` and `ba` for `b`: given back one after the other, each
        // would then hold one permit and wait for the other's.
        let (a, b) = (Limit::new(1).unwrap(), Limit::new(1).unwrap());
        let mut graph = TaskGraph::new();
        let first = {
            let (a, b) = (a.clone(), b.clone());
            graph.add_task(move |_| {
                wait_until("both others wait", || a.waiting() + b.waiting() == 2);
            })
        };
        graph.add_limit(first, &a).unwrap();
        graph.add_limit(first, &b).unwrap();
        // `ab` and `ba` start once `first` holds both permits, whichever
        // of the executor's threads starts first (on a loaded machine, the
        // thread of a later entry may).
        let holding = {
            let (a, b) = (a.clone(), b.clone());
            graph.add_task(move |_| {
                wait_until("first holds both permits", || {
                    a.available() + b.available() == 0
                });
            })
        };
        let ab = graph.add_task_after(&[holding], |_| "ab").unwrap();
        graph.add_limit(ab, &a).unwrap();
        graph.add_limit(ab, &b).unwrap();
        let ba = graph.add_task_after(&[holding], |_| "ba").unwrap();
        graph.add_limit(ba, &b).unwrap();
        graph.add_limit(ba, &a).unwrap();
        let outcome = graph.run(&ThreadPerJob);
        assert!(outcome.all_completed());
        assert_eq!((a.available(), b.available()), (1, 1));
        // Both list their limits in the one order they are taken in.
        let order = |node| {
            graph
                .limits(node)
                .unwrap()
                .map(|(limit, _)| limit.same_as(&a))
                .collect::<Vec<_>>()
        };
        assert_eq!(order(ab), order(ba));
    })
}

#[test]
fn set_limit_replaces_every_limit_of_the_node() {
    without_hanging(|| {
        let (a, b, c) = (
            Limit::new(1).unwrap(),
            Limit::new(1).unwrap(),
            Limit::new(1).unwrap(),
        );
        let mut graph = TaskGraph::new();
        let node = graph.add_task(|_| ());
        graph.add_limit(node, &a).unwrap();
        graph.add_limit(node, &b).unwrap();
        assert_eq!(graph.limits(node).unwrap().len(), 2);
        graph.set_limit(node, &c).unwrap();
        let limits: Vec<_> = graph.limits(node).unwrap().collect();
        assert_eq!(limits.len(), 1);
        assert!(limits[0].0.same_as(&c));
        assert_eq!(limits[0].1, node);
    })
}

#[test]
fn the_same_limit_twice_on_one_node_is_refused() {
    without_hanging(|| {
        let limit = Limit::new(2).unwrap();
        let mut graph = TaskGraph::new();
        let node = graph.add_task(|_| ());
        let later = graph.add_task_after(&[node], |_| ()).unwrap();
        graph.add_limit(node, &limit).unwrap();
        assert_eq!(
            graph.add_limit(node, &limit.clone()),
            Err(GraphError::SameLimitTwice { node: node.into() })
        );
        assert_eq!(
            graph.add_limit_until(node, &limit, later),
            Err(GraphError::SameLimitTwice { node: node.into() })
        );
        assert_eq!(graph.limits(node).unwrap().len(), 1);
    })
}

#[test]
fn graph_module_and_pipeline_nodes_refuse_every_kind_of_limit() {
    without_hanging(|| {
        let limit = Limit::new(1).unwrap();
        let mut graph = TaskGraph::new();
        let inner = graph.add_graph(TaskGraph::new());
        let module = graph.add_module(&Module::new(TaskGraph::new())).unwrap();
        let pipeline = graph.add_pipeline(rt_dag::Pipeline::from_iter(2, 0..4u8).parallel(|x| x));
        let after = graph
            .add_task_after(&[inner, module, pipeline], |_| ())
            .unwrap();
        for node in [inner, module, pipeline] {
            let refused = Err(GraphError::GraphNodeLimited { node: node.into() });
            assert_eq!(graph.set_limit(node, &limit), refused);
            assert_eq!(graph.add_limit(node, &limit), refused);
            assert_eq!(graph.add_limit_until(node, &limit, after), refused);
            assert_eq!(graph.limits(node).unwrap().len(), 0);
        }
    })
}

#[test]
fn a_node_with_several_limits_that_panics_gives_every_permit_back() {
    without_hanging(|| {
        quiet_expected_panics();
        let limits = [
            Limit::new(1).unwrap(),
            Limit::new(2).unwrap(),
            Limit::new(3).unwrap(),
        ];
        let mut graph = TaskGraph::new();
        let bad = graph.add_task(|_| panic!("{EXPECTED}: limited"));
        let good = graph.add_task(|_| ());
        for limit in &limits {
            graph.add_limit(bad, limit).unwrap();
            graph.add_limit(good, limit).unwrap();
        }
        let outcome = graph.run(&Runtime::new(2).unwrap());
        assert!(matches!(outcome.status(bad), Ok(NodeStatus::Panicked(_))));
        assert_eq!(outcome.status(good), Ok(&NodeStatus::Completed));
        let available: Vec<usize> = limits.iter().map(Limit::available).collect();
        assert_eq!(available, [1, 2, 3]);
    })
}

#[test]
fn a_cancelled_node_waiting_for_its_second_limit_gives_its_first_permit_back() {
    without_hanging(|| {
        // `holder` holds `second`; `waiter` takes `first`, then waits for
        // `second`; the run is cancelled meanwhile.
        let (first, second) = (Limit::new(1).unwrap(), Limit::new(1).unwrap());
        let token = CancellationToken::new();
        let mut graph = TaskGraph::new();
        let holder = {
            let (first, second, token) = (first.clone(), second.clone(), token.clone());
            graph.add_task(move |_| {
                wait_until("the waiter waits", || {
                    first.waiting() + second.waiting() == 1
                        && first.available() + second.available() == 0
                });
                token.cancel();
            })
        };
        // `waiter` starts once `holder` holds its permit, whichever of the
        // executor's threads starts first.
        let holding = {
            let (first, second) = (first.clone(), second.clone());
            graph.add_task(move |_| {
                wait_until("the holder holds its permit", || {
                    first.available() + second.available() == 1
                });
            })
        };
        let waiter = graph.add_task_after(&[holding], |_| ()).unwrap();
        // Whichever order the two limits are taken in, `holder` takes only
        // the one `waiter` takes second.
        graph.add_limit(waiter, &first).unwrap();
        graph.add_limit(waiter, &second).unwrap();
        let taken_second = graph.limits(waiter).unwrap().nth(1).unwrap().0.clone();
        graph.add_limit(holder, &taken_second).unwrap();
        let outcome = graph.run_cancellable(&ThreadPerJob, &token);
        assert_eq!(outcome.status(holder), Ok(&NodeStatus::Completed));
        assert_eq!(outcome.status(waiter), Ok(&NodeStatus::Cancelled));
        assert_eq!((first.available(), second.available()), (1, 1));
        assert_eq!((first.waiting(), second.waiting()), (0, 0));
    })
}

#[test]
fn several_limits_hold_on_an_inline_executor_too() {
    without_hanging(|| {
        let (a, b) = (Limit::new(1).unwrap(), Limit::new(1).unwrap());
        let inside = Arc::new(Inside::default());
        let mut graph = TaskGraph::new();
        for _ in 0..20 {
            let inside = inside.clone();
            let node = graph.add_task(move |_| {
                inside.enter();
                inside.leave();
            });
            graph.add_limit(node, &a).unwrap();
            graph.add_limit(node, &b).unwrap();
        }
        assert!(graph.run(&Inline).all_completed());
        assert_eq!(inside.most(), 1);
    })
}
