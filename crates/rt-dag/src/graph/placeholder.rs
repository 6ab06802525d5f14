//! Placeholders: nodes added now, their work set later (Taskflow's
//! `placeholder` and `Task::work`).

use rt_queue::Priority;

use super::node::Work;
use super::pipeline_node::pipeline_work;
use super::{work, PhantomOutput, TaskGraph};
use crate::{
    DependencyResults, GraphError, GraphOutcome, Module, NodeId, Pipeline, PipelineReport, Subgraph,
};

impl TaskGraph {
    /// Adds a node without prerequisites and without work yet (Taskflow's
    /// `placeholder`): join it to others with [`precede`](Self::precede)
    /// and [`succeed`](Self::succeed), give it settings, and set its work
    /// later, once, with one of the `set_` methods below, which decides
    /// its kind. A placeholder whose work was never set does not run: it is
    /// [`NodeStatus::Invalid`](crate::NodeStatus::Invalid) with
    /// [`GraphError::NoWork`], and its dependents are skipped.
    ///
    /// ```
    /// use rt_dag::{run_graph, GraphError, NodeKind, NodeStatus, TaskGraph};
    /// # use rt_dag::{Executor, Job, Priority};
    /// # struct Inline;
    /// # impl Executor for Inline {
    /// #     fn submit(&self, _: Priority, job: Job) -> Result<(), Job> { job.run(); Ok(()) }
    /// # }
    ///
    /// let mut graph = TaskGraph::new();
    /// let load = graph.add_placeholder();
    /// let use_it = graph.add_task_after(&[load], move |deps| *deps.get::<u32>(load).unwrap() + 1).unwrap();
    /// let unset = graph.add_placeholder();
    /// assert_eq!(graph.kind(load), Ok(NodeKind::Placeholder));
    /// graph.set_task(load, |_| 41_u32).unwrap();
    /// assert_eq!(graph.kind(load), Ok(NodeKind::Task));
    /// assert_eq!(graph.set_task(load, |_| 0_u32), Err(GraphError::NotAPlaceholder { node: load.into() }));
    ///
    /// let outcome = run_graph(&Inline, graph);
    /// assert_eq!(outcome.get::<u32>(use_it), Ok(&42));
    /// assert_eq!(outcome.status(unset), Ok(&NodeStatus::Invalid(GraphError::NoWork { node: unset.into() })));
    /// ```
    pub fn add_placeholder(&mut self) -> NodeId {
        self.push(
            &[],
            Priority::Normal,
            Work::Placeholder,
            PhantomOutput::<()>::new(),
        )
    }

    /// Sets a placeholder's work: a task (see [`add_task`](Self::add_task)).
    ///
    /// # Errors
    ///
    /// [`GraphError::ForeignNode`] if `node` belongs to another graph;
    /// [`GraphError::NotAPlaceholder`] if its work is set already.
    pub fn set_task<F, T>(&mut self, node: NodeId, f: F) -> Result<(), GraphError>
    where
        F: FnMut(&DependencyResults<'_>) -> T + Send + 'static,
        T: Send + Sync + 'static,
    {
        self.check_placeholder(node)?;
        // SAFETY: the closure is `'static`.
        self.fill::<T>(node, unsafe { work::task(f) })
    }

    /// Sets a placeholder's work: a fallible task (see
    /// [`add_fallible_task`](Self::add_fallible_task)).
    ///
    /// # Errors
    ///
    /// As for [`set_task`](Self::set_task).
    pub fn set_fallible_task<F, T, E>(&mut self, node: NodeId, f: F) -> Result<(), GraphError>
    where
        F: FnMut(&DependencyResults<'_>) -> Result<T, E> + Send + 'static,
        T: Send + Sync + 'static,
        E: Into<Box<dyn std::error::Error + Send + Sync + 'static>>,
    {
        self.check_placeholder(node)?;
        // SAFETY: the closure is `'static`.
        self.fill::<T>(node, unsafe { work::fallible(f) })
    }

    /// Sets a placeholder's work: a run-once task (see
    /// [`add_task_once`](Self::add_task_once)).
    ///
    /// # Errors
    ///
    /// As for [`set_task`](Self::set_task).
    pub fn set_task_once<F, T>(&mut self, node: NodeId, f: F) -> Result<(), GraphError>
    where
        F: FnOnce(&DependencyResults<'_>) -> T + Send + 'static,
        T: Send + Sync + 'static,
    {
        self.check_placeholder(node)?;
        // SAFETY: the closure is `'static`.
        self.fill::<T>(node, unsafe { work::task_once(f) })
    }

    /// Sets a placeholder's work: a condition (see
    /// [`add_condition`](Self::add_condition)); give it branches with
    /// [`set_branches`](Self::set_branches).
    ///
    /// # Errors
    ///
    /// As for [`set_task`](Self::set_task).
    pub fn set_condition<F>(&mut self, node: NodeId, f: F) -> Result<(), GraphError>
    where
        F: FnMut(&DependencyResults<'_>) -> usize + Send + 'static,
    {
        self.check_placeholder(node)?;
        // SAFETY: the closure is `'static`.
        self.fill::<usize>(node, unsafe { work::condition(f) })
    }

    /// Sets a placeholder's work: a multi-condition (see
    /// [`add_multi_condition`](Self::add_multi_condition)).
    ///
    /// # Errors
    ///
    /// As for [`set_task`](Self::set_task).
    pub fn set_multi_condition<F, I>(&mut self, node: NodeId, f: F) -> Result<(), GraphError>
    where
        F: FnMut(&DependencyResults<'_>) -> I + Send + 'static,
        I: IntoIterator<Item = usize>,
    {
        self.check_placeholder(node)?;
        // SAFETY: the closure is `'static`.
        self.fill::<Vec<usize>>(node, unsafe { work::multi_condition(f) })
    }

    /// Sets a placeholder's work: a subgraph node (see
    /// [`add_subgraph`](Self::add_subgraph)).
    ///
    /// # Errors
    ///
    /// As for [`set_task`](Self::set_task).
    pub fn set_subgraph<F, T>(&mut self, node: NodeId, f: F) -> Result<(), GraphError>
    where
        F: FnMut(&DependencyResults<'_>, &mut Subgraph) -> T + Send + 'static,
        T: Send + Sync + 'static,
    {
        self.check_placeholder(node)?;
        // SAFETY: the closure is `'static`.
        self.fill::<T>(node, unsafe { work::subgraph(f) })
    }

    /// Sets a placeholder's work: a graph of its own (see
    /// [`add_graph`](Self::add_graph)).
    ///
    /// # Errors
    ///
    /// As for [`set_task`](Self::set_task), and
    /// [`GraphError::GraphNodeLimited`] if the placeholder has limits.
    pub fn set_graph(&mut self, node: NodeId, graph: TaskGraph) -> Result<(), GraphError> {
        self.check_placeholder(node)?;
        self.check_unlimited(node)?;
        self.nesting.absorb(&graph.nesting);
        self.fill::<GraphOutcome>(node, Work::Graph(Box::new(graph)))
    }

    /// Sets a placeholder's work: a module (see
    /// [`add_module`](Self::add_module)).
    ///
    /// # Errors
    ///
    /// As for [`set_graph`](Self::set_graph), and
    /// [`GraphError::ComposedIntoItself`] as for
    /// [`add_module`](Self::add_module).
    pub fn set_module(&mut self, node: NodeId, module: &Module) -> Result<(), GraphError> {
        self.check_placeholder(node)?;
        self.check_unlimited(node)?;
        self.check_nesting(module)?;
        self.nesting.runs.extend(module.runs().iter().copied());
        self.fill::<GraphOutcome>(node, Work::Module(module.clone()))
    }

    /// Sets a placeholder's work: a pipeline (see
    /// [`add_pipeline`](Self::add_pipeline)).
    ///
    /// # Errors
    ///
    /// As for [`set_graph`](Self::set_graph).
    pub fn set_pipeline<T: Send + 'static>(
        &mut self,
        node: NodeId,
        pipeline: Pipeline<'static, T>,
    ) -> Result<(), GraphError> {
        self.check_placeholder(node)?;
        self.check_unlimited(node)?;
        self.fill::<PipelineReport>(node, pipeline_work(pipeline))
    }

    /// `node` is a placeholder of this graph.
    pub(super) fn check_placeholder(&self, node: NodeId) -> Result<(), GraphError> {
        let index = self.index_of(node)?;
        match self.nodes[index].work {
            Work::Placeholder => Ok(()),
            _ => Err(GraphError::NotAPlaceholder {
                node: self.name_of(index),
            }),
        }
    }

    /// `node` takes no permit (it is to become a graph, module or pipeline
    /// node).
    fn check_unlimited(&self, node: NodeId) -> Result<(), GraphError> {
        if self.acquisitions_of(node.index()).is_empty() {
            Ok(())
        } else {
            Err(GraphError::GraphNodeLimited {
                node: self.name_of(node.index()),
            })
        }
    }

    /// Gives placeholder `node` (checked) its work, whose output is a `T`.
    pub(super) fn fill<T: 'static>(&mut self, node: NodeId, work: Work) -> Result<(), GraphError> {
        let index = node.index();
        self.count_kind(&work);
        self.nodes[index].work = work;
        self.set_output_type::<T>(index);
        self.plan = None;
        Ok(())
    }
}
