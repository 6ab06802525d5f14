//! Building a graph: nodes, their prerequisites and their priorities.

use std::any::{type_name, Any};
use std::fmt;

use rt_queue::Priority;

use crate::{DependencyResults, GraphError, GraphId, NodeId};

/// A node's output once its type is erased: one allocation (none for
/// zero-sized outputs), readable by several dependents at the same time.
pub(crate) type Output = Box<dyn Any + Send + Sync>;

/// A node's closure once its output type is erased.
pub(crate) type Body = Box<dyn FnOnce(&DependencyResults<'_>) -> Output + Send>;

/// One node as stored in the graph. Its prerequisites live in the graph's
/// flat dependency list (see [`TaskGraph`]'s fields).
pub(crate) struct Node {
    pub(crate) body: Body,
    pub(crate) priority: Priority,
    pub(crate) output_type: &'static str,
    pub(crate) label: Option<String>,
}

/// A directed acyclic graph of tasks, built node by node and then run with
/// [`run_graph`](crate::run_graph) on any [`Executor`](rt_handle::Executor).
///
/// Each node is a closure that receives the outputs of its prerequisites
/// through [`DependencyResults`] and returns a value of any type
/// `T: Send + Sync + 'static` (`Sync` because several dependents may read it
/// at the same time). A node can only depend on nodes added before it, so the
/// graph is acyclic by construction.
///
/// ```
/// use rt_dag::{Priority, TaskGraph};
///
/// let mut graph = TaskGraph::new();
/// let source = graph.add_task(|_| "input".to_string());
/// let length = graph
///     .add_task_after(&[source], move |deps| deps.get::<String>(source).unwrap().len())
///     .unwrap();
/// let urgent = graph.add_task_with_priority(Priority::High, |_| ());
/// assert_eq!(graph.len(), 3);
/// assert_eq!(graph.dependencies(length).unwrap().collect::<Vec<_>>(), vec![source]);
/// assert_eq!(graph.priority(urgent), Ok(Priority::High));
/// ```
pub struct TaskGraph {
    id: GraphId,
    nodes: Vec<Node>,
    /// The declared prerequisites of node `i` are
    /// `dep_list[dep_starts[i]..dep_starts[i + 1]]`: sorted, without
    /// duplicates, all smaller than `i`. One flat list instead of a vector
    /// per node saves an allocation per node.
    dep_starts: Vec<usize>,
    dep_list: Vec<usize>,
}

/// A graph taken apart for running.
pub(crate) struct Parts {
    pub(crate) id: GraphId,
    pub(crate) nodes: Vec<Node>,
    pub(crate) dep_starts: Vec<usize>,
    pub(crate) dep_list: Vec<usize>,
}

impl TaskGraph {
    /// An empty graph with a fresh, process-wide unique [`GraphId`].
    pub fn new() -> Self {
        Self {
            id: GraphId::fresh(),
            nodes: Vec::new(),
            dep_starts: vec![0],
            dep_list: Vec::new(),
        }
    }

    /// This graph's id; every [`NodeId`] it hands out carries it.
    pub fn id(&self) -> GraphId {
        self.id
    }

    /// Number of nodes.
    pub fn len(&self) -> usize {
        self.nodes.len()
    }

    /// True when the graph has no node.
    pub fn is_empty(&self) -> bool {
        self.nodes.is_empty()
    }

    /// Adds a node without prerequisites, at [`Priority::Normal`]. It is
    /// submitted as soon as the graph is run.
    pub fn add_task<F, T>(&mut self, f: F) -> NodeId
    where
        F: FnOnce(&DependencyResults<'_>) -> T + Send + 'static,
        T: Send + Sync + 'static,
    {
        self.push(Priority::Normal, f)
    }

    /// Adds a node without prerequisites at the given priority class.
    pub fn add_task_with_priority<F, T>(&mut self, priority: Priority, f: F) -> NodeId
    where
        F: FnOnce(&DependencyResults<'_>) -> T + Send + 'static,
        T: Send + Sync + 'static,
    {
        self.push(priority, f)
    }

    /// Adds a node, at [`Priority::Normal`], that runs once every node in
    /// `deps` has completed, and can read their outputs.
    ///
    /// Repeated ids count once; an empty `deps` makes a node without
    /// prerequisites.
    ///
    /// # Errors
    ///
    /// [`GraphError::ForeignNode`] if an id in `deps` was handed out by
    /// another graph. The graph is left unchanged.
    pub fn add_task_after<F, T>(&mut self, deps: &[NodeId], f: F) -> Result<NodeId, GraphError>
    where
        F: FnOnce(&DependencyResults<'_>) -> T + Send + 'static,
        T: Send + Sync + 'static,
    {
        self.add_task_after_with_priority(deps, Priority::Normal, f)
    }

    /// Like [`add_task_after`](Self::add_task_after), at the given priority
    /// class.
    ///
    /// # Errors
    ///
    /// [`GraphError::ForeignNode`] if an id in `deps` was handed out by
    /// another graph. The graph is left unchanged.
    pub fn add_task_after_with_priority<F, T>(
        &mut self,
        deps: &[NodeId],
        priority: Priority,
        f: F,
    ) -> Result<NodeId, GraphError>
    where
        F: FnOnce(&DependencyResults<'_>) -> T + Send + 'static,
        T: Send + Sync + 'static,
    {
        // Check every id before touching the graph, so an error leaves it as
        // it was.
        for &dep in deps {
            self.index_of(dep)?;
        }
        let start = self.dep_list.len();
        self.dep_list.extend(deps.iter().map(|dep| dep.index()));
        self.dep_list[start..].sort_unstable();
        // Remove repeats from the new tail (the list before it is untouched).
        let mut kept = start;
        for read in start..self.dep_list.len() {
            if kept == start || self.dep_list[read] != self.dep_list[kept - 1] {
                self.dep_list[kept] = self.dep_list[read];
                kept += 1;
            }
        }
        self.dep_list.truncate(kept);
        Ok(self.push(priority, f))
    }

    /// Gives a node a human-readable name, used by [`to_dot`](Self::to_dot).
    ///
    /// # Errors
    ///
    /// [`GraphError::ForeignNode`] if `node` belongs to another graph.
    pub fn set_label(&mut self, node: NodeId, label: impl Into<String>) -> Result<(), GraphError> {
        let index = self.index_of(node)?;
        self.nodes[index].label = Some(label.into());
        Ok(())
    }

    /// The node's label, if [`set_label`](Self::set_label) gave it one.
    ///
    /// # Errors
    ///
    /// [`GraphError::ForeignNode`] if `node` belongs to another graph.
    pub fn label(&self, node: NodeId) -> Result<Option<&str>, GraphError> {
        Ok(self.nodes[self.index_of(node)?].label.as_deref())
    }

    /// The node's priority class.
    ///
    /// # Errors
    ///
    /// [`GraphError::ForeignNode`] if `node` belongs to another graph.
    pub fn priority(&self, node: NodeId) -> Result<Priority, GraphError> {
        Ok(self.nodes[self.index_of(node)?].priority)
    }

    /// The node's declared prerequisites, in the order they were added to
    /// the graph, each once.
    ///
    /// # Errors
    ///
    /// [`GraphError::ForeignNode`] if `node` belongs to another graph.
    pub fn dependencies(
        &self,
        node: NodeId,
    ) -> Result<impl ExactSizeIterator<Item = NodeId> + '_, GraphError> {
        let id = self.id;
        let deps = self.deps_of(self.index_of(node)?);
        Ok(deps.iter().map(move |&index| NodeId::new(id, index)))
    }

    /// Every node's id, in the order the nodes were added.
    pub fn node_ids(&self) -> impl ExactSizeIterator<Item = NodeId> + '_ {
        let id = self.id;
        (0..self.nodes.len()).map(move |index| NodeId::new(id, index))
    }

    pub(crate) fn nodes(&self) -> &[Node] {
        &self.nodes
    }

    /// The declared prerequisites of node `index`.
    pub(crate) fn deps_of(&self, index: usize) -> &[usize] {
        &self.dep_list[self.dep_starts[index]..self.dep_starts[index + 1]]
    }

    pub(crate) fn into_parts(self) -> Parts {
        Parts {
            id: self.id,
            nodes: self.nodes,
            dep_starts: self.dep_starts,
            dep_list: self.dep_list,
        }
    }

    /// The index of `node` in this graph, or `ForeignNode`. A `NodeId` of
    /// this graph is only created for an existing node and nodes are never
    /// removed, so the index is always in bounds.
    fn index_of(&self, node: NodeId) -> Result<usize, GraphError> {
        if node.graph() == self.id && node.index() < self.nodes.len() {
            Ok(node.index())
        } else {
            Err(GraphError::ForeignNode {
                node,
                expected: self.id,
            })
        }
    }

    /// Appends a node whose prerequisites were just appended to `dep_list`.
    fn push<F, T>(&mut self, priority: Priority, f: F) -> NodeId
    where
        F: FnOnce(&DependencyResults<'_>) -> T + Send + 'static,
        T: Send + Sync + 'static,
    {
        let index = self.nodes.len();
        self.nodes.push(Node {
            body: Box::new(move |deps: &DependencyResults<'_>| -> Output { Box::new(f(deps)) }),
            priority,
            output_type: type_name::<T>(),
            label: None,
        });
        self.dep_starts.push(self.dep_list.len());
        NodeId::new(self.id, index)
    }
}

impl Default for TaskGraph {
    fn default() -> Self {
        Self::new()
    }
}

impl fmt::Debug for TaskGraph {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("TaskGraph")
            .field("id", &self.id)
            .field("nodes", &self.nodes.len())
            .field("edges", &self.dep_list.len())
            .finish()
    }
}
