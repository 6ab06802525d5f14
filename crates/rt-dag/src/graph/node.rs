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
use crate::{DependencyResults, Limit, NodeError};

/// A task's closure, its output type erased.
/// `None` for a `()` output, which needs no storage.
pub(crate) type TaskBody = Box<dyn FnMut(&DependencyResults<'_>) -> Option<Output> + Send>;
/// A fallible task's closure: its output, or the error that fails it.
pub(crate) type FallibleBody =
    Box<dyn FnMut(&DependencyResults<'_>) -> Result<Option<Output>, NodeError> + Send>;
/// A condition's closure: the index of the branch to take.
pub(crate) type ConditionBody = Box<dyn FnMut(&DependencyResults<'_>) -> usize + Send>;
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
    /// Calls its closure, then starts the branch it chose.
    Condition(Box<Condition>),
    /// Calls its closure, then runs the subgraph the closure built.
    Subgraph(Callable<SubgraphBody>),
    /// Runs another graph.
    Graph(Box<TaskGraph>),
    /// Runs a pipeline; dependents start once it is over.
    Pipeline(Callable<Box<dyn PipelineNode>>),
}

/// A condition node's closure and branches.
pub(crate) struct Condition {
    pub(crate) body: Callable<ConditionBody>,
    /// The nodes it may start, by the index the closure returns.
    pub(crate) branches: Vec<u32>,
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
        match self.work {
            Work::Task(_) | Work::Fallible(_) => NodeKind::Task,
            Work::Condition(_) => NodeKind::Condition,
            Work::Subgraph(_) => NodeKind::Subgraph,
            Work::Graph(_) => NodeKind::Graph,
            Work::Pipeline(_) => NodeKind::Pipeline,
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
    /// The node has a concurrency limit.
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
    pub(crate) limits: BTreeMap<u32, Limit>,
    /// The user's estimates of the nodes' running times.
    pub(crate) costs: BTreeMap<u32, Duration>,
}

/// What kind of node a [`NodeId`](crate::NodeId) names.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum NodeKind {
    /// A closure whose output its dependents read ([`TaskGraph::add_task`],
    /// [`TaskGraph::add_fallible_task`]).
    Task,
    /// A closure that chooses which of its branches runs next
    /// ([`TaskGraph::add_condition`]).
    Condition,
    /// A closure that builds a subgraph, which runs before the node's
    /// dependents start ([`TaskGraph::add_subgraph`]).
    Subgraph,
    /// Another graph, run as one node ([`TaskGraph::add_graph`]).
    Graph,
    /// A pipeline, run as one node ([`TaskGraph::add_pipeline`]).
    Pipeline,
}

impl fmt::Display for NodeKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            NodeKind::Task => "task",
            NodeKind::Condition => "condition",
            NodeKind::Subgraph => "subgraph",
            NodeKind::Graph => "graph",
            NodeKind::Pipeline => "pipeline",
        })
    }
}
