//! Dependency graphs of tasks that run on any [`Executor`].
//!
//! Build a [`TaskGraph`] node by node — each node a closure that reads its
//! prerequisites' outputs and returns its own — then hand it to
//! [`run_graph`] with any executor: the work-stealing runtime, a baseline,
//! or your own type implementing [`Executor::submit`]. The same graph runs
//! unchanged on all of them.
//!
//! # How a graph runs
//!
//! ```text
//!   run_graph (calling thread)                 executor workers
//!   ──────────────────────────                 ────────────────
//!   submit every node without prerequisites ──▶ run node A: closure(&deps)
//!                                               store A's output in its slot
//!        ◀───────────── completion (A, Completed) ──┘  (crossbeam channel)
//!   A's dependents: one prerequisite fewer;
//!   those at zero are submitted  ─────────────▶ run node B, reading A's slot
//!        ◀───────────── completion (B, Panicked(msg)) ─┘
//!   B's dependents: Skipped, and theirs, ...
//!   ... until every node has a final status  ──▶ GraphOutcome
//! ```
//!
//! Completions flow back to the thread inside `run_graph`, which alone does
//! the bookkeeping (counts of unfinished prerequisites) and releases the
//! dependents. So a node's closure never needs the executor, the executor
//! need not be `'static`, and the per-node cost is one job allocation, one
//! output allocation (none for zero-sized outputs) and one channel message.
//! Outputs sit in write-once slots that any number of dependents read at the
//! same time; the channel hand-off orders every write before its readers.
//!
//! # From async code
//!
//! [`run_graph`] blocks its thread until every node is final: never call it
//! on an async runtime's thread. Await [`run_graph_async`] there instead: it
//! does the same bookkeeping inside `poll`, and each node's completion
//! wakes it. A node that finds the executor's bounded queue full waits in
//! the future, which the executor wakes when it has room
//! ([`Executor::try_submit`],
//! [`Executor::wake_when_capacity`]),
//! so the polling thread never blocks on a full queue either.
//!
//! # Failure semantics
//!
//! Every node ends with exactly one [`NodeStatus`]; only `Completed` and
//! `Panicked` nodes ran their closure, and each ran it exactly once.
//!
//! * **Panic.** A node that panics is `Panicked(message)`. The panic is
//!   caught on the worker; it never reaches the executor or the caller.
//!   Every node that depends on it, directly or through other nodes, is
//!   `Skipped` and never runs. Nodes that do not depend on it run to
//!   completion as usual.
//! * **Rejection.** If the executor refuses a job (it is shut down) or drops
//!   it without running it, the node is `Rejected` and its dependents are
//!   `Skipped`. `run_graph` never hangs on a shut-down executor.
//! * **Cancellation.** With [`run_graph_cancellable`], once the token is
//!   cancelled, nodes that have not started are `Cancelled` and never run,
//!   and so are their dependents. Running nodes finish (they can poll
//!   [`DependencyResults::is_cancelled`]). Failure wins over cancellation: a
//!   node downstream of a panicked or rejected node is `Skipped` even if the
//!   run was cancelled too.
//! * **Misuse is an error, never a panic.** A [`NodeId`] from another graph
//!   is [`GraphError::ForeignNode`] when adding a node and
//!   [`OutcomeError::ForeignNode`] when reading an outcome. Reading an output
//!   that is not a declared prerequisite, is of another type, did not
//!   complete or was already taken is an error naming the node and the
//!   requested type ([`DependencyError`], [`OutcomeError`]).
//!
//! # Example
//!
//! ```
//! use rt_dag::{run_graph, Executor, Job, NodeStatus, Priority, TaskGraph};
//!
//! /// A tiny executor: one OS thread per job.
//! struct ThreadPerJob;
//!
//! impl Executor for ThreadPerJob {
//!     fn submit(&self, _priority: Priority, job: Job) -> Result<(), Job> {
//!         std::thread::spawn(move || job.run());
//!         Ok(())
//!     }
//! }
//!
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
//! let mut outcome = run_graph(&ThreadPerJob, graph);
//! assert!(outcome.all_completed());
//! assert_eq!(outcome.status(sum), Ok(&NodeStatus::Completed));
//! assert_eq!(outcome.take::<String>(report).unwrap(), "answer: 42");
//! ```

// Where other crates' pages link to this one when this crate's pages are
// not beside theirs (docs.rs, or `cargo doc --no-deps`, which does not wait
// for them): without it such a link would be left unresolved.
#![doc(html_root_url = "https://docs.rs/rt-dag/latest")]
#![warn(missing_docs)]

mod dot;
mod error;
mod graph;
mod node_id;
mod outcome;
mod results;
mod run;
mod status;

pub use error::{DependencyError, GraphError, OutcomeError};
pub use graph::TaskGraph;
pub use node_id::{GraphId, NodeId};
pub use outcome::GraphOutcome;
pub use results::DependencyResults;
pub use run::{run_graph, run_graph_async, run_graph_cancellable, RunGraph};
pub use status::NodeStatus;

/// Re-exported so that users of this crate alone can name priorities,
/// tokens, and write or use an executor.
pub use rt_handle::{CancellationToken, Executor, Job};
pub use rt_queue::Priority;

/// The README's example, compiled and run as a doc test so it stays true.
#[doc = include_str!("../README.md")]
#[cfg(doctest)]
pub struct ReadmeDoctests;
