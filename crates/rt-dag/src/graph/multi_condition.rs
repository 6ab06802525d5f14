//! Multi-condition nodes: a closure that returns several branches at once,
//! all of which start (Taskflow's multi-condition tasks).

use rt_queue::Priority;

use super::{work, PhantomOutput, TaskGraph};
use crate::{DependencyResults, GraphError, NodeId};

impl TaskGraph {
    /// Adds a multi-condition node without prerequisites: a closure that
    /// returns the indices of the branches to take, among the nodes given
    /// to [`set_branches`](Self::set_branches), all of which start at once,
    /// whatever their prerequisites, as a condition's one branch does
    /// (Taskflow's multi-condition tasks). An index past the last branch is
    /// ignored; a branch named twice starts once. The node's output is the
    /// indices it returned, as a `Vec<usize>`.
    ///
    /// ```
    /// use rt_dag::{run_graph, NodeKind, NodeStatus, TaskGraph};
    /// # use rt_dag::{Executor, Job, Priority};
    /// # struct Inline;
    /// # impl Executor for Inline {
    /// #     fn submit(&self, _: Priority, job: Job) -> Result<(), Job> { job.run(); Ok(()) }
    /// # }
    ///
    /// let mut graph = TaskGraph::new();
    /// let fan_out = graph.add_multi_condition(|_| [0, 2, 9]); // 9: no such branch
    /// let a = graph.add_task(|_| "a");
    /// let b = graph.add_task(|_| "b");
    /// let c = graph.add_task(|_| "c");
    /// graph.set_branches(fan_out, &[a, b, c]).unwrap();
    /// assert_eq!(graph.kind(fan_out), Ok(NodeKind::MultiCondition));
    ///
    /// let outcome = run_graph(&Inline, graph);
    /// assert_eq!(outcome.get::<Vec<usize>>(fan_out), Ok(&vec![0, 2, 9]));
    /// assert_eq!(outcome.get::<&str>(a), Ok(&"a"));
    /// assert_eq!(outcome.get::<&str>(c), Ok(&"c"));
    /// assert_eq!(outcome.status(b), Ok(&NodeStatus::NotReached));
    /// ```
    pub fn add_multi_condition<F, I>(&mut self, f: F) -> NodeId
    where
        F: FnMut(&DependencyResults<'_>) -> I + Send + 'static,
        I: IntoIterator<Item = usize>,
    {
        // SAFETY: the closure is `'static`.
        let work = unsafe { work::multi_condition(f) };
        self.push(
            &[],
            Priority::Normal,
            work,
            PhantomOutput::<Vec<usize>>::new(),
        )
    }

    /// Adds a multi-condition node (see
    /// [`add_multi_condition`](Self::add_multi_condition)) that runs once
    /// every node in `deps` has completed.
    ///
    /// # Errors
    ///
    /// [`GraphError::ForeignNode`] if an id in `deps` was handed out by
    /// another graph. The graph is left unchanged.
    pub fn add_multi_condition_after<F, I>(
        &mut self,
        deps: &[NodeId],
        f: F,
    ) -> Result<NodeId, GraphError>
    where
        F: FnMut(&DependencyResults<'_>) -> I + Send + 'static,
        I: IntoIterator<Item = usize>,
    {
        self.check_all(deps)?;
        // SAFETY: the closure is `'static`.
        let work = unsafe { work::multi_condition(f) };
        Ok(self.push(
            deps,
            Priority::Normal,
            work,
            PhantomOutput::<Vec<usize>>::new(),
        ))
    }
}
