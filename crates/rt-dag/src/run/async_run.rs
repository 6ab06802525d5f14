//! A run awaited from async code: the future submits what the run's
//! threads hand it, and resolves when the run ends.

use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll};

use rt_handle::{CancellationToken, Executor, Job};
use rt_queue::Priority;

use super::inbox::Inbox;
use super::launch;
use super::outcome::GraphOutcome;
use super::route::Launch;
use super::state::Run;
use super::sweep::outcome_of;
use crate::graph::TaskGraph;

/// Runs `graph` on `executor` from async code: a future that resolves to
/// the same [`GraphOutcome`] as [`run_graph`](crate::run_graph), without ever
/// blocking the thread that polls it.
///
/// Nodes are released where their prerequisites finished, as in
/// [`run_graph`](crate::run_graph), and the thread that finishes a node
/// runs the one it made ready next itself; only the nodes it does not run
/// come back to the future, which submits them when polled (it borrows the
/// executor only while it is polled, so the run's threads cannot). The
/// run's end wakes the future.
///
/// Dropping the future before it resolves cancels the run, as a cancelled
/// token cancels [`TaskGraph::run_cancellable`](crate::TaskGraph::run_cancellable):
/// no node starts any more, on any thread (a chain stops at its next
/// node), nodes already running finish, and the run then ends by itself,
/// dropping its graph; nobody sees its outcome.
///
/// Nodes are submitted with [`Executor::try_submit`]: when the executor's
/// bounded queue is full, the node waits in the future (and the nodes that
/// become ready after it wait behind it) and the future returns `Pending`
/// until [`Executor::wake_when_capacity`] wakes it, instead of blocking its
/// thread. (An executor that keeps the trait's default `try_submit` is
/// submitted to with its `submit`.)
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
    let mut graph = graph;
    graph.prepare();
    let inbox = Arc::new(Inbox::new());
    // Cancelled when the future is dropped unresolved.
    let abandoned = CancellationToken::new();
    let run = Run::owning(
        Box::new(graph),
        Launch::Future(inbox.clone()),
        Some(abandoned.clone()),
    );
    // Its entries go to the inbox, for the first poll to submit.
    run.start();
    RunGraph {
        executor,
        run: Some(run),
        inbox,
        saturated: None,
        abandoned,
    }
}

/// The future of [`run_graph_async`].
#[must_use = "a graph runs only while its future is polled"]
pub struct RunGraph<'e, E: ?Sized> {
    executor: &'e E,
    /// `None` once resolved.
    run: Option<Arc<Run>>,
    inbox: Arc<Inbox>,
    /// A node's job the executor refused because its bounded queue was
    /// full: offered again, before any other, once it has room.
    saturated: Option<(Priority, Job)>,
    /// The run's token, cancelled when the future is dropped unresolved.
    abandoned: CancellationToken,
}

impl<E: Executor + ?Sized> Future for RunGraph<'_, E> {
    type Output = GraphOutcome;

    fn poll(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<GraphOutcome> {
        let this = &mut *self;
        let run = this
            .run
            .clone()
            .expect("a RunGraph future was polled after it resolved");
        let executor: &dyn Executor = &this.executor;
        loop {
            // Submit what the run's threads handed over, in order.
            loop {
                let (priority, job) = match this.saturated.take() {
                    Some(refused) => refused,
                    None => match this.inbox.pop() {
                        Some(queued) => queued,
                        None => break,
                    },
                };
                if let Err(refused) = launch::try_submit(executor, priority, job, cx.waker()) {
                    // Woken by the executor when it has room.
                    this.saturated = Some((priority, refused));
                    return Poll::Pending;
                }
            }
            let signal = run.end_signal();
            if signal.is_set() {
                this.run = None;
                this.inbox.close();
                return Poll::Ready(outcome_of(&run));
            }
            // Register, then look again: whatever arrives after the
            // registration wakes this task.
            if this.inbox.register(cx.waker()) && signal.register(cx.waker()) {
                return Poll::Pending;
            }
        }
    }
}

impl<E: ?Sized> Drop for RunGraph<'_, E> {
    fn drop(&mut self) {
        if self.run.is_some() {
            // Nobody will see the outcome: no node starts any more.
            self.abandoned.cancel();
        }
        // Jobs not submitted yet are dropped (their nodes rejected, unless
        // the cancellation got them first); submitted ones are dequeued and
        // see the cancellation.
        self.inbox.close();
        drop(self.saturated.take());
    }
}

impl<E: ?Sized> std::fmt::Debug for RunGraph<'_, E> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("RunGraph")
            .field("resolved", &self.run.is_none())
            .field("saturated", &self.saturated.is_some())
            .finish()
    }
}
