//! How a graph orders the nodes that become ready at the same time.

/// How the nodes that a completion makes ready at the same time are
/// ordered: which one the thread that completed runs next, in which order
/// it queues the others, and in which order a run submits its entries.
/// Priority classes come first either way: a ready node of a more urgent
/// class is preferred to any of a less urgent one.
///
/// ```
/// use rt_dag::{ReadyOrder, TaskGraph};
///
/// let mut graph = TaskGraph::new();
/// assert_eq!(graph.ready_order(), ReadyOrder::CriticalPath);
/// graph.set_ready_order(ReadyOrder::Declared);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum ReadyOrder {
    /// Longest remaining path first: each node's *rank* is its cost plus
    /// the largest rank among its dependents, so the node heading the
    /// longest chain of work still to do has the highest rank, and it runs
    /// first. Costs are the running times measured in the last timed run
    /// ([`TaskGraph::record_timings`](crate::TaskGraph::record_timings)),
    /// else the estimates of [`TaskGraph::set_cost`](crate::TaskGraph::set_cost),
    /// else, for nodes without either, the mean of the known costs (one
    /// unit each when no node has a cost: the rank is then the number of
    /// nodes on the longest path).
    #[default]
    CriticalPath,
    /// First come, first served: the ready node added to the graph first
    /// runs first, and entries are submitted in the order they were added.
    Declared,
}
