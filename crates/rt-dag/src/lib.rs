// The crate's documentation, in `lib.md`: the facade (`rt::dag`) shows the
// same page.
#![doc = include_str!("lib.md")]
// Where other crates' pages link to this one when this crate's pages are
// not beside theirs (docs.rs, or `cargo doc --no-deps`, which does not wait
// for them): without it such a link would be left unresolved.
#![doc(html_root_url = "https://docs.rs/rt-dag/latest")]
#![warn(missing_docs)]

mod error;
mod graph;
mod graph_error;
mod group;
mod limit;
mod module;
mod node_error;
mod node_id;
mod node_name;
mod pipeline;
mod release;
mod run;
mod status;
mod sync;

#[cfg(all(test, loom))]
mod loom_release;

pub use error::{DependencyError, OutcomeError};
pub use graph::{NodeKind, ReadyOrder, ScopedGraph, Subgraph, TaskGraph};
pub use graph_error::GraphError;
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
