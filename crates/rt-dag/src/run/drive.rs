//! Running a node's activation and releasing what it makes ready, on the
//! thread that ran it (`RUN.md`, "Release where the work finished").

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::Arc;

use super::plan::Plan;
use super::state::{finish_unit, Activation, Run, RunRef, SubgraphRef};
use super::{prepare, DependencyResults, Subgraph};
use crate::graph::Work;
use crate::quiet::{drop_quietly, panic_message};
use crate::status::Code;
use crate::{GraphOutcome, NodeStatus, TaskGraph};

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
        Err(message) => complete(
            run,
            graph,
            plan,
            me,
            node,
            Ended::Failed(NodeStatus::Panicked(message)),
        ),
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
                Err(message) => Ended::Failed(NodeStatus::Panicked(message)),
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
                    if let Some(output) = output {
                        run.store_output(node, output);
                    }
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
            let inner: &TaskGraph = inner;
            return run.start_subgraph(me, node as u32, SubgraphRef::Inner(inner), true);
        }
    };
    run.note_end(node, started);
    complete(run, graph, plan, me, node, ended)
}

/// Calls a node's closure with its prerequisites' outputs, catching a panic.
#[inline]
fn call<R>(
    run: &Run,
    node: usize,
    f: impl FnOnce(&DependencyResults<'_>) -> R,
) -> Result<R, String> {
    let deps = DependencyResults::new(run, node);
    // Dropping `deps` drops references to outputs the run still holds: no
    // user code runs then.
    catch_unwind(AssertUnwindSafe(|| f(&deps))).map_err(panic_message)
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
    complete(run, run.graph(), run.plan(), me, node, ended)
}

/// Records how the activation of `node` ended; a completion releases what
/// it made ready ([`release`]).
fn complete(
    run: &Run,
    graph: &TaskGraph,
    plan: &Plan,
    me: RunRef,
    node: usize,
    ended: Ended,
) -> Step {
    match ended {
        Ended::Completed { branch } => return release(run, graph, plan, me, node, branch),
        Ended::Failed(status) => {
            run.count_run(node);
            run.record_failure(node, status);
        }
        Ended::Cancelled => run.set_code(node, Code::Cancelled),
    }
    let mut release = Release {
        run,
        graph,
        plan,
        me,
        kept: None,
    };
    release.again(node);
    release.finish(node)
}

/// Records that `node` completed and releases what that made ready: the
/// dependents whose last awaited completion this was, and the branch a
/// condition took. The most preferred of them (the last found: dependents
/// are listed most preferred last) that is not of a less urgent class than
/// `node` is this thread's to run next, with the unit; the others are
/// submitted as they are found.
#[inline(always)]
fn release(
    run: &Run,
    graph: &TaskGraph,
    plan: &Plan,
    me: RunRef,
    node: usize,
    branch: Option<u32>,
) -> Step {
    let mut release = Release {
        run,
        graph,
        plan,
        me,
        kept: None,
    };
    if plan.cyclic {
        run.count_run(node);
        run.set_code(node, Code::Completed);
    }
    for &dependent in plan.dependents_of(node) {
        let join = &graph.joins[dependent as usize];
        if join.count_down() {
            let in_degree = graph.meta[dependent as usize].in_degree;
            if !plan.cyclic {
                join.rearm_alone(in_degree);
            } else if join.rearm_shared(in_degree) {
                // The next round completed meanwhile: a second activation.
                release.activate(dependent);
            }
            release.activate(dependent);
        }
    }
    if let Some(target) = branch {
        release.activate(target);
    }
    release.again(node);
    release.finish(node)
}

/// The nodes one completion makes ready: the last found is kept, each
/// earlier one submitted when a later one is found.
struct Release<'r> {
    run: &'r Run,
    graph: &'r TaskGraph,
    plan: &'r Plan,
    me: RunRef,
    kept: Option<u32>,
}

impl Release<'_> {
    /// Counts an activation of `node`; in a graph with conditions, one that
    /// finds the node running is left to its runner.
    #[inline(always)]
    fn activate(&mut self, node: u32) {
        if !self.plan.cyclic || self.plan.activations[node as usize].activate() {
            self.found(node);
        }
    }

    #[inline(always)]
    fn found(&mut self, node: u32) {
        if let Some(earlier) = self.kept.replace(node) {
            self.submit(earlier);
        }
    }

    fn submit(&self, node: u32) {
        self.run.pending.add(1);
        self.run.launch_node(self.me, node, false);
    }

    /// In a graph with conditions, a node activated again while it ran
    /// runs again.
    #[inline(always)]
    fn again(&mut self, node: usize) {
        if self.plan.cyclic && self.plan.activations[node].finish() {
            self.found(node as u32);
        }
    }

    /// Keeps the last node found for this thread if it is not of a less
    /// urgent class than `node`, which released it.
    #[inline(always)]
    fn finish(self, node: usize) -> Step {
        match self.kept {
            Some(next)
                if self.graph.meta[next as usize].priority <= self.graph.meta[node].priority =>
            {
                Step::Next(next)
            }
            Some(next) => {
                self.submit(next);
                Step::Done
            }
            None => Step::Done,
        }
    }
}
