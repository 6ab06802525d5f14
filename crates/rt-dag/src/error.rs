//! The errors of building a graph, reading a prerequisite and reading an
//! outcome. Each names the nodes it is about by index and label
//! ([`NodeName`]), but for an id of another graph, whose label that graph
//! keeps: it is named by its index and graph.

use thiserror::Error;

use crate::{GraphId, NodeId, NodeName, NodeStatus};

/// Why a node could not be added to (or looked up in) a [`TaskGraph`](crate::TaskGraph).
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum GraphError {
    /// The id was handed out by a different graph. Using it would name an
    /// unrelated node (or none), so it is refused. It is named by its index
    /// and graph: its label, if any, is the other graph's.
    #[error("{node} of {} does not belong to {expected}", node.graph())]
    ForeignNode {
        /// The offending id.
        node: NodeId,
        /// The graph it was used with.
        expected: GraphId,
    },
    /// Branches can only be set on a condition node
    /// ([`TaskGraph::add_condition`](crate::TaskGraph::add_condition)).
    #[error("{node} is not a condition node: only conditions have branches")]
    NotACondition {
        /// The node that is not a condition.
        node: NodeName,
    },
    /// With these branches, `node` could never start, whatever the
    /// conditions choose: every way to it waits on a cycle. A graph that
    /// could never finish is refused instead of hanging when it runs.
    #[error("{node} could never start: every way to it waits on a cycle")]
    NeverRuns {
        /// The first node, in the order they were added, that could never
        /// start.
        node: NodeName,
    },
    /// A graph node cannot hold a permit of a [`Limit`](crate::Limit): its
    /// inner nodes might wait for the same limit while it holds it. Limit
    /// the inner nodes instead. Nor can a pipeline node, which its lines
    /// bound.
    #[error("{node} is a graph node: limit the nodes of its graph instead")]
    GraphNodeLimited {
        /// The graph node.
        node: NodeName,
    },
    /// A [`Limit`](crate::Limit) of zero permits would never let a node run.
    #[error("a limit needs at least one permit")]
    ZeroPermits,
    /// The node is not a pipeline node of the item type asked for
    /// ([`TaskGraph::pipeline_mut`](crate::TaskGraph::pipeline_mut)).
    #[error("{node} is not a pipeline node whose last stage yields {requested}")]
    NotAPipeline {
        /// The node.
        node: NodeId,
        /// The item type asked for.
        requested: &'static str,
    },
}

/// Why [`DependencyResults::get`](crate::DependencyResults::get) returned no
/// output.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum DependencyError {
    /// The requested node is not one of the running node's declared
    /// prerequisites (this includes ids of other graphs, and ancestors that
    /// are only indirect prerequisites).
    #[error("{requested} is not a declared dependency of {node} (asked for a `{expected}`)")]
    NotADependency {
        /// The node whose closure asked.
        node: NodeName,
        /// The node it asked for (with its label if it is a node of the
        /// same graph).
        requested: NodeName,
        /// The type it asked for.
        expected: &'static str,
    },
    /// The prerequisite's output has another type.
    #[error("{requested} produced a `{actual}`, not the `{expected}` {node} asked for")]
    WrongType {
        /// The node whose closure asked.
        node: NodeName,
        /// The prerequisite that was asked for.
        requested: NodeName,
        /// The type that was asked for.
        expected: &'static str,
        /// The type the prerequisite's closure returns.
        actual: &'static str,
    },
    /// The prerequisite has not completed in this run: the node was
    /// started by a condition's branch before it (or after it failed).
    #[error("{requested} has no output in this run yet (asked for a `{expected}` by {node})")]
    NoOutput {
        /// The node whose closure asked.
        node: NodeName,
        /// The node it asked for.
        requested: NodeName,
        /// The type it asked for.
        expected: &'static str,
    },
}

/// Why [`GraphOutcome`](crate::GraphOutcome) could not give a node's status
/// or output.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum OutcomeError {
    /// The id belongs to another graph (named by its index and graph: its
    /// label, if any, is the other graph's).
    #[error("{node} of {} does not belong to {expected}", node.graph())]
    ForeignNode {
        /// The offending id.
        node: NodeId,
        /// The graph this outcome is for.
        expected: GraphId,
    },
    /// The node has no output: its closure did not return in this run
    /// (see [`NodeStatus::has_output`]).
    #[error("{node} has no output (asked for a `{expected}`); its status: {status}")]
    NotCompleted {
        /// The node.
        node: NodeName,
        /// What became of it instead.
        status: NodeStatus,
        /// The type that was asked for.
        expected: &'static str,
    },
    /// The node's output has another type. It stays in the outcome.
    #[error("{node} produced a `{actual}`, not the requested `{expected}`")]
    WrongType {
        /// The node.
        node: NodeName,
        /// The type that was asked for.
        expected: &'static str,
        /// The type the node's closure returns.
        actual: &'static str,
    },
    /// The output was already moved out by an earlier
    /// [`take`](crate::GraphOutcome::take).
    #[error("the output of {node} was already taken")]
    AlreadyTaken {
        /// The node.
        node: NodeName,
    },
    /// [`GraphOutcome::take_panic`](crate::GraphOutcome::take_panic): the
    /// node's failure, traced to where it started, is not a panic (or the
    /// node did not fail).
    #[error("{node} did not fail with a panic; its status: {status}")]
    NoPanic {
        /// The node asked about.
        node: NodeName,
        /// Its status.
        status: NodeStatus,
    },
}
