//! A run's life, in one place: how it starts, how a thread holding one of
//! its units runs a node's activation and what that makes ready, how an
//! activation ends (its status recorded, its dependents released on the
//! thread that finished it), and how the run's last unit ends the run
//! (`RUN.md` beside this file has the protocol and its argument).
//!
//! The owner of all of it is the run: the steps are methods of [`RunRef`],
//! the handle of a unit of the run, which derive the run's state, graph and
//! plan from it rather than being handed them beside it. Every method of
//! `RunRef` here is called by a thread that holds a unit of that run (the
//! `RunRef`'s own contract, `state.rs`), which keeps the run alive.

use std::any::Any;
use std::fmt;
use std::mem::ManuallyDrop;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::Arc;

use rt_handle::PanicMessage;
use rt_queue::Priority;

use super::launch;
use super::outcome::GraphOutcome;
use super::results::DependencyResults;
use super::route::Launch;
use super::state::{End, GraphRef, Run, RunRef};
use super::sweep::outcome_of;
use crate::graph::node::{ConditionKind, Work};
use crate::graph::output::Output;
use crate::graph::Subgraph;
use crate::pipeline::NodeEnd;
use crate::status::Code;
use crate::{GraphError, NodeError, NodeId, NodeStatus, PipelineError, PipelineReport};
use rt_handle::raw::drop_quietly;

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
    /// subgraph or pipeline).
    Held,
}

/// One activation of one node, holding a unit of its run: what a job
/// carries, what waits in a limit's queue, and what the future of an
/// awaited run submits.
///
/// Started, it runs its node and what that makes ready
/// ([`RunRef::drive`]). Dropped without being started (the executor
/// refused or discarded its job, or the future that was to submit it is
/// gone), it records the node as `Rejected` and gives its unit (and the
/// permits it holds) back.
pub(crate) struct Activation {
    run: RunRef,
    node: u32,
    /// How many of the permits its node takes before it runs the
    /// activation holds already, in the order the node takes them: those
    /// of its limits, or, for a module node, its module's
    /// (`permits.rs`).
    held: u32,
}

impl Activation {
    pub(crate) fn new(run: RunRef, node: u32) -> Self {
        Self::holding(run, node, 0)
    }

    /// An activation that holds the first `held` permits its node takes.
    pub(crate) fn holding(run: RunRef, node: u32, held: u32) -> Self {
        Self { run, node, held }
    }

    /// The same activation, holding one more permit: the one a limit's
    /// queue handed it.
    pub(crate) fn with_permit(mut self) -> Self {
        self.held += 1;
        self
    }

    /// Its run, its node, and how many of its node's permits it holds.
    fn parts(&self) -> (RunRef, u32, u32) {
        (self.run, self.node, self.held)
    }

    /// Takes the activation apart without its `Drop`, which would reject
    /// it: the caller, which starts it, takes over its unit and permits.
    #[inline]
    fn into_parts(self) -> (RunRef, u32, u32) {
        ManuallyDrop::new(self).parts()
    }

    /// Hands the activation to the executor, or to the future awaiting the
    /// run.
    pub(crate) fn launch(self) {
        // SAFETY: an activation holds a unit of its run.
        let run = unsafe { self.run.get() };
        let priority: Priority = run.graph().meta[self.node as usize].priority;
        match &run.launch {
            // SAFETY: the executor outlives the run's units (`ExecutorPtr`).
            Launch::Executor(executor) => launch::submit(unsafe { executor.get() }, priority, self),
            // The desk's tickets go at Normal: the waiter takes the jobs in
            // the order they came.
            Launch::Helped(desk) => desk.hand(launch::job_of(self)),
            Launch::Future(inbox) => inbox.push(priority, launch::job_of(self)),
        }
    }
}

/// An activation's job: the activation's unit (and permits) pass to
/// [`RunRef::drive`].
impl launch::Startable for Activation {
    #[inline]
    fn start(self) {
        let (run, node, held) = self.into_parts();
        run.drive(node, held);
    }
}

/// An activation dropped without being started: its node is `Rejected`,
/// and its unit (and its permits) given back.
impl Drop for Activation {
    fn drop(&mut self) {
        let (me, node, held) = self.parts();
        // SAFETY: an activation holds a unit of its run.
        let run = unsafe { me.get() };
        let node = node as usize;
        run.give_back_taken(node, held);
        run.set_code(node, Code::Rejected);
        let plan = run.plan();
        run.strand_after(plan, node);
        if plan.cyclic {
            // Activations that came in for this one to run are not run
            // either.
            while plan.activations[node].finish() {}
        }
        if let Some(next) = me.finish_unit() {
            launch_continuation(next);
        }
    }
}

impl fmt::Debug for Activation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Activation")
            .field("node", &self.node)
            .field("held", &self.held)
            .finish()
    }
}

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
    fn one(branches: &[u32], index: usize) -> Self {
        match branches.get(index) {
            Some(&target) => Taken::One(target),
            None => Taken::None,
        }
    }

    /// The branches a multi-condition's `indices` name, each once; indices
    /// past the last branch name none.
    fn many(branches: &[u32], indices: &[usize]) -> Self {
        let mut targets: Vec<u32> = indices
            .iter()
            .filter_map(|&index| branches.get(index).copied())
            .collect();
        targets.sort_unstable();
        targets.dedup();
        Taken::Many(targets)
    }
}

// ---------------------------------------------------------------------
// Starting a run (`RUN.md`, "Units: why everything a job touches is
// alive" and "Subgraphs and graph nodes").
// ---------------------------------------------------------------------

impl Run {
    /// Starts the run: submits its entries and gives the caller's unit
    /// back. Never unwinds: a panicking `submit` is contained
    /// (`launch::submit`), so the caller always gets to wait for the end.
    pub(crate) fn start(self: &Arc<Self>) {
        let me = self.hold_itself();
        let entries = &self.plan().entries;
        self.pending.add(entries.len());
        for &entry in entries.iter() {
            self.activate_entry(entry);
            Activation::new(me, entry).launch();
        }
        // The caller's unit; the run may end here (no entries, or every
        // entry done already).
        if let Some(next) = me.finish_unit() {
            launch_continuation(next);
        }
    }

    /// Starts the run of a subgraph from the thread that made it: this
    /// thread runs the most preferred entry next (the returned step), the
    /// others are submitted. The caller's unit passes to that entry.
    fn start_here(self: &Arc<Self>) -> Step {
        let me = self.hold_itself();
        let entries = &self.plan().entries;
        let Some((&first, rest)) = entries.split_first() else {
            return match me.finish_unit() {
                Some((run, node)) => Step::Switch(run, node),
                None => Step::Held,
            };
        };
        self.pending.add(rest.len());
        for &entry in rest.iter().rev() {
            self.activate_entry(entry);
            Activation::new(me, entry).launch();
        }
        self.activate_entry(first);
        Step::Switch(me, first)
    }

    fn activate_entry(&self, entry: u32) {
        let plan = self.plan();
        if plan.cyclic {
            // Entries are activated first: nobody else activates them yet.
            let first = plan.activations[entry as usize].activate();
            debug_assert!(first, "an entry is activated once at the start");
        }
    }

    /// Calls a node's closure with its prerequisites' outputs, catching a
    /// panic, whose payload it returns.
    #[inline]
    fn call<R>(
        &self,
        node: usize,
        f: impl FnOnce(&DependencyResults<'_>) -> R,
    ) -> Result<R, Box<dyn Any + Send>> {
        let deps = DependencyResults::new(self, node);
        // Dropping `deps` drops references to outputs the run still holds:
        // no user code runs then.
        catch_unwind(AssertUnwindSafe(|| f(&deps)))
    }

    /// A task or condition node ran (`ok`: and returned, without an
    /// error): what it owes its limits, if it has any.
    #[inline]
    fn ran(&self, node: usize, limited: bool, ok: bool) {
        if limited {
            let plan = self.plan();
            self.after_running(plan, node, ok);
            self.give_back_held_for(plan, node);
        }
    }

    /// Why `node` cannot run, if it cannot: a placeholder, a run-once node
    /// that ran already, a module node inside a run of its own module.
    fn cannot_run(&self, node: usize, work: &Work) -> Option<GraphError> {
        let graph = self.graph();
        match work {
            Work::Placeholder => Some(GraphError::NoWork {
                node: graph.name_of(node),
            }),
            // SAFETY: this thread runs the node's only activation.
            Work::TaskOnce(body) if unsafe { body.get() }.is_none() => {
                Some(GraphError::AlreadyRan {
                    node: graph.name_of(node),
                })
            }
            Work::Module(module) if self.is_inside(module.id()) => {
                Some(GraphError::ComposedIntoItself {
                    module: module.id(),
                    into: graph.id(),
                })
            }
            _ => None,
        }
    }
}

impl RunRef {
    /// Starts the run of `graph`, the subgraph node `node` of this run
    /// built, or the inner graph of graph node `node`. It shares this run's
    /// executor (or inbox) and token. Joined, the node completes when it
    /// ends, and the returned step continues on this thread with its first
    /// entry; detached, the subgraph's entries are submitted, its outcome
    /// joins this run's, and this run keeps one more unit until it ends.
    fn start_subgraph(self, node: u32, graph: GraphRef, joined: bool) -> Step {
        // SAFETY: the caller holds a unit of this run.
        let run = unsafe { self.get() };
        let end = End::Parent {
            parent: self,
            node,
            joined,
        };
        let child = Run::new(graph, run.launch.clone(), run.token.clone(), end);
        if joined {
            // The node's unit is the subgraph's now, until it ends.
            child.start_here()
        } else {
            run.pending.add(1);
            child.start();
            Step::Done
        }
    }

    // -----------------------------------------------------------------
    // Running activations (`RUN.md`, "Release where the work finished").
    // -----------------------------------------------------------------

    /// Runs the activation of `node` of this run, holding one of its units
    /// (and the first `held` permits the node takes), then whatever it
    /// makes ready that this thread keeps, until nothing is left for it.
    pub(crate) fn drive(self, node: u32, held: u32) {
        let (mut me, mut node, mut held) = (self, node, held);
        loop {
            let step = loop {
                match me.execute(node as usize, held) {
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
                Step::Done => match me.finish_unit() {
                    Some((to, next)) => (me, node) = (to, next),
                    None => return,
                },
                Step::Held => return,
                Step::Next(_) => unreachable!("handled in the inner loop"),
            }
        }
    }

    /// Goes on with `step`, which the end of something else (a pipeline's
    /// run) gave this thread for this run, holding its unit.
    fn continue_with(self, step: Step) {
        match step {
            Step::Next(node) => self.drive(node, 0),
            Step::Switch(run, node) => run.drive(node, 0),
            Step::Done => {
                if let Some((run, node)) = self.finish_unit() {
                    run.drive(node, 0);
                }
            }
            Step::Held => {}
        }
    }

    /// Runs one activation of `node`: the common case (a task, no limit,
    /// no token, no timings) here, the rest in
    /// [`execute_any`](Self::execute_any).
    #[inline(always)]
    fn execute(self, node: usize, held: u32) -> Step {
        // SAFETY: the caller holds a unit of this run.
        let run = unsafe { self.get() };
        let graph = run.graph();
        if run.observed || graph.meta[node].limited || held > 0 {
            return self.execute_any(node, held);
        }
        let Work::Task(body) = &graph.nodes()[node].work else {
            return self.execute_any(node, held);
        };
        // SAFETY: this thread runs the node's only activation.
        match run.call(node, |deps| unsafe { body.get() }(deps)) {
            Ok(output) => {
                if let Some(output) = output {
                    run.store_output(node, output);
                }
                self.release(node, Taken::None)
            }
            Err(payload) => self.complete(node, panicked(payload)),
        }
    }

    /// Runs one activation of any node, in any run: it first takes the
    /// permits the node needs (`held` it holds already), waiting in a
    /// queue, on no thread, for one that is not free.
    #[inline(never)]
    fn execute_any(self, node: usize, held: u32) -> Step {
        // SAFETY: the caller holds a unit of this run.
        let run = unsafe { self.get() };
        let graph = run.graph();
        let work = &graph.nodes()[node].work;
        let refused = if run.cancelled() {
            Some(Ended::Cancelled)
        } else {
            run.cannot_run(node, work)
                .map(|error| Ended::Failed(NodeStatus::Invalid(error)))
        };
        if let Some(ended) = refused {
            run.give_back_taken(node, held);
            return self.complete(node, ended);
        }
        let limited = graph.meta[node].limited;
        let mut held = held;
        if limited {
            let acquisitions = graph.acquisitions_of(node);
            while let Some(acquisition) = acquisitions.get(held as usize) {
                let waiter = || Activation::holding(self, node as u32, held);
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
                let result = run.call(node, |deps| unsafe { body.get() }(deps));
                run.ran(node, limited, result.is_ok());
                match result {
                    Ok(output) => completed(run, node, output),
                    Err(payload) => panicked(payload),
                }
            }
            Work::Fallible(body) => {
                // SAFETY: this thread runs the node's only activation.
                let result = run.call(node, |deps| unsafe { body.get() }(deps));
                run.ran(node, limited, matches!(result, Ok(Ok(_))));
                match result {
                    Ok(Ok(output)) => completed(run, node, output),
                    Ok(Err(error)) => Ended::Failed(NodeStatus::Failed(error)),
                    Err(payload) => panicked(payload),
                }
            }
            Work::TaskOnce(body) => {
                // SAFETY: this thread runs the node's only activation; the
                // closure is there (`cannot_run`), and taken out to be called.
                let f = unsafe { body.get() }.take().expect("checked by cannot_run");
                let result = run.call(node, f);
                run.ran(node, limited, result.is_ok());
                match result {
                    Ok(output) => completed(run, node, output),
                    Err(payload) => panicked(payload),
                }
            }
            Work::Condition(condition) => {
                let result = match &condition.body {
                    // SAFETY: this thread runs the node's only activation.
                    ConditionKind::One(body) => run
                        .call(node, |deps| unsafe { body.get() }(deps))
                        .map(|index| {
                            run.store_output(node, Arc::new(index));
                            Taken::one(&condition.branches, index)
                        }),
                    // SAFETY: as above.
                    ConditionKind::Many(body) => run
                        .call(node, |deps| unsafe { body.get() }(deps))
                        .map(|indices| {
                            let taken = Taken::many(&condition.branches, &indices);
                            run.store_output(node, Arc::new(indices));
                            taken
                        }),
                };
                run.ran(node, limited, result.is_ok());
                match result {
                    Ok(taken) => Ended::Completed { taken },
                    Err(payload) => panicked(payload),
                }
            }
            Work::Subgraph(body) => {
                let mut sub = Subgraph::inside(run.enclosing_graphs());
                // SAFETY: this thread runs the node's only activation.
                let result = run.call(node, |deps| unsafe { body.get() }(deps, &mut sub));
                if limited {
                    run.after_running(run.plan(), node, result.is_ok());
                }
                match result {
                    Err(payload) => {
                        drop_quietly(sub);
                        if limited {
                            run.give_back_held_for(run.plan(), node);
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
                                self.start_subgraph(node as u32, graph, false);
                            }
                            if limited {
                                run.give_back_held_for(run.plan(), node);
                            }
                            Ended::Completed { taken: Taken::None }
                        } else {
                            graph.prepare();
                            let graph = GraphRef::Owned(Box::new(graph));
                            return self.start_subgraph(node as u32, graph, true);
                        }
                    }
                }
            }
            Work::Graph(inner) => {
                let inner: &crate::TaskGraph = inner;
                return self.start_subgraph(node as u32, GraphRef::Borrowed(inner), true);
            }
            Work::Pipeline(pipeline) => {
                // Why this is sound: this thread runs the node's only activation,
                // holding its unit, which the pipeline's run takes over; the
                // graph stays borrowed until this run ends, which waits for
                // that unit. (A pipeline node takes no permit; one held for
                // it goes back when the pipeline's run ends,
                // `finish_pipeline_node`.) The starter's unit of the
                // pipeline's run is given back (dropped) only after `start`
                // returned: its end may end this run, and free the graph.
                let end = NodeEnd {
                    parent: self.erase(),
                    node: node as u32,
                    finish: finish_pipeline_node,
                };
                // SAFETY: the only activation; the graph outlives the run.
                let started = unsafe {
                    pipeline
                        .get()
                        .start(run.launch.clone(), run.token.clone(), end)
                };
                match started {
                    Ok(starter) => {
                        drop(starter);
                        return Step::Held;
                    }
                    Err(error) => {
                        if limited {
                            run.give_back_held_for(run.plan(), node);
                        }
                        Ended::Failed(pipeline_failure(error))
                    }
                }
            }
            Work::Module(module) => {
                if held == 0 {
                    let waiter = || Activation::holding(self, node as u32, 0);
                    if !module.access().acquire_or_wait(waiter) {
                        return Step::Held;
                    }
                }
                // SAFETY: this node holds the module's access permit until
                // its run of the module's graph ended (`finish_subgraph`
                // gives it back): nobody else touches the graph meanwhile.
                let inner = unsafe { module.graph_mut() };
                inner.prepare();
                let inner: &crate::TaskGraph = inner;
                return self.start_subgraph(node as u32, GraphRef::Borrowed(inner), true);
            }
            Work::Placeholder => unreachable!("refused by cannot_run"),
        };
        run.note_end(node, started);
        self.complete(node, ended)
    }

    // -----------------------------------------------------------------
    // How an activation ends: its status recorded, and for a completion,
    // the nodes it makes ready released on the thread that ran it.
    // -----------------------------------------------------------------

    /// Records how the activation of `node` ended; a completion releases
    /// what it made ready ([`release`](Self::release)).
    fn complete(self, node: usize, ended: Ended) -> Step {
        // SAFETY: the caller holds a unit of this run.
        let run = unsafe { self.get() };
        match ended {
            Ended::Completed { taken } => return self.release(node, taken),
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
        run.strand_after(run.plan(), node);
        let mut release = Release::new(self);
        release.again(node);
        release.finish(node)
    }

    /// Records that `node` completed and releases what that made ready:
    /// the dependents whose last awaited completion this was, and the
    /// branches a condition took. The most preferred of them (the last
    /// found: dependents are listed most preferred last) that is not of a
    /// less urgent class than `node` is this thread's to run next, with the
    /// unit; the others are submitted as they are found.
    #[inline(always)]
    fn release(self, node: usize, taken: Taken) -> Step {
        let mut release = Release::new(self);
        let (run, graph, plan) = (release.run, release.run.graph(), release.plan);
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
                    // The next round completed meanwhile: a second
                    // activation.
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

    /// Ends the activation of graph, module or subgraph node `node`, whose
    /// subgraph ended with `outcome`.
    fn finish_subgraph(self, node: u32, outcome: GraphOutcome) -> Step {
        // SAFETY: the caller holds the node's unit of this run.
        let run = unsafe { self.get() };
        let node = node as usize;
        let mut outcome = outcome;
        let failed = (0..outcome.len()).find(|&index| {
            let status = outcome.status_at(index);
            status.is_failure() && !matches!(status, NodeStatus::Skipped { .. })
        });
        let ended = match failed {
            // The failure's status moves up, with a panic's payload; the
            // inner outcome keeps a copy of it.
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
        // A graph or module node's output is its inner outcome, kept
        // whatever became of the inner run (the outcome keeps it for
        // `Completed`, `SubgraphFailed` and `SubgraphCancelled`, `sweep.rs`).
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
        self.complete(node, ended)
    }

    /// Ends the activation of pipeline node `node`, whose unit the caller
    /// holds (the pipeline's run held it), with what the pipeline's run
    /// came to: the node completes (its output the pipeline's report) or
    /// fails; then runs what that makes ready for this thread
    /// (`../pipeline/PIPELINE.md`, "A pipeline as a node").
    fn finish_pipeline_node(self, node: u32, result: Result<PipelineReport, PipelineError>) {
        // SAFETY: the caller holds the node's unit of this run.
        let run = unsafe { self.get() };
        let node = node as usize;
        let ended = match result {
            Ok(report) => {
                run.store_output(node, Arc::new(report));
                Ended::Completed { taken: Taken::None }
            }
            Err(PipelineError::Cancelled { .. }) => Ended::Cancelled,
            Err(error) => Ended::Failed(pipeline_failure(error)),
        };
        if run.graph().meta[node].limited {
            // A permit held from a node before this one until it ran goes
            // back.
            run.give_back_held_for(run.plan(), node);
        }
        run.note_end(node, run.started_at(node));
        let step = self.complete(node, ended);
        self.continue_with(step);
    }

    // -----------------------------------------------------------------
    // Giving a unit back, and the end of the run that the last unit makes
    // (`RUN.md`, "Units: why everything a job touches is alive" and "The
    // end of a run").
    // -----------------------------------------------------------------

    /// Gives back one unit of this run. If it was the run's last, ends the
    /// run: its caller is told, or the node whose subgraph it was
    /// completes; returns the node that made ready for this thread to run
    /// next (a dependent of that node), if any.
    pub(crate) fn finish_unit(self) -> Option<(RunRef, u32)> {
        let mut run = self;
        loop {
            // SAFETY: made by `hold_itself`, and the caller holds a unit of
            // `run`, counted by its `pending`.
            let this = unsafe { run.give_back(|run| &run.pending) }?;
            // The last unit: the run's reference to itself is ours now.
            // No permit is kept past the run that took it.
            this.give_back_holds();
            let (parent, node, joined) = match this.end() {
                End::Signal(signal) => {
                    signal.set();
                    drop_quietly(this);
                    return None;
                }
                &End::Parent {
                    parent,
                    node,
                    joined,
                } => (parent, node, joined),
            };
            let outcome = outcome_of(&this);
            drop_quietly(this);
            if joined {
                // A joined subgraph holds its node's unit of the parent run.
                match parent.finish_subgraph(node, outcome) {
                    Step::Next(next) => return Some((parent, next)),
                    Step::Switch(run, next) => return Some((run, next)),
                    Step::Held => return None,
                    Step::Done => run = parent,
                }
            } else {
                // SAFETY: a detached subgraph holds a unit of its own of the
                // parent run, given back on the next round of this loop.
                let parent_run = unsafe { parent.get() };
                let id = NodeId::new(parent_run.graph().id(), node as usize);
                parent_run
                    .detached
                    .lock()
                    .unwrap_or_else(|e| e.into_inner())
                    .push((id, outcome));
                run = parent;
            }
        }
    }
}

/// Submits work a run's end made ready on a thread that is not to run it
/// (the caller starting the run, or an executor dropping a job).
fn launch_continuation((run, node): (RunRef, u32)) {
    // The continuation holds a unit of `run`, which passes to its
    // activation.
    Activation::new(run, node).launch();
}

/// How an activation whose closure panicked ends: the payload is kept.
#[cold]
/// A task node's closure returned `output` (`None` for `()`): kept, and
/// the node completes.
fn completed(run: &Run, node: usize, output: Option<Output>) -> Ended {
    if let Some(output) = output {
        run.store_output(node, output);
    }
    Ended::Completed { taken: Taken::None }
}

fn panicked(payload: Box<dyn Any + Send>) -> Ended {
    Ended::Failed(NodeStatus::Panicked(PanicMessage::from_payload(payload)))
}

/// The node status of a pipeline node whose run failed: a stage's panic
/// is `Panicked` (its message, with the stage and item), a refusal
/// `Rejected`, a setup error (no lines, no pipes, ...) `Failed`.
fn pipeline_failure(error: PipelineError) -> NodeStatus {
    match error {
        PipelineError::Rejected { .. } => NodeStatus::Rejected,
        PipelineError::Panicked { .. } => {
            NodeStatus::Panicked(PanicMessage::from_payload(Box::new(error.to_string())))
        }
        other => NodeStatus::Failed(NodeError::new(other)),
    }
}

/// The nodes one completion makes ready: the last found is kept, each
/// earlier one submitted when a later one is found.
struct Release<'r> {
    me: RunRef,
    run: &'r Run,
    plan: &'r crate::graph::plan::Plan,
    kept: Option<u32>,
}

impl Release<'_> {
    #[inline(always)]
    fn new(me: RunRef) -> Self {
        // SAFETY: the caller holds a unit of `me`.
        let run = unsafe { me.get() };
        Self {
            me,
            run,
            plan: run.plan(),
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
        let meta = &self.run.graph().meta;
        match self.kept {
            Some(next) if meta[next as usize].priority <= meta[node].priority => Step::Next(next),
            Some(next) => {
                self.submit(next);
                Step::Done
            }
            None => Step::Done,
        }
    }
}

/// [`NodeEnd::finish`] for the pipeline nodes of a graph's run.
///
/// # Safety
///
/// As `NodeEnd::finish`'s, with `parent` erased from a [`RunRef`].
unsafe fn finish_pipeline_node(
    parent: *const (),
    node: u32,
    result: Result<PipelineReport, PipelineError>,
) {
    // SAFETY: erased from a `RunRef` where the node started; the caller
    // hands on that node's unit.
    unsafe { RunRef::from_erased(parent) }.finish_pipeline_node(node, result);
}
