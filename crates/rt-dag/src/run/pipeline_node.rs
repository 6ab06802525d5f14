//! The end of a pipeline that ran as a node: the node completes (its
//! output the pipeline's report) or fails, and the graph's run goes on on
//! the thread that ended the pipeline (`../pipeline/PIPELINE.md`, "A
//! pipeline as a node").

use std::sync::Arc;

use super::completion::{complete, Ended, Taken};
use super::drive::continue_with;
use super::state::RunRef;
use rt_handle::PanicMessage;

use crate::{NodeError, NodeStatus, PipelineError, PipelineReport};

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
            Ended::Completed { taken: Taken::None }
        }
        Err(PipelineError::Cancelled { .. }) => Ended::Cancelled,
        Err(error) => Ended::Failed(pipeline_failure(error)),
    };
    if run.graph().meta[node].limited {
        // A permit held from a node before this one until it ran goes back.
        run.give_back_held_for(run.plan(), node);
    }
    run.note_end(node, run.started_at(node));
    let step = complete(run, run.graph(), run.plan(), parent, node, ended);
    continue_with(parent, step);
}

/// The node status of a pipeline node whose run failed: a stage's panic
/// is `Panicked` (its message, with the stage and item), a refusal
/// `Rejected`, a setup error (no lines, no pipes, ...) `Failed`.
pub(crate) fn pipeline_failure(error: PipelineError) -> NodeStatus {
    match error {
        PipelineError::Rejected { .. } => NodeStatus::Rejected,
        PipelineError::Panicked { .. } => {
            NodeStatus::Panicked(PanicMessage::from_payload(Box::new(error.to_string())))
        }
        other => NodeStatus::Failed(NodeError::new(other)),
    }
}
