//! The result of a run: every node's status, the outputs to take, and
//! where a failure started (a skipped node's failed prerequisite, followed
//! back, and a failed subgraph's failed node, followed down).

use std::any::{type_name, Any};
use std::fmt;
use std::sync::Arc;
use std::time::Duration;

use crate::graph::output::{NodeInfo, Output, NO_SLOT};
use crate::node_name::Labels;
use crate::status::Code;
use crate::{GraphId, NodeError, NodeId, NodeName, NodeStatus, OutcomeError};

/// When a node started in a timed run, and how long its last activation
/// took ([`TaskGraph::record_timings`](crate::TaskGraph::record_timings)).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct NodeTiming {
    /// From the start of the run to the node's last start.
    pub start: Duration,
    /// How long its last activation took: its closure, and for a subgraph
    /// or graph node, its subgraph too.
    pub elapsed: Duration,
}

/// What a run returns: every node's final [`NodeStatus`] and the outputs of
/// the nodes that completed.
///
/// Query it with the [`NodeId`]s the graph handed out. Every accessor returns
/// a `Result` and none panics: an id of another graph is
/// [`OutcomeError::ForeignNode`]; asking for the output of a node whose
/// closure did not return ([`NodeStatus::has_output`]), with the wrong
/// type, or twice, is an error that names the node and the requested type.
/// A node that ran several times (in a loop) keeps the output of its last
/// run.
///
/// ```
/// use rt_dag::{run_graph, Executor, Job, NodeStatus, OutcomeError, Priority, TaskGraph};
///
/// struct Inline;
/// impl Executor for Inline {
///     fn submit(&self, _: Priority, job: Job) -> Result<(), Job> {
///         job.run();
///         Ok(())
///     }
/// }
///
/// let mut graph = TaskGraph::new();
/// let ok = graph.add_task(|_| vec![1, 2, 3]);
/// let bad = graph.add_task(|_| -> u8 { panic!("disk full") });
/// let after_bad = graph.add_task_after(&[bad], |_| ()).unwrap();
/// # let hook = std::panic::take_hook();
/// # std::panic::set_hook(Box::new(|_| {}));
/// let mut outcome = run_graph(&Inline, graph);
/// # std::panic::set_hook(hook);
///
/// assert_eq!(outcome.status(bad), Ok(&NodeStatus::Panicked("disk full".into())));
/// assert_eq!(outcome.status(after_bad), Ok(&NodeStatus::Skipped { prerequisite: bad.into() }));
/// assert!(matches!(outcome.take::<u8>(bad), Err(OutcomeError::NotCompleted { .. })));
/// assert!(matches!(outcome.take::<String>(ok), Err(OutcomeError::WrongType { .. })));
/// assert_eq!(outcome.get::<Vec<i32>>(ok), Ok(&vec![1, 2, 3]));
/// assert_eq!(outcome.take::<Vec<i32>>(ok), Ok(vec![1, 2, 3]));
/// assert!(matches!(outcome.take::<Vec<i32>>(ok), Err(OutcomeError::AlreadyTaken { .. })));
/// ```
#[must_use = "an outcome says which nodes failed, and holds their outputs"]
pub struct GraphOutcome {
    graph: GraphId,
    /// Each node's status code.
    codes: Box<[u8]>,
    /// The statuses of failed and skipped nodes (those whose code carries
    /// more than the code), sorted by node.
    details: Vec<(u32, NodeStatus)>,
    /// How many times each node's closure ran (graphs with conditions).
    runs: Option<Box<[u32]>>,
    /// Outputs by slot (`NodeInfo::slot_of`); `None` once taken, or for a
    /// node that did not complete.
    outputs: Vec<Option<Output>>,
    /// `()` outputs taken, by node.
    taken_units: Vec<u32>,
    info: Arc<NodeInfo>,
    labels: Arc<Labels>,
    timings: Option<Box<[Option<NodeTiming>]>>,
    detached: Vec<(NodeId, GraphOutcome)>,
}

impl GraphOutcome {
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn new(
        graph: GraphId,
        codes: Box<[u8]>,
        details: Vec<(u32, NodeStatus)>,
        runs: Option<Box<[u32]>>,
        outputs: Vec<Option<Output>>,
        info: Arc<NodeInfo>,
        labels: Arc<Labels>,
        timings: Option<Box<[Option<NodeTiming>]>>,
        detached: Vec<(NodeId, GraphOutcome)>,
    ) -> Self {
        Self {
            graph,
            codes,
            details,
            runs,
            outputs,
            taken_units: Vec::new(),
            info,
            labels,
            timings,
            detached,
        }
    }

    /// The id of the graph that was run.
    pub fn graph(&self) -> GraphId {
        self.graph
    }

    /// Number of nodes in the graph.
    pub fn len(&self) -> usize {
        self.codes.len()
    }

    /// True for the outcome of an empty graph.
    pub fn is_empty(&self) -> bool {
        self.codes.is_empty()
    }

    /// The node's final status (its last activation's, if it ran several
    /// times).
    ///
    /// # Errors
    ///
    /// [`OutcomeError::ForeignNode`] if `node` belongs to another graph.
    pub fn status(&self, node: NodeId) -> Result<&NodeStatus, OutcomeError> {
        let index = self.index_of(node)?;
        Ok(self.status_at(index))
    }

    /// How many times the node's closure ran in this run: 0 or 1, or more
    /// for a node in a loop.
    ///
    /// # Errors
    ///
    /// [`OutcomeError::ForeignNode`] if `node` belongs to another graph.
    pub fn runs(&self, node: NodeId) -> Result<usize, OutcomeError> {
        let index = self.index_of(node)?;
        Ok(match &self.runs {
            Some(runs) => runs[index] as usize,
            None => usize::from(self.status_at(index).ran()),
        })
    }

    /// When the node last started and how long it ran, if the graph
    /// records timings and the node ran.
    ///
    /// # Errors
    ///
    /// [`OutcomeError::ForeignNode`] if `node` belongs to another graph.
    pub fn timing(&self, node: NodeId) -> Result<Option<NodeTiming>, OutcomeError> {
        let index = self.index_of(node)?;
        Ok(self.timings.as_ref().and_then(|t| t[index]))
    }

    /// The outcomes of the detached subgraphs this run waited for at its
    /// end ([`Subgraph::detach`](crate::Subgraph::detach)), each with the
    /// node that made it, in the order they ended.
    pub fn detached(&self) -> &[(NodeId, GraphOutcome)] {
        &self.detached
    }

    /// Borrows the node's output as a `T`; it stays in the outcome.
    ///
    /// # Errors
    ///
    /// [`OutcomeError::ForeignNode`], [`OutcomeError::NotCompleted`],
    /// [`OutcomeError::WrongType`] or [`OutcomeError::AlreadyTaken`].
    pub fn get<T: 'static>(&self, node: NodeId) -> Result<&T, OutcomeError> {
        let index = self.index_of(node)?;
        let status = self.status_at(index);
        if !status.has_output() {
            return Err(OutcomeError::NotCompleted {
                node: self.name_at(index),
                status: status.clone(),
                expected: type_name::<T>(),
            });
        }
        let wrong_type = || OutcomeError::WrongType {
            node: self.name_at(index),
            expected: type_name::<T>(),
            actual: self.info.output_types[index],
        };
        match self.info.slot_of[index] {
            NO_SLOT => {
                if self.taken_units.contains(&(index as u32)) {
                    return Err(OutcomeError::AlreadyTaken {
                        node: self.name_at(index),
                    });
                }
                let unit: &'static () = &();
                (unit as &dyn Any)
                    .downcast_ref::<T>()
                    .ok_or_else(wrong_type)
            }
            slot => match &self.outputs[slot as usize] {
                Some(output) => output.downcast_ref::<T>().ok_or_else(wrong_type),
                None => Err(OutcomeError::AlreadyTaken {
                    node: self.name_at(index),
                }),
            },
        }
    }

    /// Moves the node's output out as a `T`. A later `take` or `get` of the
    /// same node returns [`OutcomeError::AlreadyTaken`].
    ///
    /// # Errors
    ///
    /// [`OutcomeError::ForeignNode`], [`OutcomeError::NotCompleted`],
    /// [`OutcomeError::WrongType`] (the output then stays) or
    /// [`OutcomeError::AlreadyTaken`].
    pub fn take<T: Send + Sync + 'static>(&mut self, node: NodeId) -> Result<T, OutcomeError> {
        // Check the type before moving anything, so a wrong guess loses nothing.
        self.get::<T>(node)?;
        let index = node.index();
        let taken = OutcomeError::AlreadyTaken {
            node: self.name_at(index),
        };
        match self.info.slot_of[index] {
            NO_SLOT => {
                self.taken_units.push(index as u32);
                let unit: Box<dyn Any> = Box::new(());
                unit.downcast::<T>().map(|unit| *unit).map_err(|_| taken)
            }
            slot => {
                let output = self.outputs[slot as usize].take();
                let Some(output) = output else {
                    return Err(taken);
                };
                let typed = match output.downcast::<T>() {
                    Ok(typed) => typed,
                    Err(_) => return Err(taken),
                };
                // Every reader's reference went when its node finished, and
                // the run has ended: the outcome holds the only one.
                match Arc::try_unwrap(typed) {
                    Ok(value) => Ok(value),
                    Err(shared) => {
                        self.outputs[slot as usize] = Some(shared);
                        Err(taken)
                    }
                }
            }
        }
    }

    /// Every node's id and final status, in the order the nodes were added.
    pub fn iter(&self) -> impl ExactSizeIterator<Item = (NodeId, &NodeStatus)> + '_ {
        let graph = self.graph;
        (0..self.codes.len()).map(move |index| (NodeId::new(graph, index), self.status_at(index)))
    }

    /// True when every node completed (also for an empty graph).
    pub fn all_completed(&self) -> bool {
        self.codes.iter().all(|&code| code == Code::Completed as u8)
    }

    /// True when no node failed and none was cancelled: every node
    /// completed or was not reached (a condition took another branch), and
    /// so did every detached subgraph.
    pub fn is_success(&self) -> bool {
        self.codes
            .iter()
            .all(|&code| code == Code::Completed as u8 || code == Code::NotReached as u8)
            && self
                .detached
                .iter()
                .all(|(_, outcome)| outcome.is_success())
    }

    fn index_of(&self, node: NodeId) -> Result<usize, OutcomeError> {
        if node.graph() == self.graph && node.index() < self.codes.len() {
            Ok(node.index())
        } else {
            Err(OutcomeError::ForeignNode {
                node,
                expected: self.graph,
            })
        }
    }

    pub(crate) fn status_at(&self, index: usize) -> &NodeStatus {
        let code = Code::from_u8(self.codes[index]);
        if let Some(status) = code.simple_status() {
            return status;
        }
        static UNKNOWN: NodeStatus = NodeStatus::NotReached;
        match self.detail_at(index) {
            Some(at) => &self.details[at].1,
            // Every failed or skipped node has its status recorded
            // (`sweep.rs`).
            None => &UNKNOWN,
        }
    }

    fn detail_at(&self, index: usize) -> Option<usize> {
        self.details
            .binary_search_by_key(&(index as u32), |(node, _)| *node)
            .ok()
    }

    /// The status of node `index`, to change in place (a failure whose
    /// panic's payload is taken).
    pub(crate) fn status_at_mut(&mut self, index: usize) -> Option<&mut NodeStatus> {
        let at = self.detail_at(index)?;
        Some(&mut self.details[at].1)
    }

    /// Moves the status of node `index` out, leaving a clone (without a
    /// panic's payload) in its place.
    pub(crate) fn take_status(&mut self, index: usize) -> NodeStatus {
        match self.status_at_mut(index) {
            Some(status) => {
                let copy = status.clone();
                std::mem::replace(status, copy)
            }
            None => self.status_at(index).clone(),
        }
    }

    /// Node `index` as errors and statuses name it.
    pub(crate) fn name_at(&self, index: usize) -> NodeName {
        self.labels.name(NodeId::new(self.graph, index))
    }

    /// The node's name: its id and label.
    ///
    /// # Errors
    ///
    /// [`OutcomeError::ForeignNode`] if `node` belongs to another graph.
    pub fn name(&self, node: NodeId) -> Result<NodeName, OutcomeError> {
        Ok(self.name_at(self.index_of(node)?))
    }

    /// Where the failure of `node` started: `None` if its status is not a
    /// failure ([`NodeStatus::is_failure`]), else the chain from `node`
    /// down to the node whose panic, error or rejection started it,
    /// following `Skipped { prerequisite }` through this graph and
    /// `SubgraphFailed { node, status }` into subgraphs.
    ///
    /// ```
    /// use rt_dag::{NodeStatus, TaskGraph};
    ///
    /// #[derive(Debug, thiserror::Error)]
    /// #[error("no route to the mirror")]
    /// struct NoRoute;
    ///
    /// let rt = rt_core::Runtime::new(2).unwrap();
    /// let mut graph = TaskGraph::new();
    /// let fetch = graph.add_subgraph(|_, sub| {
    ///     let download = sub.add_fallible_task(|_| -> Result<Vec<u8>, NoRoute> { Err(NoRoute) });
    ///     sub.set_label(download, "download").unwrap();
    /// });
    /// graph.set_label(fetch, "fetch").unwrap();
    /// let build = graph.add_task_after(&[fetch], |_| ()).unwrap();
    /// graph.set_label(build, "build").unwrap();
    /// let outcome = graph.run(&rt);
    ///
    /// assert_eq!(outcome.status(build), Ok(&NodeStatus::Skipped { prerequisite: fetch.into() }));
    /// let cause = outcome.root_cause(build).unwrap().unwrap();
    /// let names: Vec<String> = cause.path().iter().map(|n| n.to_string()).collect();
    /// assert_eq!(names, [r#"node 1 "build""#, r#"node 0 "fetch""#, r#"node 0 "download""#]);
    /// assert_eq!(cause.node().label(), Some("download"));
    /// assert!(cause.error().unwrap().downcast_ref::<NoRoute>().is_some());
    /// assert_eq!(
    ///     cause.to_string(),
    ///     r#"node 0 "download" failed: no route to the mirror (reached from node 1 "build" through node 0 "fetch")"#
    /// );
    /// ```
    ///
    /// # Errors
    ///
    /// [`OutcomeError::ForeignNode`] if `node` belongs to another graph.
    pub fn root_cause(&self, node: NodeId) -> Result<Option<RootCause<'_>>, OutcomeError> {
        let index = self.index_of(node)?;
        Ok(RootCause::of(self, index))
    }

    /// The root cause ([`root_cause`](Self::root_cause)) of the first
    /// failed node, in the order the nodes were added, if any failed:
    /// what Taskflow's `run(...).get()` would throw.
    pub fn first_failure(&self) -> Option<RootCause<'_>> {
        let index = (0..self.codes.len()).find(|&i| self.status_at(i).is_failure())?;
        RootCause::of(self, index)
    }

    /// Moves out the payload of the panic the failure of `node` started
    /// with (its [`root_cause`](Self::root_cause)), to re-raise with
    /// [`std::panic::resume_unwind`] or downcast. The status keeps the
    /// panic's message; taking the payload again gives that message as a
    /// `String`.
    ///
    /// ```
    /// use rt_dag::{NodeStatus, TaskGraph};
    ///
    /// #[derive(Debug, PartialEq)]
    /// struct Overheated(u16);
    ///
    /// let rt = rt_core::Runtime::new(2).unwrap();
    /// let mut graph = TaskGraph::new();
    /// let hot = graph.add_task(|_| -> () { std::panic::panic_any(Overheated(413)) });
    /// let after = graph.add_task_after(&[hot], |_| ()).unwrap();
    /// # let hook = std::panic::take_hook();
    /// # std::panic::set_hook(Box::new(|_| {}));
    /// let mut outcome = graph.run(&rt);
    /// # std::panic::set_hook(hook);
    /// let payload = outcome.take_panic(after).unwrap(); // followed to `hot`
    /// assert_eq!(payload.downcast_ref::<Overheated>(), Some(&Overheated(413)));
    /// // or: std::panic::resume_unwind(payload)
    /// assert!(matches!(outcome.status(hot), Ok(NodeStatus::Panicked(_))));
    /// ```
    ///
    /// # Errors
    ///
    /// [`OutcomeError::ForeignNode`] if `node` belongs to another graph;
    /// [`OutcomeError::NoPanic`] if its failure did not start with a panic,
    /// or it did not fail.
    pub fn take_panic(&mut self, node: NodeId) -> Result<Box<dyn Any + Send>, OutcomeError> {
        let index = self.index_of(node)?;
        let origin = RootCause::of(self, index).map(|cause| cause.origin());
        let no_panic = |outcome: &Self| OutcomeError::NoPanic {
            node: outcome.name_at(index),
            status: outcome.status_at(index).clone(),
        };
        let Some(origin) = origin else {
            return Err(no_panic(self));
        };
        let mut status = match self.status_at_mut(origin) {
            Some(status) => status,
            None => return Err(no_panic(self)),
        };
        while let NodeStatus::SubgraphFailed { status: inner, .. } = status {
            status = inner;
        }
        if let NodeStatus::Panicked(message) = status {
            let text = rt_handle::PanicMessage::from(message.as_str());
            return Ok(std::mem::replace(message, text).into_payload());
        }
        Err(no_panic(self))
    }
}

impl fmt::Debug for GraphOutcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("GraphOutcome")
            .field("graph", &self.graph)
            .field(
                "statuses",
                &self.iter().map(|(_, status)| status).collect::<Vec<_>>(),
            )
            .field("detached", &self.detached.len())
            .finish()
    }
}

/// Where a node's failure started
/// ([`GraphOutcome::root_cause`], [`GraphOutcome::first_failure`]): the
/// chain of nodes from the node asked about to the one whose panic, error,
/// rejection or invalidity started it, and that node's status.
///
/// The chain follows `Skipped { prerequisite }` back through the graph,
/// then `SubgraphFailed { node, .. }` down into subgraphs (whose nodes are
/// named in their own graphs). It displays as
/// `node 4 "unpack" panicked: bad header (reached from node 9 "install" through node 7 "fetch")`.
#[derive(Debug, Clone)]
pub struct RootCause<'a> {
    path: Vec<NodeName>,
    status: &'a NodeStatus,
    /// The index, in the outcome asked, of the last node of the chain in
    /// that graph.
    origin: usize,
}

impl<'a> RootCause<'a> {
    /// The root cause of node `index` of `outcome`, if its status is a
    /// failure.
    pub(crate) fn of(outcome: &'a GraphOutcome, index: usize) -> Option<Self> {
        let mut status = outcome.status_at(index);
        if !status.is_failure() {
            return None;
        }
        let mut path = vec![outcome.name_at(index)];
        let mut at = index;
        // Each skipped node names one claimed before it (`sweep.rs`): the
        // chain ends, at a node that failed, within `len` steps.
        for _ in 0..outcome.len() {
            let NodeStatus::Skipped { prerequisite } = status else {
                break;
            };
            at = prerequisite.id().index();
            path.push(outcome.name_at(at));
            status = outcome.status_at(at);
        }
        while let NodeStatus::SubgraphFailed {
            node,
            status: inner,
        } = status
        {
            path.push(node.clone());
            status = inner;
        }
        Some(Self {
            path,
            status,
            origin: at,
        })
    }

    /// The index of the chain's last node in the outcome's own graph.
    pub(crate) fn origin(&self) -> usize {
        self.origin
    }

    /// The node where the failure started.
    pub fn node(&self) -> &NodeName {
        self.path
            .last()
            .expect("a chain names at least its first node")
    }

    /// The chain: the node asked about first, the node where the failure
    /// started last.
    pub fn path(&self) -> &[NodeName] {
        &self.path
    }

    /// What became of the node where the failure started: `Panicked`,
    /// `Failed`, `Rejected` or `Invalid`.
    pub fn status(&self) -> &'a NodeStatus {
        self.status
    }

    /// The panic's message, if the failure started with a panic.
    pub fn panic_message(&self) -> Option<&'a str> {
        match self.status {
            NodeStatus::Panicked(message) => Some(message.as_str()),
            _ => None,
        }
    }

    /// The error a fallible task returned, if the failure started with one.
    pub fn error(&self) -> Option<&'a NodeError> {
        match self.status {
            NodeStatus::Failed(error) => Some(error),
            _ => None,
        }
    }
}

impl fmt::Display for RootCause<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let status = match self.status {
            NodeStatus::Panicked(message) => format!("panicked: {message}"),
            NodeStatus::Failed(error) => format!("failed: {error}"),
            other => other.to_string(),
        };
        write!(f, "{} {status}", self.node())?;
        if let [first, between @ .., _] = &self.path[..] {
            write!(f, " (reached from {first}")?;
            for (i, node) in between.iter().enumerate() {
                f.write_str(if i == 0 { " through " } else { ", " })?;
                write!(f, "{node}")?;
            }
            f.write_str(")")?;
        }
        Ok(())
    }
}
