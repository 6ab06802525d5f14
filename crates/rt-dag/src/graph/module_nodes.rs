//! Nodes that run a [`Module`]: a graph shared by reference (Taskflow's
//! `composed_of`), and the rule that no graph runs itself.

use rt_queue::Priority;

use super::node::Work;
use super::{PhantomOutput, TaskGraph};
use crate::{GraphError, GraphOutcome, Module, NodeId};

impl TaskGraph {
    /// Adds a node without prerequisites that runs `module`'s graph
    /// (Taskflow's `composed_of`): the same graph, by reference, wherever
    /// it is added and when it runs on its own ([`Module::run`]). The node
    /// completes once every node of the module is final; its output is
    /// that run's [`GraphOutcome`], as for [`add_graph`](Self::add_graph).
    /// A module runs once at a time: a module node that finds it running
    /// waits in its queue, on no thread.
    ///
    /// ```
    /// use rt_dag::{run_graph, GraphOutcome, Module, TaskGraph};
    /// # use rt_dag::{Executor, Job, Priority};
    /// # struct Inline;
    /// # impl Executor for Inline {
    /// #     fn submit(&self, _: Priority, job: Job) -> Result<(), Job> { job.run(); Ok(()) }
    /// # }
    ///
    /// let mut build = TaskGraph::new();
    /// let compile = build.add_task(|_| "object");
    /// let build = Module::new(build);
    ///
    /// let mut release = TaskGraph::new();
    /// let debug = release.add_module(&build).unwrap();
    /// let optimized = release.add_module_after(&[debug], &build).unwrap();
    /// let outcome = run_graph(&Inline, release);
    /// let last = outcome.get::<GraphOutcome>(optimized).unwrap();
    /// assert_eq!(last.get::<&str>(compile), Ok(&"object"));
    /// ```
    ///
    /// # Errors
    ///
    /// [`GraphError::ComposedIntoItself`] if `module` runs this graph,
    /// directly or not, or this graph is a [`Subgraph`](crate::Subgraph)
    /// made inside a run of `module`: the module would wait for itself.
    pub fn add_module(&mut self, module: &Module) -> Result<NodeId, GraphError> {
        self.add_module_after(&[], module)
    }

    /// Adds a node that runs `module` (see [`add_module`](Self::add_module))
    /// once every node in `deps` has completed.
    ///
    /// # Errors
    ///
    /// [`GraphError::ForeignNode`] if an id in `deps` was handed out by
    /// another graph; [`GraphError::ComposedIntoItself`] as for
    /// [`add_module`](Self::add_module). The graph is left unchanged.
    pub fn add_module_after(
        &mut self,
        deps: &[NodeId],
        module: &Module,
    ) -> Result<NodeId, GraphError> {
        self.check_all(deps)?;
        self.check_nesting(module)?;
        self.nesting.runs.extend(module.runs().iter().copied());
        Ok(self.push(
            deps,
            Priority::Normal,
            Work::Module(module.clone()),
            PhantomOutput::<GraphOutcome>::new(),
        ))
    }

    /// Refuses a module that would run inside itself here.
    pub(super) fn check_nesting(&self, module: &Module) -> Result<(), GraphError> {
        let runs = module.runs();
        if runs.contains(&self.id) || self.nesting.inside.iter().any(|id| runs.contains(id)) {
            return Err(GraphError::ComposedIntoItself {
                module: module.id(),
                into: self.id,
            });
        }
        Ok(())
    }
}
