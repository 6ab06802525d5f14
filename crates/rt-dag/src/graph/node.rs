//! One node as the graph stores it: what it runs, and its settings.

use std::any::{type_name, Any, TypeId};
use std::cell::UnsafeCell;
use std::fmt;
use std::time::Duration;

use rt_queue::Priority;

use crate::run::Subgraph;
use crate::{DependencyResults, Limit, TaskGraph};

/// A node's output once its type is erased. Shared, because in a graph with
/// loops a node may run again while a dependent still reads its previous
/// output: each reader holds its own reference (`run/results.rs`).
pub(crate) type Output = std::sync::Arc<dyn Any + Send + Sync>;

/// A task's closure, its output type erased.
pub(crate) type TaskBody = Box<dyn FnMut(&DependencyResults<'_>) -> Output + Send>;
/// A condition's closure: the index of the branch to take.
pub(crate) type ConditionBody = Box<dyn FnMut(&DependencyResults<'_>) -> usize + Send>;
/// A subgraph node's closure: it may add nodes to the subgraph it is given.
pub(crate) type SubgraphBody = Box<dyn FnMut(&DependencyResults<'_>, &mut Subgraph) -> Output + Send>;

/// What a node does when it runs.
pub(crate) enum Work {
    /// Calls its closure; dependents start once it returns.
    Task(Callable<TaskBody>),
    /// Calls its closure, then starts the branch it chose.
    Condition {
        body: Callable<ConditionBody>,
        /// The nodes it may start, by the index the closure returns.
        branches: Vec<u32>,
    },
    /// Calls its closure, then runs the subgraph the closure built.
    Subgraph(Callable<SubgraphBody>),
    /// Runs another graph.
    Graph(Box<TaskGraph>),
}

/// A closure the runs call through a shared reference to the graph.
///
/// A run borrows its graph exclusively (`TaskGraph::run` takes `&mut
/// self`) and shares it with the threads that run its nodes, each of which
/// calls the closures of the nodes it runs. A node never runs twice at once
/// (`RUN.md`, "One runner per node"), so each call has the closure to
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
    /// lives: the caller runs the node's only activation (`RUN.md`, "One
    /// runner per node"), or holds the graph exclusively.
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

/// One node of a [`TaskGraph`].
pub(crate) struct Node {
    pub(crate) work: Work,
    pub(crate) priority: Priority,
    /// The type the node's output has, for errors and `to_dot`.
    pub(crate) output_type: &'static str,
    /// `()` outputs need no storage: a reader is handed a `&()`.
    pub(crate) output_is_unit: bool,
    pub(crate) label: Option<String>,
    pub(crate) limit: Option<Limit>,
    /// The user's estimate of the node's running time.
    pub(crate) cost: Option<Duration>,
}

impl Node {
    pub(crate) fn new<T: 'static>(work: Work, priority: Priority) -> Self {
        Self {
            work,
            priority,
            output_type: type_name::<T>(),
            output_is_unit: TypeId::of::<T>() == TypeId::of::<()>(),
            label: None,
            limit: None,
            cost: None,
        }
    }

    /// The node's kind, for `Debug` and `to_dot`.
    pub(crate) fn kind(&self) -> NodeKind {
        match self.work {
            Work::Task(_) => NodeKind::Task,
            Work::Condition { .. } => NodeKind::Condition,
            Work::Subgraph(_) => NodeKind::Subgraph,
            Work::Graph(_) => NodeKind::Graph,
        }
    }

    pub(crate) fn branches(&self) -> &[u32] {
        match &self.work {
            Work::Condition { branches, .. } => branches,
            _ => &[],
        }
    }
}

/// What kind of node a [`NodeId`](crate::NodeId) names.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum NodeKind {
    /// A closure whose output its dependents read ([`TaskGraph::add_task`]).
    Task,
    /// A closure that chooses which of its branches runs next
    /// ([`TaskGraph::add_condition`]).
    Condition,
    /// A closure that builds a subgraph, which runs before the node's
    /// dependents start ([`TaskGraph::add_subgraph`]).
    Subgraph,
    /// Another graph, run as one node ([`TaskGraph::add_graph`]).
    Graph,
}

impl fmt::Display for NodeKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            NodeKind::Task => "task",
            NodeKind::Condition => "condition",
            NodeKind::Subgraph => "subgraph",
            NodeKind::Graph => "graph",
        })
    }
}
