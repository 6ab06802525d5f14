//! What became of one node in a run.

use std::fmt;
use std::hash::{Hash, Hasher};

use rt_handle::PanicMessage;

use crate::{GraphError, NodeError, NodeName};

/// The final state of a node after a run ([`GraphOutcome::status`](crate::GraphOutcome::status)).
///
/// Exactly one of these is recorded per node and run. A node that ran
/// several times in the run (in a loop) reports its last activation, and
/// [`GraphOutcome::runs`](crate::GraphOutcome::runs) says how many times its
/// closure ran. Only `Completed`, `Panicked`, `Failed`, `SubgraphFailed` and
/// `SubgraphCancelled` nodes ran their closure; the others never started in
/// this run (or, in a loop, not at their last activation):
///
/// | status | closure ran | why |
/// |---|---|---|
/// | `Completed` | yes | it returned (and its subgraph, or the graph of a graph or module node, completed; a pipeline node: its pipeline's run ended); [`GraphOutcome::take`](crate::GraphOutcome::take) gives the output |
/// | `Panicked(message)` | yes | it panicked (a pipeline node: a stage did); the panic was caught, its payload kept ([`GraphOutcome::take_panic`](crate::GraphOutcome::take_panic)) |
/// | `Failed(error)` | yes | a fallible task returned `Err(error)`, or a pipeline node's pipeline could not start; kept typed ([`NodeError::downcast_ref`]) |
/// | `SubgraphFailed { node, status }` | yes | a node of its subgraph (or of a graph or module node's graph) failed: `node`, with `status` |
/// | `SubgraphCancelled` | yes | the run was cancelled while its subgraph (or a graph or module node's graph) ran, and some of its nodes never started; its dependents are `Cancelled` |
/// | `Skipped { prerequisite }` | no | `prerequisite` (a node it waits for, or a condition that could have taken it) failed (panicked, failed, was rejected or invalid) or was skipped |
/// | `Cancelled` | no | the run's token was cancelled before it started (a pipeline node: while its pipeline ran), or a node it waits for was cancelled |
/// | `Rejected` | no | the executor refused its job (it is shut down) or dropped it unrun (a pipeline node: or a job of its pipeline's) |
/// | `NotReached` | no | no path led to it: a condition took another branch |
/// | `Invalid(error)` | no | it could not run: a placeholder whose work was never set, a run-once node that ran already, a module inside its own run |
///
/// `Debug` and `Display` name nodes by index and label (`node 3 "fetch"`,
/// see [`NodeName`]). [`root_cause`](Self::root_cause) follows
/// `SubgraphFailed` down to where a failure started;
/// [`GraphOutcome::root_cause`](crate::GraphOutcome::root_cause) follows
/// `Skipped` too.
///
/// # Failures in loops
///
/// A node's status is its last activation's. A failure skips the nodes
/// that wait for the failed node and have not run in this run; a node that
/// completed in an earlier round of a loop keeps that round's status,
/// `Completed`, and its output, since its closure ran and returned:
///
/// ```
/// use rt_dag::{NodeStatus, TaskGraph};
///
/// let rt = rt_core::Runtime::new(2).unwrap();
/// let mut graph = TaskGraph::new();
/// let init = graph.add_task(|_| ());
/// let mut round = 0;
/// let body = graph.add_task_after(&[init], move |_| {
///     round += 1;
///     assert!(round < 5, "the fifth round fails");
///     round
/// }).unwrap();
/// graph.set_label(body, "body").unwrap();
/// let check = graph.add_condition_after(&[body], |_| 0).unwrap(); // loops back to `body`
/// let exit = graph.add_task(|_| ());
/// graph.set_branches(check, &[body, exit]).unwrap();
/// let report = graph.add_task_after(&[body], |_| ()).unwrap();
/// # let hook = std::panic::take_hook();
/// # std::panic::set_hook(Box::new(|_| {}));
/// let outcome = graph.run(&rt);
/// # std::panic::set_hook(hook);
///
/// assert!(matches!(outcome.status(body), Ok(NodeStatus::Panicked(_))));
/// assert_eq!(outcome.runs(body), Ok(5));
/// // They wait for `body`: they completed in rounds 1 to 4, and did not run
/// // after the failure.
/// assert_eq!(outcome.status(check), Ok(&NodeStatus::Completed));
/// assert_eq!(outcome.get::<usize>(check), Ok(&0));
/// assert_eq!(outcome.runs(report), Ok(4));
/// assert_eq!(outcome.status(report), Ok(&NodeStatus::Completed));
/// assert_eq!(outcome.status(exit), Ok(&NodeStatus::NotReached));
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum NodeStatus {
    /// The closure returned; its output is in the outcome.
    Completed,
    /// The closure panicked. The [`PanicMessage`] displays the panic's
    /// message (the payload when it was a string, otherwise
    /// [`rt_handle::NON_STRING_PAYLOAD`]) and keeps the payload itself, to
    /// re-raise with [`std::panic::resume_unwind`] or downcast
    /// ([`GraphOutcome::take_panic`](crate::GraphOutcome::take_panic); a
    /// clone of the status keeps the message only). Every node that waits
    /// for it and has not run in this run is
    /// [`Skipped`](NodeStatus::Skipped) (see "Failures in loops" above).
    Panicked(PanicMessage),
    /// A fallible task's closure ([`TaskGraph::add_fallible_task`](crate::TaskGraph::add_fallible_task))
    /// returned this error, kept typed; or a pipeline node's pipeline could
    /// not start (its [`PipelineError`](crate::PipelineError): no lines, no
    /// pipes, ...). The nodes that wait for it are skipped as after a
    /// panic.
    Failed(NodeError),
    /// The node's closure returned, but its subgraph (a subgraph node), or
    /// the graph it runs (a graph or module node), did not complete: `node` is the
    /// first node of that subgraph, in the order they were added, that
    /// failed, and `status` what became of it. The node's dependents are
    /// [`Skipped`](NodeStatus::Skipped).
    SubgraphFailed {
        /// The failed node of the subgraph (named in the subgraph's graph).
        node: NodeName,
        /// What became of it: `Panicked`, `Failed`, `Rejected`, `Invalid`, or
        /// `SubgraphFailed` for a failure nested further down (it holds the
        /// panic's payload).
        status: Box<NodeStatus>,
    },
    /// The node's closure returned (a subgraph node), or its inner graph
    /// started (a graph or module node), but the run was cancelled while that
    /// subgraph ran: some of its nodes never started. The closure's output,
    /// or the inner graph's [`GraphOutcome`](crate::GraphOutcome), is kept
    /// in the outcome; the node's dependents are
    /// [`Cancelled`](NodeStatus::Cancelled).
    SubgraphCancelled,
    /// Never ran because a node it waits for, or a condition that has it
    /// as a branch, failed (panicked, failed, was rejected or invalid, or
    /// was skipped itself).
    Skipped {
        /// That node: a failed prerequisite (or condition), or, when the
        /// failure started further up, a skipped one. The first one found,
        /// lowest first, when several failed.
        prerequisite: NodeName,
    },
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

    /// True when the closure ran: `Completed`, `Panicked`, `Failed`,
    /// `SubgraphFailed` or `SubgraphCancelled`.
    pub fn ran(&self) -> bool {
        matches!(
            self,
            NodeStatus::Completed
                | NodeStatus::Panicked(_)
                | NodeStatus::Failed(_)
                | NodeStatus::SubgraphFailed { .. }
                | NodeStatus::SubgraphCancelled
        )
    }

    /// True when the node's closure returned, so the outcome keeps its
    /// output: `Completed`, and the subgraph and graph nodes whose
    /// subgraph then failed or was cancelled (`SubgraphFailed`,
    /// `SubgraphCancelled`; a graph node's output is its inner graph's
    /// [`GraphOutcome`](crate::GraphOutcome)).
    pub fn has_output(&self) -> bool {
        matches!(
            self,
            NodeStatus::Completed
                | NodeStatus::SubgraphFailed { .. }
                | NodeStatus::SubgraphCancelled
        )
    }

    /// True for a failure that skips the dependents: `Panicked`, `Failed`,
    /// `SubgraphFailed`, `Rejected`, `Invalid` and `Skipped` itself.
    pub fn is_failure(&self) -> bool {
        matches!(
            self,
            NodeStatus::Panicked(_)
                | NodeStatus::Failed(_)
                | NodeStatus::SubgraphFailed { .. }
                | NodeStatus::Rejected
                | NodeStatus::Invalid(_)
                | NodeStatus::Skipped { .. }
        )
    }

    /// Where a failure nested in subgraphs started: the status inside the
    /// innermost `SubgraphFailed`, followed down (a `Panicked`, `Failed`,
    /// `Rejected` or `Invalid` status); any other status is its own root
    /// cause. A
    /// `Skipped` status names a node of the same graph, whose status the
    /// outcome has: [`GraphOutcome::root_cause`](crate::GraphOutcome::root_cause)
    /// follows those too.
    ///
    /// ```
    /// use rt_dag::{NodeStatus, TaskGraph};
    ///
    /// let rt = rt_core::Runtime::new(2).unwrap();
    /// let mut graph = TaskGraph::new();
    /// let outer = graph.add_subgraph(|_, sub| {
    ///     sub.add_subgraph(|_, inner| {
    ///         inner.add_fallible_task(|_| -> Result<(), std::fmt::Error> { Err(std::fmt::Error) });
    ///     });
    /// });
    /// let outcome = graph.run(&rt);
    /// let status = outcome.status(outer).unwrap();
    /// assert!(matches!(status, NodeStatus::SubgraphFailed { .. }));
    /// let NodeStatus::Failed(error) = status.root_cause() else { unreachable!() };
    /// assert!(error.downcast_ref::<std::fmt::Error>().is_some());
    /// ```
    pub fn root_cause(&self) -> &NodeStatus {
        let mut status = self;
        while let NodeStatus::SubgraphFailed { status: inner, .. } = status {
            status = inner;
        }
        status
    }
}

impl Hash for NodeStatus {
    /// Consistent with `==`: panics hash their messages, errors their type
    /// and text, an `Invalid` status its [`GraphError`].
    fn hash<H: Hasher>(&self, state: &mut H) {
        std::mem::discriminant(self).hash(state);
        match self {
            NodeStatus::Panicked(message) => message.as_str().hash(state),
            NodeStatus::Failed(error) => error.hash(state),
            NodeStatus::SubgraphFailed { node, status } => {
                node.hash(state);
                status.hash(state);
            }
            NodeStatus::Skipped { prerequisite } => prerequisite.hash(state),
            NodeStatus::Invalid(error) => error.hash(state),
            NodeStatus::Completed
            | NodeStatus::SubgraphCancelled
            | NodeStatus::Cancelled
            | NodeStatus::Rejected
            | NodeStatus::NotReached => {}
        }
    }
}

impl fmt::Display for NodeStatus {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            NodeStatus::Completed => f.write_str("completed"),
            NodeStatus::Panicked(message) => write!(f, "panicked: {message}"),
            NodeStatus::Failed(error) => write!(f, "failed: {error}"),
            NodeStatus::SubgraphFailed { node, status } => {
                write!(
                    f,
                    "its subgraph failed: {node} of {}: {status}",
                    node.id().graph()
                )
            }
            NodeStatus::SubgraphCancelled => {
                f.write_str("cancelled while its subgraph ran (its closure ran)")
            }
            NodeStatus::Skipped { prerequisite } => {
                write!(
                    f,
                    "skipped: {prerequisite}, which it waits for, failed or was skipped"
                )
            }
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
    /// `Panicked`, `Failed`, `SubgraphFailed` or `Invalid`: the status is
    /// kept beside.
    Failed,
    Cancelled,
    Rejected,
    /// `Skipped`: the status, which names the prerequisite, is kept beside.
    Skipped,
    NotReached,
    SubgraphCancelled,
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
            7 => Code::SubgraphCancelled,
            _ => Code::None,
        }
    }

    /// The status of a code that carries nothing beside.
    pub(crate) fn simple_status(self) -> Option<&'static NodeStatus> {
        static COMPLETED: NodeStatus = NodeStatus::Completed;
        static CANCELLED: NodeStatus = NodeStatus::Cancelled;
        static REJECTED: NodeStatus = NodeStatus::Rejected;
        static NOT_REACHED: NodeStatus = NodeStatus::NotReached;
        static SUBGRAPH_CANCELLED: NodeStatus = NodeStatus::SubgraphCancelled;
        match self {
            Code::Completed => Some(&COMPLETED),
            Code::Cancelled => Some(&CANCELLED),
            Code::Rejected => Some(&REJECTED),
            Code::NotReached => Some(&NOT_REACHED),
            Code::SubgraphCancelled => Some(&SUBGRAPH_CANCELLED),
            Code::None | Code::Failed | Code::Skipped => None,
        }
    }

    /// A failure that skips what waits for the node.
    pub(crate) fn is_failure(self) -> bool {
        matches!(self, Code::Failed | Code::Rejected | Code::Skipped)
    }

    /// A cancellation that cancels what waits for the node.
    pub(crate) fn is_cancellation(self) -> bool {
        matches!(self, Code::Cancelled | Code::SubgraphCancelled)
    }
}
