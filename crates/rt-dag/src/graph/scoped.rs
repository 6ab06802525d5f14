//! Graphs whose closures borrow from their caller: built and run inside a
//! lifetime, as `std::thread::scope`'s threads are.

use std::fmt;
use std::marker::PhantomData;
use std::ops::Deref;
use std::time::Duration;

use rt_handle::{CancellationToken, Executor};
use rt_queue::Priority;

use super::{work, PhantomOutput, ReadyOrder, Subgraph, TaskGraph};
use crate::{DependencyResults, GraphError, GraphOutcome, Limit, Module, NodeId, Pipeline};
use rt_handle::raw::drop_quietly;

/// A [`TaskGraph`] whose closures may borrow from the caller's stack: they
/// need only live for `'env`, not be `'static`.
///
/// It is built as a `TaskGraph` is (the same methods, whose closures are
/// bounded by `'env`) and runs only through calls that return once the
/// run has ended ([`run`](Self::run), [`run_once`](Self::run_once), ...),
/// as [`Pipeline`](crate::Pipeline)s do: no closure runs after its
/// borrows end. Outputs are still `'static` (they outlive the run, in the
/// [`GraphOutcome`]), and so are the nodes a subgraph node's closure adds.
/// It cannot become a [`Module`], nor be awaited
/// ([`run_graph_async`](crate::run_graph_async)), which would let it run
/// past `'env`. Read it as a `TaskGraph` (it dereferences to one).
///
/// ```
/// use rt_dag::ScopedGraph;
///
/// let rt = rt_core::Runtime::new(2).unwrap();
/// let words = vec!["task", "graphs", "lend"];
/// let mut longest = "";
/// let mut graph = ScopedGraph::new();
/// let total = graph.add_task(|_| words.iter().map(|w| w.len()).sum::<usize>()); // reads `words`
/// graph
///     .add_task_once_after(&[total], |_| {
///         longest = words.iter().copied().max_by_key(|w| w.len()).unwrap(); // writes `longest`
///     })
///     .unwrap();
/// let outcome = graph.run_once(&rt);
/// assert_eq!(outcome.get::<usize>(total), Ok(&14));
/// assert_eq!(longest, "graphs");
/// ```
///
/// A closure must not outlive what it borrows, so a scoped graph cannot
/// outlive it either:
///
/// ```compile_fail
/// use rt_dag::ScopedGraph;
///
/// let mut graph = ScopedGraph::new();
/// {
///     let local = vec![1, 2, 3];
///     graph.add_task(|_| local.len()); // `local` does not live long enough
/// }
/// graph.run_once(&rt_core::Runtime::new(1).unwrap());
/// ```
///
/// nor hand its closures to a graph that could:
///
/// ```compile_fail
/// use rt_dag::{ScopedGraph, TaskGraph};
///
/// let local = vec![1, 2, 3];
/// let mut scoped = ScopedGraph::new();
/// scoped.add_task(|_| local.len());
/// let mut escaped = TaskGraph::new();
/// std::mem::swap(&mut *scoped, &mut escaped); // only shared access to the graph inside
/// ```
pub struct ScopedGraph<'env> {
    graph: TaskGraph,
    /// Invariant in `'env`, as `std::thread::Scope` is: a graph of closures
    /// that live for `'env` can be neither lengthened nor swapped with one
    /// of another lifetime.
    env: PhantomData<&'env mut &'env ()>,
}

// The closures are stored with their lifetime erased (`work.rs`). That is
// sound because a `ScopedGraph<'env>` lives at most for `'env` (it is
// bounded by it), gives its graph out only as a shared reference (which
// neither runs nor moves a closure), and runs it only through
// `TaskGraph::run` and its kin, which return once every closure call of the
// run has ended.
impl<'env> ScopedGraph<'env> {
    /// An empty scoped graph.
    pub fn new() -> Self {
        Self {
            graph: TaskGraph::new(),
            env: PhantomData,
        }
    }

    /// As [`TaskGraph::add_task`], with a closure that lives for `'env`.
    pub fn add_task<F, T>(&mut self, f: F) -> NodeId
    where
        F: FnMut(&DependencyResults<'_>) -> T + Send + 'env,
        T: Send + Sync + 'static,
    {
        self.add_task_with_priority(Priority::Normal, f)
    }

    /// As [`TaskGraph::add_task_with_priority`], with a closure that lives
    /// for `'env`.
    pub fn add_task_with_priority<F, T>(&mut self, priority: Priority, f: F) -> NodeId
    where
        F: FnMut(&DependencyResults<'_>) -> T + Send + 'env,
        T: Send + Sync + 'static,
    {
        // SAFETY: see the `impl` block.
        let work = unsafe { work::task(f) };
        self.graph
            .push(&[], priority, work, PhantomOutput::<T>::new())
    }

    /// As [`TaskGraph::add_task_after`], with a closure that lives for
    /// `'env`.
    ///
    /// # Errors
    ///
    /// As for [`TaskGraph::add_task_after`].
    pub fn add_task_after<F, T>(&mut self, deps: &[NodeId], f: F) -> Result<NodeId, GraphError>
    where
        F: FnMut(&DependencyResults<'_>) -> T + Send + 'env,
        T: Send + Sync + 'static,
    {
        self.add_task_after_with_priority(deps, Priority::Normal, f)
    }

    /// As [`TaskGraph::add_task_after_with_priority`], with a closure that
    /// lives for `'env`.
    ///
    /// # Errors
    ///
    /// As for [`TaskGraph::add_task_after`].
    pub fn add_task_after_with_priority<F, T>(
        &mut self,
        deps: &[NodeId],
        priority: Priority,
        f: F,
    ) -> Result<NodeId, GraphError>
    where
        F: FnMut(&DependencyResults<'_>) -> T + Send + 'env,
        T: Send + Sync + 'static,
    {
        self.graph.check_all(deps)?;
        // SAFETY: see the `impl` block.
        let work = unsafe { work::task(f) };
        Ok(self
            .graph
            .push(deps, priority, work, PhantomOutput::<T>::new()))
    }

    /// As [`TaskGraph::add_fallible_task`], with a closure that lives for
    /// `'env`.
    pub fn add_fallible_task<F, T, E>(&mut self, f: F) -> NodeId
    where
        F: FnMut(&DependencyResults<'_>) -> Result<T, E> + Send + 'env,
        T: Send + Sync + 'static,
        E: Into<Box<dyn std::error::Error + Send + Sync + 'static>>,
    {
        // SAFETY: see the `impl` block.
        let work = unsafe { work::fallible(f) };
        self.graph
            .push(&[], Priority::Normal, work, PhantomOutput::<T>::new())
    }

    /// As [`TaskGraph::add_fallible_task_after`], with a closure that lives
    /// for `'env`.
    ///
    /// # Errors
    ///
    /// As for [`TaskGraph::add_fallible_task_after`].
    pub fn add_fallible_task_after<F, T, E>(
        &mut self,
        deps: &[NodeId],
        f: F,
    ) -> Result<NodeId, GraphError>
    where
        F: FnMut(&DependencyResults<'_>) -> Result<T, E> + Send + 'env,
        T: Send + Sync + 'static,
        E: Into<Box<dyn std::error::Error + Send + Sync + 'static>>,
    {
        self.graph.check_all(deps)?;
        // SAFETY: see the `impl` block.
        let work = unsafe { work::fallible(f) };
        Ok(self
            .graph
            .push(deps, Priority::Normal, work, PhantomOutput::<T>::new()))
    }

    /// As [`TaskGraph::add_task_once`], with a closure that lives for
    /// `'env`: it may move borrowed or owned captures out.
    pub fn add_task_once<F, T>(&mut self, f: F) -> NodeId
    where
        F: FnOnce(&DependencyResults<'_>) -> T + Send + 'env,
        T: Send + Sync + 'static,
    {
        // SAFETY: see the `impl` block.
        let work = unsafe { work::task_once(f) };
        self.graph
            .push(&[], Priority::Normal, work, PhantomOutput::<T>::new())
    }

    /// As [`TaskGraph::add_task_once_after`], with a closure that lives for
    /// `'env`.
    ///
    /// # Errors
    ///
    /// As for [`TaskGraph::add_task_after`].
    pub fn add_task_once_after<F, T>(&mut self, deps: &[NodeId], f: F) -> Result<NodeId, GraphError>
    where
        F: FnOnce(&DependencyResults<'_>) -> T + Send + 'env,
        T: Send + Sync + 'static,
    {
        self.graph.check_all(deps)?;
        // SAFETY: see the `impl` block.
        let work = unsafe { work::task_once(f) };
        Ok(self
            .graph
            .push(deps, Priority::Normal, work, PhantomOutput::<T>::new()))
    }

    /// As [`TaskGraph::add_condition`], with a closure that lives for
    /// `'env`.
    pub fn add_condition<F>(&mut self, f: F) -> NodeId
    where
        F: FnMut(&DependencyResults<'_>) -> usize + Send + 'env,
    {
        // SAFETY: see the `impl` block.
        let work = unsafe { work::condition(f) };
        self.graph
            .push(&[], Priority::Normal, work, PhantomOutput::<usize>::new())
    }

    /// As [`TaskGraph::add_condition_after`], with a closure that lives for
    /// `'env`.
    ///
    /// # Errors
    ///
    /// As for [`TaskGraph::add_condition_after`].
    pub fn add_condition_after<F>(&mut self, deps: &[NodeId], f: F) -> Result<NodeId, GraphError>
    where
        F: FnMut(&DependencyResults<'_>) -> usize + Send + 'env,
    {
        self.graph.check_all(deps)?;
        // SAFETY: see the `impl` block.
        let work = unsafe { work::condition(f) };
        Ok(self
            .graph
            .push(deps, Priority::Normal, work, PhantomOutput::<usize>::new()))
    }

    /// As [`TaskGraph::add_multi_condition`], with a closure that lives for
    /// `'env`.
    pub fn add_multi_condition<F, I>(&mut self, f: F) -> NodeId
    where
        F: FnMut(&DependencyResults<'_>) -> I + Send + 'env,
        I: IntoIterator<Item = usize>,
    {
        // SAFETY: see the `impl` block.
        let work = unsafe { work::multi_condition(f) };
        self.graph.push(
            &[],
            Priority::Normal,
            work,
            PhantomOutput::<Vec<usize>>::new(),
        )
    }

    /// As [`TaskGraph::add_multi_condition_after`], with a closure that
    /// lives for `'env`.
    ///
    /// # Errors
    ///
    /// As for [`TaskGraph::add_multi_condition_after`].
    pub fn add_multi_condition_after<F, I>(
        &mut self,
        deps: &[NodeId],
        f: F,
    ) -> Result<NodeId, GraphError>
    where
        F: FnMut(&DependencyResults<'_>) -> I + Send + 'env,
        I: IntoIterator<Item = usize>,
    {
        self.graph.check_all(deps)?;
        // SAFETY: see the `impl` block.
        let work = unsafe { work::multi_condition(f) };
        Ok(self.graph.push(
            deps,
            Priority::Normal,
            work,
            PhantomOutput::<Vec<usize>>::new(),
        ))
    }

    /// As [`TaskGraph::add_subgraph`], with a closure that lives for
    /// `'env` (the nodes it adds to its [`Subgraph`] are `'static`).
    pub fn add_subgraph<F, T>(&mut self, f: F) -> NodeId
    where
        F: FnMut(&DependencyResults<'_>, &mut Subgraph) -> T + Send + 'env,
        T: Send + Sync + 'static,
    {
        // SAFETY: see the `impl` block.
        let work = unsafe { work::subgraph(f) };
        self.graph
            .push(&[], Priority::Normal, work, PhantomOutput::<T>::new())
    }

    /// As [`TaskGraph::add_subgraph_after`], with a closure that lives for
    /// `'env`.
    ///
    /// # Errors
    ///
    /// As for [`TaskGraph::add_subgraph_after`].
    pub fn add_subgraph_after<F, T>(&mut self, deps: &[NodeId], f: F) -> Result<NodeId, GraphError>
    where
        F: FnMut(&DependencyResults<'_>, &mut Subgraph) -> T + Send + 'env,
        T: Send + Sync + 'static,
    {
        self.graph.check_all(deps)?;
        // SAFETY: see the `impl` block.
        let work = unsafe { work::subgraph(f) };
        Ok(self
            .graph
            .push(deps, Priority::Normal, work, PhantomOutput::<T>::new()))
    }

    /// As [`TaskGraph::add_placeholder`].
    pub fn add_placeholder(&mut self) -> NodeId {
        self.graph.add_placeholder()
    }

    /// As [`TaskGraph::set_task`], with a closure that lives for `'env`.
    ///
    /// # Errors
    ///
    /// As for [`TaskGraph::set_task`].
    pub fn set_task<F, T>(&mut self, node: NodeId, f: F) -> Result<(), GraphError>
    where
        F: FnMut(&DependencyResults<'_>) -> T + Send + 'env,
        T: Send + Sync + 'static,
    {
        self.graph.check_placeholder(node)?;
        // SAFETY: see the `impl` block.
        self.graph.fill::<T>(node, unsafe { work::task(f) })
    }

    /// As [`TaskGraph::set_fallible_task`], with a closure that lives for
    /// `'env`.
    ///
    /// # Errors
    ///
    /// As for [`TaskGraph::set_task`].
    pub fn set_fallible_task<F, T, E>(&mut self, node: NodeId, f: F) -> Result<(), GraphError>
    where
        F: FnMut(&DependencyResults<'_>) -> Result<T, E> + Send + 'env,
        T: Send + Sync + 'static,
        E: Into<Box<dyn std::error::Error + Send + Sync + 'static>>,
    {
        self.graph.check_placeholder(node)?;
        // SAFETY: see the `impl` block.
        self.graph.fill::<T>(node, unsafe { work::fallible(f) })
    }

    /// As [`TaskGraph::set_task_once`], with a closure that lives for
    /// `'env`.
    ///
    /// # Errors
    ///
    /// As for [`TaskGraph::set_task`].
    pub fn set_task_once<F, T>(&mut self, node: NodeId, f: F) -> Result<(), GraphError>
    where
        F: FnOnce(&DependencyResults<'_>) -> T + Send + 'env,
        T: Send + Sync + 'static,
    {
        self.graph.check_placeholder(node)?;
        // SAFETY: see the `impl` block.
        self.graph.fill::<T>(node, unsafe { work::task_once(f) })
    }

    /// As [`TaskGraph::set_condition`], with a closure that lives for
    /// `'env`.
    ///
    /// # Errors
    ///
    /// As for [`TaskGraph::set_task`].
    pub fn set_condition<F>(&mut self, node: NodeId, f: F) -> Result<(), GraphError>
    where
        F: FnMut(&DependencyResults<'_>) -> usize + Send + 'env,
    {
        self.graph.check_placeholder(node)?;
        // SAFETY: see the `impl` block.
        self.graph
            .fill::<usize>(node, unsafe { work::condition(f) })
    }

    /// As [`TaskGraph::set_multi_condition`], with a closure that lives for
    /// `'env`.
    ///
    /// # Errors
    ///
    /// As for [`TaskGraph::set_task`].
    pub fn set_multi_condition<F, I>(&mut self, node: NodeId, f: F) -> Result<(), GraphError>
    where
        F: FnMut(&DependencyResults<'_>) -> I + Send + 'env,
        I: IntoIterator<Item = usize>,
    {
        self.graph.check_placeholder(node)?;
        // SAFETY: see the `impl` block.
        self.graph
            .fill::<Vec<usize>>(node, unsafe { work::multi_condition(f) })
    }

    /// As [`TaskGraph::set_subgraph`], with a closure that lives for
    /// `'env`.
    ///
    /// # Errors
    ///
    /// As for [`TaskGraph::set_task`].
    pub fn set_subgraph<F, T>(&mut self, node: NodeId, f: F) -> Result<(), GraphError>
    where
        F: FnMut(&DependencyResults<'_>, &mut Subgraph) -> T + Send + 'env,
        T: Send + Sync + 'static,
    {
        self.graph.check_placeholder(node)?;
        // SAFETY: see the `impl` block.
        self.graph.fill::<T>(node, unsafe { work::subgraph(f) })
    }

    /// As [`TaskGraph::add_graph`].
    pub fn add_graph(&mut self, graph: TaskGraph) -> NodeId {
        self.graph.add_graph(graph)
    }

    /// As [`TaskGraph::add_graph_after`].
    ///
    /// # Errors
    ///
    /// As for [`TaskGraph::add_graph_after`].
    pub fn add_graph_after(
        &mut self,
        deps: &[NodeId],
        graph: TaskGraph,
    ) -> Result<NodeId, GraphError> {
        self.graph.add_graph_after(deps, graph)
    }

    /// As [`TaskGraph::add_graph`], for a graph whose closures borrow for
    /// `'env` too.
    pub fn add_scoped_graph(&mut self, graph: ScopedGraph<'env>) -> NodeId {
        self.graph.add_graph(graph.graph)
    }

    /// As [`TaskGraph::add_module`].
    ///
    /// # Errors
    ///
    /// As for [`TaskGraph::add_module`].
    pub fn add_module(&mut self, module: &Module) -> Result<NodeId, GraphError> {
        self.graph.add_module(module)
    }

    /// As [`TaskGraph::add_module_after`].
    ///
    /// # Errors
    ///
    /// As for [`TaskGraph::add_module_after`].
    pub fn add_module_after(
        &mut self,
        deps: &[NodeId],
        module: &Module,
    ) -> Result<NodeId, GraphError> {
        self.graph.add_module_after(deps, module)
    }

    /// As [`TaskGraph::add_pipeline`] (a pipeline whose stages are
    /// `'static`).
    pub fn add_pipeline<T: Send + 'static>(&mut self, pipeline: Pipeline<'static, T>) -> NodeId {
        self.graph.add_pipeline(pipeline)
    }

    /// As [`TaskGraph::add_pipeline_after`].
    ///
    /// # Errors
    ///
    /// As for [`TaskGraph::add_pipeline_after`].
    pub fn add_pipeline_after<T: Send + 'static>(
        &mut self,
        deps: &[NodeId],
        pipeline: Pipeline<'static, T>,
    ) -> Result<NodeId, GraphError> {
        self.graph.add_pipeline_after(deps, pipeline)
    }

    /// As [`TaskGraph::pipeline_mut`] (its pipeline is `'static`, so
    /// changing it reaches no closure of the scoped graph).
    ///
    /// # Errors
    ///
    /// As for [`TaskGraph::pipeline_mut`].
    pub fn pipeline_mut<T: Send + 'static>(
        &mut self,
        node: NodeId,
    ) -> Result<&mut Pipeline<'static, T>, GraphError> {
        self.graph.pipeline_mut(node)
    }

    /// As [`TaskGraph::precede`].
    ///
    /// # Errors
    ///
    /// As for [`TaskGraph::precede`].
    pub fn precede(&mut self, node: NodeId, successors: &[NodeId]) -> Result<(), GraphError> {
        self.graph.precede(node, successors)
    }

    /// As [`TaskGraph::succeed`].
    ///
    /// # Errors
    ///
    /// As for [`TaskGraph::succeed`].
    pub fn succeed(&mut self, node: NodeId, predecessors: &[NodeId]) -> Result<(), GraphError> {
        self.graph.succeed(node, predecessors)
    }

    /// As [`TaskGraph::remove_dependency`].
    ///
    /// # Errors
    ///
    /// As for [`TaskGraph::remove_dependency`].
    pub fn remove_dependency(&mut self, from: NodeId, to: NodeId) -> Result<bool, GraphError> {
        self.graph.remove_dependency(from, to)
    }

    /// As [`TaskGraph::set_branches`].
    ///
    /// # Errors
    ///
    /// As for [`TaskGraph::set_branches`].
    pub fn set_branches(
        &mut self,
        condition: NodeId,
        targets: &[NodeId],
    ) -> Result<(), GraphError> {
        self.graph.set_branches(condition, targets)
    }

    /// As [`TaskGraph::set_label`].
    ///
    /// # Errors
    ///
    /// As for [`TaskGraph::set_label`].
    pub fn set_label(&mut self, node: NodeId, label: impl Into<String>) -> Result<(), GraphError> {
        self.graph.set_label(node, label)
    }

    /// As [`TaskGraph::set_priority`].
    ///
    /// # Errors
    ///
    /// As for [`TaskGraph::set_priority`].
    pub fn set_priority(&mut self, node: NodeId, priority: Priority) -> Result<(), GraphError> {
        self.graph.set_priority(node, priority)
    }

    /// As [`TaskGraph::set_limit`].
    ///
    /// # Errors
    ///
    /// As for [`TaskGraph::set_limit`].
    pub fn set_limit(&mut self, node: NodeId, limit: &Limit) -> Result<(), GraphError> {
        self.graph.set_limit(node, limit)
    }

    /// As [`TaskGraph::add_limit`].
    ///
    /// # Errors
    ///
    /// As for [`TaskGraph::add_limit`].
    pub fn add_limit(&mut self, node: NodeId, limit: &Limit) -> Result<(), GraphError> {
        self.graph.add_limit(node, limit)
    }

    /// As [`TaskGraph::add_limit_until`].
    ///
    /// # Errors
    ///
    /// As for [`TaskGraph::add_limit_until`].
    pub fn add_limit_until(
        &mut self,
        node: NodeId,
        limit: &Limit,
        until: NodeId,
    ) -> Result<(), GraphError> {
        self.graph.add_limit_until(node, limit, until)
    }

    /// As [`TaskGraph::set_cost`].
    ///
    /// # Errors
    ///
    /// As for [`TaskGraph::set_cost`].
    pub fn set_cost(&mut self, node: NodeId, cost: Duration) -> Result<(), GraphError> {
        self.graph.set_cost(node, cost)
    }

    /// As [`TaskGraph::set_ready_order`].
    pub fn set_ready_order(&mut self, order: ReadyOrder) {
        self.graph.set_ready_order(order);
    }

    /// As [`TaskGraph::record_timings`].
    pub fn record_timings(&mut self, record: bool) {
        self.graph.record_timings(record);
    }

    /// As [`TaskGraph::run`]: returns once the run has ended, so no closure
    /// runs past this call.
    pub fn run<E: Executor + ?Sized>(&mut self, executor: &E) -> GraphOutcome {
        self.graph.run(executor)
    }

    /// As [`TaskGraph::run_cancellable`].
    pub fn run_cancellable<E: Executor + ?Sized>(
        &mut self,
        executor: &E,
        token: &CancellationToken,
    ) -> GraphOutcome {
        self.graph.run_cancellable(executor, token)
    }

    /// As [`TaskGraph::run_n`].
    pub fn run_n<E: Executor + ?Sized>(&mut self, executor: &E, n: usize) -> Vec<GraphOutcome> {
        self.graph.run_n(executor, n)
    }

    /// As [`TaskGraph::run_n_cancellable`].
    pub fn run_n_cancellable<E: Executor + ?Sized>(
        &mut self,
        executor: &E,
        n: usize,
        token: &CancellationToken,
    ) -> Vec<GraphOutcome> {
        self.graph.run_n_cancellable(executor, n, token)
    }

    /// As [`TaskGraph::run_until`]: `stop` is asked before every run, the
    /// first included (with `None`).
    pub fn run_until<E, F>(&mut self, executor: &E, stop: F) -> Option<GraphOutcome>
    where
        E: Executor + ?Sized,
        F: FnMut(Option<&GraphOutcome>) -> bool,
    {
        self.graph.run_until(executor, stop)
    }

    /// As [`TaskGraph::run_until_cancellable`].
    pub fn run_until_cancellable<E, F>(
        &mut self,
        executor: &E,
        token: &CancellationToken,
        stop: F,
    ) -> Option<GraphOutcome>
    where
        E: Executor + ?Sized,
        F: FnMut(Option<&GraphOutcome>) -> bool,
    {
        self.graph.run_until_cancellable(executor, token, stop)
    }

    /// Runs the graph once and drops it (as [`run_graph`](crate::run_graph)):
    /// the way to run `FnOnce` nodes, which release what they borrowed when
    /// this returns. A panic in dropping a closure's captures is contained.
    pub fn run_once<E: Executor + ?Sized>(self, executor: &E) -> GraphOutcome {
        let mut graph = self.graph;
        let outcome = graph.run(executor);
        drop_quietly(graph);
        outcome
    }
}

impl Default for ScopedGraph<'_> {
    fn default() -> Self {
        Self::new()
    }
}

/// Read the graph as a [`TaskGraph`]: its nodes, edges and settings. (Only
/// shared access: a `&mut TaskGraph` could swap its closures into a graph
/// that outlives them.)
impl Deref for ScopedGraph<'_> {
    type Target = TaskGraph;

    fn deref(&self) -> &TaskGraph {
        &self.graph
    }
}

impl fmt::Debug for ScopedGraph<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_tuple("ScopedGraph").field(&self.graph).finish()
    }
}
