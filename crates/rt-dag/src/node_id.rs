//! Names for graphs and for the nodes inside them.

use std::fmt;

use std::sync::atomic::{AtomicU64, Ordering};

/// The identity of one [`TaskGraph`](crate::TaskGraph), unique in the process.
///
/// Every graph draws a fresh id from a global counter when it is created, and
/// every [`NodeId`] carries the id of its graph. That is how a `NodeId` used
/// with the wrong graph (or the wrong [`GraphOutcome`](crate::GraphOutcome))
/// is detected and reported instead of silently naming some other node.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct GraphId(u64);

impl GraphId {
    /// A process-wide unique id. The counter is 64 bits wide, so it never
    /// wraps in practice.
    pub(crate) fn fresh() -> Self {
        static NEXT: AtomicU64 = AtomicU64::new(1);
        // Relaxed: only uniqueness matters, and fetch_add guarantees it.
        GraphId(NEXT.fetch_add(1, Ordering::Relaxed))
    }

    /// The raw number, for logs.
    pub fn as_u64(self) -> u64 {
        self.0
    }
}

impl fmt::Display for GraphId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "graph {}", self.0)
    }
}

/// A node of one [`TaskGraph`](crate::TaskGraph), as returned by `add_task*`.
///
/// A `NodeId` is only ever handed out for a node that already exists, and
/// it names that node as long as the graph lives (nodes are never
/// removed). It is `Copy` and cheap to keep around; it stays meaningful
/// after the graph is run, to query the [`GraphOutcome`](crate::GraphOutcome).
///
/// ```
/// use rt_dag::TaskGraph;
///
/// let mut graph = TaskGraph::new();
/// let a = graph.add_task(|_| 1);
/// let b = graph.add_task(|_| 2);
/// assert_eq!((a.index(), b.index()), (0, 1));
/// assert_eq!(a.graph(), graph.id());
/// assert_eq!(b.to_string(), "node 1");
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct NodeId {
    graph: GraphId,
    index: usize,
}

impl NodeId {
    pub(crate) fn new(graph: GraphId, index: usize) -> Self {
        Self { graph, index }
    }

    /// The node's position in its graph: nodes are numbered from 0 in the
    /// order they were added.
    pub fn index(self) -> usize {
        self.index
    }

    /// The graph this node belongs to.
    pub fn graph(self) -> GraphId {
        self.graph
    }
}

impl fmt::Display for NodeId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "node {}", self.index)
    }
}
