//! What a stage is told about the call it is in (Taskflow's `Pipeflow`).

/// Where a stage's call is: the line that carries the item, the item's
/// token, and the stage (pipe) — and, for the first stage, a way to end
/// the stream ([`stop`](Self::stop)).
///
/// Tokens count the items the first stage produced, from 0, over every run
/// of the pipeline since it was made or [`reset`](crate::Pipeline::reset);
/// token `t` travels on line `t % lines`, so that per-line buffers indexed
/// by [`line`](Self::line) are touched by one item at a time.
///
/// ```
/// use rt_dag::{Pipe, Pipeline};
///
/// let rt = rt_core::Runtime::new(2).unwrap();
/// let mut pipeline = Pipeline::from_pipes(
///     2,
///     vec![
///         Pipe::serial(|ctx| {
///             if ctx.token() == 5 {
///                 ctx.stop(); // the first stage ends the stream
///             }
///         }),
///         Pipe::parallel(|ctx| assert_eq!(ctx.line() as u64, ctx.token() % 2)),
///     ],
/// );
/// assert_eq!(pipeline.run_mut(&rt).unwrap().items(), 5);
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StageContext {
    line: usize,
    token: u64,
    pipe: usize,
    stop: bool,
}

impl StageContext {
    pub(crate) fn new(line: usize, token: u64, pipe: usize) -> Self {
        Self {
            line,
            token,
            pipe,
            stop: false,
        }
    }

    /// The line that carries the item: `token() % lines`.
    pub fn line(&self) -> usize {
        self.line
    }

    /// The item's token: its index in the order the first stage produced
    /// the items, counted over every run since the pipeline was made or
    /// reset.
    pub fn token(&self) -> u64 {
        self.token
    }

    /// The stage (Taskflow's pipe): 0 is the first stage (the source), then
    /// the stages in the order they were added.
    pub fn pipe(&self) -> usize {
        self.pipe
    }

    /// Ends the stream: called in the first stage, no item is produced
    /// from this call (the value it returns, if any, is dropped) nor after
    /// it, and the run ends once the items before it are through. Called in
    /// a later stage it is misuse: the run stops there and reports
    /// [`PipelineError::StopOutsideTheFirstStage`](crate::PipelineError::StopOutsideTheFirstStage).
    pub fn stop(&mut self) {
        self.stop = true;
    }

    /// Whether [`stop`](Self::stop) was called.
    pub fn is_stopped(&self) -> bool {
        self.stop
    }
}
