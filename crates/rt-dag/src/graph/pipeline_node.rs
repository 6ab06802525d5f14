//! Pipelines as nodes of a graph (Taskflow's `composed_of` of a
//! pipeline): the node runs the pipeline, its dependents start once the
//! pipeline is over, and its output is the run's [`PipelineReport`].

use std::any::type_name;

use rt_queue::Priority;

use super::node::{Callable, Work};
use super::{PhantomOutput, TaskGraph};
use crate::pipeline::PipelineNode;
use crate::{GraphError, NodeId, Pipeline, PipelineReport};

impl TaskGraph {
    /// Adds `pipeline` as one node: each run of the graph runs the
    /// pipeline once more (as [`Pipeline::run_mut`]: the tokens go on
    /// counting), on the graph's executor, its stages' jobs going out as
    /// the graph's nodes' do. No thread waits for it: the thread that ends
    /// the pipeline completes the node and goes on with its dependents.
    /// The node's output is the run's [`PipelineReport`]. A pipeline that
    /// fails fails the node: `Panicked` if a stage panicked (with the
    /// [`PipelineError`](crate::PipelineError)'s message), `Failed` if it
    /// could not start (the `PipelineError`, typed: no lines, no pipes,
    /// ...), `Rejected` if the executor refused a stage's job, `Cancelled`
    /// if the graph's run was cancelled; its dependents are `Skipped` (or
    /// `Cancelled`). A pipeline node takes no [`Limit`](crate::Limit)'s
    /// permit ([`GraphError::GraphNodeLimited`]): its lines bound it.
    ///
    /// ```
    /// use rt_dag::{Pipeline, PipelineReport, TaskGraph};
    ///
    /// let rt = rt_core::Runtime::new(2).unwrap();
    /// let mut graph = TaskGraph::new();
    /// let mut next = 0u32;
    /// let squares = graph.add_pipeline(
    ///     Pipeline::from_fn(4, move || (next < 8).then(|| { next += 1; next }))
    ///         .parallel(|x| x * x),
    /// );
    /// let check = graph
    ///     .add_task_after(&[squares], move |deps| deps.get::<PipelineReport>(squares).unwrap().items())
    ///     .unwrap();
    /// let outcome = graph.run(&rt);
    /// assert_eq!(outcome.get::<u64>(check), Ok(&8));
    /// ```
    pub fn add_pipeline<T: Send + 'static>(&mut self, pipeline: Pipeline<'static, T>) -> NodeId {
        self.push(
            &[],
            Priority::Normal,
            pipeline_work(pipeline),
            PhantomOutput::<PipelineReport>::new(),
        )
    }

    /// Adds `pipeline` as one node (see [`add_pipeline`](Self::add_pipeline))
    /// that runs once every node in `deps` has completed.
    ///
    /// # Errors
    ///
    /// [`GraphError::ForeignNode`] if an id in `deps` was handed out by
    /// another graph. The graph is left unchanged.
    pub fn add_pipeline_after<T: Send + 'static>(
        &mut self,
        deps: &[NodeId],
        pipeline: Pipeline<'static, T>,
    ) -> Result<NodeId, GraphError> {
        self.check_all(deps)?;
        Ok(self.push(
            deps,
            Priority::Normal,
            pipeline_work(pipeline),
            PhantomOutput::<PipelineReport>::new(),
        ))
    }

    /// The pipeline of pipeline node `node`, whose last stage yields `T`,
    /// to read or change between runs: its [`tokens`](Pipeline::tokens),
    /// [`reset`](Pipeline::reset), its [`set_pipes`](Pipeline::set_pipes)
    /// or [`set_lines`](Pipeline::set_lines) (Taskflow's
    /// `ScalablePipeline::reset`).
    ///
    /// ```
    /// use rt_dag::{Pipe, Pipeline, TaskGraph};
    ///
    /// let rt = rt_core::Runtime::new(2).unwrap();
    /// let mut graph = TaskGraph::new();
    /// let stop_at = |n: u64| Pipe::serial(move |ctx| if ctx.token() == n { ctx.stop() });
    /// let node = graph.add_pipeline(Pipeline::from_pipes(2, vec![stop_at(3)]));
    /// graph.run(&rt);
    /// let pipeline = graph.pipeline_mut::<()>(node).unwrap();
    /// assert_eq!(pipeline.tokens(), 3);
    /// pipeline.reset();
    /// pipeline.set_pipes(vec![stop_at(5), Pipe::parallel(|_| ())]);
    /// graph.run(&rt);
    /// assert_eq!(graph.pipeline_mut::<()>(node).unwrap().tokens(), 5);
    /// ```
    ///
    /// # Errors
    ///
    /// [`GraphError::ForeignNode`] if `node` belongs to another graph,
    /// [`GraphError::NotAPipeline`] if it is not a pipeline node whose
    /// last stage yields `T`.
    pub fn pipeline_mut<T: Send + 'static>(
        &mut self,
        node: NodeId,
    ) -> Result<&mut Pipeline<'static, T>, GraphError> {
        let index = self.index_of(node)?;
        let not_a_pipeline = GraphError::NotAPipeline {
            node,
            requested: type_name::<T>(),
        };
        let Work::Pipeline(pipeline) = &mut self.nodes[index].work else {
            return Err(not_a_pipeline);
        };
        // SAFETY: the graph is borrowed exclusively: no run uses it.
        let pipeline = unsafe { pipeline.get() };
        pipeline
            .as_any_mut()
            .downcast_mut::<Pipeline<'static, T>>()
            .ok_or(not_a_pipeline)
    }
}

pub(super) fn pipeline_work<T: Send + 'static>(pipeline: Pipeline<'static, T>) -> Work {
    Work::Pipeline(Callable::new(Box::new(pipeline) as Box<dyn PipelineNode>))
}
