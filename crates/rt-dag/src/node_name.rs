//! How errors and statuses name a node: its index, and its label if it has
//! one.

use std::collections::BTreeMap;
use std::fmt;
use std::hash::{Hash, Hasher};
use std::sync::Arc;

use crate::NodeId;

/// A node as errors and statuses name it: its [`NodeId`], and the label
/// [`TaskGraph::set_label`](crate::TaskGraph::set_label) gave it, if any.
///
/// It displays (and debug-prints) as `node 3 "fetch"`, or `node 3` without
/// a label. Two names are equal when their ids are, whatever their labels
/// (a label describes a node, it does not identify it), and a name equals
/// its id, so that errors compare with the ids a graph handed out.
///
/// ```
/// use rt_dag::{GraphError, TaskGraph};
///
/// let mut graph = TaskGraph::new();
/// let start = graph.add_task(|_| ());
/// graph.set_label(start, "fetch sources").unwrap();
/// let check = graph.add_condition_after(&[start], |_| 0).unwrap();
/// let error = graph.set_branches(check, &[start]).unwrap_err();
/// let GraphError::NeverRuns { node } = &error else { unreachable!() };
/// assert_eq!(*node, start);
/// assert_eq!(node.label(), Some("fetch sources"));
/// assert_eq!(error.to_string(), r#"node 0 "fetch sources" could never start: every way to it waits on a cycle"#);
/// ```
#[derive(Clone)]
pub struct NodeName {
    id: NodeId,
    label: Option<Arc<str>>,
}

impl NodeName {
    pub(crate) fn new(id: NodeId, label: Option<Arc<str>>) -> Self {
        Self { id, label }
    }

    /// The node's id.
    pub fn id(&self) -> NodeId {
        self.id
    }

    /// The node's label, if it has one.
    pub fn label(&self) -> Option<&str> {
        self.label.as_deref()
    }
}

impl From<NodeId> for NodeName {
    /// The name of a node without its label.
    fn from(id: NodeId) -> Self {
        Self { id, label: None }
    }
}

impl PartialEq for NodeName {
    fn eq(&self, other: &Self) -> bool {
        self.id == other.id
    }
}

impl Eq for NodeName {}

impl Hash for NodeName {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.id.hash(state);
    }
}

impl PartialEq<NodeId> for NodeName {
    fn eq(&self, other: &NodeId) -> bool {
        self.id == *other
    }
}

impl PartialEq<NodeName> for NodeId {
    fn eq(&self, other: &NodeName) -> bool {
        *self == other.id
    }
}

impl fmt::Display for NodeName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.label {
            Some(label) => write!(f, "{} {:?}", self.id, label),
            None => write!(f, "{}", self.id),
        }
    }
}

impl fmt::Debug for NodeName {
    /// As `Display`: `node 3 "fetch"`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

/// The labels of a graph's nodes, by index: shared by the graph with the
/// outcomes of its runs.
#[derive(Debug, Clone, Default)]
pub(crate) struct Labels(BTreeMap<u32, Arc<str>>);

impl Labels {
    pub(crate) fn get(&self, index: usize) -> Option<&Arc<str>> {
        self.0.get(&(index as u32))
    }

    pub(crate) fn set(&mut self, index: usize, label: Arc<str>) {
        self.0.insert(index as u32, label);
    }

    /// The name of node `id`, with its label.
    pub(crate) fn name(&self, id: NodeId) -> NodeName {
        NodeName::new(id, self.get(id.index()).cloned())
    }
}
