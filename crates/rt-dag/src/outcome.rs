//! The result of a run: every node's status, and the outputs to take.

use std::any::type_name;
use std::fmt;

use crate::graph::Output;
use crate::{GraphId, NodeId, NodeStatus, OutcomeError};

struct Slot {
    status: NodeStatus,
    output: Option<Output>,
    output_type: &'static str,
}

/// What [`run_graph`](crate::run_graph) returns: every node's final
/// [`NodeStatus`] and the outputs of the nodes that completed.
///
/// Query it with the [`NodeId`]s the graph handed out. Every accessor returns
/// a `Result` and none panics: an id of another graph is
/// [`OutcomeError::ForeignNode`]; asking for the output of a node that did
/// not complete, with the wrong type, or twice, is an error that names the
/// node and the requested type.
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
/// assert_eq!(outcome.status(after_bad), Ok(&NodeStatus::Skipped));
/// assert!(matches!(outcome.take::<u8>(bad), Err(OutcomeError::NotCompleted { .. })));
/// assert!(matches!(outcome.take::<String>(ok), Err(OutcomeError::WrongType { .. })));
/// assert_eq!(outcome.get::<Vec<i32>>(ok), Ok(&vec![1, 2, 3]));
/// assert_eq!(outcome.take::<Vec<i32>>(ok), Ok(vec![1, 2, 3]));
/// assert!(matches!(outcome.take::<Vec<i32>>(ok), Err(OutcomeError::AlreadyTaken { .. })));
/// ```
pub struct GraphOutcome {
    graph: GraphId,
    slots: Vec<Slot>,
}

impl GraphOutcome {
    pub(crate) fn new(
        graph: GraphId,
        nodes: impl Iterator<Item = ((NodeStatus, Option<Output>), &'static str)>,
    ) -> Self {
        let slots = nodes
            .map(|((status, output), output_type)| Slot {
                status,
                output,
                output_type,
            })
            .collect();
        Self { graph, slots }
    }

    /// The id of the graph that was run.
    pub fn graph(&self) -> GraphId {
        self.graph
    }

    /// Number of nodes in the graph.
    pub fn len(&self) -> usize {
        self.slots.len()
    }

    /// True for the outcome of an empty graph.
    pub fn is_empty(&self) -> bool {
        self.slots.is_empty()
    }

    /// The node's final status.
    ///
    /// # Errors
    ///
    /// [`OutcomeError::ForeignNode`] if `node` belongs to another graph.
    pub fn status(&self, node: NodeId) -> Result<&NodeStatus, OutcomeError> {
        Ok(&self.slot(node)?.status)
    }

    /// Borrows the node's output as a `T`; it stays in the outcome.
    ///
    /// # Errors
    ///
    /// [`OutcomeError::ForeignNode`], [`OutcomeError::NotCompleted`],
    /// [`OutcomeError::WrongType`] or [`OutcomeError::AlreadyTaken`].
    pub fn get<T: 'static>(&self, node: NodeId) -> Result<&T, OutcomeError> {
        let slot = self.slot(node)?;
        let output = Self::output_of(node, slot, type_name::<T>())?;
        output.downcast_ref::<T>().ok_or(OutcomeError::WrongType {
            node,
            expected: type_name::<T>(),
            actual: slot.output_type,
        })
    }

    /// Moves the node's output out as a `T`. A later `take` or `get` of the
    /// same node returns [`OutcomeError::AlreadyTaken`].
    ///
    /// # Errors
    ///
    /// [`OutcomeError::ForeignNode`], [`OutcomeError::NotCompleted`],
    /// [`OutcomeError::WrongType`] (the output then stays) or
    /// [`OutcomeError::AlreadyTaken`].
    pub fn take<T: 'static>(&mut self, node: NodeId) -> Result<T, OutcomeError> {
        // Check the type before moving anything, so a wrong guess loses nothing.
        self.get::<T>(node)?;
        let index = node.index();
        let output = self.slots[index].output.take();
        match output.map(|output| output.downcast::<T>()) {
            Some(Ok(value)) => Ok(*value),
            // Unreachable after the `get` above; kept total rather than panicking.
            Some(Err(output)) => {
                self.slots[index].output = Some(output);
                Err(OutcomeError::WrongType {
                    node,
                    expected: type_name::<T>(),
                    actual: self.slots[index].output_type,
                })
            }
            None => Err(OutcomeError::AlreadyTaken { node }),
        }
    }

    /// Every node's id and final status, in the order the nodes were added.
    pub fn iter(&self) -> impl ExactSizeIterator<Item = (NodeId, &NodeStatus)> + '_ {
        let graph = self.graph;
        self.slots
            .iter()
            .enumerate()
            .map(move |(index, slot)| (NodeId::new(graph, index), &slot.status))
    }

    /// True when every node completed (also for an empty graph).
    pub fn all_completed(&self) -> bool {
        self.slots.iter().all(|slot| slot.status.is_completed())
    }

    fn slot(&self, node: NodeId) -> Result<&Slot, OutcomeError> {
        if node.graph() == self.graph {
            if let Some(slot) = self.slots.get(node.index()) {
                return Ok(slot);
            }
        }
        Err(OutcomeError::ForeignNode {
            node,
            expected: self.graph,
        })
    }

    fn output_of<'s>(
        node: NodeId,
        slot: &'s Slot,
        expected: &'static str,
    ) -> Result<&'s Output, OutcomeError> {
        if !slot.status.is_completed() {
            return Err(OutcomeError::NotCompleted {
                node,
                status: slot.status.clone(),
                expected,
            });
        }
        slot.output
            .as_ref()
            .ok_or(OutcomeError::AlreadyTaken { node })
    }
}

impl fmt::Debug for GraphOutcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("GraphOutcome")
            .field("graph", &self.graph)
            .field(
                "statuses",
                &self
                    .slots
                    .iter()
                    .map(|slot| &slot.status)
                    .collect::<Vec<_>>(),
            )
            .finish()
    }
}
