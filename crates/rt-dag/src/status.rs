//! What became of one node in a run.

use std::fmt;

/// The final state of a node after [`run_graph`](crate::run_graph).
///
/// Exactly one of these is recorded per node, and only `Completed` and
/// `Panicked` nodes ran their closure (exactly once). The others never
/// started:
///
/// | status | closure ran | why |
/// |---|---|---|
/// | `Completed` | yes | it returned a value; [`GraphOutcome::take`](crate::GraphOutcome::take) gives it |
/// | `Panicked(msg)` | yes | it panicked; the panic was caught |
/// | `Skipped` | no | a prerequisite, directly or not, panicked or was rejected |
/// | `Cancelled` | no | the run's token was cancelled before it started (or a prerequisite was cancelled) |
/// | `Rejected` | no | the executor refused the job (it is shut down) or dropped it unrun |
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum NodeStatus {
    /// The closure returned; its output is in the outcome.
    Completed,
    /// The closure panicked with this message (the payload when it was a
    /// string, otherwise [`rt_handle::NON_STRING_PAYLOAD`]). Every node that
    /// depends on it, directly or not, is [`Skipped`](NodeStatus::Skipped).
    Panicked(String),
    /// Never ran because a prerequisite (directly or through other nodes)
    /// panicked or was rejected.
    Skipped,
    /// Never ran because the run was cancelled before the node started, or
    /// because a prerequisite was cancelled. A node downstream of a failure
    /// is `Skipped` rather than `Cancelled`, even when the run was also
    /// cancelled.
    Cancelled,
    /// Never ran because the executor did not run its job: `submit` handed it
    /// back (the executor is shut down), or the executor dropped it without
    /// running it. Its dependents are [`Skipped`](NodeStatus::Skipped).
    Rejected,
}

impl NodeStatus {
    /// True for [`NodeStatus::Completed`].
    pub fn is_completed(&self) -> bool {
        matches!(self, NodeStatus::Completed)
    }

    /// True when the closure ran: `Completed` or `Panicked`.
    pub fn ran(&self) -> bool {
        matches!(self, NodeStatus::Completed | NodeStatus::Panicked(_))
    }

    /// True for a failure that skips the dependents: `Panicked`, `Rejected`
    /// and `Skipped` itself.
    pub fn is_failure(&self) -> bool {
        matches!(
            self,
            NodeStatus::Panicked(_) | NodeStatus::Rejected | NodeStatus::Skipped
        )
    }
}

impl fmt::Display for NodeStatus {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            NodeStatus::Completed => f.write_str("completed"),
            NodeStatus::Panicked(message) => write!(f, "panicked: {message}"),
            NodeStatus::Skipped => f.write_str("skipped (a prerequisite failed)"),
            NodeStatus::Cancelled => f.write_str("cancelled before it started"),
            NodeStatus::Rejected => f.write_str("rejected by the executor"),
        }
    }
}
