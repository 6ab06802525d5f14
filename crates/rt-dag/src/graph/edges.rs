//! Edges between existing nodes, in any order (Taskflow's `precede`,
//! `succeed` and `remove_dependency`), and each node's successors.

use super::{check, TaskGraph};
use crate::{GraphError, NodeId};

impl TaskGraph {
    /// Makes every node of `successors` wait for `node` (Taskflow's
    /// `precede`): they start once it completed, and read its output, as
    /// if `node` had been among the prerequisites they were added with.
    /// Nodes may be added in any order and joined afterwards; an edge
    /// that exists already counts once.
    ///
    /// The edges join the graph all together or not at all.
    ///
    /// ```
    /// use rt_dag::{run_graph, TaskGraph};
    /// # use rt_dag::{Executor, Job, Priority};
    /// # struct Inline;
    /// # impl Executor for Inline {
    /// #     fn submit(&self, _: Priority, job: Job) -> Result<(), Job> { job.run(); Ok(()) }
    /// # }
    ///
    /// let mut graph = TaskGraph::new();
    /// let report = graph.add_task(|deps| deps.len()); // added first, runs last
    /// let fetch = graph.add_task(|_| "fetched");
    /// let parse = graph.add_task(|_| "parsed");
    /// graph.precede(fetch, &[parse, report]).unwrap();
    /// graph.succeed(report, &[parse]).unwrap();
    /// assert_eq!(graph.successors(fetch).unwrap().collect::<Vec<_>>(), [report, parse]);
    /// assert_eq!(graph.dependencies(report).unwrap().collect::<Vec<_>>(), [fetch, parse]);
    /// assert_eq!(run_graph(&Inline, graph).get::<usize>(report), Ok(&2));
    /// ```
    ///
    /// # Errors
    ///
    /// The graph is left unchanged on every error:
    ///
    /// * [`GraphError::ForeignNode`] for an id of another graph;
    /// * [`GraphError::Cycle`] if an edge would close a cycle of
    ///   prerequisites (a node that waits for itself, directly or not,
    ///   could never start);
    /// * [`GraphError::NeverRuns`] if, with branches, a node could no
    ///   longer start whatever the conditions choose (see
    ///   [`set_branches`](Self::set_branches)): in a graph with branches,
    ///   add its edges before the branches that loop back.
    ///
    /// Checking for a cycle is immediate for an edge from a node to one
    /// added after it while every edge goes that way; otherwise it costs
    /// the nodes `node` waits for, directly or not. In a graph with branches every change also
    /// checks that each node can still start, in time linear in the graph.
    pub fn precede(&mut self, node: NodeId, successors: &[NodeId]) -> Result<(), GraphError> {
        let from = self.index_of(node)?;
        self.check_all(successors)?;
        let edges: Vec<(usize, usize)> = successors.iter().map(|to| (from, to.index())).collect();
        self.add_edges(&edges)
    }

    /// Makes `node` wait for every node of `predecessors` (Taskflow's
    /// `succeed`): the edges of [`precede`](Self::precede), turned around.
    ///
    /// # Errors
    ///
    /// As for [`precede`](Self::precede); the graph is left unchanged.
    pub fn succeed(&mut self, node: NodeId, predecessors: &[NodeId]) -> Result<(), GraphError> {
        let to = self.index_of(node)?;
        self.check_all(predecessors)?;
        let edges: Vec<(usize, usize)> =
            predecessors.iter().map(|from| (from.index(), to)).collect();
        self.add_edges(&edges)
    }

    /// Makes `to` no longer wait for `from` (Taskflow's
    /// `remove_dependency`); `Ok(false)` if it did not.
    ///
    /// ```
    /// use rt_dag::TaskGraph;
    ///
    /// let mut graph = TaskGraph::new();
    /// let a = graph.add_task(|_| ());
    /// let b = graph.add_task_after(&[a], |_| ()).unwrap();
    /// assert_eq!(graph.remove_dependency(a, b), Ok(true));
    /// assert_eq!(graph.remove_dependency(a, b), Ok(false));
    /// assert_eq!(graph.dependencies(b).unwrap().len(), 0);
    /// assert_eq!(graph.successors(a).unwrap().len(), 0);
    /// ```
    ///
    /// # Errors
    ///
    /// The graph is left unchanged on every error:
    ///
    /// * [`GraphError::ForeignNode`] for an id of another graph;
    /// * [`GraphError::NeverRuns`] if, with branches, a node could no
    ///   longer start (a branch target that the edge let in);
    /// * [`GraphError::ReleaseNotAfter`] if the edge is what puts a node
    ///   that gives back a permit after the node that takes it
    ///   ([`add_limit_until`](Self::add_limit_until)).
    pub fn remove_dependency(&mut self, from: NodeId, to: NodeId) -> Result<bool, GraphError> {
        let dep = self.index_of(from)?;
        let node = self.index_of(to)?;
        if !self.prereqs.remove(node, dep as u32) {
            return Ok(false);
        }
        let checked = self.check_holds().and_then(|()| self.check_can_start());
        if let Err(error) = checked {
            self.prereqs.insert(node, dep as u32);
            return Err(error);
        }
        self.meta[node].in_degree -= 1;
        self.joins[node].reset(self.meta[node].in_degree);
        self.reshaped();
        Ok(true)
    }

    /// The nodes that wait for `node` (its dependents, Taskflow's
    /// successors), in the order they were added to the graph, each once.
    /// Listing them after the graph changed costs one pass over the graph;
    /// later calls reuse it.
    ///
    /// # Errors
    ///
    /// [`GraphError::ForeignNode`] if `node` belongs to another graph.
    pub fn successors(
        &self,
        node: NodeId,
    ) -> Result<impl ExactSizeIterator<Item = NodeId> + '_, GraphError> {
        let index = self.index_of(node)?;
        let id = self.id;
        Ok(self
            .dependents()
            .of(index)
            .iter()
            .map(move |&dependent| NodeId::new(id, dependent as usize)))
    }

    /// Adds the edges `(from, to)`, `to` waiting for `from`, all from one
    /// node or all to one: checked against the graph as it is, they close
    /// a cycle together only if one of them does alone.
    fn add_edges(&mut self, edges: &[(usize, usize)]) -> Result<(), GraphError> {
        for &(from, to) in edges {
            if self.prereqs.waits_for(from, to) {
                return Err(GraphError::Cycle {
                    from: self.name_of(from),
                    to: self.name_of(to),
                });
            }
        }
        let mut added = Vec::with_capacity(edges.len());
        for &(from, to) in edges {
            if self.prereqs.insert(to, from as u32) {
                added.push((from, to));
            }
        }
        if let Err(error) = self.check_can_start() {
            for &(from, to) in &added {
                self.prereqs.remove(to, from as u32);
            }
            return Err(error);
        }
        for &(_, to) in &added {
            self.meta[to].in_degree += 1;
            self.joins[to].reset(self.meta[to].in_degree);
        }
        if !added.is_empty() {
            self.reshaped();
        }
        Ok(())
    }

    /// In a graph with branches: that every node can still start.
    pub(super) fn check_can_start(&mut self) -> Result<(), GraphError> {
        if !self.has_branches() {
            // Without branches every node can start: its prerequisites
            // have no cycle.
            return Ok(());
        }
        check::every_node_can_start(self).map_err(|node| GraphError::NeverRuns {
            node: self.name_of(node),
        })
    }
}
