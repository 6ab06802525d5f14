//! Task graphs that run on any [`Executor`]. (Crate documentation: see
//! the README.)

#![doc(html_root_url = "https://docs.rs/rt-dag/latest")]
#![warn(missing_docs)]

mod error;
mod graph;
mod limit;
mod node_id;
mod pipeline;
mod quiet;
mod run;
mod status;
mod sync;

pub use error::{DependencyError, GraphError, OutcomeError};
pub use graph::{NodeKind, TaskGraph};
pub use limit::Limit;
pub use node_id::{GraphId, NodeId};
pub use pipeline::{Pipeline, PipelineError, PipelineReport, StageKind};
pub use run::{
    run_graph, run_graph_async, run_graph_cancellable, DependencyResults, GraphOutcome,
    NodeTiming, ReadyOrder, RunGraph, Subgraph,
};
pub use status::NodeStatus;

/// Re-exported so that users of this crate alone can name priorities,
/// tokens, and write or use an executor.
pub use rt_handle::{CancellationToken, Executor, Job};
pub use rt_queue::Priority;

/// The README's example, compiled and run as a doc test so it stays true.
#[doc = include_str!("../README.md")]
#[cfg(doctest)]
pub struct ReadmeDoctests;
