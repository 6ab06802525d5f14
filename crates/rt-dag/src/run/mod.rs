//! Running a graph: where nodes are released, how a run waits and ends
//! (`RUN.md` beside this file has the protocol and its argument).

mod async_run;
pub(crate) mod help_desk;
mod inbox;
pub(crate) mod launch;
pub(crate) mod lifecycle;
mod outcome;
mod permits;
mod results;
pub(crate) mod route;
pub(crate) mod state;
mod sweep;
pub(crate) mod unit;
pub(crate) mod wait;

use std::sync::Arc;

use rt_handle::{CancellationToken, Executor};

pub use async_run::{run_graph_async, RunGraph};
pub use outcome::{GraphOutcome, NodeTiming, RootCause};
pub use results::DependencyResults;

use crate::graph::TaskGraph;
use launch::ExecutorPtr;
use route::Launch;
use rt_handle::raw::drop_quietly;
use state::Run;
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
    /// A node that panics is [`Panicked`](crate::NodeStatus::Panicked) (a
    /// fallible task that returns an error,
    /// [`Failed`](crate::NodeStatus::Failed)), and every node that waits for
    /// it, directly or not, and has not run yet in this run is
    /// [`Skipped`](crate::NodeStatus::Skipped) and never runs (in a loop, a
    /// node that completed in an earlier round keeps that round's status);
    /// independent nodes still run. A job the executor refuses or drops unrun makes its
    /// node [`Rejected`](crate::NodeStatus::Rejected), so a shut-down executor
    /// never makes this hang. This call never panics because of a node.
    ///
    /// It blocks until the run ends. Called from a task of the
    /// work-stealing runtime (or inside its `install`), it works on the run
    /// while it waits: the run's jobs are put within its reach wherever they
    /// are released, so a graph run from inside a task completes even on one
    /// worker, and takes no longer than from `main`. On another executor's thread it blocks, so do not call it
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
    #[must_use = "the outcomes say what became of each run"]
    pub fn run_n<E: Executor + ?Sized>(&mut self, executor: &E, n: usize) -> Vec<GraphOutcome> {
        (0..n).map(|_| self.run(executor)).collect()
    }

    /// Like [`run_n`](Self::run_n), but stops once `token` is cancelled:
    /// the run in progress stops starting nodes (as
    /// [`run_cancellable`](Self::run_cancellable)), and no later run
    /// starts. Returns the outcomes of the runs that started: fewer than
    /// `n` when the token was cancelled, none when it was cancelled before
    /// the call.
    ///
    /// ```
    /// use rt_dag::{CancellationToken, NodeStatus, TaskGraph};
    ///
    /// let rt = rt_core::Runtime::new(2).unwrap();
    /// let token = CancellationToken::new();
    /// let mut graph = TaskGraph::new();
    /// let mut round = 0;
    /// let t = token.clone();
    /// let node = graph.add_task(move |_| {
    ///     round += 1;
    ///     if round == 3 {
    ///         t.cancel(); // the third run is the last
    ///     }
    /// });
    /// let after = graph.add_task_after(&[node], |_| ()).unwrap();
    /// let outcomes = graph.run_n_cancellable(&rt, 100, &token);
    /// assert_eq!(outcomes.len(), 3);
    /// assert_eq!(outcomes[2].status(after), Ok(&NodeStatus::Cancelled));
    /// ```
    #[must_use = "the outcomes say what became of each run"]
    pub fn run_n_cancellable<E: Executor + ?Sized>(
        &mut self,
        executor: &E,
        n: usize,
        token: &CancellationToken,
    ) -> Vec<GraphOutcome> {
        let mut outcomes = Vec::new();
        while outcomes.len() < n && !token.is_cancelled() {
            outcomes.push(self.run_cancellable(executor, token));
        }
        outcomes
    }

    /// Runs the graph again and again until `stop` says stop (Taskflow's
    /// `run_until`), and returns the last run's outcome.
    ///
    /// `stop` is asked before every run, the first included: with `None`
    /// before the first run, then with the outcome of the run just ended.
    /// So the graph may not run at all (then the result is `None`), as in
    /// Taskflow, whose predicate is checked first.
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
    /// let last = graph
    ///     .run_until(&rt, |last| last.is_some_and(|o| *o.get::<f64>(train).unwrap() < 0.1))
    ///     .unwrap();
    /// assert_eq!(epoch.load(Ordering::SeqCst), 11);
    /// assert!(last.all_completed());
    ///
    /// // Checked before the first run: a stop condition already met runs nothing.
    /// assert!(graph.run_until(&rt, |_| true).is_none());
    /// assert_eq!(epoch.load(Ordering::SeqCst), 11);
    /// ```
    #[must_use = "the outcome says what became of the last run"]
    pub fn run_until<E, F>(&mut self, executor: &E, stop: F) -> Option<GraphOutcome>
    where
        E: Executor + ?Sized,
        F: FnMut(Option<&GraphOutcome>) -> bool,
    {
        self.repeat_until(stop, |graph| graph.run(executor))
    }

    /// Like [`run_until`](Self::run_until), but stops once `token` is
    /// cancelled: the run in progress stops starting nodes (as
    /// [`run_cancellable`](Self::run_cancellable)), and no later run starts,
    /// whatever `stop` says. Returns the last run's outcome, `None` if no
    /// run started.
    ///
    /// ```
    /// use std::sync::atomic::{AtomicU32, Ordering};
    /// use std::sync::Arc;
    /// use rt_dag::{CancellationToken, TaskGraph};
    ///
    /// let rt = rt_core::Runtime::new(2).unwrap();
    /// let token = CancellationToken::new();
    /// let runs = Arc::new(AtomicU32::new(0));
    /// let mut graph = TaskGraph::new();
    /// let (r, t) = (runs.clone(), token.clone());
    /// graph.add_task(move |_| {
    ///     if r.fetch_add(1, Ordering::SeqCst) == 9 {
    ///         t.cancel(); // a server told to shut down
    ///     }
    /// });
    /// let last = graph.run_until_cancellable(&rt, &token, |_| false); // forever, but for the token
    /// assert!(last.is_some());
    /// assert_eq!(runs.load(Ordering::SeqCst), 10);
    /// ```
    #[must_use = "the outcome says what became of the last run"]
    pub fn run_until_cancellable<E, F>(
        &mut self,
        executor: &E,
        token: &CancellationToken,
        mut stop: F,
    ) -> Option<GraphOutcome>
    where
        E: Executor + ?Sized,
        F: FnMut(Option<&GraphOutcome>) -> bool,
    {
        self.repeat_until(
            |last| token.is_cancelled() || stop(last),
            |graph| graph.run_cancellable(executor, token),
        )
    }

    /// Runs the graph with `run_once` until `stop`, asked before each run,
    /// says stop; the last outcome.
    fn repeat_until(
        &mut self,
        mut stop: impl FnMut(Option<&GraphOutcome>) -> bool,
        mut run_once: impl FnMut(&mut Self) -> GraphOutcome,
    ) -> Option<GraphOutcome> {
        let mut last = None;
        while !stop(last.as_ref()) {
            let outcome = run_once(self);
            // The previous outcome is dropped here, before the next run.
            last = Some(outcome);
        }
        last
    }
}

/// One run of `graph`, borrowed, on `executor`, waited for by this thread.
fn run_blocking(
    graph: &mut TaskGraph,
    executor: &dyn Executor,
    token: Option<CancellationToken>,
) -> GraphOutcome {
    graph.prepare();
    // Why this is sound: this function borrows the executor and the graph, and keeps
    // `executor` (the reference the pointer points at) in its frame, until
    // the run has ended: `start` never unwinds, and the wait returns only
    // once every unit of work is given back.
    // SAFETY: `executor` and the graph outlive the run (above).
    let run = unsafe {
        let executor = ExecutorPtr::new(&executor);
        let launch = match wait::desk_for_this_thread(executor) {
            Some(desk) => Launch::Helped(Arc::new(desk)),
            None => Launch::Executor(executor),
        };
        Run::borrowing(graph, launch, token)
    };
    let desk = match &run.launch {
        Launch::Helped(desk) => Some(desk.clone()),
        _ => None,
    };
    run.start();
    wait::wait(run.end_signal(), desk.as_deref());
    let outcome = outcome_of(&run);
    drop(run);
    graph.note_timings(&outcome);
    outcome
}
