//! The errors of reading a prerequisite and reading an outcome (those of
//! building a graph are `graph_error.rs`'s). Each names the nodes it is about by index and label
//! ([`NodeName`]), but for an id of another graph, whose label that graph
//! keeps: it is named by its index and graph.

use thiserror::Error;

use crate::{GraphId, NodeId, NodeName, NodeStatus};

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
