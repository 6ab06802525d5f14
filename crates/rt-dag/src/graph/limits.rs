//! The permits of [`Limit`]s a node takes before it runs, and the node that
//! gives each back: the node itself once it ran, or a later node (Taskflow's
//! `acquire` and `release`).

use super::node::{Acquisition, Work};
use super::TaskGraph;
use crate::{GraphError, Limit, NodeId};

impl TaskGraph {
    /// Limits the node by `limit`: it holds one of the limit's permits while
    /// its closure runs, and waits in the limit's queue, on no thread, while
    /// none is free. Replaces every limit set before on the node
    /// ([`add_limit`](Self::add_limit), [`add_limit_until`](Self::add_limit_until)).
    /// See [`Limit`].
    ///
    /// # Errors
    ///
    /// [`GraphError::ForeignNode`] if `node` belongs to another graph;
    /// [`GraphError::GraphNodeLimited`] if `node` is a graph or module node
    /// (limit the nodes inside it instead: a permit held across an inner
    /// graph whose nodes wait for the same limit could never be given
    /// back), or a pipeline node (a pipeline bounds itself: its lines).
    pub fn set_limit(&mut self, node: NodeId, limit: &Limit) -> Result<(), GraphError> {
        let index = self.index_of(node)?;
        self.check_limitable(index)?;
        if let Some(old) = self.cold.limits.remove(&(index as u32)) {
            self.holds -= old.iter().filter(|a| a.until != index as u32).count();
        }
        self.acquire(index, limit, index);
        Ok(())
    }

    /// Adds a limit to the node's: it holds one permit of each of its
    /// limits while its closure runs (Taskflow's several semaphores per
    /// task). It takes them one after another, in an order the same for
    /// every node, waiting in each limit's queue in turn, on no thread: two
    /// nodes needing the same limits never each hold a permit the other
    /// waits for.
    ///
    /// ```
    /// use rt_dag::{run_graph, Limit, TaskGraph};
    /// # use rt_dag::{Executor, Job, Priority};
    /// # struct Inline;
    /// # impl Executor for Inline {
    /// #     fn submit(&self, _: Priority, job: Job) -> Result<(), Job> { job.run(); Ok(()) }
    /// # }
    ///
    /// let (disk, network) = (Limit::new(1).unwrap(), Limit::new(4).unwrap());
    /// let mut graph = TaskGraph::new();
    /// let upload = graph.add_task(|_| ());
    /// graph.add_limit(upload, &disk).unwrap();
    /// graph.add_limit(upload, &network).unwrap();
    /// assert_eq!(graph.limits(upload).unwrap().len(), 2);
    /// assert!(run_graph(&Inline, graph).all_completed());
    /// assert_eq!((disk.available(), network.available()), (1, 4));
    /// ```
    ///
    /// # Errors
    ///
    /// As for [`set_limit`](Self::set_limit), and
    /// [`GraphError::SameLimitTwice`] if the node takes a permit of `limit`
    /// already.
    pub fn add_limit(&mut self, node: NodeId, limit: &Limit) -> Result<(), GraphError> {
        self.add_limit_until(node, limit, node)
    }

    /// The node takes a permit of `limit` before it runs, as with
    /// [`add_limit`](Self::add_limit), but keeps it once it ran: `until`, a
    /// node that waits for it, gives it back once `until` ran (Taskflow's
    /// `acquire` on one task and `release` on another). Between the two, at
    /// most `limit.permits()` runs of this stretch of the graph are under
    /// way at once.
    ///
    /// A permit is never kept past the run that took it: if `until` will
    /// not run (a failure or a cancellation upstream of it), the permit is
    /// given back as soon as that is known (and once the taking node ran,
    /// if it had not yet); and whatever is still held when the run ends is
    /// given back then.
    ///
    /// ```
    /// use rt_dag::{run_graph, Limit, TaskGraph};
    /// # use rt_dag::{Executor, Job, Priority};
    /// # struct Inline;
    /// # impl Executor for Inline {
    /// #     fn submit(&self, _: Priority, job: Job) -> Result<(), Job> { job.run(); Ok(()) }
    /// # }
    ///
    /// let in_flight = Limit::new(2).unwrap(); // at most two items between read and write
    /// let mut graph = TaskGraph::new();
    /// for item in 0..8 {
    ///     let read = graph.add_task(move |_| item);
    ///     let transform = graph.add_task_after(&[read], |_| ()).unwrap();
    ///     let write = graph.add_task_after(&[transform], |_| ()).unwrap();
    ///     graph.add_limit_until(read, &in_flight, write).unwrap();
    /// }
    /// assert!(run_graph(&Inline, graph).all_completed());
    /// assert_eq!(in_flight.available(), 2);
    /// ```
    ///
    /// # Errors
    ///
    /// As for [`add_limit`](Self::add_limit) (a foreign `until` too), and:
    ///
    /// * [`GraphError::ReleaseNotAfter`] if `until` is neither `node` nor
    ///   waits for it, directly or not, through prerequisites;
    /// * [`GraphError::BranchesWithHolds`] if `until` is not `node` and the
    ///   graph has branches (a branch not taken could keep the permit
    ///   until the run ends, a loop wait for its own permit).
    pub fn add_limit_until(
        &mut self,
        node: NodeId,
        limit: &Limit,
        until: NodeId,
    ) -> Result<(), GraphError> {
        let index = self.index_of(node)?;
        let until_index = self.index_of(until)?;
        self.check_limitable(index)?;
        if self
            .acquisitions_of(index)
            .iter()
            .any(|a| a.limit.same_as(limit))
        {
            return Err(GraphError::SameLimitTwice {
                node: self.name_of(index),
            });
        }
        if until_index != index {
            if self.has_branches() {
                return Err(GraphError::BranchesWithHolds {
                    node: self.name_of(index),
                });
            }
            if !self.prereqs.waits_for(until_index, index) {
                return Err(GraphError::ReleaseNotAfter {
                    node: self.name_of(index),
                    until: self.name_of(until_index),
                });
            }
        }
        self.acquire(index, limit, until_index);
        Ok(())
    }

    /// The limits the node takes a permit of before it runs, each with the
    /// node that gives it back (the node itself, or the `until` of
    /// [`add_limit_until`](Self::add_limit_until)), in the order it takes
    /// them.
    ///
    /// # Errors
    ///
    /// [`GraphError::ForeignNode`] if `node` belongs to another graph.
    pub fn limits(
        &self,
        node: NodeId,
    ) -> Result<impl ExactSizeIterator<Item = (&Limit, NodeId)> + '_, GraphError> {
        let index = self.index_of(node)?;
        let id = self.id;
        Ok(self
            .acquisitions_of(index)
            .iter()
            .map(move |a| (&a.limit, NodeId::new(id, a.until as usize))))
    }

    /// Refuses limits on graph, module and pipeline nodes.
    pub(super) fn check_limitable(&self, index: usize) -> Result<(), GraphError> {
        match self.nodes[index].work {
            Work::Graph(_) | Work::Module(_) | Work::Pipeline(_) => {
                Err(GraphError::GraphNodeLimited {
                    node: self.name_of(index),
                })
            }
            _ => Ok(()),
        }
    }

    /// That every node giving back a permit another takes still runs after
    /// it: after an edge was removed.
    pub(super) fn check_holds(&mut self) -> Result<(), GraphError> {
        if self.holds == 0 {
            return Ok(());
        }
        let holds: Vec<(usize, usize)> = self
            .cold
            .limits
            .iter()
            .flat_map(|(&node, acquisitions)| {
                acquisitions
                    .iter()
                    .filter(move |a| a.until != node)
                    .map(move |a| (node as usize, a.until as usize))
            })
            .collect();
        for (node, until) in holds {
            if !self.prereqs.waits_for(until, node) {
                return Err(GraphError::ReleaseNotAfter {
                    node: self.name_of(node),
                    until: self.name_of(until),
                });
            }
        }
        Ok(())
    }

    /// Records that node `index` takes a permit of `limit` before it runs,
    /// given back once `until` ran.
    fn acquire(&mut self, index: usize, limit: &Limit, until: usize) {
        let acquisitions = self.cold.limits.entry(index as u32).or_default();
        let at = acquisitions.partition_point(|a| a.limit.order() < limit.order());
        acquisitions.insert(
            at,
            Acquisition {
                limit: limit.clone(),
                until: until as u32,
            },
        );
        if until != index {
            self.holds += 1;
        }
        self.meta[index].limited = true;
        self.meta[until].limited = true;
        self.plan = None;
    }
}
