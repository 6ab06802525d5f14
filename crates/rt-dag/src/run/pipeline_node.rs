//! The end of a pipeline that ran as a node: the node completes (its
//! output the pipeline's report) or fails, and the graph's run goes on on
//! the thread that ended the pipeline (`../pipeline/PIPELINE.md`, "A
//! pipeline as a node").

use std::sync::Arc;

use super::completion::{complete, Ended};
use super::drive::continue_with;
use super::state::RunRef;
use crate::{NodeStatus, PipelineError, PipelineReport};

/// Ends the activation of pipeline node `node` of `parent`, whose unit the
/// caller holds (the pipeline's run held it), with what the pipeline's run
/// came to; then runs what that makes ready for this thread.
pub(crate) fn finish_pipeline_node(
    parent: RunRef,
    node: u32,
    result: Result<PipelineReport, PipelineError>,
) {
    // SAFETY: the caller holds the node's unit of `parent`.
    let run = unsafe { parent.get() };
    let node = node as usize;
    let ended = match result {
        Ok(report) => {
            run.store_output(node, Arc::new(report));
            Ended::Completed { branch: None }
        }
        Err(PipelineError::Cancelled { .. }) => Ended::Cancelled,
        Err(PipelineError::Rejected { .. }) => Ended::Failed(NodeStatus::Rejected),
        Err(error) => Ended::Failed(NodeStatus::Panicked(error.to_string())),
    };
    run.note_end(node, run.started_at(node));
    let step = complete(run, run.graph(), run.plan(), parent, node, ended);
    continue_with(parent, step);
}
