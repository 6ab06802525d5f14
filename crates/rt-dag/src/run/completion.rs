//! How an activation ends: its status recorded, and for a completion, the
//! nodes it makes ready released on the thread that ran it (`RUN.md`,
//! "Release where the work finished").

use std::sync::Arc;

use super::activation::Activation;
use super::outcome::GraphOutcome;
use super::state::{Run, RunRef};
use super::step::Step;
use crate::graph::node::Work;
use crate::graph::plan::Plan;
use crate::graph::TaskGraph;
use crate::quiet::drop_quietly;
use crate::status::Code;
use crate::NodeStatus;

/// How an activation ended.
pub(crate) enum Ended {
    /// The closure returned (and its subgraph completed); a condition took
    /// the branches `taken`.
    Completed { taken: Taken },
    /// `Panicked`, `Failed`, `SubgraphFailed`, `Rejected` (a pipeline
    /// node's stage refused) or `Invalid`.
    Failed(NodeStatus),
    /// The run was cancelled before the node started.
    Cancelled,
    /// The node's closure ran (or its inner graph started), but the run was
    /// cancelled while its subgraph ran.
    SubgraphCancelled,
}

/// The branches a condition took: the nodes it starts.
pub(crate) enum Taken {
    None,
    One(u32),
    /// A multi-condition's, each once.
    Many(Vec<u32>),
}

impl Taken {
    /// The branch a condition's `index` names, if any.
    pub(crate) fn one(branches: &[u32], index: usize) -> Self {
        match branches.get(index) {
            Some(&target) => Taken::One(target),
            None => Taken::None,
        }
    }

    /// The branches a multi-condition's `indices` name, each once; indices
    /// past the last branch name none.
    pub(crate) fn many(branches: &[u32], indices: &[usize]) -> Self {
        let mut targets: Vec<u32> = indices
            .iter()
            .filter_map(|&index| branches.get(index).copied())
            .collect();
        targets.sort_unstable();
        targets.dedup();
        Taken::Many(targets)
    }
}

/// Ends the activation of graph, module or subgraph node `node` of `run`
/// (`me`) whose subgraph ended with `outcome`.
pub(crate) fn finish_subgraph(run: &Run, me: RunRef, node: u32, outcome: GraphOutcome) -> Step {
    let node = node as usize;
    let mut outcome = outcome;
    let failed = (0..outcome.len()).find(|&index| {
        let status = outcome.status_at(index);
        status.is_failure() && !matches!(status, NodeStatus::Skipped { .. })
    });
    let ended = match failed {
        // The failure's status moves up, with a panic's payload; the inner
        // outcome keeps a copy of it.
        Some(index) => Ended::Failed(NodeStatus::SubgraphFailed {
            node: outcome.name_at(index),
            status: Box::new(outcome.take_status(index)),
        }),
        None if outcome.iter().any(|(_, status)| {
            matches!(
                status,
                NodeStatus::Cancelled | NodeStatus::SubgraphCancelled
            )
        }) =>
        {
            Ended::SubgraphCancelled
        }
        None => Ended::Completed { taken: Taken::None },
    };
    // A graph or module node's output is its inner outcome, kept whatever
    // became of the inner run (the outcome keeps it for `Completed`,
    // `SubgraphFailed` and `SubgraphCancelled`, `sweep.rs`).
    match run.graph().nodes()[node].work {
        Work::Graph(_) => run.store_output(node, Arc::new(outcome)),
        Work::Module(_) => {
            run.store_output(node, Arc::new(outcome));
            // The module's run ended: the next run of it may start.
            run.give_back_taken(node, 1);
        }
        _ => drop_quietly(outcome),
    }
    if run.graph().meta[node].limited {
        run.give_back_held_for(run.plan(), node);
    }
    run.note_end(node, run.started_at(node));
    complete(run, run.graph(), run.plan(), me, node, ended)
}

/// Records how the activation of `node` ended; a completion releases what
/// it made ready ([`release`]).
pub(crate) fn complete(
    run: &Run,
    graph: &TaskGraph,
    plan: &Plan,
    me: RunRef,
    node: usize,
    ended: Ended,
) -> Step {
    match ended {
        Ended::Completed { taken } => return release(run, graph, plan, me, node, taken),
        Ended::Failed(status) => {
            if status.ran() {
                run.count_run(node);
            }
            run.record_failure(node, status);
        }
        Ended::Cancelled => run.set_code(node, Code::Cancelled),
        Ended::SubgraphCancelled => {
            run.count_run(node);
            run.set_code(node, Code::SubgraphCancelled);
        }
    }
    run.strand_after(plan, node);
    let mut release = Release::new(run, graph, plan, me);
    release.again(node);
    release.finish(node)
}

/// Records that `node` completed and releases what that made ready: the
/// dependents whose last awaited completion this was, and the branches a
/// condition took. The most preferred of them (the last found: dependents
/// are listed most preferred last) that is not of a less urgent class than
/// `node` is this thread's to run next, with the unit; the others are
/// submitted as they are found.
#[inline(always)]
pub(crate) fn release(
    run: &Run,
    graph: &TaskGraph,
    plan: &Plan,
    me: RunRef,
    node: usize,
    taken: Taken,
) -> Step {
    let mut release = Release::new(run, graph, plan, me);
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
    match taken {
        Taken::None => {}
        Taken::One(target) => release.activate(target),
        Taken::Many(targets) => {
            for target in targets {
                release.activate(target);
            }
        }
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

impl<'r> Release<'r> {
    #[inline(always)]
    fn new(run: &'r Run, graph: &'r TaskGraph, plan: &'r Plan, me: RunRef) -> Self {
        Self {
            run,
            graph,
            plan,
            me,
            kept: None,
        }
    }

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
        Activation::new(self.me, node).launch();
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
