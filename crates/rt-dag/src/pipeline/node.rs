//! A pipeline as a node of a [`TaskGraph`](crate::TaskGraph): its run
//! starts when the node runs, holds the node's unit of the graph's run,
//! and its end completes the node (`PIPELINE.md`, "A pipeline as a node").

use std::any::Any;

use rt_handle::CancellationToken;

use super::schedule::{self, NodeEnd, PipeEnd, StarterUnit};
use super::{Pipeline, PipelineError};
use crate::run::route::Launch;

/// A pipeline held by a graph node, its item type erased.
pub(crate) trait PipelineNode: Send {
    /// Starts a run of the pipeline for a graph node, whose unit of its
    /// graph's run the pipeline's run takes over: its jobs go out as the
    /// graph's do (`launch`), and its end completes the node (`end`).
    /// `Err` (the pipeline cannot run as it is) starts nothing: the unit
    /// stays the caller's. `Ok` hands back the run's starter unit, which
    /// the caller drops once this call's borrow of the pipeline is over
    /// (dropping it may end the run, and the graph's run with it).
    ///
    /// # Safety
    ///
    /// The caller runs the node's only activation, and holds the unit of
    /// the graph's run that `end` hands on, whose graph (holding this
    /// pipeline) stays borrowed until that run has ended.
    unsafe fn start(
        &mut self,
        launch: Launch,
        token: Option<CancellationToken>,
        end: NodeEnd,
    ) -> Result<StarterUnit, PipelineError>;

    /// The pipeline, for [`TaskGraph::pipeline_mut`](crate::TaskGraph::pipeline_mut).
    fn as_any_mut(&mut self) -> &mut dyn Any;
}

impl<T: Send + 'static> PipelineNode for Pipeline<'static, T> {
    unsafe fn start(
        &mut self,
        launch: Launch,
        token: Option<CancellationToken>,
        end: NodeEnd,
    ) -> Result<StarterUnit, PipelineError> {
        self.check()?;
        let first = self.tokens();
        let end = PipeEnd::Node(end);
        // SAFETY: the graph holding the pipeline, and the executor behind
        // `launch`, outlive the parent run, which cannot end before the
        // pipeline's run gives the node's unit back (the caller's contract).
        let started = unsafe { schedule::start(self.borrowed(), first, launch, token, end) };
        let (_run, starter) = started;
        Ok(starter)
    }

    fn as_any_mut(&mut self) -> &mut dyn Any {
        self
    }
}
