//! A module is a graph shared by reference (Taskflow's `composed_of`): one
//! instance run by nodes of several graphs and on its own, one run at a
//! time, module nodes waiting for it on no thread; a graph never runs
//! inside itself, and trying to is an error, never a hang.

mod common;

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, OnceLock};
use std::time::Duration;

use common::{quiet_expected_panics, DropsJobs, Inline, ThreadPerJob, EXPECTED};
use rt_core::Runtime;
use rt_dag::{
    CancellationToken, GraphError, GraphOutcome, Module, NodeId, NodeKind, NodeStatus, TaskGraph,
};
use rt_testkit::{wait_until, without_hanging, Gate};

/// A module of one node counting its runs, and that node.
fn counting_module(count: &Arc<AtomicUsize>) -> (Module, NodeId) {
    let mut graph = TaskGraph::new();
    let node = {
        let count = count.clone();
        graph.add_task(move |_| count.fetch_add(1, Ordering::SeqCst) + 1)
    };
    (Module::new(graph), node)
}

#[test]
fn one_module_runs_in_several_graphs_and_on_its_own_as_one_instance() {
    without_hanging(|| {
        let rt = Runtime::new(2).unwrap();
        let count = Arc::new(AtomicUsize::new(0));
        let (module, node) = counting_module(&count);
        let mut first = TaskGraph::new();
        let a = first.add_module(&module).unwrap();
        let b = first.add_module_after(&[a], &module).unwrap();
        let mut second = TaskGraph::new();
        let c = second.add_module(&module).unwrap();
        assert_eq!(first.kind(a), Ok(NodeKind::Module));

        let outcome = first.run(&rt);
        assert_eq!(
            outcome.get::<GraphOutcome>(b).unwrap().get::<usize>(node),
            Ok(&2)
        );
        let outcome = second.run(&rt);
        assert_eq!(
            outcome.get::<GraphOutcome>(c).unwrap().get::<usize>(node),
            Ok(&3)
        );
        let alone = module.run(&rt).unwrap();
        assert_eq!(alone.graph(), module.id());
        assert_eq!(alone.get::<usize>(node), Ok(&4));
        assert_eq!(count.load(Ordering::SeqCst), 4);
        assert_eq!(module.len(), 1);
    })
}

#[test]
fn two_module_nodes_of_one_module_never_run_it_at_once() {
    without_hanging(|| {
        let rt = Runtime::new(4).unwrap();
        // Each run of the module enters, runs four nodes, leaves.
        let (now, most) = (Arc::new(AtomicUsize::new(0)), Arc::new(AtomicUsize::new(0)));
        let mut inner = TaskGraph::new();
        let enter = {
            let (now, most) = (now.clone(), most.clone());
            inner.add_task(move |_| {
                let inside = now.fetch_add(1, Ordering::SeqCst) + 1;
                most.fetch_max(inside, Ordering::SeqCst);
            })
        };
        let work: Vec<NodeId> = (0..4)
            .map(|_| {
                inner
                    .add_task_after(&[enter], |_| std::thread::sleep(Duration::from_micros(200)))
                    .unwrap()
            })
            .collect();
        {
            let now = now.clone();
            inner
                .add_task_after(&work, move |_| {
                    now.fetch_sub(1, Ordering::SeqCst);
                })
                .unwrap();
        }
        let module = Module::new(inner);
        let mut outer = TaskGraph::new();
        let nodes: Vec<NodeId> = (0..6).map(|_| outer.add_module(&module).unwrap()).collect();
        for _ in 0..3 {
            let outcome = outer.run(&rt);
            assert!(outcome.all_completed());
            for &node in &nodes {
                assert!(outcome.get::<GraphOutcome>(node).unwrap().all_completed());
            }
        }
        assert_eq!(most.load(Ordering::SeqCst), 1);
        assert!(!module.is_running());
    })
}

#[test]
fn module_nodes_waiting_for_their_module_hold_no_thread() {
    without_hanging(|| {
        // On one thread (inline, or a runtime of one worker), the second
        // module node can only wait in the module's queue.
        let count = Arc::new(AtomicUsize::new(0));
        let (module, _) = counting_module(&count);
        let mut outer = TaskGraph::new();
        for _ in 0..10 {
            outer.add_module(&module).unwrap();
        }
        assert!(outer.run(&Inline).all_completed());
        assert!(outer.run(&Runtime::new(1).unwrap()).all_completed());
        assert_eq!(count.load(Ordering::SeqCst), 20);
    })
}

#[test]
fn a_module_does_not_run_on_its_own_while_it_runs_elsewhere() {
    without_hanging(|| {
        let gate = Gate::new();
        let mut inner = TaskGraph::new();
        {
            let gate = gate.clone();
            inner.add_task(move |_| gate.wait());
        }
        let module = Module::new(inner);
        let mut outer = TaskGraph::new();
        outer.add_module(&module).unwrap();
        let tried = {
            let (module, gate) = (module.clone(), gate.clone());
            outer.add_task(move |_| {
                wait_until("the module runs", || module.is_running());
                let tried = module.run(&Inline).map(|_| ());
                gate.open();
                tried
            })
        };
        let outcome = outer.run(&ThreadPerJob);
        assert_eq!(
            outcome.get::<Result<(), GraphError>>(tried),
            Ok(&Err(GraphError::ModuleInUse {
                module: module.id()
            }))
        );
        assert!(module.run(&Inline).unwrap().all_completed());
    })
}

#[test]
fn a_module_run_from_inside_its_own_run_is_refused_instead_of_waiting_for_itself() {
    without_hanging(|| {
        let itself: Arc<OnceLock<Module>> = Arc::new(OnceLock::new());
        let mut graph = TaskGraph::new();
        let node = {
            let itself = itself.clone();
            graph.add_task(move |_| itself.get().unwrap().run(&Inline).map(|_| ()))
        };
        let module = Module::new(graph);
        itself.set(module.clone()).unwrap();
        let outcome = module.run(&Runtime::new(2).unwrap()).unwrap();
        assert_eq!(
            outcome.get::<Result<(), GraphError>>(node),
            Ok(&Err(GraphError::ModuleInUse {
                module: module.id()
            }))
        );
    })
}

#[test]
fn a_subgraph_made_inside_a_module_s_run_cannot_run_that_module() {
    without_hanging(|| {
        let itself: Arc<OnceLock<Module>> = Arc::new(OnceLock::new());
        let mut graph = TaskGraph::new();
        let spawner = {
            let itself = itself.clone();
            graph.add_subgraph(move |_, sub| sub.add_module(itself.get().unwrap()).map(|_| ()))
        };
        let module = Module::new(graph);
        itself.set(module.clone()).unwrap();
        let mut outer = TaskGraph::new();
        let m = outer.add_module(&module).unwrap();
        let outcome = outer.run(&Runtime::new(2).unwrap());
        let inner = outcome.get::<GraphOutcome>(m).unwrap();
        assert!(matches!(
            inner.get::<Result<(), GraphError>>(spawner),
            Ok(Err(GraphError::ComposedIntoItself { module: id, .. })) if *id == module.id()
        ));
    })
}

#[test]
fn a_module_node_that_would_run_inside_its_own_run_is_invalid_and_nothing_hangs() {
    without_hanging(|| {
        // The subgraph adds a graph (which cannot be refused) holding a
        // node of the module whose run the subgraph is in.
        let itself: Arc<OnceLock<Module>> = Arc::new(OnceLock::new());
        let mut graph = TaskGraph::new();
        let spawner = {
            let itself = itself.clone();
            graph.add_subgraph(move |_, sub| {
                let mut wrapper = TaskGraph::new();
                wrapper.add_module(itself.get().unwrap()).unwrap();
                sub.add_graph(wrapper);
            })
        };
        let module = Module::new(graph);
        itself.set(module.clone()).unwrap();
        let outcome = module.run(&Runtime::new(2).unwrap()).unwrap();
        let NodeStatus::SubgraphFailed { status, .. } = outcome.status(spawner).unwrap() else {
            panic!("{outcome:?}");
        };
        let NodeStatus::SubgraphFailed { status, .. } = &**status else {
            panic!("{status:?}");
        };
        assert!(matches!(
            &**status,
            NodeStatus::Invalid(GraphError::ComposedIntoItself { module: id, .. }) if *id == module.id()
        ));
        assert!(!module.is_running());
    })
}

#[test]
fn a_subgraph_may_run_a_module_that_does_not_enclose_it() {
    without_hanging(|| {
        let count = Arc::new(AtomicUsize::new(0));
        let (leaf, _) = counting_module(&count);
        let mut graph = TaskGraph::new();
        graph.add_module(&leaf).unwrap();
        {
            let leaf = leaf.clone();
            graph.add_subgraph(move |_, sub| {
                sub.add_module(&leaf).unwrap();
            });
        }
        let outer = Module::new(graph);
        let mut top = TaskGraph::new();
        top.add_module(&outer).unwrap();
        assert!(top.run(&Runtime::new(2).unwrap()).all_completed());
        assert_eq!(count.load(Ordering::SeqCst), 2);
    })
}

#[test]
fn a_module_that_runs_another_only_through_other_graphs_cannot_run_inside_it() {
    without_hanging(|| {
        // `wrapper` holds a graph that runs `middle`, which runs `inner`;
        // a subgraph made inside a run of `inner` cannot run `wrapper`.
        let wrapper_slot: Arc<OnceLock<Module>> = Arc::new(OnceLock::new());
        let mut inner = TaskGraph::new();
        let spawner = {
            let wrapper_slot = wrapper_slot.clone();
            inner
                .add_subgraph(move |_, sub| sub.add_module(wrapper_slot.get().unwrap()).map(|_| ()))
        };
        let inner = Module::new(inner);
        let mut middle = TaskGraph::new();
        middle.add_module(&inner).unwrap();
        let middle = Module::new(middle);
        let mut held = TaskGraph::new();
        held.add_module(&middle).unwrap();
        let mut wrapper = TaskGraph::new();
        wrapper.add_graph(held);
        let wrapper = Module::new(wrapper);
        wrapper_slot.set(wrapper.clone()).unwrap();

        // Anywhere else, `wrapper` may run.
        assert!(TaskGraph::new().add_module(&wrapper).is_ok());
        let outcome = inner.run(&Inline).unwrap();
        assert!(matches!(
            outcome.get::<Result<(), GraphError>>(spawner),
            Ok(Err(GraphError::ComposedIntoItself { module: id, .. })) if *id == wrapper.id()
        ));
    })
}

#[test]
fn a_failure_inside_a_module_fails_its_node_and_skips_the_node_s_dependents() {
    without_hanging(|| {
        quiet_expected_panics();
        let mut inner = TaskGraph::new();
        let bad = inner.add_task(|_| panic!("{EXPECTED}: in the module"));
        let module = Module::new(inner);
        let mut outer = TaskGraph::new();
        let m = outer.add_module(&module).unwrap();
        let after = outer.add_task_after(&[m], |_| ()).unwrap();
        let outcome = outer.run(&Runtime::new(2).unwrap());
        assert_eq!(
            outcome.status(m),
            Ok(&NodeStatus::SubgraphFailed {
                node: bad.into(),
                status: Box::new(NodeStatus::Panicked(
                    format!("{EXPECTED}: in the module").into()
                ))
            })
        );
        assert_eq!(
            outcome.status(after),
            Ok(&NodeStatus::Skipped {
                prerequisite: m.into()
            })
        );
        assert!(!module.is_running());
        assert!(matches!(
            module.run(&Inline).unwrap().status(bad),
            Ok(NodeStatus::Panicked(_))
        ));
    })
}

#[test]
fn a_module_node_waiting_in_a_cancelled_run_is_cancelled_and_passes_the_module_on() {
    without_hanging(|| {
        let token = CancellationToken::new();
        let mut inner = TaskGraph::new();
        {
            let token = token.clone();
            inner.add_task(move |_| token.cancel());
        }
        let module = Module::new(inner);
        let mut outer = TaskGraph::new();
        let first = outer.add_module(&module).unwrap();
        let second = outer.add_module(&module).unwrap();
        let outcome = outer.run_cancellable(&Runtime::new(2).unwrap(), &token);
        let statuses = [
            outcome.status(first).unwrap(),
            outcome.status(second).unwrap(),
        ];
        assert!(statuses.contains(&&NodeStatus::Cancelled), "{statuses:?}");
        assert!(!module.is_running());
        assert!(module.run(&Inline).unwrap().all_completed());
    })
}

#[test]
fn module_nodes_the_executor_drops_give_the_module_back() {
    without_hanging(|| {
        let count = Arc::new(AtomicUsize::new(0));
        let (module, _) = counting_module(&count);
        let mut outer = TaskGraph::new();
        let a = outer.add_module(&module).unwrap();
        let b = outer.add_module(&module).unwrap();
        let outcome = outer.run(&DropsJobs);
        assert_eq!(outcome.status(a), Ok(&NodeStatus::Rejected));
        assert_eq!(outcome.status(b), Ok(&NodeStatus::Rejected));
        assert!(!module.is_running());
        assert!(module.run(&Inline).unwrap().all_completed());
    })
}

#[test]
fn a_module_gives_its_graph_back_once_no_other_handle_is_left() {
    without_hanging(|| {
        let mut graph = TaskGraph::new();
        let node = graph.add_task(|_| 1u8);
        let id = graph.id();
        let module = Module::new(graph);
        let copy = module.clone();
        assert!(copy.same_as(&module));
        let mut outer = TaskGraph::new();
        outer.add_module(&module).unwrap();
        let module = module.into_graph().unwrap_err();
        drop(copy);
        drop(outer);
        let mut graph = module.into_graph().unwrap();
        assert_eq!(graph.id(), id);
        graph.add_task_after(&[node], |_| 2u8).unwrap();
        assert!(graph.run(&Inline).all_completed());
    })
}

#[test]
fn modules_nest_and_their_outcomes_nest_too() {
    without_hanging(|| {
        let count = Arc::new(AtomicUsize::new(0));
        let (leaf, leaf_node) = counting_module(&count);
        let mut middle = TaskGraph::new();
        let m = middle.add_module(&leaf).unwrap();
        let middle = Module::new(middle);
        let mut top = TaskGraph::new();
        let t = top.add_module(&middle).unwrap();
        let outcome = top.run(&Runtime::new(2).unwrap());
        let middle_outcome = outcome.get::<GraphOutcome>(t).unwrap();
        let leaf_outcome = middle_outcome.get::<GraphOutcome>(m).unwrap();
        assert_eq!(leaf_outcome.get::<usize>(leaf_node), Ok(&1));
    })
}
