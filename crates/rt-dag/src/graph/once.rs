//! Run-once nodes: `FnOnce` closures, for a graph that runs once.

use rt_queue::Priority;

use super::{work, PhantomOutput, TaskGraph};
use crate::{DependencyResults, GraphError, NodeId};

impl TaskGraph {
    /// Adds a task without prerequisites whose closure is `FnOnce`: it may
    /// move what it captured out (into its output, say), for a graph that
    /// runs once ([`run_graph`](crate::run_graph)). If the node starts
    /// again after its closure ran (a second run, a loop), it does not run:
    /// it is [`NodeStatus::Invalid`](crate::NodeStatus::Invalid) with
    /// [`GraphError::AlreadyRan`], and its dependents are skipped.
    ///
    /// ```
    /// use rt_dag::{run_graph, GraphError, NodeStatus, TaskGraph};
    /// # use rt_dag::{Executor, Job, Priority};
    /// # struct Inline;
    /// # impl Executor for Inline {
    /// #     fn submit(&self, _: Priority, job: Job) -> Result<(), Job> { job.run(); Ok(()) }
    /// # }
    ///
    /// let report = String::from("the report");
    /// let mut graph = TaskGraph::new();
    /// let send = graph.add_task_once(move |_| report); // moves its capture out
    /// let mut outcome = graph.run(&Inline);
    /// assert_eq!(outcome.take::<String>(send).unwrap(), "the report");
    ///
    /// let again = graph.run(&Inline);
    /// assert_eq!(
    ///     again.status(send),
    ///     Ok(&NodeStatus::Invalid(GraphError::AlreadyRan { node: send.into() }))
    /// );
    /// ```
    pub fn add_task_once<F, T>(&mut self, f: F) -> NodeId
    where
        F: FnOnce(&DependencyResults<'_>) -> T + Send + 'static,
        T: Send + Sync + 'static,
    {
        // SAFETY: the closure is `'static`.
        let work = unsafe { work::task_once(f) };
        self.push(&[], Priority::Normal, work, PhantomOutput::<T>::new())
    }

    /// Adds a run-once task (see [`add_task_once`](Self::add_task_once))
    /// that runs once every node in `deps` has completed.
    ///
    /// # Errors
    ///
    /// [`GraphError::ForeignNode`] if an id in `deps` was handed out by
    /// another graph. The graph is left unchanged.
    pub fn add_task_once_after<F, T>(&mut self, deps: &[NodeId], f: F) -> Result<NodeId, GraphError>
    where
        F: FnOnce(&DependencyResults<'_>) -> T + Send + 'static,
        T: Send + Sync + 'static,
    {
        self.check_all(deps)?;
        // SAFETY: the closure is `'static`.
        let work = unsafe { work::task_once(f) };
        Ok(self.push(deps, Priority::Normal, work, PhantomOutput::<T>::new()))
    }
}
