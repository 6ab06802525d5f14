//! What a node's closure sees: the outputs of its prerequisites.

use std::any::{type_name, Any};
use std::fmt;

use rt_handle::Executor;

use super::state::Run;
use crate::graph::output::{Output, NO_SLOT};
use crate::graph::TaskGraph;
use crate::status::Code;
use crate::{DependencyError, GraphId, NodeId};

/// The outputs of a running node's declared prerequisites.
///
/// Every node's closure receives one. A node started by its prerequisites
/// finds every one of their outputs here; other nodes' outputs are not,
/// even those of indirect ancestors. Several dependents may read the same
/// output at the same time, which is why node outputs must be `Sync`. In a
/// loop, a prerequisite's latest output is the one read; a node that a
/// condition started before some prerequisite completed gets
/// [`DependencyError::NoOutput`] for it.
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
    run: &'a Run,
    node: usize,
    /// The prerequisites' outputs when the node started, aligned with its
    /// prerequisites (empty when every prerequisite's output is `()`): the
    /// node holds its own reference to each, so a prerequisite running
    /// again meanwhile (a loop) cannot take one away while it is read.
    outputs: Vec<Option<Output>>,
}

impl<'a> DependencyResults<'a> {
    #[inline]
    pub(crate) fn new(run: &'a Run, node: usize) -> Self {
        let graph = run.graph();
        let outputs = if graph.meta[node].reads_outputs {
            let slot_of = &graph.info.slot_of;
            graph
                .deps_of(node)
                .iter()
                .map(|&d| match slot_of[d as usize] {
                    NO_SLOT => None,
                    slot => run.outputs[slot as usize]
                        .lock()
                        .unwrap_or_else(|e| e.into_inner())
                        .clone(),
                })
                .collect()
        } else {
            Vec::new()
        };
        Self { run, node, outputs }
    }

    fn graph(&self) -> &'a TaskGraph {
        self.run.graph()
    }

    fn deps(&self) -> &'a [u32] {
        self.graph().deps_of(self.node)
    }

    /// The output of the declared prerequisite `dep`, as a `T`.
    ///
    /// # Errors
    ///
    /// * [`DependencyError::NotADependency`] when `dep` is not one of this
    ///   node's declared prerequisites (including an id of another graph);
    /// * [`DependencyError::WrongType`] when `dep`'s closure returns another
    ///   type than `T`;
    /// * [`DependencyError::NoOutput`] when `dep` has not completed in this
    ///   run (the node was started by a condition's branch).
    ///
    /// Each names the node and the requested type.
    pub fn get<T: 'static>(&self, dep: NodeId) -> Result<&T, DependencyError> {
        let position = match self.deps().binary_search(&(dep.index() as u32)) {
            Ok(position) if dep.graph() == self.graph().id() => position,
            _ => {
                let graph = self.graph();
                return Err(DependencyError::NotADependency {
                    node: graph.name_of(self.node),
                    // A node of this graph has its label here; another
                    // graph's, not.
                    requested: if dep.graph() == graph.id() && dep.index() < graph.len() {
                        graph.name_of(dep.index())
                    } else {
                        dep.into()
                    },
                    expected: type_name::<T>(),
                });
            }
        };
        let index = dep.index();
        let wrong_type = || DependencyError::WrongType {
            node: self.graph().name_of(self.node),
            requested: self.graph().name_of(index),
            expected: type_name::<T>(),
            actual: self.graph().output_type(index),
        };
        let no_output = || DependencyError::NoOutput {
            node: self.graph().name_of(self.node),
            requested: self.graph().name_of(index),
            expected: type_name::<T>(),
        };
        if self.graph().output_is_unit(index) {
            // Without conditions, a node starts only after every prerequisite
            // completed (and `Completed` is not recorded then).
            if self.run.plan().cyclic && self.run.code(index) != Code::Completed {
                return Err(no_output());
            }
            let unit: &'static () = &();
            return (unit as &dyn Any)
                .downcast_ref::<T>()
                .ok_or_else(wrong_type);
        }
        match self.outputs.get(position).and_then(Option::as_ref) {
            Some(output) => output.downcast_ref::<T>().ok_or_else(wrong_type),
            None => Err(no_output()),
        }
    }

    /// The node whose closure is running.
    pub fn node(&self) -> NodeId {
        NodeId::new(self.graph().id(), self.node)
    }

    /// The declared prerequisites, in the order they were added to the
    /// graph, each once.
    pub fn dependencies(&self) -> impl ExactSizeIterator<Item = NodeId> + '_ {
        let graph: GraphId = self.graph().id();
        self.deps()
            .iter()
            .map(move |&index| NodeId::new(graph, index as usize))
    }

    /// Number of declared prerequisites.
    pub fn len(&self) -> usize {
        self.deps().len()
    }

    /// True for a node without prerequisites.
    pub fn is_empty(&self) -> bool {
        self.deps().is_empty()
    }

    /// The executor this node runs on, to run a nested graph, pipeline or
    /// task from inside the node without capturing the executor: pass it
    /// to [`run_graph`](crate::run_graph), [`TaskGraph::run`](crate::TaskGraph::run),
    /// [`Pipeline::run`](crate::Pipeline::run), or spawn a task on it
    /// (`Executor::spawn(&executor, f)`: the `spawn` family needs a sized
    /// executor, which the reference is). A nested run waits the way a run
    /// started from one of the executor's tasks does: on a worker of the
    /// work-stealing runtime it runs the nested nodes it queued meanwhile,
    /// so it completes even on one worker.
    ///
    /// In a run awaited with [`run_graph_async`](crate::run_graph_async),
    /// it hands what it is given to the run's future, which submits it when
    /// polled (and refuses it once the future is dropped).
    ///
    /// ```
    /// use rt_dag::{run_graph, Executor, Pipeline, TaskGraph};
    ///
    /// let rt = rt_core::Runtime::new(2).unwrap();
    /// let mut graph = TaskGraph::new();
    /// let node = graph.add_task(|deps| {
    ///     let executor = deps.executor(); // a `&dyn Executor`
    ///     let mut nested = TaskGraph::new();
    ///     let six = nested.add_task(|_| 6_u32);
    ///     let from_graph = *run_graph(executor, nested).get::<u32>(six).unwrap();
    ///     let squares = Pipeline::from_iter(2, 1..=3_u32).parallel(|x| x * x);
    ///     let from_pipeline: u32 = squares.collect(executor).unwrap().iter().sum();
    ///     let from_task = Executor::spawn(&executor, || 22_u32).join().unwrap();
    ///     from_graph + from_pipeline + from_task
    /// });
    /// assert_eq!(run_graph(&rt, graph).get::<u32>(node), Ok(&42));
    /// ```
    pub fn executor(&self) -> &'a dyn Executor {
        // SAFETY: the node holds a unit of its run while its closure runs,
        // and the returned borrow cannot outlive the closure's call.
        unsafe { self.run.executor() }
    }

    /// True once the run's [`CancellationToken`](crate::CancellationToken) has been cancelled (always
    /// false for runs without one). A long node can poll it and return
    /// early; nodes that have not started yet will not start.
    pub fn is_cancelled(&self) -> bool {
        self.run.cancelled()
    }
}

impl fmt::Debug for DependencyResults<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("DependencyResults")
            .field("node", &self.node())
            .field("dependencies", &self.dependencies().collect::<Vec<_>>())
            .finish()
    }
}
