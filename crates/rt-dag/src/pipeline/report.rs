//! What a pipeline's run reports: how many items went through, or why it
//! stopped.

use thiserror::Error;

/// What a pipeline that ran to its end reports.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct PipelineReport {
    pub(crate) items: u64,
    pub(crate) tokens: u64,
}

impl PipelineReport {
    /// How many items went through every stage in this run: all the source
    /// produced.
    pub fn items(&self) -> u64 {
        self.items
    }

    /// How many items the source produced over every run of the pipeline
    /// since it was made or reset, this one included (Taskflow's
    /// `num_tokens`): [`Pipeline::tokens`](crate::Pipeline::tokens) after
    /// the run.
    pub fn tokens(&self) -> u64 {
        self.tokens
    }
}

/// Why a pipeline stopped before its end, or could not start.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[non_exhaustive]
pub enum PipelineError {
    /// A stage panicked on an item. Items are counted from 0 in the
    /// source's order, in each run; stage 0 is the source, then the stages
    /// in the order they were added. When several items failed, the first
    /// one.
    #[error("stage {stage} panicked on item {item}: {message} ({completed} items went through every stage)")]
    Panicked {
        /// The item.
        item: u64,
        /// The stage.
        stage: usize,
        /// The panic's message.
        message: String,
        /// Items that went through every stage.
        completed: u64,
    },
    /// The executor refused (or dropped) the job of a stage for an item:
    /// it is shut down. The pipeline stopped there as for a panic.
    #[error("the executor refused stage {stage} of item {item} ({completed} items went through every stage)")]
    Rejected {
        /// The item.
        item: u64,
        /// The stage.
        stage: usize,
        /// Items that went through every stage.
        completed: u64,
    },
    /// The run's token was cancelled.
    #[error("cancelled after {completed} items went through every stage")]
    Cancelled {
        /// Items that went through every stage.
        completed: u64,
    },
    /// A stage after the first called [`StageContext::stop`](crate::StageContext::stop),
    /// which only the first stage may: the pipeline stopped there as for a
    /// panic.
    #[error("stage {stage} called stop on item {item}, which only the first stage may ({completed} items went through every stage)")]
    StopOutsideTheFirstStage {
        /// The item.
        item: u64,
        /// The stage.
        stage: usize,
        /// Items that went through every stage.
        completed: u64,
    },
    /// A pipeline needs at least one line.
    #[error("a pipeline needs at least one line")]
    ZeroLines,
    /// More lines than a pipeline can have ([`Pipeline::MAX_LINES`](crate::Pipeline::MAX_LINES)).
    #[error("a pipeline has at most {max} lines, not {lines}", max = crate::Pipeline::<()>::MAX_LINES)]
    TooManyLines {
        /// The lines asked for.
        lines: usize,
    },
    /// A pipeline of pipes needs at least one pipe.
    #[error("a pipeline of pipes needs at least one pipe")]
    NoPipes,
    /// The first pipe produces the tokens in order: it must be serial.
    #[error("the first pipe of a pipeline must be serial")]
    FirstPipeParallel,
}
