//! Running a node's activation on the thread that took it, then whatever
//! that makes ready for this thread, until nothing is left for it
//! (`RUN.md`, "Release where the work finished").

use std::any::Any;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::Arc;

use rt_handle::PanicMessage;

use super::activation::Activation;
use super::completion::{complete, release, Ended, Taken};
use super::end::finish_unit;
use super::launch;
use super::results::DependencyResults;
use super::state::{GraphRef, Run, RunRef};
use super::step::Step;
use crate::graph::node::{ConditionKind, Work};
use crate::graph::plan::Plan;
use crate::graph::{Subgraph, TaskGraph};
use crate::quiet::drop_quietly;
use crate::{GraphError, NodeStatus};

/// An activation's job: the activation's unit (and permits) pass to the
/// loop below.
impl launch::Work for Activation {
    #[inline]
    fn start(self) {
        let (run, node, held) = self.into_parts();
        drive(run, node, held);
    }
}

/// Runs the activation of `node` of `run`, holding one of its units (and
/// the first `held` permits the node takes), then whatever it makes ready
/// that this thread keeps, until nothing is left for it.
pub(super) fn drive(run: RunRef, node: u32, held: u32) {
    let (mut me, mut node, mut held) = (run, node, held);
    loop {
        // SAFETY: this thread holds a unit of `me`.
        let run = unsafe { me.get() };
        let graph = run.graph();
        let plan = graph.current_plan();
        let step = loop {
            match execute(run, graph, plan, me, node as usize, held) {
                Step::Next(next) => {
                    node = next;
                    held = 0;
                }
                other => break other,
            }
        };
        held = 0;
        match step {
            Step::Switch(to, next) => (me, node) = (to, next),
            Step::Done => match finish_unit(me) {
                Some((to, next)) => (me, node) = (to, next),
                None => return,
            },
            Step::Held => return,
            Step::Next(_) => unreachable!("handled in the inner loop"),
        }
    }
}

/// Runs one activation of `node` (`me` points at `run`): the common case
/// (a task, no limit, no token, no timings) here, the rest in
/// [`execute_any`].
#[inline(always)]
fn execute(run: &Run, graph: &TaskGraph, plan: &Plan, me: RunRef, node: usize, held: u32) -> Step {
    if run.observed || graph.meta[node].limited || held > 0 {
        return execute_any(run, graph, plan, me, node, held);
    }
    let Work::Task(body) = &graph.nodes()[node].work else {
        return execute_any(run, graph, plan, me, node, held);
    };
    // SAFETY: this thread runs the node's only activation.
    match call(run, node, |deps| unsafe { body.get() }(deps)) {
        Ok(output) => {
            if let Some(output) = output {
                run.store_output(node, output);
            }
            release(run, graph, plan, me, node, Taken::None)
        }
        Err(payload) => complete(run, graph, plan, me, node, panicked(payload)),
    }
}

/// Runs one activation of any node, in any run: it first takes the permits
/// the node needs (`held` it holds already), waiting in a queue, on no
/// thread, for one that is not free.
#[inline(never)]
fn execute_any(
    run: &Run,
    graph: &TaskGraph,
    plan: &Plan,
    me: RunRef,
    node: usize,
    held: u32,
) -> Step {
    let work = &graph.nodes()[node].work;
    let refused = if run.cancelled() {
        Some(Ended::Cancelled)
    } else {
        cannot_run(run, graph, node, work).map(|error| Ended::Failed(NodeStatus::Invalid(error)))
    };
    if let Some(ended) = refused {
        run.give_back_taken(node, held);
        return complete(run, graph, plan, me, node, ended);
    }
    let limited = graph.meta[node].limited;
    let mut held = held;
    if limited {
        let acquisitions = graph.acquisitions_of(node);
        while let Some(acquisition) = acquisitions.get(held as usize) {
            let waiter = || Activation::holding(me, node as u32, held);
            if !acquisition.limit.acquire_or_wait(waiter) {
                return Step::Held;
            }
            held += 1;
        }
    }
    let started = run.note_start(node);
    let ended = match work {
        Work::Task(body) => {
            // SAFETY: this thread runs the node's only activation.
            let result = call(run, node, |deps| unsafe { body.get() }(deps));
            ran(run, plan, node, limited, result.is_ok());
            match result {
                Ok(output) => {
                    if let Some(output) = output {
                        run.store_output(node, output);
                    }
                    Ended::Completed { taken: Taken::None }
                }
                Err(payload) => panicked(payload),
            }
        }
        Work::Fallible(body) => {
            // SAFETY: this thread runs the node's only activation.
            let result = call(run, node, |deps| unsafe { body.get() }(deps));
            ran(run, plan, node, limited, matches!(result, Ok(Ok(_))));
            match result {
                Ok(Ok(output)) => {
                    if let Some(output) = output {
                        run.store_output(node, output);
                    }
                    Ended::Completed { taken: Taken::None }
                }
                Ok(Err(error)) => Ended::Failed(NodeStatus::Failed(error)),
                Err(payload) => panicked(payload),
            }
        }
        Work::TaskOnce(body) => {
            // SAFETY: this thread runs the node's only activation; the
            // closure is there (`cannot_run`), and taken out to be called.
            let f = unsafe { body.get() }.take().expect("checked by cannot_run");
            let result = call(run, node, f);
            ran(run, plan, node, limited, result.is_ok());
            match result {
                Ok(output) => {
                    if let Some(output) = output {
                        run.store_output(node, output);
                    }
                    Ended::Completed { taken: Taken::None }
                }
                Err(payload) => panicked(payload),
            }
        }
        Work::Condition(condition) => {
            let result = match &condition.body {
                // SAFETY: this thread runs the node's only activation.
                ConditionKind::One(body) => call(run, node, |deps| unsafe { body.get() }(deps))
                    .map(|index| {
                        run.store_output(node, Arc::new(index));
                        Taken::one(&condition.branches, index)
                    }),
                // SAFETY: as above.
                ConditionKind::Many(body) => call(run, node, |deps| unsafe { body.get() }(deps))
                    .map(|indices| {
                        let taken = Taken::many(&condition.branches, &indices);
                        run.store_output(node, Arc::new(indices));
                        taken
                    }),
            };
            ran(run, plan, node, limited, result.is_ok());
            match result {
                Ok(taken) => Ended::Completed { taken },
                Err(payload) => panicked(payload),
            }
        }
        Work::Subgraph(body) => {
            let mut sub = Subgraph::inside(run.enclosing_graphs());
            // SAFETY: this thread runs the node's only activation.
            let result = call(run, node, |deps| unsafe { body.get() }(deps, &mut sub));
            if limited {
                run.after_running(plan, node, result.is_ok());
            }
            match result {
                Err(payload) => {
                    drop_quietly(sub);
                    if limited {
                        run.give_back_held_for(plan, node);
                    }
                    panicked(payload)
                }
                Ok(output) => {
                    if let Some(output) = output {
                        run.store_output(node, output);
                    }
                    let (mut graph, detached) = sub.into_parts();
                    if graph.is_empty() || detached {
                        if !graph.is_empty() {
                            graph.prepare();
                            let graph = GraphRef::Owned(Box::new(graph));
                            run.start_subgraph(me, node as u32, graph, false);
                        }
                        if limited {
                            run.give_back_held_for(plan, node);
                        }
                        Ended::Completed { taken: Taken::None }
                    } else {
                        graph.prepare();
                        let graph = GraphRef::Owned(Box::new(graph));
                        return run.start_subgraph(me, node as u32, graph, true);
                    }
                }
            }
        }
        Work::Graph(inner) => {
            let inner: &TaskGraph = inner;
            return run.start_subgraph(me, node as u32, GraphRef::Borrowed(inner), true);
        }
        Work::Pipeline(pipeline) => {
            // SAFETY: this thread runs the node's only activation, holding
            // its unit, which the pipeline's run takes over; the graph stays
            // borrowed until this run ends, which waits for that unit. (A
            // pipeline node takes no permit; one held for it goes back when
            // the pipeline's run ends, `pipeline_node.rs`.)
            let started = unsafe {
                pipeline
                    .get()
                    .start(run.launch.clone(), run.token.clone(), me, node as u32)
            };
            match started {
                Ok(()) => return Step::Held,
                Err(error) => {
                    if limited {
                        run.give_back_held_for(plan, node);
                    }
                    Ended::Failed(super::pipeline_node::pipeline_failure(error))
                }
            }
        }
        Work::Module(module) => {
            if held == 0 {
                let waiter = || Activation::holding(me, node as u32, 0);
                if !module.access().acquire_or_wait(waiter) {
                    return Step::Held;
                }
            }
            // SAFETY: this node holds the module's access permit until its
            // run of the module's graph ended (`finish_subgraph` gives it
            // back): nobody else touches the graph meanwhile.
            let inner = unsafe { module.graph_mut() };
            inner.prepare();
            let inner: &TaskGraph = inner;
            return run.start_subgraph(me, node as u32, GraphRef::Borrowed(inner), true);
        }
        Work::Placeholder => unreachable!("refused by cannot_run"),
    };
    run.note_end(node, started);
    complete(run, graph, plan, me, node, ended)
}

/// Why `node` cannot run, if it cannot: a placeholder, a run-once node that
/// ran already, a module node inside a run of its own module.
fn cannot_run(run: &Run, graph: &TaskGraph, node: usize, work: &Work) -> Option<GraphError> {
    match work {
        Work::Placeholder => Some(GraphError::NoWork {
            node: graph.name_of(node),
        }),
        // SAFETY: this thread runs the node's only activation.
        Work::TaskOnce(body) if unsafe { body.get() }.is_none() => Some(GraphError::AlreadyRan {
            node: graph.name_of(node),
        }),
        Work::Module(module) if run.is_inside(module.id()) => {
            Some(GraphError::ComposedIntoItself {
                module: module.id(),
                into: graph.id(),
            })
        }
        _ => None,
    }
}

/// A task or condition node ran (`ok`: and returned, without an error):
/// what it owes its limits, if it has any.
#[inline]
fn ran(run: &Run, plan: &Plan, node: usize, limited: bool, ok: bool) {
    if limited {
        run.after_running(plan, node, ok);
        run.give_back_held_for(plan, node);
    }
}

/// Calls a node's closure with its prerequisites' outputs, catching a
/// panic, whose payload it returns.
#[inline]
fn call<R>(
    run: &Run,
    node: usize,
    f: impl FnOnce(&DependencyResults<'_>) -> R,
) -> Result<R, Box<dyn Any + Send>> {
    let deps = DependencyResults::new(run, node);
    // Dropping `deps` drops references to outputs the run still holds: no
    // user code runs then.
    catch_unwind(AssertUnwindSafe(|| f(&deps)))
}

/// How an activation whose closure panicked ends: the payload is kept.
#[cold]
fn panicked(payload: Box<dyn Any + Send>) -> Ended {
    Ended::Failed(NodeStatus::Panicked(PanicMessage::from_payload(payload)))
}

/// Goes on with `step`, which the end of something else (a pipeline's run)
/// gave this thread for run `me`, holding its unit.
pub(super) fn continue_with(me: RunRef, step: Step) {
    match step {
        Step::Next(node) => drive(me, node, 0),
        Step::Switch(run, node) => drive(run, node, 0),
        Step::Done => {
            if let Some((run, node)) = finish_unit(me) {
                drive(run, node, 0);
            }
        }
        Step::Held => {}
    }
}
