//! The scheduler: submit ready nodes, collect completions, release
//! dependents.

use std::collections::VecDeque;
use std::future::Future;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::pin::Pin;
use std::sync::Mutex;
use std::task::{Context, Poll, Waker};

use crossbeam_channel::{Receiver, Sender};
use rt_handle::executor_support::drop_quietly;
use rt_handle::executor_support::membership;
use rt_handle::executor_support::panic_message;
use rt_handle::{CancellationToken, Executor, Job, SubmitError};
use rt_queue::Priority;

use crate::graph::{Body, Output, Parts};
use crate::outcome::GraphOutcome;
use crate::{DependencyResults, GraphId, NodeId, NodeStatus, TaskGraph};
use std::sync::{Arc, OnceLock};

/// Busy polls of the completion channel before the `run_graph` thread
/// starts yielding. Together with [`YIELD_POLLS`] this covers a few
/// microseconds: a node that finishes within them costs no park/unpark round
/// trip (tens of microseconds on a VM). Measured on the 2-core machine:
/// chain of 1,000 nodes on the global-queue pool 35 ms → 1.7 ms, fan-out 200
/// → join on the work-stealing runtime 212 µs → 152 µs.
const SPIN_POLLS: u32 = 512;
/// Polls with `yield_now` in between, after the busy polls: on a machine
/// with fewer cores than threads they let a worker finish the node.
const YIELD_POLLS: u32 = 8;

/// Runs every node of `graph` on `executor` and waits until each one has a
/// final [`NodeStatus`].
///
/// Nodes without prerequisites are submitted at once, in the order they were
/// added; every other node is submitted, at its own priority, as soon as its
/// last prerequisite completes. Completions come back to the calling thread,
/// which releases the dependents, so node closures never touch the executor
/// and the executor need not be `'static`.
///
/// A node that panics is [`NodeStatus::Panicked`], and every node that
/// depends on it, directly or not, is [`NodeStatus::Skipped`] and never runs;
/// independent nodes still run. A job the executor refuses or drops unrun
/// makes its node [`NodeStatus::Rejected`] and its dependents `Skipped`, so a
/// shut-down executor never makes this hang. `run_graph` never panics because
/// of a node; it blocks only as long as the executor takes to run (or drop)
/// the jobs it accepted.
///
/// The calling thread schedules; on an executor that runs jobs inline in
/// `submit` the whole graph runs on the caller's thread, in a valid order.
/// While it waits for a completion it polls for a few microseconds before it
/// blocks.
///
/// Called from inside a task of the work-stealing runtime (on a runtime
/// with a single worker, say), it does not block that worker while the
/// graph's nodes wait in its queue: it runs them itself, as
/// [`JoinHandle::join`](rt_handle::JoinHandle::join) runs a task it joins
/// (`rt_handle::executor_support::membership::help_once`). On any other executor's thread it
/// blocks like any wait, so do not call it from inside a task of a pool
/// whose every thread the graph needs; and do not call it on an async
/// runtime's thread.
pub fn run_graph<E: Executor + ?Sized>(executor: &E, graph: TaskGraph) -> GraphOutcome {
    Run::new(graph, None, None).finish(executor)
}

/// [`run_graph`] for async code: a future that runs every node of `graph`
/// on `executor` and resolves to the same [`GraphOutcome`], without ever
/// blocking the thread that polls it.
///
/// Each poll submits the nodes that became ready and takes the completions
/// that arrived; a node's completion wakes the future. So an async task can
/// await a whole graph of CPU work on a pool while its runtime's thread
/// keeps serving other futures. Dropping the future before it resolves
/// stops submitting nodes; those already submitted still run.
///
/// Nodes are submitted with [`Executor::try_submit`]: when the executor's
/// bounded queue is full, the node waits in the future (and the nodes that
/// become ready after it wait behind it) and the future returns `Pending`
/// until [`Executor::wake_when_capacity`] wakes it, instead of blocking its
/// thread. (An executor that keeps the trait's default `try_submit` is
/// submitted to with its `submit`, as by [`run_graph`].)
///
/// ```
/// use rt_core::Runtime;
/// use rt_dag::{run_graph_async, TaskGraph};
///
/// let rt = Runtime::new(2).unwrap();
/// let mut graph = TaskGraph::new();
/// let a = graph.add_task(|_| 20_u32);
/// let b = graph
///     .add_task_after(&[a], move |deps| deps.get::<u32>(a).unwrap() + 1)
///     .unwrap();
/// // In async code: `let outcome = run_graph_async(&rt, graph).await;`
/// let mut outcome = futures::executor::block_on(run_graph_async(&rt, graph));
/// assert_eq!(outcome.take::<u32>(b).unwrap(), 21);
/// ```
pub fn run_graph_async<E: Executor + ?Sized>(executor: &E, graph: TaskGraph) -> RunGraph<'_, E> {
    let wake = Arc::new(WakeSlot::default());
    RunGraph {
        executor,
        run: Some(Run::new(graph, None, Some(wake.clone()))),
        wake,
    }
}

/// The future of [`run_graph_async`].
#[must_use = "a graph runs only while its future is polled"]
pub struct RunGraph<'e, E: ?Sized> {
    executor: &'e E,
    /// `None` once resolved.
    run: Option<Run>,
    wake: Arc<WakeSlot>,
}

impl<E: Executor + ?Sized> Future for RunGraph<'_, E> {
    type Output = GraphOutcome;

    fn poll(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<GraphOutcome> {
        let this = &mut *self;
        let run = this
            .run
            .as_mut()
            .expect("a RunGraph future was polled after it resolved");
        loop {
            run.offer_ready(this.executor, cx.waker());
            if run.in_flight == 0 {
                let run = this.run.take().expect("checked above");
                return Poll::Ready(run.into_outcome());
            }
            if let Ok(completion) = run.done_rx.try_recv() {
                run.receive(completion);
                continue;
            }
            // Register, then look again: a completion sent before the
            // registration is seen by this second look; one sent after it
            // finds the waker (the slot's mutex orders the two).
            this.wake.register(cx.waker());
            match run.done_rx.try_recv() {
                Ok(completion) => run.receive(completion),
                Err(_) => return Poll::Pending,
            }
        }
    }
}

impl<E: ?Sized> std::fmt::Debug for RunGraph<'_, E> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let mut d = f.debug_struct("RunGraph");
        match &self.run {
            Some(run) => d.field("in_flight", &run.in_flight),
            None => d.field("resolved", &true),
        };
        d.finish()
    }
}

/// The waker of the task awaiting a [`RunGraph`], woken by every node's
/// report. A mutex, not a lock-free slot: it is taken once per node, and
/// nodes are coarse.
#[derive(Default)]
struct WakeSlot(Mutex<Option<Waker>>);

impl WakeSlot {
    fn register(&self, waker: &Waker) {
        let mut slot = self.0.lock().unwrap_or_else(|e| e.into_inner());
        if !slot.as_ref().is_some_and(|w| w.will_wake(waker)) {
            *slot = Some(waker.clone());
        }
    }

    fn wake(&self) {
        let waker = self.0.lock().unwrap_or_else(|e| e.into_inner()).clone();
        if let Some(waker) = waker {
            // The async runtime's code, on a worker: never unwind into it.
            let _ = catch_unwind(AssertUnwindSafe(|| waker.wake()));
        }
    }
}

/// Like [`run_graph`], but stops starting nodes once `token` is cancelled.
///
/// A node that has not started when the token is cancelled never runs and
/// is [`NodeStatus::Cancelled`], and so is every node after it (unless a
/// failure upstream makes it [`NodeStatus::Skipped`]). Nodes already running
/// are not interrupted: they finish, and their closures can poll
/// [`DependencyResults::is_cancelled`] to return early. Jobs already queued
/// in the executor notice the cancellation when they are dequeued, so the
/// call returns once the executor has worked through them.
pub fn run_graph_cancellable<E: Executor + ?Sized>(
    executor: &E,
    graph: TaskGraph,
    token: &CancellationToken,
) -> GraphOutcome {
    Run::new(graph, Some(token.clone()), None).finish(executor)
}

/// Offers `job` without blocking. Refused as saturated, it registers
/// `waker` for the executor's next free place and tries once more (a place
/// freed in between is seen then); still refused, the job comes back.
/// Refused because the executor is shut down, the job is dropped, which
/// reports its node `NotRun`.
fn try_submit<E: Executor + ?Sized>(
    executor: &E,
    priority: Priority,
    job: Job,
    waker: &Waker,
) -> Result<(), Job> {
    let job = match executor.try_submit(priority, job) {
        Err(SubmitError::Saturated(job)) => job,
        Ok(()) | Err(SubmitError::Shutdown(_)) => return Ok(()),
    };
    executor.wake_when_capacity(waker);
    match executor.try_submit(priority, job) {
        Err(SubmitError::Saturated(job)) => Err(job),
        Ok(()) | Err(SubmitError::Shutdown(_)) => Ok(()),
    }
}

/// What every node's job shares: the outputs, and what a closure needs to
/// read them. Each output slot is written once, by the worker that ran the
/// node, before it reports; dependents are submitted only after that report,
/// so their reads are ordered after the write by the channel.
struct Shared {
    graph: GraphId,
    outputs: Box<[OnceLock<Output>]>,
    /// Node `i`'s prerequisites: `dep_list[dep_starts[i]..dep_starts[i + 1]]`.
    dep_starts: Box<[usize]>,
    dep_list: Box<[usize]>,
    output_types: Box<[&'static str]>,
    token: Option<CancellationToken>,
}

impl Shared {
    fn cancelled(&self) -> bool {
        self.token
            .as_ref()
            .is_some_and(CancellationToken::is_cancelled)
    }
}

/// How a submitted node's job ended, as reported to the `run_graph` thread.
enum Report {
    Completed,
    Panicked(String),
    Cancelled,
    /// The job was dropped without running: refused by `submit`, or
    /// discarded by the executor.
    NotRun,
}

struct Completion {
    index: usize,
    report: Report,
}

/// The worst thing that happened to a node's prerequisites so far.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Upstream {
    Fine,
    Cancelled,
    Failed,
}

/// The `run_graph` thread's bookkeeping for one run. Only that thread
/// touches it, so none of it is atomic.
struct Run {
    shared: Arc<Shared>,
    bodies: Vec<Option<Body>>,
    priorities: Vec<Priority>,
    /// `dependents[dependent_starts[i]..dependent_starts[i + 1]]` are the
    /// nodes that declared `i` as a prerequisite.
    dependent_starts: Vec<usize>,
    dependents: Vec<usize>,
    /// Prerequisites of each node that have no final status yet.
    waiting: Vec<usize>,
    upstream: Vec<Upstream>,
    statuses: Vec<Option<NodeStatus>>,
    /// Nodes whose prerequisites are all final, to decide in FIFO order.
    ready: VecDeque<usize>,
    /// Submitted nodes whose completion has not arrived yet (with the one
    /// in `saturated`).
    in_flight: usize,
    /// A node's job that the executor refused because its bounded queue
    /// was full (runs awaited as a future only): offered again, before any
    /// other ready node, once the executor has room.
    saturated: Option<(Priority, Job)>,
    done_tx: Sender<Completion>,
    done_rx: Receiver<Completion>,
    /// The waker to wake with every report, when the run is a future.
    wake: Option<Arc<WakeSlot>>,
}

impl Run {
    fn new(
        graph: TaskGraph,
        token: Option<CancellationToken>,
        wake: Option<Arc<WakeSlot>>,
    ) -> Self {
        let Parts {
            id: graph,
            nodes,
            dep_starts,
            dep_list,
        } = graph.into_parts();
        let n = nodes.len();

        // Invert the prerequisite lists into dependent lists (counting sort).
        let mut dependent_starts = vec![0; n + 1];
        for &dep in &dep_list {
            dependent_starts[dep + 1] += 1;
        }
        for i in 0..n {
            dependent_starts[i + 1] += dependent_starts[i];
        }
        let mut fill = dependent_starts.clone();
        let mut dependents = vec![0; dep_list.len()];
        for node in 0..n {
            for &dep in &dep_list[dep_starts[node]..dep_starts[node + 1]] {
                dependents[fill[dep]] = node;
                fill[dep] += 1;
            }
        }

        let waiting: Vec<usize> = (0..n).map(|i| dep_starts[i + 1] - dep_starts[i]).collect();
        let ready = (0..n).filter(|&i| waiting[i] == 0).collect();
        let mut bodies = Vec::with_capacity(n);
        let mut priorities = Vec::with_capacity(n);
        let mut output_types = Vec::with_capacity(n);
        for node in nodes {
            bodies.push(Some(node.body));
            priorities.push(node.priority);
            output_types.push(node.output_type);
        }
        let shared = Arc::new(Shared {
            graph,
            outputs: (0..n).map(|_| OnceLock::new()).collect(),
            dep_starts: dep_starts.into_boxed_slice(),
            dep_list: dep_list.into_boxed_slice(),
            output_types: output_types.into_boxed_slice(),
            token,
        });
        let (done_tx, done_rx) = crossbeam_channel::unbounded();
        Self {
            shared,
            bodies,
            priorities,
            dependent_starts,
            dependents,
            waiting,
            upstream: vec![Upstream::Fine; n],
            statuses: vec![None; n],
            ready,
            in_flight: 0,
            saturated: None,
            done_tx,
            done_rx,
            wake,
        }
    }

    fn finish<E: Executor + ?Sized>(mut self, executor: &E) -> GraphOutcome {
        loop {
            self.start_ready(executor);
            if self.in_flight == 0 {
                break;
            }
            let completion = self.next_completion();
            self.receive(completion);
        }
        self.into_outcome()
    }

    /// Decides every node that is ready.
    fn start_ready<E: Executor + ?Sized>(&mut self, executor: &E) {
        while let Some(index) = self.ready.pop_front() {
            if let Some((priority, job)) = self.start(index) {
                if let Err(refused) = executor.submit(priority, job) {
                    // Dropping the refused job drops the `NodeJob` unrun,
                    // which reports `NotRun`; that arrives like any other
                    // completion.
                    drop(refused);
                }
            }
        }
    }

    /// Decides every node that is ready, in order, without blocking: stops
    /// at a node the executor refuses as saturated, which waits in
    /// `saturated` while `waker` waits for the executor to have room.
    fn offer_ready<E: Executor + ?Sized>(&mut self, executor: &E, waker: &Waker) {
        loop {
            let (priority, job) = match self.saturated.take() {
                Some(refused) => refused,
                None => match self.ready.pop_front() {
                    Some(index) => match self.start(index) {
                        Some(submission) => submission,
                        None => continue,
                    },
                    None => return,
                },
            };
            if let Err(refused) = try_submit(executor, priority, job, waker) {
                self.saturated = Some((priority, refused));
                return;
            }
        }
    }

    /// Records a submitted node's report.
    fn receive(&mut self, Completion { index, report }: Completion) {
        self.in_flight -= 1;
        let status = match report {
            Report::Completed => NodeStatus::Completed,
            Report::Panicked(message) => NodeStatus::Panicked(message),
            Report::Cancelled => NodeStatus::Cancelled,
            Report::NotRun => NodeStatus::Rejected,
        };
        self.resolve(index, status);
    }

    /// Waits for the next completion: on a worker that can help, runs the
    /// graph's own queued nodes meanwhile; then polls briefly, then blocks.
    /// Every in-flight node sends exactly one (see [`NodeJob`]), so this
    /// returns.
    fn next_completion(&self) -> Completion {
        loop {
            if let Ok(completion) = self.done_rx.try_recv() {
                return completion;
            }
            // Nodes this thread submitted from a worker went to that
            // worker's own queue; with none left there, each in-flight node
            // runs (or waits) elsewhere and will report.
            if !membership::help_once() {
                break;
            }
        }
        for round in 0..SPIN_POLLS + YIELD_POLLS {
            if let Ok(completion) = self.done_rx.try_recv() {
                return completion;
            }
            if round < SPIN_POLLS {
                std::hint::spin_loop();
            } else {
                std::thread::yield_now();
            }
        }
        // Blocked, a worker takes no queued work: its pool may need to
        // keep another thread free meanwhile (rt-core's `COMPENSATION.md`).
        match membership::blocking(|| self.done_rx.recv()) {
            Ok(completion) => completion,
            Err(_) => unreachable!("the run holds a sender, so the channel stays open"),
        }
    }

    /// Decides a node whose prerequisites are all final: its job and
    /// priority, to submit (counted in flight), or `None` when it got its
    /// final status without running.
    fn start(&mut self, index: usize) -> Option<(Priority, Job)> {
        let verdict = match self.upstream[index] {
            Upstream::Failed => Some(NodeStatus::Skipped),
            Upstream::Cancelled => Some(NodeStatus::Cancelled),
            Upstream::Fine if self.shared.cancelled() => Some(NodeStatus::Cancelled),
            Upstream::Fine => None,
        };
        if let Some(status) = verdict {
            self.resolve(index, status);
            return None;
        }
        let Some(body) = self.bodies[index].take() else {
            unreachable!("a node becomes ready once, when its last prerequisite resolves")
        };
        let job = NodeJob {
            index,
            shared: Some(Arc::clone(&self.shared)),
            body: Some(body),
            done: self.done_tx.clone(),
            wake: self.wake.clone(),
        };
        let (job, handle) = Job::new(move || job.run());
        // The completion comes through the channel, not the handle.
        drop(handle);
        self.in_flight += 1;
        Some((self.priorities[index], job))
    }

    /// Records a node's final status and queues the dependents whose last
    /// prerequisite this was.
    fn resolve(&mut self, index: usize, status: NodeStatus) {
        let upstream = if status.is_failure() {
            Upstream::Failed
        } else if status == NodeStatus::Cancelled {
            Upstream::Cancelled
        } else {
            Upstream::Fine
        };
        debug_assert!(self.statuses[index].is_none(), "one final status per node");
        self.statuses[index] = Some(status);
        let dependents =
            &self.dependents[self.dependent_starts[index]..self.dependent_starts[index + 1]];
        for &dependent in dependents {
            self.upstream[dependent] = self.upstream[dependent].max(upstream);
            self.waiting[dependent] -= 1;
            if self.waiting[dependent] == 0 {
                self.ready.push_back(dependent);
            }
        }
    }

    fn into_outcome(self) -> GraphOutcome {
        let graph = self.shared.graph;
        // Every job released its `Arc<Shared>` before sending its completion
        // (or was never given one), and every completion has been received,
        // so this is the last reference.
        let Ok(shared) = Arc::try_unwrap(self.shared) else {
            unreachable!("node jobs release the shared state before reporting")
        };
        let outputs = shared
            .outputs
            .into_vec()
            .into_iter()
            .map(OnceLock::into_inner);
        let statuses = self.statuses.into_iter().map(|status| {
            // Every node became ready once (the graph is acyclic) and every
            // ready node was resolved, directly or by its completion.
            status.unwrap_or_else(|| unreachable!("every node has a final status"))
        });
        GraphOutcome::new(
            graph,
            statuses
                .zip(outputs)
                .zip(shared.output_types.iter().copied()),
        )
    }
}

/// One node's work as a job: run the closure (unless cancelled), store the
/// output, report. If the job is dropped without running, `Drop` reports
/// `NotRun` instead, so every submitted node reports exactly once.
struct NodeJob {
    index: usize,
    /// `Some` until the job runs or is dropped; released before reporting.
    shared: Option<Arc<Shared>>,
    body: Option<Body>,
    done: Sender<Completion>,
    /// Woken after the report, when the run is a future.
    wake: Option<Arc<WakeSlot>>,
}

impl NodeJob {
    /// Sends this node's one report, and wakes the future awaiting the run
    /// if there is one. A send fails only if the run is gone (it unwound,
    /// or its future was dropped); nobody is left to tell.
    fn report(&self, report: Report) {
        let _ = self.done.send(Completion {
            index: self.index,
            report,
        });
        if let Some(wake) = &self.wake {
            wake.wake();
        }
    }

    fn run(mut self) {
        let (Some(shared), Some(body)) = (self.shared.take(), self.body.take()) else {
            unreachable!("a node job runs once")
        };
        let index = self.index;
        let report = if shared.cancelled() {
            drop_quietly(body);
            Report::Cancelled
        } else {
            let results = DependencyResults::new(
                NodeId::new(shared.graph, index),
                &shared.dep_list[shared.dep_starts[index]..shared.dep_starts[index + 1]],
                &shared.outputs,
                &shared.output_types,
                shared.token.as_ref(),
            );
            match catch_unwind(AssertUnwindSafe(|| body(&results))) {
                Ok(output) => {
                    if let Err(output) = shared.outputs[index].set(output) {
                        // Unreachable: each node runs once. Never unwind here.
                        drop_quietly(output);
                    }
                    Report::Completed
                }
                Err(payload) => Report::Panicked(panic_message(payload)),
            }
        };
        // Release the shared state *before* reporting: once the last report
        // is received, `run_graph` owns it alone and can move the outputs out.
        drop(shared);
        self.report(report);
    }
}

impl Drop for NodeJob {
    fn drop(&mut self) {
        if let Some(body) = self.body.take() {
            drop_quietly(body);
            drop(self.shared.take());
            self.report(Report::NotRun);
        }
    }
}
