//! Building a graph: nodes, their prerequisites, branches and settings.

mod check;
mod dependents;
mod dot;
mod edges;
mod limits;
mod module_nodes;
mod multi_condition;
pub(crate) mod node;
mod once;
pub(crate) mod output;
mod pipeline_node;
mod placeholder;
pub(crate) mod plan;
mod prerequisites;
mod ready_order;
mod scoped;
mod subgraph;
mod work;

use std::any::TypeId;
use std::collections::BTreeSet;
use std::fmt;
use std::sync::{Arc, OnceLock};
use std::time::Duration;

use rt_queue::Priority;

pub use node::NodeKind;
pub use ready_order::ReadyOrder;
pub use scoped::ScopedGraph;
pub use subgraph::Subgraph;

use crate::node_name::{Labels, NodeName};
use crate::release::JoinCounter;
use crate::{DependencyResults, GraphError, GraphId, GraphOutcome, NodeId};
use dependents::Dependents;
use node::{Acquisition, Cold, Node, NodeMeta, Work};
use output::{NodeInfo, NO_SLOT};
use plan::Plan;
use prerequisites::Prerequisites;

/// A graph of tasks, built node by node, then run — as often as needed —
/// on any [`Executor`](rt_handle::Executor): [`run`](TaskGraph::run),
/// [`run_n`](TaskGraph::run_n), [`run_until`](TaskGraph::run_until), or
/// [`run_graph`](crate::run_graph) to run it once and let it go.
///
/// A node is one of these kinds ([`NodeKind`]):
///
/// * a **task** ([`add_task`](Self::add_task), [`add_task_after`](Self::add_task_after)):
///   a closure that receives its prerequisites' outputs through
///   [`DependencyResults`] and returns a value of any type
///   `T: Send + Sync + 'static` (`Sync` because several dependents may
///   read it at the same time); a fallible task
///   ([`add_fallible_task`](Self::add_fallible_task)) returns a
///   `Result<T, E>`, whose error fails the node;
/// * a **condition** ([`add_condition`](Self::add_condition)): a closure
///   that returns the index of the branch to take among the nodes given to
///   [`set_branches`](Self::set_branches); branches may point back to
///   earlier nodes, which makes loops; a **multi-condition**
///   ([`add_multi_condition`](Self::add_multi_condition)) returns several,
///   which all start;
/// * a **subgraph** node ([`add_subgraph`](Self::add_subgraph)): a closure
///   that adds nodes to a [`Subgraph`] while it runs; they run before the
///   node's dependents start (or, detached, by the end of the run);
/// * a **graph** node ([`add_graph`](Self::add_graph)): another
///   `TaskGraph`, run as one node; a **module** node
///   ([`add_module`](Self::add_module)) runs a graph shared by reference
///   ([`Module`](crate::Module));
/// * a **pipeline** node ([`add_pipeline`](Self::add_pipeline)): a
///   [`Pipeline`](crate::Pipeline) run once more at each run of the graph,
///   its output the run's [`PipelineReport`](crate::PipelineReport);
/// * a **placeholder** ([`add_placeholder`](Self::add_placeholder)): a
///   node whose work, of any of the kinds above, is set later.
///
/// Prerequisites are named when a node is added (`_after` methods), or
/// added between existing nodes in any order ([`precede`](Self::precede),
/// [`succeed`](Self::succeed)), as Taskflow builds graphs; an edge that
/// would close a cycle of prerequisites is refused, so only branches can
/// close one. Closures are `FnMut`: a graph runs again without being
/// rebuilt, and a node in a loop runs once per iteration (`FnOnce` nodes:
/// [`add_task_once`](Self::add_task_once)). Closures that borrow from the
/// caller: [`ScopedGraph`].
///
/// ```
/// use rt_dag::{Priority, TaskGraph};
///
/// let mut graph = TaskGraph::new();
/// let source = graph.add_task(|_| "input".to_string());
/// let length = graph
///     .add_task_after(&[source], move |deps| deps.get::<String>(source).unwrap().len())
///     .unwrap();
/// let urgent = graph.add_task_with_priority(Priority::High, |_| ());
/// assert_eq!(graph.len(), 3);
/// assert_eq!(graph.dependencies(length).unwrap().collect::<Vec<_>>(), vec![source]);
/// assert_eq!(graph.priority(urgent), Ok(Priority::High));
/// ```
#[must_use = "a graph does nothing until it is run"]
pub struct TaskGraph {
    id: GraphId,
    nodes: Vec<Node>,
    /// The declared prerequisites of each node: sorted, without duplicates.
    prereqs: Prerequisites,
    /// Condition nodes in the graph (a graph without any runs each node at
    /// most once per run).
    conditions: usize,
    /// Graph nodes in the graph (modules not counted).
    graph_nodes: usize,
    /// Permits nodes take that a later node gives back (`add_limit_until`).
    holds: usize,
    /// The ids of the shared graphs ([`Module`](crate::Module)s) this graph
    /// runs, directly or not, and, for a subgraph, of the graphs whose runs
    /// it runs inside: none of them may run it (`module_nodes.rs`).
    pub(crate) nesting: Nesting,
    /// Each node's dependents, made when first asked for after a change.
    successors: OnceLock<Dependents>,
    /// Per node, what the runs read besides the closure.
    pub(crate) meta: Vec<NodeMeta>,
    /// Per node, the counter of its prerequisites, armed at its in-degree
    /// between runs: four bytes each, the array a completion touches once
    /// per dependent.
    pub(crate) joins: Vec<JoinCounter>,
    pub(crate) info: NodeInfo,
    cold: Cold,
    ready_order: ReadyOrder,
    record_timings: bool,
    /// Each node's running time in its last timed run, in nanoseconds (0:
    /// never timed).
    measured: Vec<u64>,
    /// Bumped whenever `measured` changes, so that a plan ranked by the
    /// old costs is made again.
    timings_version: u64,
    /// What a run needs beyond the nodes, made by the first run after a
    /// change and kept for the next ones.
    plan: Option<Plan>,
}

impl TaskGraph {
    /// An empty graph with a fresh, process-wide unique [`GraphId`].
    pub fn new() -> Self {
        Self {
            id: GraphId::fresh(),
            nodes: Vec::new(),
            prereqs: Prerequisites::new(),
            conditions: 0,
            graph_nodes: 0,
            holds: 0,
            nesting: Nesting::default(),
            successors: OnceLock::new(),
            meta: Vec::new(),
            joins: Vec::new(),
            info: NodeInfo::default(),
            cold: Cold::default(),
            ready_order: ReadyOrder::default(),
            record_timings: false,
            measured: Vec::new(),
            timings_version: 0,
            plan: None,
        }
    }

    /// An empty graph with room for `nodes` nodes and `edges` prerequisites
    /// in all before it reallocates, for large graphs built in one go.
    ///
    /// ```
    /// use rt_dag::TaskGraph;
    ///
    /// let mut chain = TaskGraph::with_capacity(1_000, 999);
    /// let mut last = chain.add_task(|_| ());
    /// for _ in 1..1_000 {
    ///     last = chain.add_task_after(&[last], |_| ()).unwrap();
    /// }
    /// assert_eq!(chain.len(), 1_000);
    /// ```
    pub fn with_capacity(nodes: usize, edges: usize) -> Self {
        let mut graph = Self::new();
        graph.nodes.reserve(nodes);
        graph.meta.reserve(nodes);
        graph.joins.reserve(nodes);
        graph.info.output_types.reserve(nodes);
        graph.info.slot_of.reserve(nodes);
        graph.prereqs.reserve(nodes, edges);
        graph
    }

    /// This graph's id; every [`NodeId`] it hands out carries it.
    pub fn id(&self) -> GraphId {
        self.id
    }

    /// Number of nodes.
    pub fn len(&self) -> usize {
        self.nodes.len()
    }

    /// True when the graph has no node.
    pub fn is_empty(&self) -> bool {
        self.nodes.is_empty()
    }

    /// Adds a task without prerequisites, at [`Priority::Normal`]. It starts
    /// as soon as the graph runs.
    pub fn add_task<F, T>(&mut self, f: F) -> NodeId
    where
        F: FnMut(&DependencyResults<'_>) -> T + Send + 'static,
        T: Send + Sync + 'static,
    {
        // SAFETY: the closure is `'static`.
        let work = unsafe { work::task(f) };
        self.push(&[], Priority::Normal, work, PhantomOutput::<T>::new())
    }

    /// Adds a task without prerequisites at the given priority class.
    pub fn add_task_with_priority<F, T>(&mut self, priority: Priority, f: F) -> NodeId
    where
        F: FnMut(&DependencyResults<'_>) -> T + Send + 'static,
        T: Send + Sync + 'static,
    {
        // SAFETY: the closure is `'static`.
        let work = unsafe { work::task(f) };
        self.push(&[], priority, work, PhantomOutput::<T>::new())
    }

    /// Adds a task, at [`Priority::Normal`], that runs once every node in
    /// `deps` has completed, and can read their outputs.
    ///
    /// Repeated ids count once; an empty `deps` makes a node without
    /// prerequisites.
    ///
    /// # Errors
    ///
    /// [`GraphError::ForeignNode`] if an id in `deps` was handed out by
    /// another graph. The graph is left unchanged.
    pub fn add_task_after<F, T>(&mut self, deps: &[NodeId], f: F) -> Result<NodeId, GraphError>
    where
        F: FnMut(&DependencyResults<'_>) -> T + Send + 'static,
        T: Send + Sync + 'static,
    {
        self.add_task_after_with_priority(deps, Priority::Normal, f)
    }

    /// Like [`add_task_after`](Self::add_task_after), at the given priority
    /// class.
    ///
    /// # Errors
    ///
    /// [`GraphError::ForeignNode`] if an id in `deps` was handed out by
    /// another graph. The graph is left unchanged.
    pub fn add_task_after_with_priority<F, T>(
        &mut self,
        deps: &[NodeId],
        priority: Priority,
        f: F,
    ) -> Result<NodeId, GraphError>
    where
        F: FnMut(&DependencyResults<'_>) -> T + Send + 'static,
        T: Send + Sync + 'static,
    {
        self.check_all(deps)?;
        // SAFETY: the closure is `'static`.
        let work = unsafe { work::task(f) };
        Ok(self.push(deps, priority, work, PhantomOutput::<T>::new()))
    }

    /// Adds a fallible task without prerequisites, at
    /// [`Priority::Normal`]: a closure returning `Result<T, E>`. `Ok(value)`
    /// completes the node with `value` as its output (a `T`, which its
    /// dependents read); `Err(error)` fails it, as a panic would, but as
    /// [`NodeStatus::Failed`](crate::NodeStatus::Failed), which keeps the
    /// error typed ([`NodeError::downcast_ref`](crate::NodeError::downcast_ref)):
    /// the nodes that wait for it are skipped.
    ///
    /// `E` is any error type, or a `String`, `&str` or `Box<dyn Error>`
    /// (anything `Into<Box<dyn Error + Send + Sync>>`).
    ///
    /// ```
    /// use rt_dag::{NodeStatus, TaskGraph};
    ///
    /// let rt = rt_core::Runtime::new(2).unwrap();
    /// let mut graph = TaskGraph::new();
    /// let parse = graph.add_fallible_task(|_| "42".parse::<u32>());
    /// let bad = graph.add_fallible_task(|_| "forty-two".parse::<u32>());
    /// let after_bad = graph.add_task_after(&[bad], |_| ()).unwrap();
    /// let outcome = graph.run(&rt);
    /// assert_eq!(outcome.get::<u32>(parse), Ok(&42));
    /// let NodeStatus::Failed(error) = outcome.status(bad).unwrap() else { unreachable!() };
    /// assert!(error.downcast_ref::<std::num::ParseIntError>().is_some());
    /// assert_eq!(outcome.status(after_bad), Ok(&NodeStatus::Skipped { prerequisite: bad.into() }));
    /// ```
    pub fn add_fallible_task<F, T, E>(&mut self, f: F) -> NodeId
    where
        F: FnMut(&DependencyResults<'_>) -> Result<T, E> + Send + 'static,
        T: Send + Sync + 'static,
        E: Into<Box<dyn std::error::Error + Send + Sync + 'static>>,
    {
        self.push(
            &[],
            Priority::Normal,
            // SAFETY: the closure is `'static`.
            unsafe { work::fallible(f) },
            PhantomOutput::<T>::new(),
        )
    }

    /// Adds a fallible task (see [`add_fallible_task`](Self::add_fallible_task)),
    /// at [`Priority::Normal`], that runs once every node in `deps` has
    /// completed.
    ///
    /// # Errors
    ///
    /// [`GraphError::ForeignNode`] if an id in `deps` was handed out by
    /// another graph. The graph is left unchanged.
    pub fn add_fallible_task_after<F, T, E>(
        &mut self,
        deps: &[NodeId],
        f: F,
    ) -> Result<NodeId, GraphError>
    where
        F: FnMut(&DependencyResults<'_>) -> Result<T, E> + Send + 'static,
        T: Send + Sync + 'static,
        E: Into<Box<dyn std::error::Error + Send + Sync + 'static>>,
    {
        self.check_all(deps)?;
        Ok(self.push(
            deps,
            Priority::Normal,
            // SAFETY: the closure is `'static`.
            unsafe { work::fallible(f) },
            PhantomOutput::<T>::new(),
        ))
    }

    /// Adds a condition node without prerequisites: a closure that returns
    /// the index of the branch to take, among the nodes given to
    /// [`set_branches`](Self::set_branches). The chosen node starts at once,
    /// whatever its prerequisites (Taskflow's condition tasks); the others
    /// do not start because of this node. An index past the last branch
    /// takes none (a way to leave a loop). The index is also the node's
    /// output, a `usize`, which its dependents may read.
    ///
    /// ```
    /// use rt_dag::{run_graph, NodeStatus, TaskGraph};
    /// # use rt_dag::{Executor, Job, Priority};
    /// # struct Inline;
    /// # impl Executor for Inline {
    /// #     fn submit(&self, _: Priority, job: Job) -> Result<(), Job> { job.run(); Ok(()) }
    /// # }
    ///
    /// let mut graph = TaskGraph::new();
    /// let is_big = graph.add_condition(|_| if 2 + 2 == 4 { 0 } else { 1 });
    /// let yes = graph.add_task(|_| "big");
    /// let no = graph.add_task(|_| "small");
    /// graph.set_branches(is_big, &[yes, no]).unwrap();
    ///
    /// let outcome = run_graph(&Inline, graph);
    /// assert_eq!(outcome.get::<&str>(yes), Ok(&"big"));
    /// assert_eq!(outcome.status(no), Ok(&NodeStatus::NotReached));
    /// ```
    pub fn add_condition<F>(&mut self, f: F) -> NodeId
    where
        F: FnMut(&DependencyResults<'_>) -> usize + Send + 'static,
    {
        // SAFETY: the closure is `'static`.
        let work = unsafe { work::condition(f) };
        self.push(&[], Priority::Normal, work, PhantomOutput::<usize>::new())
    }

    /// Adds a condition node (see [`add_condition`](Self::add_condition))
    /// that runs once every node in `deps` has completed.
    ///
    /// # Errors
    ///
    /// [`GraphError::ForeignNode`] if an id in `deps` was handed out by
    /// another graph. The graph is left unchanged.
    pub fn add_condition_after<F>(&mut self, deps: &[NodeId], f: F) -> Result<NodeId, GraphError>
    where
        F: FnMut(&DependencyResults<'_>) -> usize + Send + 'static,
    {
        self.check_all(deps)?;
        // SAFETY: the closure is `'static`.
        let work = unsafe { work::condition(f) };
        Ok(self.push(deps, Priority::Normal, work, PhantomOutput::<usize>::new()))
    }

    /// Sets the branches of condition node `condition`: when its closure
    /// returns `i`, `targets[i]` starts (a multi-condition's: every
    /// `targets[i]` for the `i`s it returns). Targets may be any nodes of
    /// this graph, earlier ones included (a loop), and the condition itself.
    /// Replaces branches set before.
    ///
    /// A node that is a branch target starts only when a condition takes
    /// it, or when its prerequisites complete if it has any: a target
    /// without prerequisites is no longer started when the graph runs.
    ///
    /// # Errors
    ///
    /// The graph is left unchanged on every error:
    ///
    /// * [`GraphError::ForeignNode`] for an id of another graph;
    /// * [`GraphError::NotACondition`] if `condition` is not a condition
    ///   (or multi-condition) node;
    /// * [`GraphError::NeverRuns`] if the branches would leave a node that
    ///   can never start, whatever the conditions choose: every way to it
    ///   waits on a cycle (a graph that could never finish is refused here
    ///   rather than left to hang);
    /// * [`GraphError::BranchesWithHolds`] if some node of the graph keeps a
    ///   permit for a later one ([`add_limit_until`](Self::add_limit_until)).
    ///
    /// ```
    /// use rt_dag::{GraphError, TaskGraph};
    ///
    /// let mut graph = TaskGraph::new();
    /// let start = graph.add_task(|_| ());
    /// let check = graph.add_condition_after(&[start], |_| 0).unwrap();
    /// // `start` would only ever start when `check` took it, and `check`
    /// // only runs after `start`: nothing could ever run.
    /// assert_eq!(
    ///     graph.set_branches(check, &[start]),
    ///     Err(GraphError::NeverRuns { node: start.into() })
    /// );
    /// ```
    pub fn set_branches(
        &mut self,
        condition: NodeId,
        targets: &[NodeId],
    ) -> Result<(), GraphError> {
        let index = self.index_of(condition)?;
        self.check_all(targets)?;
        if !matches!(self.nodes[index].work, Work::Condition(_)) {
            return Err(GraphError::NotACondition {
                node: self.name_of(index),
            });
        }
        if self.holds > 0 && !targets.is_empty() {
            return Err(GraphError::BranchesWithHolds {
                node: self.name_of(index),
            });
        }
        let new: Vec<u32> = targets.iter().map(|t| t.index() as u32).collect();
        let Work::Condition(c) = &mut self.nodes[index].work else {
            unreachable!("checked above");
        };
        let old = std::mem::replace(&mut c.branches, new);
        let old_targets = self.targets_of_branches();
        self.mark_branch_targets();
        if let Err(node) = check::every_node_can_start(self) {
            // Put everything back as it was.
            if let Work::Condition(c) = &mut self.nodes[index].work {
                c.branches = old;
            }
            for (meta, was) in self.meta.iter_mut().zip(old_targets) {
                meta.branch_target = was;
            }
            return Err(GraphError::NeverRuns {
                node: self.name_of(node),
            });
        }
        self.plan = None;
        Ok(())
    }

    /// Adds a subgraph node without prerequisites: its closure receives a
    /// [`Subgraph`] to add nodes to while it runs (Taskflow's subflows). The
    /// nodes it adds run after the closure returns, and the node completes
    /// — its dependents start — once they all have; or, if the closure
    /// calls [`Subgraph::detach`], the node completes at once and its
    /// subgraph runs alongside, the run waiting for it at its end. The
    /// closure's return value is the node's output.
    ///
    /// ```
    /// use std::sync::atomic::{AtomicUsize, Ordering};
    /// use std::sync::Arc;
    /// use rt_dag::{run_graph, TaskGraph};
    /// # use rt_dag::{Executor, Job, Priority};
    /// # struct Inline;
    /// # impl Executor for Inline {
    /// #     fn submit(&self, _: Priority, job: Job) -> Result<(), Job> { job.run(); Ok(()) }
    /// # }
    ///
    /// let compiled = Arc::new(AtomicUsize::new(0));
    /// let mut graph = TaskGraph::new();
    /// let headers = {
    ///     let compiled = compiled.clone();
    ///     graph.add_subgraph(move |_, sub| {
    ///         // Discovered while running: one node per header found.
    ///         for _ in 0..3 {
    ///             let compiled = compiled.clone();
    ///             sub.add_task(move |_| compiled.fetch_add(1, Ordering::SeqCst));
    ///         }
    ///         "scanned"
    ///     })
    /// };
    /// let link = {
    ///     let compiled = compiled.clone();
    ///     graph.add_task_after(&[headers], move |_| compiled.load(Ordering::SeqCst)).unwrap()
    /// };
    /// let outcome = run_graph(&Inline, graph);
    /// assert_eq!(outcome.get::<usize>(link), Ok(&3)); // the subgraph finished first
    /// ```
    pub fn add_subgraph<F, T>(&mut self, f: F) -> NodeId
    where
        F: FnMut(&DependencyResults<'_>, &mut Subgraph) -> T + Send + 'static,
        T: Send + Sync + 'static,
    {
        // SAFETY: the closure is `'static`.
        let work = unsafe { work::subgraph(f) };
        self.push(&[], Priority::Normal, work, PhantomOutput::<T>::new())
    }

    /// Adds a subgraph node (see [`add_subgraph`](Self::add_subgraph)) that
    /// runs once every node in `deps` has completed.
    ///
    /// # Errors
    ///
    /// [`GraphError::ForeignNode`] if an id in `deps` was handed out by
    /// another graph. The graph is left unchanged.
    pub fn add_subgraph_after<F, T>(&mut self, deps: &[NodeId], f: F) -> Result<NodeId, GraphError>
    where
        F: FnMut(&DependencyResults<'_>, &mut Subgraph) -> T + Send + 'static,
        T: Send + Sync + 'static,
    {
        self.check_all(deps)?;
        // SAFETY: the closure is `'static`.
        let work = unsafe { work::subgraph(f) };
        Ok(self.push(deps, Priority::Normal, work, PhantomOutput::<T>::new()))
    }

    /// Adds `graph` as one node without prerequisites (Taskflow's module
    /// tasks): each run of this graph runs it, and the node completes once
    /// every node of `graph` is final. Its output is that run's
    /// [`GraphOutcome`]. The node's ids keep naming `graph`'s nodes in that
    /// outcome.
    ///
    /// ```
    /// use rt_dag::{run_graph, GraphOutcome, TaskGraph};
    /// # use rt_dag::{Executor, Job, Priority};
    /// # struct Inline;
    /// # impl Executor for Inline {
    /// #     fn submit(&self, _: Priority, job: Job) -> Result<(), Job> { job.run(); Ok(()) }
    /// # }
    ///
    /// let mut inner = TaskGraph::new();
    /// let answer = inner.add_task(|_| 42);
    ///
    /// let mut outer = TaskGraph::new();
    /// let module = outer.add_graph(inner);
    /// let after = outer
    ///     .add_task_after(&[module], move |deps| {
    ///         *deps.get::<GraphOutcome>(module).unwrap().get::<i32>(answer).unwrap() + 1
    ///     })
    ///     .unwrap();
    /// assert_eq!(run_graph(&Inline, outer).get::<i32>(after), Ok(&43));
    /// ```
    pub fn add_graph(&mut self, graph: TaskGraph) -> NodeId {
        self.nesting.absorb(&graph.nesting);
        self.push(
            &[],
            Priority::Normal,
            Work::Graph(Box::new(graph)),
            PhantomOutput::<GraphOutcome>::new(),
        )
    }

    /// Adds `graph` as one node (see [`add_graph`](Self::add_graph)) that
    /// runs once every node in `deps` has completed.
    ///
    /// # Errors
    ///
    /// [`GraphError::ForeignNode`] if an id in `deps` was handed out by
    /// another graph. The graph is left unchanged.
    pub fn add_graph_after(
        &mut self,
        deps: &[NodeId],
        graph: TaskGraph,
    ) -> Result<NodeId, GraphError> {
        self.check_all(deps)?;
        self.nesting.absorb(&graph.nesting);
        Ok(self.push(
            deps,
            Priority::Normal,
            Work::Graph(Box::new(graph)),
            PhantomOutput::<GraphOutcome>::new(),
        ))
    }

    /// Gives a node a human-readable name, used by [`to_dot`](Self::to_dot)
    /// and by every error and status that names the node
    /// ([`NodeName`](crate::NodeName)). Replaces a label set before.
    ///
    /// # Errors
    ///
    /// [`GraphError::ForeignNode`] if `node` belongs to another graph.
    pub fn set_label(&mut self, node: NodeId, label: impl Into<String>) -> Result<(), GraphError> {
        let index = self.index_of(node)?;
        let label: String = label.into();
        Arc::make_mut(&mut self.cold.labels).set(index, Arc::from(label));
        Ok(())
    }

    /// The node's label, if [`set_label`](Self::set_label) gave it one.
    ///
    /// # Errors
    ///
    /// [`GraphError::ForeignNode`] if `node` belongs to another graph.
    pub fn label(&self, node: NodeId) -> Result<Option<&str>, GraphError> {
        let index = self.index_of(node)?;
        Ok(self.cold.labels.get(index).map(|label| &**label))
    }

    /// The node's priority class.
    ///
    /// # Errors
    ///
    /// [`GraphError::ForeignNode`] if `node` belongs to another graph.
    pub fn priority(&self, node: NodeId) -> Result<Priority, GraphError> {
        Ok(self.meta[self.index_of(node)?].priority)
    }

    /// Sets the node's priority class: it is submitted at that priority,
    /// and ready nodes of a more urgent class start first.
    ///
    /// # Errors
    ///
    /// [`GraphError::ForeignNode`] if `node` belongs to another graph.
    pub fn set_priority(&mut self, node: NodeId, priority: Priority) -> Result<(), GraphError> {
        let index = self.index_of(node)?;
        self.meta[index].priority = priority;
        self.plan = None;
        Ok(())
    }

    /// What kind of node `node` is.
    ///
    /// # Errors
    ///
    /// [`GraphError::ForeignNode`] if `node` belongs to another graph.
    pub fn kind(&self, node: NodeId) -> Result<NodeKind, GraphError> {
        Ok(self.nodes[self.index_of(node)?].kind())
    }

    /// The node's declared prerequisites (Taskflow's predecessors), in the
    /// order they were added to the graph, each once. Its dependents:
    /// [`successors`](Self::successors).
    ///
    /// # Errors
    ///
    /// [`GraphError::ForeignNode`] if `node` belongs to another graph.
    pub fn dependencies(
        &self,
        node: NodeId,
    ) -> Result<impl ExactSizeIterator<Item = NodeId> + '_, GraphError> {
        let id = self.id;
        let deps = self.deps_of(self.index_of(node)?);
        Ok(deps
            .iter()
            .map(move |&index| NodeId::new(id, index as usize)))
    }

    /// The branches of a condition node, by the index its closure returns
    /// (empty for other kinds of node).
    ///
    /// # Errors
    ///
    /// [`GraphError::ForeignNode`] if `node` belongs to another graph.
    pub fn branches(
        &self,
        node: NodeId,
    ) -> Result<impl ExactSizeIterator<Item = NodeId> + '_, GraphError> {
        let id = self.id;
        let branches = self.nodes[self.index_of(node)?].branches();
        Ok(branches
            .iter()
            .map(move |&index| NodeId::new(id, index as usize)))
    }

    /// Sets the estimate of the node's running time that critical-path
    /// ordering uses ([`ReadyOrder::CriticalPath`]) until a timed run
    /// measures it ([`record_timings`](Self::record_timings)).
    ///
    /// # Errors
    ///
    /// [`GraphError::ForeignNode`] if `node` belongs to another graph.
    pub fn set_cost(&mut self, node: NodeId, cost: Duration) -> Result<(), GraphError> {
        let index = self.index_of(node)?;
        self.cold.costs.insert(index as u32, cost);
        self.plan = None;
        Ok(())
    }

    /// The node's running time measured by the last timed run, if any.
    ///
    /// # Errors
    ///
    /// [`GraphError::ForeignNode`] if `node` belongs to another graph.
    pub fn measured_cost(&self, node: NodeId) -> Result<Option<Duration>, GraphError> {
        let index = self.index_of(node)?;
        Ok(match self.measured.get(index) {
            Some(&ns) if ns > 0 => Some(Duration::from_nanos(ns)),
            _ => None,
        })
    }

    /// How ready nodes are ordered when several become ready at once
    /// ([`ReadyOrder::CriticalPath`] unless set).
    pub fn set_ready_order(&mut self, order: ReadyOrder) {
        self.ready_order = order;
        self.plan = None;
    }

    /// The order set by [`set_ready_order`](Self::set_ready_order).
    pub fn ready_order(&self) -> ReadyOrder {
        self.ready_order
    }

    /// With `true`, every later run times each node (two clock reads per
    /// node run): the outcome reports when each node started and how long
    /// it ran ([`GraphOutcome::timing`]), and the running times become the
    /// costs critical-path ordering uses in the next runs, replacing the
    /// estimates of [`set_cost`](Self::set_cost).
    pub fn record_timings(&mut self, record: bool) {
        self.record_timings = record;
    }

    /// Whether runs time their nodes ([`record_timings`](Self::record_timings)).
    pub fn records_timings(&self) -> bool {
        self.record_timings
    }

    /// Keeps the running times a timed run measured, as the costs of the
    /// next runs' critical-path ranks.
    pub(crate) fn note_timings(&mut self, outcome: &GraphOutcome) {
        if !self.record_timings {
            return;
        }
        self.measured.resize(self.nodes.len(), 0);
        for index in 0..self.nodes.len() {
            if let Ok(Some(timing)) = outcome.timing(NodeId::new(self.id, index)) {
                self.measured[index] = (timing.elapsed.as_nanos() as u64).max(1);
            }
        }
        self.timings_version += 1;
    }

    /// Every node's id, in the order the nodes were added.
    pub fn node_ids(&self) -> impl ExactSizeIterator<Item = NodeId> + '_ {
        let id = self.id;
        (0..self.nodes.len()).map(move |index| NodeId::new(id, index))
    }

    pub(crate) fn nodes(&self) -> &[Node] {
        &self.nodes
    }

    /// The output type of node `index`.
    pub(crate) fn output_type(&self, index: usize) -> &'static str {
        self.info.output_types[index]
    }

    /// Whether the output of node `index` is `()`.
    pub(crate) fn output_is_unit(&self, index: usize) -> bool {
        self.info.slot_of[index] == NO_SLOT
    }

    /// The priority class of node `index`.
    pub(crate) fn priority_of(&self, index: usize) -> Priority {
        self.meta[index].priority
    }

    /// The label of node `index`, if it has one.
    pub(crate) fn label_of(&self, index: usize) -> Option<&str> {
        self.cold.labels.get(index).map(|label| &**label)
    }

    /// Node `index` as errors and statuses name it.
    pub(crate) fn name_of(&self, index: usize) -> NodeName {
        self.cold.labels.name(NodeId::new(self.id, index))
    }

    /// The labels, to share with an outcome.
    pub(crate) fn labels(&self) -> &Arc<Labels> {
        &self.cold.labels
    }

    /// The permits node `index` takes before it runs, in the order it
    /// takes them.
    pub(crate) fn acquisitions_of(&self, index: usize) -> &[Acquisition] {
        self.cold
            .limits
            .get(&(index as u32))
            .map_or(&[], Vec::as_slice)
    }

    /// Whether some node takes a permit that a later node gives back.
    pub(crate) fn has_holds(&self) -> bool {
        self.holds > 0
    }

    /// The nodes with a cost estimate, and their estimates.
    pub(crate) fn cost_estimates(&self) -> impl Iterator<Item = (usize, Duration)> + '_ {
        self.cold
            .costs
            .iter()
            .map(|(&node, &cost)| (node as usize, cost))
    }

    /// The declared prerequisites of node `index`.
    #[inline]
    pub(crate) fn deps_of(&self, index: usize) -> &[u32] {
        self.prereqs.of(index)
    }

    /// Whether every prerequisite was added before its dependent: then the
    /// order the nodes were added is a topological order.
    pub(crate) fn is_in_order(&self) -> bool {
        self.prereqs.is_forward()
    }

    /// Each node's dependents, in the order the nodes were added.
    pub(crate) fn dependents(&self) -> &Dependents {
        self.successors.get_or_init(|| Dependents::of_graph(self))
    }

    /// Forgets what was made from the graph's shape: after a change.
    fn reshaped(&mut self) {
        self.plan = None;
        self.successors.take();
    }

    /// Folds edited prerequisite lists back and works out what the runs
    /// read from them (`NodeMeta::reads_outputs`): before a plan is made.
    fn settle(&mut self) {
        self.prereqs.settle();
        let info = &self.info;
        for (index, meta) in self.meta.iter_mut().enumerate() {
            meta.reads_outputs = info.slots > 0
                && self
                    .prereqs
                    .of(index)
                    .iter()
                    .any(|&d| info.slot_of[d as usize] != NO_SLOT);
        }
    }

    /// Whether node `index` is the branch of some condition.
    pub(crate) fn is_branch_target(&self, index: usize) -> bool {
        self.meta[index].branch_target
    }

    pub(crate) fn has_conditions(&self) -> bool {
        self.conditions > 0
    }

    pub(crate) fn has_graph_nodes(&self) -> bool {
        self.graph_nodes > 0
    }

    /// The index of `node` in this graph, or `ForeignNode`. A `NodeId` of
    /// this graph is only created for an existing node and nodes are never
    /// removed, so the index is always in bounds.
    fn index_of(&self, node: NodeId) -> Result<usize, GraphError> {
        if node.graph() == self.id && node.index() < self.nodes.len() {
            Ok(node.index())
        } else {
            Err(GraphError::ForeignNode {
                node,
                expected: self.id,
            })
        }
    }

    fn check_all(&self, ids: &[NodeId]) -> Result<(), GraphError> {
        for &id in ids {
            self.index_of(id)?;
        }
        Ok(())
    }

    /// Whether some condition has a branch (immediate in a graph without
    /// conditions).
    fn has_branches(&self) -> bool {
        self.conditions > 0 && self.meta.iter().any(|meta| meta.branch_target)
    }

    /// Which nodes are branch targets now.
    fn targets_of_branches(&self) -> Vec<bool> {
        self.meta.iter().map(|m| m.branch_target).collect()
    }

    /// Marks the nodes some condition has as a branch.
    fn mark_branch_targets(&mut self) {
        for meta in &mut self.meta {
            meta.branch_target = false;
        }
        for node in &self.nodes {
            for &target in node.branches() {
                self.meta[target as usize].branch_target = true;
            }
        }
    }

    /// Appends a node with prerequisites `deps` (already checked).
    fn push<T: 'static>(
        &mut self,
        deps: &[NodeId],
        priority: Priority,
        work: Work,
        _output: PhantomOutput<T>,
    ) -> NodeId {
        let index = self.nodes.len();
        assert!(
            index < u32::MAX as usize - 1,
            "a TaskGraph holds at most {} nodes",
            u32::MAX - 1
        );
        let in_degree = self.prereqs.push(deps.iter().map(|dep| dep.index() as u32));
        self.count_kind(&work);
        self.meta.push(NodeMeta {
            in_degree,
            priority,
            limited: false,
            // Worked out by `settle` before the graph runs.
            reads_outputs: false,
            branch_target: false,
        });
        self.joins.push(JoinCounter::new(in_degree));
        self.info.output_types.push("()");
        self.info.slot_of.push(NO_SLOT);
        self.set_output_type::<T>(index);
        self.nodes.push(Node { work });
        if self.plan.is_some() || self.successors.get().is_some() {
            self.reshaped();
        }
        NodeId::new(self.id, index)
    }

    /// Counts a node of `work`'s kind.
    fn count_kind(&mut self, work: &Work) {
        match work {
            Work::Condition(_) => self.conditions += 1,
            Work::Graph(_) => self.graph_nodes += 1,
            _ => {}
        }
    }

    /// Records that node `index` outputs a `T`: an output slot, unless `T`
    /// is `()` (the node had none before).
    fn set_output_type<T: 'static>(&mut self, index: usize) {
        let info = &mut self.info;
        info.output_types[index] = std::any::type_name::<T>();
        if TypeId::of::<T>() != TypeId::of::<()>() {
            info.slot_of[index] = info.slots as u32;
            info.slots += 1;
        }
    }
}

/// The shared graphs a graph runs, and, for a subgraph, the graphs whose
/// runs enclose it: a graph may not run itself, directly or not
/// (`module_nodes.rs`).
#[derive(Debug, Default, Clone)]
pub(crate) struct Nesting {
    /// The ids of the modules the graph runs, directly or through the
    /// graphs it holds.
    pub(crate) runs: BTreeSet<GraphId>,
    /// For a subgraph: the ids of the graphs whose runs it is made in.
    pub(crate) inside: Vec<GraphId>,
}

impl Nesting {
    /// Adds the modules a graph held by this one runs.
    fn absorb(&mut self, inner: &Nesting) {
        self.runs.extend(inner.runs.iter().copied());
    }
}

/// The output type of a node being added, named without a value.
struct PhantomOutput<T>(std::marker::PhantomData<fn() -> T>);

impl<T> PhantomOutput<T> {
    fn new() -> Self {
        Self(std::marker::PhantomData)
    }
}

impl Default for TaskGraph {
    fn default() -> Self {
        Self::new()
    }
}

impl fmt::Debug for TaskGraph {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("TaskGraph")
            .field("id", &self.id)
            .field("nodes", &self.nodes.len())
            .field("edges", &self.prereqs.edges())
            .field("conditions", &self.conditions)
            .field("ready_order", &self.ready_order)
            .finish()
    }
}
