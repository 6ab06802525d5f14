//! Task graphs that run on any [`Executor`]: dependencies, conditions and
//! loops, subgraphs made while running, graphs inside graphs, concurrency
//! limits, and ordered pipelines.
//!
//! Build a [`TaskGraph`] node by node — each node a closure that reads its
//! prerequisites' outputs and returns its own — then run it on any
//! executor: the work-stealing runtime, a baseline, or your own type
//! implementing [`Executor::submit`]. A graph runs as often as needed
//! ([`TaskGraph::run`], [`run_n`](TaskGraph::run_n),
//! [`run_until`](TaskGraph::run_until)); [`run_graph`] runs one once.
//!
//! # How a graph runs
//!
//! ```text
//!   caller                          executor threads
//!   ──────                          ────────────────
//!   submit the entries ───────────▶ run node A
//!   wait for the end                  store A's output
//!     (on a worker: run its own       count each dependent down; those at
//!      queued nodes meanwhile)        zero are ready: run the most preferred
//!                                     next, here, and submit the others
//!                                     (on the runtime: to this worker's deque)
//!                                   run node B ... and so on, until the run
//!   ◀──────────── the end ─────────── has no work left: the last one wakes
//!   outcome: every node's status      the caller
//! ```
//!
//! The thread that finishes a node releases its dependents itself: no
//! completion travels back to the caller, a chain of nodes is one job, and
//! the caller wakes once, at the end. Of the nodes a completion makes
//! ready, the one heading the longest path of remaining work runs next
//! ([`ReadyOrder::CriticalPath`], the default; costs from
//! [`TaskGraph::set_cost`] or measured by a timed run,
//! [`TaskGraph::record_timings`]). The protocol, why every job's pointers
//! stay valid, and how a node never runs twice at once: `run/RUN.md`
//! beside the sources; the loom models check its counters.
//!
//! What each executor gets: the work-stealing runtime (`rt_core::Runtime`)
//! takes the jobs a worker submits on that worker's deque, where idle
//! workers steal them, and a run started from one of its tasks runs the
//! nodes it queued while it waits, as a join does. Any other executor gets
//! one job per node that the releasing thread does not run itself, at the
//! node's priority; a thread of it that starts a run blocks until the end.
//! An executor that runs jobs inside `submit` runs the whole graph on the
//! caller's thread, with a bounded stack.
//!
//! # Node kinds
//!
//! * Tasks ([`TaskGraph::add_task`], [`add_task_after`](TaskGraph::add_task_after)):
//!   a closure, its output readable by its dependents ([`DependencyResults`]).
//! * Conditions ([`TaskGraph::add_condition`], [`TaskGraph::set_branches`]):
//!   the closure returns which branch starts next; branches may point back,
//!   which makes loops. A graph that could never finish is refused when it
//!   is built ([`GraphError::NeverRuns`]).
//! * Subgraphs ([`TaskGraph::add_subgraph`]): the closure adds nodes to a
//!   [`Subgraph`] while it runs; they finish before the node's dependents
//!   start, or, [detached](Subgraph::detach), by the end of the run.
//! * Graphs ([`TaskGraph::add_graph`]): another `TaskGraph` as one node.
//!
//! Any node but a graph node can be limited: at most `k` nodes of a
//! [`Limit`] run at once, the others waiting in its queue on no thread.
//! [`Pipeline`]s run a stream of items through serial and parallel stages,
//! at most `lines` items at once.
//!
//! # Failure semantics
//!
//! Every node ends each run with exactly one [`NodeStatus`], and a run
//! never panics or hangs because of a node: a panic is caught and skips
//! what depends on the node and nothing else; a job the executor refuses or
//! drops unrun is `Rejected`; cancellation ([`TaskGraph::run_cancellable`])
//! stops nodes from starting; a node that never ran says why (`Skipped`,
//! `Cancelled`, `NotReached`). Misuse is an error, never a panic:
//! [`GraphError`], [`DependencyError`], [`OutcomeError`]. The README's
//! table covers every kind of node.
//!
//! # From async code
//!
//! [`TaskGraph::run`] blocks its thread until the run ends: never call it on
//! an async runtime's thread. Await [`run_graph_async`] there instead: the
//! nodes are released where they finish as above, the ones a thread does not
//! run itself come back to the future, which submits them (waiting for room
//! in a full bounded queue without blocking its thread), and the run's end
//! wakes it.
//!
//! # Example
//!
//! ```
//! use rt_dag::{NodeStatus, TaskGraph};
//!
//! let rt = rt_core::Runtime::new(2).unwrap();
//! let mut graph = TaskGraph::new();
//! let left = graph.add_task(|_| 20_u32);
//! let right = graph.add_task(|_| 22_u32);
//! let sum = graph
//!     .add_task_after(&[left, right], move |deps| {
//!         deps.get::<u32>(left).unwrap() + deps.get::<u32>(right).unwrap()
//!     })
//!     .unwrap();
//! let report = graph
//!     .add_task_after(&[sum], move |deps| format!("answer: {}", deps.get::<u32>(sum).unwrap()))
//!     .unwrap();
//!
//! for _ in 0..3 {
//!     let mut outcome = graph.run(&rt);
//!     assert!(outcome.all_completed());
//!     assert_eq!(outcome.status(sum), Ok(&NodeStatus::Completed));
//!     assert_eq!(outcome.take::<String>(report).unwrap(), "answer: 42");
//! }
//! ```

// Where other crates' pages link to this one when this crate's pages are
// not beside theirs (docs.rs, or `cargo doc --no-deps`, which does not wait
// for them): without it such a link would be left unresolved.
#![doc(html_root_url = "https://docs.rs/rt-dag/latest")]
#![warn(missing_docs)]

mod error;
mod graph;
mod limit;
mod module;
mod node_id;
mod pipeline;
mod quiet;
mod release;
mod run;
mod status;
mod sync;

#[cfg(all(test, loom))]
mod loom_release;

pub use error::{DependencyError, GraphError, OutcomeError};
pub use graph::{NodeKind, ReadyOrder, ScopedGraph, Subgraph, TaskGraph};
pub use limit::Limit;
pub use module::Module;
pub use node_id::{GraphId, NodeId};
pub use pipeline::{Pipeline, PipelineError, PipelineReport, StageKind};
pub use run::{
    run_graph, run_graph_async, run_graph_cancellable, DependencyResults, GraphOutcome, NodeTiming,
    RunGraph,
};
pub use status::NodeStatus;

/// Re-exported so that users of this crate alone can name priorities,
/// tokens, and write or use an executor.
pub use rt_handle::{CancellationToken, Executor, Job};
pub use rt_queue::Priority;

/// The README's examples, compiled and run as doc tests so they stay true.
#[doc = include_str!("../README.md")]
#[cfg(doctest)]
pub struct ReadmeDoctests;
