//! Running a node's activation and releasing what it makes ready, on the
//! thread that ran it (`RUN.md`, "Release where the work finished").

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::Arc;

use rt_queue::Priority;

use super::plan::Plan;
use super::state::{finish_unit, Activation, Run, RunRef, SubgraphRef};
use super::{prepare, DependencyResults, Subgraph};
use crate::graph::Work;
use crate::quiet::{drop_quietly, panic_message};
use crate::status::Code;
use crate::{GraphOutcome, NodeStatus};

/// What the thread that holds a unit of work does next.
#[derive(Debug)]
pub(crate) enum Step {
    /// Run this node of the same run, with the unit.
    Next(u32),
    /// Run this node of that run (a subgraph's entry, or a dependent of
    /// the node whose subgraph ended), with the unit.
    Switch(RunRef, u32),
    /// Give the unit back.
    Done,
    /// Nothing: the unit is kept elsewhere (a limit's queue, a running
    /// subgraph).
    Held,
}

/// How an activation ended.
enum Ended {
    /// The closure returned (and its subgraph completed); a condition took
    /// `branch`, if any.
    Completed { branch: Option<u32> },
    /// `Panicked` or `SubgraphFailed`.
    Failed(NodeStatus),
    /// The run was cancelled before the node started (or its subgraph was
    /// cancelled).
    Cancelled,
}

/// Runs the activation of `node` of `run`, holding one of its units (and
/// a permit of the node's limit if `permit`), then whatever it makes ready
/// that this thread keeps, until nothing is left for it.
pub(crate) fn drive(run: RunRef, node: u32, permit: bool) {
    let (mut run, mut node, mut permit) = (run, node, permit);
    loop {
        // SAFETY: this thread holds a unit of `run`.
        let step = execute(unsafe { run.get() }, run, node as usize, permit);
        permit = false;
        match step {
            Step::Next(next) => node = next,
            Step::Switch(to, next) => (run, node) = (to, next),
            Step::Held => return,
            Step::Done => match finish_unit(run) {
                Some((to, next)) => (run, node) = (to, next),
                None => return,
            },
        }
    }
}

/// Runs one activation of `node` (`me` points at `run`).
fn execute(run: &Run, me: RunRef, node: usize, permit: bool) -> Step {
    let graph = run.graph();
    let spec = &graph.nodes()[node];
    let limit = spec.limit.as_ref();
    if run.cancelled() {
        if permit {
            limit.map(crate::Limit::release);
        }
        return complete(run, me, node, Ended::Cancelled);
    }
    if let (Some(limit), false) = (limit, permit) {
        if !limit.acquire_or_wait(|| Activation::new(me, node as u32)) {
            return Step::Held;
        }
    }
    let started = run.note_start(node);
    let ended = match &spec.work {
        Work::Task(body) => {
            // SAFETY: this thread runs the node's only activation.
            let result = call(run, node, |deps| unsafe { body.get() }(deps));
            limit.map(crate::Limit::release);
            match result {
                Ok(output) => {
                    run.store_output(node, output);
                    Ended::Completed { branch: None }
                }
                Err(message) => Ended::Failed(NodeStatus::Panicked(message)),
            }
        }
        Work::Condition { body, branches } => {
            // SAFETY: this thread runs the node's only activation.
            let result = call(run, node, |deps| unsafe { body.get() }(deps));
            limit.map(crate::Limit::release);
            match result {
                Ok(index) => {
                    run.store_output(node, Arc::new(index));
                    Ended::Completed {
                        branch: branches.get(index).copied(),
                    }
                }
                Err(message) => Ended::Failed(NodeStatus::Panicked(message)),
            }
        }
        Work::Subgraph(body) => {
            let mut sub = Subgraph::new();
            // SAFETY: this thread runs the node's only activation.
            let result = call(run, node, |deps| unsafe { body.get() }(deps, &mut sub));
            limit.map(crate::Limit::release);
            match result {
                Err(message) => {
                    drop_quietly(sub);
                    Ended::Failed(NodeStatus::Panicked(message))
                }
                Ok(output) => {
                    run.store_output(node, output);
                    let (mut graph, detached) = sub.into_parts();
                    if graph.is_empty() {
                        Ended::Completed { branch: None }
                    } else {
                        prepare(&mut graph);
                        let graph = SubgraphRef::Built(Box::new(graph));
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
            let inner: &crate::TaskGraph = inner;
            return run.start_subgraph(me, node as u32, SubgraphRef::Inner(inner), true);
        }
    };
    run.note_end(node, started);
    complete(run, me, node, ended)
}

/// Calls a node's closure with its prerequisites' outputs, catching a panic.
fn call<R>(
    run: &Run,
    node: usize,
    f: impl FnOnce(&DependencyResults<'_>) -> R,
) -> Result<R, String> {
    let deps = DependencyResults::new(run, node);
    let result = catch_unwind(AssertUnwindSafe(|| f(&deps)));
    drop_quietly(deps);
    result.map_err(panic_message)
}

/// Ends the activation of graph or subgraph node `node` of `run` (`me`)
/// whose subgraph ended with `outcome`.
pub(crate) fn finish_subgraph(run: &Run, me: RunRef, node: u32, outcome: GraphOutcome) -> Step {
    let node = node as usize;
    let failed = outcome
        .iter()
        .find(|(_, status)| status.is_failure() && !matches!(status, NodeStatus::Skipped));
    let ended = match failed {
        Some((id, status)) => Ended::Failed(NodeStatus::SubgraphFailed {
            node: id,
            status: Box::new(status.clone()),
        }),
        None if outcome
            .iter()
            .any(|(_, status)| *status == NodeStatus::Cancelled) =>
        {
            Ended::Cancelled
        }
        None => Ended::Completed { branch: None },
    };
    if matches!(run.graph().nodes()[node].work, Work::Graph(_)) {
        run.store_output(node, Arc::new(outcome));
    } else {
        drop_quietly(outcome);
    }
    run.note_end(node, run.started_at(node));
    complete(run, me, node, ended)
}

/// Records how the activation of `node` ended and releases what that made
/// ready: the dependents whose last awaited completion this was, and the
/// branch a condition took. The most preferred one that is not of a less
/// urgent class than `node` is this thread's to run next (with the unit);
/// the others are submitted.
fn complete(run: &Run, me: RunRef, node: usize, ended: Ended) -> Step {
    let plan = run.plan();
    let mut ready = Ready::new();
    match ended {
        Ended::Completed { branch } => {
            run.count_run(node);
            run.set_code(node, Code::Completed);
            for &dependent in plan.dependents_of(node) {
                let d = dependent as usize;
                let in_degree = plan.in_degree[d];
                if in_degree == 1 {
                    activate(plan, &mut ready, dependent);
                } else if plan.joins[d].count_down() {
                    if !plan.cyclic {
                        plan.joins[d].rearm_alone(in_degree);
                    } else if plan.joins[d].rearm_shared(in_degree) {
                        // The next round completed meanwhile: a second
                        // activation.
                        activate(plan, &mut ready, dependent);
                    }
                    activate(plan, &mut ready, dependent);
                }
            }
            if let Some(target) = branch {
                activate(plan, &mut ready, target);
            }
        }
        Ended::Failed(status) => {
            run.count_run(node);
            run.record_failure(node, status);
        }
        Ended::Cancelled => run.set_code(node, Code::Cancelled),
    }
    if plan.cyclic && plan.activations[node].finish() {
        // Activated again while it ran: it runs again.
        ready.push(node as u32);
    }
    dispatch(run, me, run.graph().nodes()[node].priority, &ready)
}

/// Counts an activation of `node`; in a graph with conditions, one that
/// finds the node running is left to its runner.
#[inline]
fn activate(plan: &Plan, ready: &mut Ready, node: u32) {
    if !plan.cyclic || plan.activations[node as usize].activate() {
        ready.push(node);
    }
}

/// Keeps the last ready node for this thread if it is not of a less urgent
/// class than `priority`, and submits the others, in order.
#[inline]
fn dispatch(run: &Run, me: RunRef, priority: Priority, ready: &Ready) -> Step {
    let Some(last) = ready.last() else {
        return Step::Done;
    };
    let keep = run.graph().nodes()[last as usize].priority <= priority;
    let submit = ready.len() - usize::from(keep);
    run.pending.add(submit);
    for node in ready.iter().take(submit) {
        run.launch_node(me, node, false);
    }
    if keep {
        Step::Next(last)
    } else {
        Step::Done
    }
}

/// The nodes one completion made ready, in the order they were found: a
/// few inline, more on the heap.
struct Ready {
    inline: [u32; 8],
    len: usize,
    spill: Vec<u32>,
}

impl Ready {
    #[inline]
    fn new() -> Self {
        Self {
            inline: [0; 8],
            len: 0,
            spill: Vec::new(),
        }
    }

    #[inline]
    fn push(&mut self, node: u32) {
        if self.len < self.inline.len() {
            self.inline[self.len] = node;
        } else {
            self.spill.push(node);
        }
        self.len += 1;
    }

    #[inline]
    fn len(&self) -> usize {
        self.len
    }

    #[inline]
    fn last(&self) -> Option<u32> {
        match self.len {
            0 => None,
            n if n <= self.inline.len() => Some(self.inline[n - 1]),
            _ => self.spill.last().copied(),
        }
    }

    fn iter(&self) -> impl Iterator<Item = u32> + '_ {
        self.inline[..self.len.min(self.inline.len())]
            .iter()
            .chain(self.spill.iter())
            .copied()
    }
}
