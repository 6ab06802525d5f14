//! Task graphs that run on any [`Executor`]: dependencies, conditions and
//! loops, subgraphs made while running, graphs inside graphs (owned, or
//! shared by reference), concurrency limits, and ordered pipelines.
//!
//! Build a [`TaskGraph`] node by node — each node a closure that reads its
//! prerequisites' outputs and returns its own — in any order, as Taskflow
//! builds one, then run it on any executor: the work-stealing runtime, a
//! baseline, or your own type implementing [`Executor::submit`]. A graph
//! runs as often as needed ([`TaskGraph::run`], [`run_n`](TaskGraph::run_n),
//! [`run_until`](TaskGraph::run_until)); [`run_graph`] runs one once. Its
//! closures are `'static`; a [`ScopedGraph`]'s borrow from the caller.
//!
//! # How a graph runs
//!
//! ```text
//!   caller                          executor threads
//!   ──────                          ────────────────
//!   submit the entries ───────────▶ run node A
//!   wait for the end                  store A's output
//!     (on a worker: run the run's     count each dependent down; those at
//!      nodes meanwhile)               zero are ready: run the most preferred
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
//! workers steal them; a run started from one of its tasks (or inside
//! `install`) puts its jobs within reach of the waiting worker, which runs
//! them while it waits, so that the run is as fast there as from `main`. Any other executor gets
//! one job per node that the releasing thread does not run itself, at the
//! node's priority; a thread of it that starts a run blocks until the end.
//! An executor that runs jobs inside `submit` runs the whole graph on the
//! caller's thread, with a bounded stack.
//!
//! # Node kinds
//!
//! * Tasks ([`TaskGraph::add_task`], [`add_task_after`](TaskGraph::add_task_after)):
//!   a closure, its output readable by its dependents ([`DependencyResults`]);
//!   fallible tasks ([`add_fallible_task`](TaskGraph::add_fallible_task))
//!   return a `Result`, whose error fails the node, kept typed
//!   ([`NodeError`]); run-once tasks
//!   ([`add_task_once`](TaskGraph::add_task_once)) take an `FnOnce`.
//! * Conditions ([`TaskGraph::add_condition`], [`TaskGraph::set_branches`]):
//!   the closure returns which branch starts next; branches may point back,
//!   which makes loops. A graph that could never finish is refused when it
//!   is built ([`GraphError::NeverRuns`]). Multi-conditions
//!   ([`add_multi_condition`](TaskGraph::add_multi_condition)) return
//!   several branches, which all start.
//! * Subgraphs ([`TaskGraph::add_subgraph`]): the closure adds nodes to a
//!   [`Subgraph`] while it runs; they finish before the node's dependents
//!   start, or, [detached](Subgraph::detach), by the end of the run.
//! * Graphs ([`TaskGraph::add_graph`]): another `TaskGraph` as one node.
//! * Pipelines ([`TaskGraph::add_pipeline`]): a [`Pipeline`] as one node.
//! * Modules ([`TaskGraph::add_module`]): a graph shared by reference
//!   ([`Module`], Taskflow's `composed_of`), run by nodes of several graphs
//!   and on its own, one run at a time.
//! * Placeholders ([`TaskGraph::add_placeholder`]): a node whose work is set
//!   later, once, and decides its kind.
//!
//! A node reaches the executor it runs on ([`DependencyResults::executor`])
//! to run a nested graph, pipeline or task from inside it.
//!
//! Tasks can also be added while others run, without a graph
//! ([`task_group`]): each starts as soon as the tasks it names have
//! finished (Taskflow's `async` and `dependent_async`); `group/GROUP.md`
//! has the protocol.
//!
//! Nodes are joined when they are added (the `_after` methods) or later,
//! in any order ([`precede`](TaskGraph::precede),
//! [`succeed`](TaskGraph::succeed),
//! [`remove_dependency`](TaskGraph::remove_dependency)); an edge that would
//! close a cycle is refused ([`GraphError::Cycle`]).
//!
//! Any node but a graph, module or pipeline node can be limited: it holds a
//! permit of each of its [`Limit`]s while it runs (at most `k` nodes of a
//! limit run at once, the others waiting in its queue on no thread), or
//! keeps one until a later node ran
//! ([`add_limit_until`](TaskGraph::add_limit_until), Taskflow's acquire on
//! one task and release on another).
//! [`Pipeline`]s run a stream of items through serial and parallel stages,
//! at most `lines` items at once; they run again ([`Pipeline::run_mut`],
//! their tokens counted over the runs), tell each stage its
//! [`StageContext`], take stages chosen at run time
//! ([`Pipeline::from_pipes`], [`Pipe`]), and run as a node of a graph
//! ([`TaskGraph::add_pipeline`]).
//!
//! ```
//! use rt_dag::{Pipe, Pipeline, PipelineReport, TaskGraph};
//!
//! let rt = rt_core::Runtime::new(2).unwrap();
//! let pipes = (0..3).map(|k| match k {
//!     0 => Pipe::serial(|ctx| if ctx.token() == 50 { ctx.stop() }),
//!     _ => Pipe::parallel(|ctx| assert_eq!(ctx.line() as u64, ctx.token() % 4)),
//! });
//! let mut graph = TaskGraph::new();
//! let stream = graph.add_pipeline(Pipeline::from_pipes(4, pipes.collect::<Vec<_>>()));
//! let outcome = graph.run(&rt);
//! assert_eq!(outcome.get::<PipelineReport>(stream).unwrap().items(), 50);
//! ```
//!
//! # Failure semantics
//!
//! Every node ends each run with exactly one [`NodeStatus`], and a run
//! never panics or hangs because of a node: a panic (`Panicked`) or a
//! fallible task's error (`Failed`) is caught and skips what depends on the
//! node and nothing else (each `Skipped` node names the prerequisite it was
//! skipped for, [`GraphOutcome::root_cause`] follows them to where the
//! failure started); a job the executor refuses or drops unrun is
//! `Rejected`; cancellation ([`TaskGraph::run_cancellable`]) stops nodes
//! from starting (a subgraph, graph or module node cancelled while its
//! inner graph runs is `SubgraphCancelled`: its closure ran, its
//! dependents are `Cancelled`); a node that never ran says why
//! (`Skipped`, `Cancelled`, `NotReached`), or that it could not
//! (`Invalid`: a placeholder whose work was never set, a run-once node run
//! again, a module node inside its own module's run). Misuse is an error,
//! never a panic or a hang: [`GraphError`], [`DependencyError`],
//! [`OutcomeError`]. [`NodeStatus`] and the README have the table of every
//! status, for every kind of node.
//!
//! # From async code
//!
//! [`TaskGraph::run`] blocks its thread until the run ends: never call it on
//! an async runtime's thread. Await [`run_graph_async`] there instead: the
//! nodes are released where they finish as above, the ones a thread does not
//! run itself come back to the future, which submits them (waiting for room
//! in a full bounded queue without blocking its thread), and the run's end
//! wakes it. Dropping the future before it resolves cancels the run.
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
//!
//! # Building in any order, placeholders
//!
//! Nodes first, edges afterwards, as Taskflow builds a graph; a
//! placeholder's work comes later still. One never given work does not
//! hang the run: it is `Invalid`, and what waits for it is skipped.
//!
//! ```
//! use rt_dag::{GraphError, NodeStatus, TaskGraph};
//!
//! let rt = rt_core::Runtime::new(2).unwrap();
//! let mut graph = TaskGraph::new();
//! let link = graph.add_task(|deps| deps.len());   // added first, runs last
//! let compile = graph.add_placeholder();
//! let fetch = graph.add_task(|_| ());
//! graph.precede(fetch, &[compile]).unwrap();
//! graph.succeed(link, &[compile]).unwrap();
//! assert_eq!(graph.precede(link, &[fetch]), Err(GraphError::Cycle { from: link.into(), to: fetch.into() }));
//! assert_eq!(graph.successors(fetch).unwrap().collect::<Vec<_>>(), [compile]);
//!
//! let outcome = graph.run(&rt);                      // `compile` has no work yet
//! assert_eq!(outcome.status(compile), Ok(&NodeStatus::Invalid(GraphError::NoWork { node: compile.into() })));
//! assert_eq!(outcome.status(link), Ok(&NodeStatus::Skipped { prerequisite: compile.into() }));
//! graph.set_task(compile, |_| "object").unwrap();
//! assert_eq!(graph.run(&rt).get::<usize>(link), Ok(&1));
//! ```
//!
//! # Modules: graphs shared by reference
//!
//! ```
//! use rt_dag::{GraphOutcome, Module, TaskGraph};
//!
//! let rt = rt_core::Runtime::new(2).unwrap();
//! let mut step = TaskGraph::new();
//! let mut calls = 0;
//! let node = step.add_task(move |_| { calls += 1; calls });
//! let step = Module::new(step);                      // one instance ...
//! let mut twice = TaskGraph::new();
//! let first = twice.add_module(&step).unwrap();      // ... in two places
//! let second = twice.add_module_after(&[first], &step).unwrap();
//! let outcome = twice.run(&rt);
//! assert_eq!(outcome.get::<GraphOutcome>(second).unwrap().get::<i32>(node), Ok(&2));
//! assert_eq!(step.run(&rt).unwrap().get::<i32>(node), Ok(&3)); // ... and on its own
//! ```
//!
//! # Multi-conditions
//!
//! ```
//! use rt_dag::{NodeStatus, TaskGraph};
//!
//! let rt = rt_core::Runtime::new(2).unwrap();
//! let mut graph = TaskGraph::new();
//! let pick = graph.add_multi_condition(|_| [0, 2]);  // both start
//! let [a, b, c] = [(); 3].map(|_| graph.add_task(|_| ()));
//! graph.set_branches(pick, &[a, b, c]).unwrap();
//! let outcome = graph.run(&rt);
//! assert_eq!(outcome.status(a), Ok(&NodeStatus::Completed));
//! assert_eq!(outcome.status(b), Ok(&NodeStatus::NotReached));
//! assert_eq!(outcome.status(c), Ok(&NodeStatus::Completed));
//! ```
//!
//! # Several limits, and a permit held from one node to another
//!
//! ```
//! use rt_dag::{Limit, TaskGraph};
//!
//! let rt = rt_core::Runtime::new(2).unwrap();
//! let (disk, in_flight) = (Limit::new(1).unwrap(), Limit::new(2).unwrap());
//! let mut graph = TaskGraph::new();
//! for _ in 0..6 {
//!     let read = graph.add_task(|_| ());
//!     let write = graph.add_task_after(&[read], |_| ()).unwrap();
//!     graph.add_limit(write, &disk).unwrap();                 // one writer at a time,
//!     graph.add_limit_until(read, &in_flight, write).unwrap(); // two items read, not written
//! }
//! assert!(graph.run(&rt).all_completed());
//! assert_eq!((disk.available(), in_flight.available()), (1, 2));
//! ```
//!
//! # Nodes that borrow, and `FnOnce` nodes
//!
//! ```
//! use rt_dag::ScopedGraph;
//!
//! let rt = rt_core::Runtime::new(2).unwrap();
//! let lines = vec!["a graph", "that borrows"];
//! let mut words = 0;
//! let mut graph = ScopedGraph::new();
//! let count = graph.add_task(|_| lines.iter().map(|l| l.split(' ').count()).sum::<usize>());
//! graph.add_task_once_after(&[count], |deps| words = *deps.get::<usize>(count).unwrap()).unwrap();
//! graph.run_once(&rt);                              // the borrows end here
//! assert_eq!(words, 4);
//! ```

// Where other crates' pages link to this one when this crate's pages are
// not beside theirs (docs.rs, or `cargo doc --no-deps`, which does not wait
// for them): without it such a link would be left unresolved.
#![doc(html_root_url = "https://docs.rs/rt-dag/latest")]
#![warn(missing_docs)]

mod error;
mod graph;
mod group;
mod limit;
mod module;
mod node_error;
mod node_id;
mod node_name;
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
pub use group::{task_group, TaskError, TaskGroup, TaskGroupError, TaskHandle, TaskId, TaskRef};
pub use limit::Limit;
pub use module::Module;
pub use node_error::NodeError;
pub use node_id::{GraphId, NodeId};
pub use node_name::NodeName;
pub use pipeline::{Pipe, Pipeline, PipelineError, PipelineReport, StageContext, StageKind};
pub use run::{
    run_graph, run_graph_async, run_graph_cancellable, DependencyResults, GraphOutcome, NodeTiming,
    RootCause, RunGraph,
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
