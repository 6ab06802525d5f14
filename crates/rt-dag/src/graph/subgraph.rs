//! What a subgraph node's closure builds while it runs.

use std::fmt;
use std::ops::{Deref, DerefMut};

use super::TaskGraph;
use crate::GraphId;

/// The graph a subgraph node's closure builds while it runs
/// ([`TaskGraph::add_subgraph`]): add nodes and edges to it as to any
/// [`TaskGraph`] (it dereferences to one, with ids of its own).
///
/// Once the closure returns, the subgraph runs on the same executor, and
/// the node completes — its dependents start — when every node of the
/// subgraph is final: it is *joined*. If one of them failed, the node is
/// [`NodeStatus::SubgraphFailed`](crate::NodeStatus::SubgraphFailed) and its
/// dependents are skipped. A [`detach`](Self::detach)ed subgraph instead
/// runs alongside: the node completes when its closure returns, and the run
/// waits for the subgraph only at its end, reporting its outcome in
/// [`GraphOutcome::detached`](crate::GraphOutcome::detached).
///
/// ```
/// use rt_dag::{run_graph, NodeStatus, TaskGraph};
/// # use rt_dag::{Executor, Job, Priority};
/// # struct Inline;
/// # impl Executor for Inline {
/// #     fn submit(&self, _: Priority, job: Job) -> Result<(), Job> { job.run(); Ok(()) }
/// # }
///
/// let mut graph = TaskGraph::new();
/// let spawner = graph.add_subgraph(|_, sub| {
///     let a = sub.add_task(|_| 1);
///     sub.add_task_after(&[a], |_| 2).unwrap();
///     sub.detach(); // the node need not wait for these two
/// });
/// let outcome = run_graph(&Inline, graph);
/// assert_eq!(outcome.status(spawner), Ok(&NodeStatus::Completed));
/// let (by, detached) = &outcome.detached()[0];
/// assert_eq!(*by, spawner);
/// assert!(detached.all_completed());
/// ```
pub struct Subgraph {
    graph: TaskGraph,
    detached: bool,
}

impl Subgraph {
    /// An empty subgraph made inside the runs of the graphs `inside` (a
    /// module among them may not run in it).
    pub(crate) fn inside(inside: Vec<GraphId>) -> Self {
        let mut graph = TaskGraph::new();
        graph.nesting.inside = inside;
        Self {
            graph,
            detached: false,
        }
    }

    /// Lets the node complete without waiting for this subgraph; the run
    /// still waits for it before it ends.
    pub fn detach(&mut self) {
        self.detached = true;
    }

    /// Whether [`detach`](Self::detach) was called.
    pub fn is_detached(&self) -> bool {
        self.detached
    }

    pub(crate) fn into_parts(self) -> (TaskGraph, bool) {
        (self.graph, self.detached)
    }
}

impl Deref for Subgraph {
    type Target = TaskGraph;

    fn deref(&self) -> &TaskGraph {
        &self.graph
    }
}

impl DerefMut for Subgraph {
    fn deref_mut(&mut self) -> &mut TaskGraph {
        &mut self.graph
    }
}

impl fmt::Debug for Subgraph {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Subgraph")
            .field("graph", &self.graph)
            .field("detached", &self.detached)
            .finish()
    }
}
