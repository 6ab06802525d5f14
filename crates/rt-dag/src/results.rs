//! What a node's closure sees: the outputs of its finished prerequisites.

use std::any::type_name;
use std::fmt;

use rt_handle::CancellationToken;

use crate::graph::Output;
use crate::{DependencyError, GraphId, NodeId};
use std::sync::OnceLock;

/// The outputs of a running node's declared prerequisites.
///
/// Every node's closure receives one. A node only starts once all of its
/// prerequisites have completed, so every declared prerequisite's output is
/// here; other nodes' outputs are not, even those of indirect ancestors.
/// Several dependents may read the same output at the same time, which is
/// why node outputs must be `Sync`.
///
/// ```
/// use rt_dag::{run_graph, DependencyError, Executor, Job, Priority, TaskGraph};
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
/// let a = graph.add_task(|_| 20_u64);
/// let b = graph.add_task(|_| 22_u64);
/// let unrelated = graph.add_task(|_| 0_u64);
/// let sum = graph
///     .add_task_after(&[a, b], move |deps| {
///         assert_eq!(deps.len(), 2);
///         assert!(matches!(
///             deps.get::<u64>(unrelated),
///             Err(DependencyError::NotADependency { .. })
///         ));
///         assert!(matches!(deps.get::<u32>(a), Err(DependencyError::WrongType { .. })));
///         deps.get::<u64>(a).unwrap() + deps.get::<u64>(b).unwrap()
///     })
///     .unwrap();
/// let mut outcome = run_graph(&Inline, graph);
/// assert_eq!(outcome.take::<u64>(sum), Ok(42));
/// ```
pub struct DependencyResults<'a> {
    node: NodeId,
    /// Sorted indices of the declared prerequisites.
    deps: &'a [usize],
    /// Every node's output slot; those of `deps` are all set.
    outputs: &'a [OnceLock<Output>],
    output_types: &'a [&'static str],
    token: Option<&'a CancellationToken>,
}

impl<'a> DependencyResults<'a> {
    pub(crate) fn new(
        node: NodeId,
        deps: &'a [usize],
        outputs: &'a [OnceLock<Output>],
        output_types: &'a [&'static str],
        token: Option<&'a CancellationToken>,
    ) -> Self {
        Self {
            node,
            deps,
            outputs,
            output_types,
            token,
        }
    }

    /// The output of the declared prerequisite `dep`, as a `T`.
    ///
    /// # Errors
    ///
    /// * [`DependencyError::NotADependency`] when `dep` is not one of this
    ///   node's declared prerequisites (including an id of another graph);
    /// * [`DependencyError::WrongType`] when `dep`'s closure returns another
    ///   type than `T`.
    ///
    /// Both name the node and the requested type.
    pub fn get<T: 'static>(&self, dep: NodeId) -> Result<&T, DependencyError> {
        if dep.graph() != self.node.graph() || self.deps.binary_search(&dep.index()).is_err() {
            return Err(DependencyError::NotADependency {
                node: self.node,
                requested: dep,
                expected: type_name::<T>(),
            });
        }
        let output = self.outputs[dep.index()]
            .get()
            .expect("a node starts only after every prerequisite stored its output");
        output
            .downcast_ref::<T>()
            .ok_or(DependencyError::WrongType {
                requested: dep,
                expected: type_name::<T>(),
                actual: self.output_types[dep.index()],
            })
    }

    /// The node whose closure is running.
    pub fn node(&self) -> NodeId {
        self.node
    }

    /// The declared prerequisites, in the order they were added to the
    /// graph, each once.
    pub fn dependencies(&self) -> impl ExactSizeIterator<Item = NodeId> + '_ {
        let graph: GraphId = self.node.graph();
        self.deps
            .iter()
            .map(move |&index| NodeId::new(graph, index))
    }

    /// Number of declared prerequisites.
    pub fn len(&self) -> usize {
        self.deps.len()
    }

    /// True for a node without prerequisites.
    pub fn is_empty(&self) -> bool {
        self.deps.is_empty()
    }

    /// True once the run's [`CancellationToken`]
    /// has been cancelled (always false under [`run_graph`](crate::run_graph)).
    /// A long node can poll it and return early; nodes that have not started
    /// yet will not start.
    pub fn is_cancelled(&self) -> bool {
        self.token.is_some_and(CancellationToken::is_cancelled)
    }
}

impl fmt::Debug for DependencyResults<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("DependencyResults")
            .field("node", &self.node)
            .field("dependencies", &self.dependencies().collect::<Vec<_>>())
            .finish()
    }
}
