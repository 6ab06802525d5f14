//! One node as the graph stores it: what it runs, and its settings.

use std::cell::UnsafeCell;
use std::collections::BTreeMap;
use std::fmt;
use std::sync::Arc;
use std::time::Duration;

use rt_queue::Priority;

use super::output::Output;
use super::subgraph::Subgraph;
use super::TaskGraph;
use crate::node_name::Labels;
use crate::pipeline::PipelineNode;
use crate::{DependencyResults, Limit, Module, NodeError};

/// A task's closure, its output type erased.
/// `None` for a `()` output, which needs no storage.
pub(crate) type TaskBody = Box<dyn FnMut(&DependencyResults<'_>) -> Option<Output> + Send>;
/// A fallible task's closure: its output, or the error that fails it.
pub(crate) type FallibleBody =
    Box<dyn FnMut(&DependencyResults<'_>) -> Result<Option<Output>, NodeError> + Send>;
/// A run-once task's closure: taken out of its slot by the one run that
/// calls it.
pub(crate) type OnceBody = Box<dyn FnOnce(&DependencyResults<'_>) -> Option<Output> + Send>;
/// A condition's closure: the index of the branch to take.
pub(crate) type ConditionBody = Box<dyn FnMut(&DependencyResults<'_>) -> usize + Send>;
/// A multi-condition's closure: the indices of the branches to take.
pub(crate) type MultiConditionBody = Box<dyn FnMut(&DependencyResults<'_>) -> Vec<usize> + Send>;
/// A subgraph node's closure: it may add nodes to the subgraph it is given.
pub(crate) type SubgraphBody =
    Box<dyn FnMut(&DependencyResults<'_>, &mut Subgraph) -> Option<Output> + Send>;

/// What a node does when it runs. Two words and a tag: the runs read one
/// per node, so the nodes are kept small (settings only building, drawing
/// and errors read live beside them, in `Cold`).
pub(crate) enum Work {
    /// Calls its closure; dependents start once it returns.
    Task(Callable<TaskBody>),
    /// Calls its closure; dependents start once it returns `Ok`.
    Fallible(Callable<FallibleBody>),
    /// Calls its closure the first time it runs; it has no work after.
    TaskOnce(Callable<Option<OnceBody>>),
    /// Calls its closure, then starts the branch (or branches) it chose.
    Condition(Box<Condition>),
    /// Calls its closure, then runs the subgraph the closure built.
    Subgraph(Callable<SubgraphBody>),
    /// Runs another graph, its own.
    Graph(Box<TaskGraph>),
    /// Runs a pipeline; dependents start once it is over.
    Pipeline(Callable<Box<dyn PipelineNode>>),
    /// Runs a graph shared with other nodes and graphs, once it has it to
    /// itself.
    Module(Module),
    /// No work yet: the node fails if it runs before its work is set.
    Placeholder,
}

/// A condition node's closure and branches.
pub(crate) struct Condition {
    pub(crate) body: ConditionKind,
    /// The nodes it may start, by the index the closure returns.
    pub(crate) branches: Vec<u32>,
}

/// What a condition's closure returns: one branch, or several.
pub(crate) enum ConditionKind {
    One(Callable<ConditionBody>),
    Many(Callable<MultiConditionBody>),
}

/// A closure the runs call through a shared reference to the graph.
///
/// A run borrows its graph exclusively (`TaskGraph::run` takes `&mut
/// self`) and shares it with the threads that run its nodes, each of which
/// calls the closures of the nodes it runs. A node never runs twice at once
/// (`run/RUN.md`, "One runner per node"), so each call has the closure to
/// itself: that is the invariant every `call` relies on.
pub(crate) struct Callable<F>(UnsafeCell<F>);

impl<F> Callable<F> {
    pub(crate) fn new(f: F) -> Self {
        Self(UnsafeCell::new(f))
    }

    /// The closure, for the one thread running its node now.
    ///
    /// # Safety
    ///
    /// No other reference to the closure may exist while the returned one
    /// lives: the caller runs the node's only activation (`run/RUN.md`,
    /// "One runner per node"), or holds the graph exclusively.
    #[allow(clippy::mut_from_ref)]
    pub(crate) unsafe fn get(&self) -> &mut F {
        // SAFETY: exclusive by the caller's contract.
        unsafe { &mut *self.0.get() }
    }
}

// SAFETY: the closures are `Send`; a shared `Callable` only lets one thread
// at a time reach its closure (see `get`), each reach ordered after the
// previous one by the run's release protocol, which is what moving the
// closure between threads would need.
unsafe impl<F: Send> Sync for Callable<F> {}

/// One node of a [`TaskGraph`], as the runs read it: what it does. Its
/// settings are in [`Cold`] and, for the runs, in the plan.
pub(crate) struct Node {
    pub(crate) work: Work,
}

impl Node {
    /// The node's kind, for `Debug` and `to_dot`.
    pub(crate) fn kind(&self) -> NodeKind {
        match &self.work {
            Work::Task(_) | Work::Fallible(_) | Work::TaskOnce(_) => NodeKind::Task,
            Work::Condition(condition) => match condition.body {
                ConditionKind::One(_) => NodeKind::Condition,
                ConditionKind::Many(_) => NodeKind::MultiCondition,
            },
            Work::Subgraph(_) => NodeKind::Subgraph,
            Work::Graph(_) => NodeKind::Graph,
            Work::Pipeline(_) => NodeKind::Pipeline,
            Work::Module(_) => NodeKind::Module,
            Work::Placeholder => NodeKind::Placeholder,
        }
    }

    pub(crate) fn branches(&self) -> &[u32] {
        match &self.work {
            Work::Condition(condition) => &condition.branches,
            _ => &[],
        }
    }
}

/// What the thread that released a node needs to know about it, in eight
/// bytes: kept per node as the graph is built, read by the runs.
#[derive(Debug, Clone, Copy)]
pub(crate) struct NodeMeta {
    /// Number of declared prerequisites: what its counter is armed at.
    pub(crate) in_degree: u32,
    pub(crate) priority: Priority,
    /// The node takes permits of limits before it runs, or gives back
    /// permits another node took ([`Acquisition`]).
    pub(crate) limited: bool,
    /// Some prerequisite's output is stored (not `()`).
    pub(crate) reads_outputs: bool,
    /// Some condition has the node as a branch.
    pub(crate) branch_target: bool,
}

/// What only building a graph, drawing it and reporting errors read,
/// kept apart from the nodes.
#[derive(Default)]
pub(crate) struct Cold {
    /// Shared with the outcomes of the runs, which name nodes by them.
    pub(crate) labels: Arc<Labels>,
    /// The permits each limited node takes before it runs, in the order
    /// it takes them (`Limit::order`).
    pub(crate) limits: BTreeMap<u32, Vec<Acquisition>>,
    /// The user's estimates of the nodes' running times.
    pub(crate) costs: BTreeMap<u32, Duration>,
}

/// A permit of `limit` a node takes before it runs, given back once node
/// `until` ran: the node itself (it holds the permit while it runs), or a
/// node after it.
#[derive(Clone)]
pub(crate) struct Acquisition {
    pub(crate) limit: Limit,
    pub(crate) until: u32,
}

/// What kind of node a [`NodeId`](crate::NodeId) names.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum NodeKind {
    /// A closure whose output its dependents read ([`TaskGraph::add_task`],
    /// [`TaskGraph::add_fallible_task`], [`TaskGraph::add_task_once`]).
    Task,
    /// A closure that chooses which of its branches runs next
    /// ([`TaskGraph::add_condition`]).
    Condition,
    /// A closure that chooses several of its branches, which all start
    /// ([`TaskGraph::add_multi_condition`]).
    MultiCondition,
    /// A closure that builds a subgraph, which runs before the node's
    /// dependents start ([`TaskGraph::add_subgraph`]).
    Subgraph,
    /// Another graph, run as one node ([`TaskGraph::add_graph`]).
    Graph,
    /// A pipeline, run as one node ([`TaskGraph::add_pipeline`]).
    Pipeline,
    /// A graph shared by reference, run as one node
    /// ([`TaskGraph::add_module`]).
    Module,
    /// A node whose work is not set yet ([`TaskGraph::add_placeholder`]).
    Placeholder,
}

impl fmt::Display for NodeKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            NodeKind::Task => "task",
            NodeKind::Condition => "condition",
            NodeKind::MultiCondition => "multi-condition",
            NodeKind::Subgraph => "subgraph",
            NodeKind::Graph => "graph",
            NodeKind::Pipeline => "pipeline",
            NodeKind::Module => "module",
            NodeKind::Placeholder => "placeholder",
        })
    }
}
