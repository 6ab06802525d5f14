//! Running a node's activation on the thread that took it, then whatever
//! that makes ready for this thread, until nothing is left for it
//! (`RUN.md`, "Release where the work finished").

use std::any::Any;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::Arc;

use rt_handle::PanicMessage;

use super::activation::Activation;
use super::completion::{complete, release, Ended};
use super::end::finish_unit;
use super::launch;
use super::results::DependencyResults;
use super::state::{GraphRef, Run, RunRef};
use super::step::Step;
use crate::graph::node::Work;
use crate::graph::plan::Plan;
use crate::graph::{Subgraph, TaskGraph};
use crate::quiet::drop_quietly;
use crate::NodeStatus;

/// An activation's job: the activation's unit (and permit) pass to the
/// loop below.
impl launch::Work for Activation {
    #[inline]
    fn start(self) {
        let (run, node, permit) = self.into_parts();
        drive(run, node, permit);
    }
}

/// Runs the activation of `node` of `run`, holding one of its units (and
/// a permit of the node's limit if `permit`), then whatever it makes ready
/// that this thread keeps, until nothing is left for it.
pub(super) fn drive(run: RunRef, node: u32, permit: bool) {
    let (mut me, mut node, mut permit) = (run, node, permit);
    loop {
        // SAFETY: this thread holds a unit of `me`.
        let run = unsafe { me.get() };
        let graph = run.graph();
        let plan = graph.current_plan();
        let step = loop {
            match execute(run, graph, plan, me, node as usize, permit) {
                Step::Next(next) => {
                    node = next;
                    permit = false;
                }
                other => break other,
            }
        };
        permit = false;
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
fn execute(
    run: &Run,
    graph: &TaskGraph,
    plan: &Plan,
    me: RunRef,
    node: usize,
    permit: bool,
) -> Step {
    if run.observed || graph.meta[node].limited || permit {
        return execute_any(run, graph, plan, me, node, permit);
    }
    let Work::Task(body) = &graph.nodes()[node].work else {
        return execute_any(run, graph, plan, me, node, permit);
    };
    // SAFETY: this thread runs the node's only activation.
    match call(run, node, |deps| unsafe { body.get() }(deps)) {
        Ok(output) => {
            if let Some(output) = output {
                run.store_output(node, output);
            }
            release(run, graph, plan, me, node, None)
        }
        Err(payload) => complete(run, graph, plan, me, node, panicked(payload)),
    }
}

/// Runs one activation of any node, in any run.
#[inline(never)]
fn execute_any(
    run: &Run,
    graph: &TaskGraph,
    plan: &Plan,
    me: RunRef,
    node: usize,
    permit: bool,
) -> Step {
    let limit = if graph.meta[node].limited {
        graph.limit_of(node)
    } else {
        None
    };
    if run.cancelled() {
        if permit {
            limit.map(crate::Limit::release);
        }
        return complete(run, graph, plan, me, node, Ended::Cancelled);
    }
    if let (Some(limit), false) = (limit, permit) {
        if !limit.acquire_or_wait(|| Activation::new(me, node as u32)) {
            return Step::Held;
        }
    }
    let started = run.note_start(node);
    let ended = match &graph.nodes()[node].work {
        Work::Task(body) => {
            // SAFETY: this thread runs the node's only activation.
            let result = call(run, node, |deps| unsafe { body.get() }(deps));
            limit.map(crate::Limit::release);
            match result {
                Ok(output) => {
                    if let Some(output) = output {
                        run.store_output(node, output);
                    }
                    Ended::Completed { branch: None }
                }
                Err(payload) => panicked(payload),
            }
        }
        Work::Fallible(body) => {
            // SAFETY: this thread runs the node's only activation.
            let result = call(run, node, |deps| unsafe { body.get() }(deps));
            limit.map(crate::Limit::release);
            match result {
                Ok(Ok(output)) => {
                    if let Some(output) = output {
                        run.store_output(node, output);
                    }
                    Ended::Completed { branch: None }
                }
                Ok(Err(error)) => Ended::Failed(NodeStatus::Failed(error)),
                Err(payload) => panicked(payload),
            }
        }
        Work::Condition(condition) => {
            // SAFETY: this thread runs the node's only activation.
            let result = call(run, node, |deps| unsafe { condition.body.get() }(deps));
            limit.map(crate::Limit::release);
            match result {
                Ok(index) => {
                    run.store_output(node, Arc::new(index));
                    Ended::Completed {
                        branch: condition.branches.get(index).copied(),
                    }
                }
                Err(payload) => panicked(payload),
            }
        }
        Work::Subgraph(body) => {
            let mut sub = Subgraph::new();
            // SAFETY: this thread runs the node's only activation.
            let result = call(run, node, |deps| unsafe { body.get() }(deps, &mut sub));
            limit.map(crate::Limit::release);
            match result {
                Err(payload) => {
                    drop_quietly(sub);
                    panicked(payload)
                }
                Ok(output) => {
                    if let Some(output) = output {
                        run.store_output(node, output);
                    }
                    let (mut graph, detached) = sub.into_parts();
                    if graph.is_empty() {
                        Ended::Completed { branch: None }
                    } else {
                        graph.prepare();
                        let graph = GraphRef::Owned(Box::new(graph));
                        if detached {
                            run.start_subgraph(me, node as u32, graph, false);
                            Ended::Completed { branch: None }
                        } else {
                            return run.start_subgraph(me, node as u32, graph, true);
                        }
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
            // borrowed until this run ends, which waits for that unit.
            let started = unsafe {
                pipeline
                    .get()
                    .start(run.launch.clone(), run.token.clone(), me, node as u32)
            };
            match started {
                Ok(()) => return Step::Held,
                Err(error) => Ended::Failed(super::pipeline_node::pipeline_failure(error)),
            }
        }
    };
    run.note_end(node, started);
    complete(run, graph, plan, me, node, ended)
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
        Step::Next(node) => drive(me, node, false),
        Step::Switch(run, node) => drive(run, node, false),
        Step::Done => {
            if let Some((run, node)) = finish_unit(me) {
                drive(run, node, false);
            }
        }
        Step::Held => {}
    }
}
