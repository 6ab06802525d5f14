//! The error of building a graph: why a node could not be added, looked
//! up or changed, or (inside `NodeStatus::Invalid`) could not run. It names
//! the nodes it is about by index and label ([`NodeName`]), but for an id
//! of another graph, whose label that graph keeps: it is named by its
//! index and graph.

use thiserror::Error;

use crate::{GraphId, NodeId, NodeName};

/// Why a node could not be added to (or looked up in, or changed in) a
/// [`TaskGraph`](crate::TaskGraph), or, inside
/// [`NodeStatus::Invalid`](crate::NodeStatus::Invalid), why a node could not run.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Error)]
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
    /// A graph, module or pipeline node cannot take a permit of a
    /// [`Limit`](crate::Limit): the inner nodes of a graph or module node
    /// might wait for the same limit while it holds it (limit the inner
    /// nodes instead, or hold the permit from a node before it to a node
    /// after it, [`add_limit_until`](crate::TaskGraph::add_limit_until)),
    /// and a pipeline node's lines bound it.
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
    /// The edge would close a cycle of prerequisites: `to` already comes
    /// before `from` (or is `from`), so neither could ever start.
    #[error("an edge from {from} to {to} would close a cycle: {to} already comes before {from}")]
    Cycle {
        /// The node the edge starts from (the prerequisite).
        from: NodeName,
        /// The node that would wait for it.
        to: NodeName,
    },
    /// The node's work was set already: only a placeholder
    /// ([`TaskGraph::add_placeholder`](crate::TaskGraph::add_placeholder))
    /// gets its work later, once.
    #[error("{node} is not a placeholder: its work is set already")]
    NotAPlaceholder {
        /// The node.
        node: NodeName,
    },
    /// A placeholder whose work was never set ran (inside
    /// [`NodeStatus::Invalid`](crate::NodeStatus::Invalid)).
    #[error("{node} is a placeholder whose work was never set")]
    NoWork {
        /// The placeholder.
        node: NodeName,
    },
    /// A run-once node ([`TaskGraph::add_task_once`](crate::TaskGraph::add_task_once))
    /// was started again after its closure ran, in this run or an earlier
    /// one (inside [`NodeStatus::Invalid`](crate::NodeStatus::Invalid)).
    #[error("{node} runs once, and it ran already")]
    AlreadyRan {
        /// The node.
        node: NodeName,
    },
    /// The shared graph `module` runs the graph `into` already, directly or
    /// through other graphs, or its run encloses the run in which `into`
    /// was made: running it inside `into` would make it wait for itself.
    /// Returned by [`TaskGraph::add_module`](crate::TaskGraph::add_module),
    /// or, for a module node that finds itself inside its own run, inside
    /// [`NodeStatus::Invalid`](crate::NodeStatus::Invalid).
    #[error("the module {module} would run inside itself (in {into})")]
    ComposedIntoItself {
        /// The module's graph.
        module: GraphId,
        /// The graph it was to run in.
        into: GraphId,
    },
    /// The shared graph is being run (as a module node of some graph, or on
    /// its own): [`Module::run`](crate::Module::run) does not wait for it,
    /// so that a run started from inside its own run cannot hang.
    #[error("the module {module} is running")]
    ModuleInUse {
        /// The module's graph.
        module: GraphId,
    },
    /// The node takes a permit of this limit already: a node holding one
    /// permit and waiting for another of the same limit could wait for
    /// itself.
    #[error("{node} takes a permit of this limit already")]
    SameLimitTwice {
        /// The node.
        node: NodeName,
    },
    /// A permit that `node` takes can only be given back by a node that
    /// runs after it: `until` must be `node` or wait for it, directly or
    /// not, through prerequisites. Also returned by
    /// [`remove_dependency`](crate::TaskGraph::remove_dependency) when the
    /// edge it would remove is what puts `until` after `node`.
    #[error("{until} does not run after {node}: it cannot give back the permit {node} takes")]
    ReleaseNotAfter {
        /// The node that takes the permit.
        node: NodeName,
        /// The node that was to give it back.
        until: NodeName,
    },
    /// Branches and permits held from one node to another do not mix in
    /// one graph: a branch not taken could leave a permit held until the
    /// run ends, and a loop could wait for the permit it took itself.
    #[error(
        "{node}: a graph cannot have both branches and permits held from one node to a later one"
    )]
    BranchesWithHolds {
        /// The condition, or the node taking the permit.
        node: NodeName,
    },
}
