//! What became of one node in a run.

use std::fmt;

use crate::{GraphError, NodeId};

/// The final state of a node after a run ([`GraphOutcome::status`](crate::GraphOutcome::status)).
///
/// Exactly one of these is recorded per node and run. A node that ran
/// several times in the run (in a loop) reports its last activation, and
/// [`GraphOutcome::runs`](crate::GraphOutcome::runs) says how many times its
/// closure ran. Only `Completed`, `Panicked` and `SubgraphFailed` nodes ran
/// their closure; the others never started in this run (or, in a loop, not
/// at their last activation):
///
/// | status | closure ran | why |
/// |---|---|---|
/// | `Completed` | yes | it returned (and its subgraph, or inner graph, completed); [`GraphOutcome::take`](crate::GraphOutcome::take) gives the output |
/// | `Panicked(msg)` | yes | it panicked; the panic was caught |
/// | `SubgraphFailed { node, status }` | yes | a node of its subgraph (or inner graph) failed: `node`, with `status` |
/// | `Skipped` | no | a node it waits for, or a condition that could have taken it, failed (directly or through other nodes) |
/// | `Cancelled` | no | the run's token was cancelled before it started, or a node it waits for was cancelled |
/// | `Rejected` | no | the executor refused its job (it is shut down) or dropped it unrun |
/// | `NotReached` | no | no path led to it: a condition took another branch |
/// | `Invalid(error)` | no | it could not run: a placeholder whose work was never set, a run-once node that ran already, a module inside its own run |
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum NodeStatus {
    /// The closure returned; its output is in the outcome.
    Completed,
    /// The closure panicked with this message (the payload when it was a
    /// string, otherwise [`rt_handle::NON_STRING_PAYLOAD`]). Every node that
    /// waits for it, directly or not, is [`Skipped`](NodeStatus::Skipped).
    Panicked(String),
    /// The node's closure returned, but its subgraph (a subgraph node), or
    /// the graph it runs (a graph node), did not complete: `node` is the
    /// first node of that subgraph, in the order they were added, that
    /// failed, and `status` what became of it. The node's dependents are
    /// [`Skipped`](NodeStatus::Skipped).
    SubgraphFailed {
        /// The failed node of the subgraph (ids of the subgraph's graph).
        node: NodeId,
        /// What became of it: `Panicked`, `Rejected`, or `SubgraphFailed`
        /// for a failure nested further down.
        status: Box<NodeStatus>,
    },
    /// Never ran because a node it waits for, or a condition that has it
    /// as a branch, failed (panicked, was rejected, or was skipped itself).
    Skipped,
    /// Never ran because the run was cancelled before the node started, or
    /// because a node it waits for was cancelled. A node downstream of a
    /// failure is `Skipped` rather than `Cancelled`, even when the run was
    /// also cancelled.
    Cancelled,
    /// Never ran because the executor did not run its job: `submit` handed it
    /// back (the executor is shut down), or the executor dropped it without
    /// running it. Its dependents are [`Skipped`](NodeStatus::Skipped).
    Rejected,
    /// Never ran, and nothing failed or was cancelled upstream: no path of
    /// taken branches led to it (a condition chose another branch, or a
    /// loop ended before reaching it).
    NotReached,
    /// Never ran because there was nothing it could run: it is a
    /// placeholder whose work was never set ([`GraphError::NoWork`]), a
    /// run-once node whose closure ran already ([`GraphError::AlreadyRan`]),
    /// or a module node inside a run of its own module
    /// ([`GraphError::ComposedIntoItself`]). Its dependents are
    /// [`Skipped`](NodeStatus::Skipped).
    Invalid(GraphError),
}

impl NodeStatus {
    /// True for [`NodeStatus::Completed`].
    pub fn is_completed(&self) -> bool {
        matches!(self, NodeStatus::Completed)
    }

    /// True when the closure ran: `Completed`, `Panicked` or
    /// `SubgraphFailed`.
    pub fn ran(&self) -> bool {
        matches!(
            self,
            NodeStatus::Completed | NodeStatus::Panicked(_) | NodeStatus::SubgraphFailed { .. }
        )
    }

    /// True for a failure that skips the dependents: `Panicked`,
    /// `SubgraphFailed`, `Rejected`, `Invalid` and `Skipped` itself.
    pub fn is_failure(&self) -> bool {
        matches!(
            self,
            NodeStatus::Panicked(_)
                | NodeStatus::SubgraphFailed { .. }
                | NodeStatus::Rejected
                | NodeStatus::Invalid(_)
                | NodeStatus::Skipped
        )
    }
}

impl fmt::Display for NodeStatus {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            NodeStatus::Completed => f.write_str("completed"),
            NodeStatus::Panicked(message) => write!(f, "panicked: {message}"),
            NodeStatus::SubgraphFailed { node, status } => {
                write!(
                    f,
                    "its subgraph failed: {node} of {}: {status}",
                    node.graph()
                )
            }
            NodeStatus::Skipped => f.write_str("skipped (a prerequisite failed)"),
            NodeStatus::Cancelled => f.write_str("cancelled before it started"),
            NodeStatus::Rejected => f.write_str("rejected by the executor"),
            NodeStatus::NotReached => f.write_str("not reached (no branch led to it)"),
            NodeStatus::Invalid(error) => write!(f, "could not run: {error}"),
        }
    }
}

/// A node's status in the one byte a run records per node.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[repr(u8)]
pub(crate) enum Code {
    /// No activation of the node ended in this run (yet).
    None = 0,
    Completed,
    /// `Panicked`, `SubgraphFailed` or `Invalid`: the status is kept
    /// beside.
    Failed,
    Cancelled,
    Rejected,
    Skipped,
    NotReached,
}

impl Code {
    pub(crate) fn from_u8(byte: u8) -> Code {
        match byte {
            1 => Code::Completed,
            2 => Code::Failed,
            3 => Code::Cancelled,
            4 => Code::Rejected,
            5 => Code::Skipped,
            6 => Code::NotReached,
            _ => Code::None,
        }
    }

    /// The status of a code that carries nothing beside.
    pub(crate) fn simple_status(self) -> Option<&'static NodeStatus> {
        static COMPLETED: NodeStatus = NodeStatus::Completed;
        static CANCELLED: NodeStatus = NodeStatus::Cancelled;
        static REJECTED: NodeStatus = NodeStatus::Rejected;
        static SKIPPED: NodeStatus = NodeStatus::Skipped;
        static NOT_REACHED: NodeStatus = NodeStatus::NotReached;
        match self {
            Code::Completed => Some(&COMPLETED),
            Code::Cancelled => Some(&CANCELLED),
            Code::Rejected => Some(&REJECTED),
            Code::Skipped => Some(&SKIPPED),
            Code::NotReached => Some(&NOT_REACHED),
            Code::None | Code::Failed => None,
        }
    }

    /// A failure that skips what waits for the node.
    pub(crate) fn is_failure(self) -> bool {
        matches!(self, Code::Failed | Code::Rejected | Code::Skipped)
    }
}
