//! Running a graph: where nodes are released, how a run waits and ends
//! (`RUN.md` beside this file has the protocol and its argument).

pub(crate) mod activation;
mod async_run;
mod completion;
mod drive;
mod end;
mod inbox;
pub(crate) mod launch;
mod outcome;
mod permits;
mod results;
mod start;
mod state;
mod step;
mod sweep;
pub(crate) mod wait;

use rt_handle::{CancellationToken, Executor};

pub use async_run::{run_graph_async, RunGraph};
pub use outcome::{GraphOutcome, NodeTiming};
pub use results::DependencyResults;

use crate::graph::TaskGraph;
use crate::quiet::drop_quietly;
use launch::ExecutorPtr;
use state::{Launch, Run};
use sweep::outcome_of;

/// Runs every node of `graph` on `executor` and waits until each one has a
/// final [`NodeStatus`](crate::NodeStatus): [`TaskGraph::run`] for a graph
/// that runs once. The graph is dropped at the end; a panic in dropping a
/// closure's captures is contained.
///
/// ```
/// use rt_dag::{run_graph, NodeStatus, TaskGraph};
///
/// let rt = rt_core::Runtime::new(2).unwrap();
/// let mut graph = TaskGraph::new();
/// let a = graph.add_task(|_| 20_u32);
/// let b = graph.add_task_after(&[a], move |deps| deps.get::<u32>(a).unwrap() + 22).unwrap();
/// let outcome = run_graph(&rt, graph);
/// assert_eq!(outcome.status(b), Ok(&NodeStatus::Completed));
/// assert_eq!(outcome.get::<u32>(b), Ok(&42));
/// ```
pub fn run_graph<E: Executor + ?Sized>(executor: &E, graph: TaskGraph) -> GraphOutcome {
    let mut graph = graph;
    let outcome = graph.run(executor);
    // A panic in dropping a closure's captures is not the run's.
    drop_quietly(graph);
    outcome
}

/// Like [`run_graph`], but stops starting nodes once `token` is cancelled:
/// [`TaskGraph::run_cancellable`] for a graph that runs once.
pub fn run_graph_cancellable<E: Executor + ?Sized>(
    executor: &E,
    graph: TaskGraph,
    token: &CancellationToken,
) -> GraphOutcome {
    let mut graph = graph;
    let outcome = graph.run_cancellable(executor, token);
    drop_quietly(graph);
    outcome
}

impl TaskGraph {
    /// Runs every node on `executor` and waits until each one has a final
    /// [`NodeStatus`](crate::NodeStatus). The graph stays as it was: run it
    /// again whenever needed, each run with its own outcome.
    ///
    /// Entries (nodes without prerequisites that no condition has as a
    /// branch) are submitted at once. From then on, the thread that
    /// finishes a node releases its dependents itself: it counts each one's
    /// prerequisites down, runs the most preferred of those it made ready
    /// next itself (unless it is of a less urgent class than the node it
    /// finished), and submits the others to the executor, each at its own
    /// priority ([`ReadyOrder`](crate::ReadyOrder) says which is
    /// preferred). On the work-stealing runtime those go to the worker's
    /// own deque, where idle workers steal them. Nothing comes back to this
    /// thread until the run ends.
    ///
    /// A node that panics is [`Panicked`](crate::NodeStatus::Panicked), and
    /// every node that waits for it, directly or not, is
    /// [`Skipped`](crate::NodeStatus::Skipped) and never runs; independent
    /// nodes still run. A job the executor refuses or drops unrun makes its
    /// node [`Rejected`](crate::NodeStatus::Rejected), so a shut-down executor
    /// never makes this hang. This call never panics because of a node.
    ///
    /// It blocks until the run ends. Called from a task of the
    /// work-stealing runtime it submits to, it runs the nodes queued on its
    /// worker while it waits, as [`JoinHandle::join`](rt_handle::JoinHandle::join)
    /// does, so a graph run from inside a task completes even on one
    /// worker. On another executor's thread it blocks, so do not call it
    /// from a task of a pool whose every thread the graph needs; and do not
    /// call it on an async runtime's thread ([`run_graph_async`]).
    ///
    /// On an executor that runs jobs inside `submit`, the whole graph runs
    /// on the calling thread, in a valid order, with a bounded stack.
    ///
    /// ```
    /// use std::sync::atomic::{AtomicU64, Ordering};
    /// use std::sync::Arc;
    /// use rt_dag::TaskGraph;
    ///
    /// let rt = rt_core::Runtime::new(2).unwrap();
    /// let frames = Arc::new(AtomicU64::new(0));
    /// let mut graph = TaskGraph::new();
    /// let decode = graph.add_task(|_| vec![1u8; 64]);
    /// let render = {
    ///     let frames = frames.clone();
    ///     graph.add_task_after(&[decode], move |deps| {
    ///         frames.fetch_add(1, Ordering::SeqCst);
    ///         deps.get::<Vec<u8>>(decode).unwrap().len()
    ///     }).unwrap()
    /// };
    /// for _ in 0..3 {
    ///     let outcome = graph.run(&rt); // the same graph, once per frame
    ///     assert_eq!(outcome.get::<usize>(render), Ok(&64));
    /// }
    /// assert_eq!(frames.load(Ordering::SeqCst), 3);
    /// ```
    pub fn run<E: Executor + ?Sized>(&mut self, executor: &E) -> GraphOutcome {
        run_blocking(self, &executor, None)
    }

    /// Like [`run`](Self::run), but stops starting nodes once `token` is
    /// cancelled.
    ///
    /// A node that has not started when the token is cancelled never runs
    /// and is [`Cancelled`](crate::NodeStatus::Cancelled), and so is every
    /// node after it (unless a failure upstream makes it
    /// [`Skipped`](crate::NodeStatus::Skipped)). Nodes already running are
    /// not interrupted: they finish, and their closures can poll
    /// [`DependencyResults::is_cancelled`] to return early. Jobs already
    /// queued in the executor notice the cancellation when they are
    /// dequeued, so the call returns once the executor has worked through
    /// them. A loop stops at its next activation.
    pub fn run_cancellable<E: Executor + ?Sized>(
        &mut self,
        executor: &E,
        token: &CancellationToken,
    ) -> GraphOutcome {
        run_blocking(self, &executor, Some(token.clone()))
    }

    /// Runs the graph `n` times, one run after another, and returns each
    /// run's outcome (Taskflow's `run_n`).
    ///
    /// ```
    /// use std::sync::atomic::{AtomicUsize, Ordering};
    /// use std::sync::Arc;
    /// use rt_dag::TaskGraph;
    ///
    /// let rt = rt_core::Runtime::new(2).unwrap();
    /// let count = Arc::new(AtomicUsize::new(0));
    /// let mut graph = TaskGraph::new();
    /// let c = count.clone();
    /// graph.add_task(move |_| c.fetch_add(1, Ordering::SeqCst));
    /// let outcomes = graph.run_n(&rt, 5);
    /// assert_eq!(outcomes.len(), 5);
    /// assert!(outcomes.iter().all(|o| o.all_completed()));
    /// assert_eq!(count.load(Ordering::SeqCst), 5);
    /// ```
    pub fn run_n<E: Executor + ?Sized>(&mut self, executor: &E, n: usize) -> Vec<GraphOutcome> {
        (0..n).map(|_| self.run(executor)).collect()
    }

    /// Runs the graph again and again until `stop` returns true for a run's
    /// outcome (Taskflow's `run_until`, checked after each run: the graph
    /// runs at least once); returns that outcome.
    ///
    /// ```
    /// use std::sync::atomic::{AtomicU32, Ordering};
    /// use std::sync::Arc;
    /// use rt_dag::TaskGraph;
    ///
    /// let rt = rt_core::Runtime::new(2).unwrap();
    /// let epoch = Arc::new(AtomicU32::new(0));
    /// let mut graph = TaskGraph::new();
    /// let e = epoch.clone();
    /// let train = graph.add_task(move |_| 1.0 / f64::from(e.fetch_add(1, Ordering::SeqCst) + 1));
    /// let last = graph.run_until(&rt, |outcome| *outcome.get::<f64>(train).unwrap() < 0.1);
    /// assert_eq!(epoch.load(Ordering::SeqCst), 11);
    /// assert!(last.all_completed());
    /// ```
    pub fn run_until<E, F>(&mut self, executor: &E, mut stop: F) -> GraphOutcome
    where
        E: Executor + ?Sized,
        F: FnMut(&GraphOutcome) -> bool,
    {
        loop {
            let outcome = self.run(executor);
            if stop(&outcome) {
                return outcome;
            }
        }
    }
}

/// One run of `graph`, borrowed, on `executor`, waited for by this thread.
fn run_blocking(
    graph: &mut TaskGraph,
    executor: &dyn Executor,
    token: Option<CancellationToken>,
) -> GraphOutcome {
    graph.prepare();
    // SAFETY: this function borrows the executor and the graph until the
    // run has ended: `start` never unwinds, and the wait returns only once
    // every unit of work is given back.
    let run = unsafe {
        let launch = Launch::Executor(ExecutorPtr::new(executor));
        Run::borrowing(graph, launch, token)
    };
    run.start();
    wait::wait(run.end_signal());
    let outcome = outcome_of(&run);
    drop(run);
    graph.note_timings(&outcome);
    outcome
}
