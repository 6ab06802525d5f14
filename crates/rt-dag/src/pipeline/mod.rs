//! Ordered pipelines: items from a source through serial and parallel
//! stages, at most `lines` at a time (`PIPELINE.md` beside this file).

mod schedule;
mod stage;

use std::fmt;
use std::sync::Arc;

use rt_handle::{CancellationToken, Executor};
use thiserror::Error;

pub use stage::StageKind;
use stage::{Map, ParallelFn, SerialFn, Slots, Source, Step};

/// A pipeline of stages over a stream of items, run on any executor
/// (oneTBB's `parallel_pipeline`, Taskflow's `Pipeline`).
///
/// The source ([`from_iter`](Self::from_iter) or
/// [`from_fn`](Self::from_fn)) produces items one at a time; each stage
/// ([`serial`](Self::serial) or [`parallel`](Self::parallel)) maps the
/// output of the previous one. A serial stage takes the items one at a
/// time, in the order the source produced them (so a serial last stage
/// sees every result in order); a parallel stage takes any number at once.
/// At most `lines` items are between the source and the end at any time:
/// memory stays bounded however long the stream. The last stage's outputs
/// are dropped ([`run`](Self::run)), or collected in order
/// ([`collect`](Self::collect)).
///
/// Closures may borrow from the caller: `run` returns only when the
/// pipeline is over. Each stage runs on the executor's threads, released
/// by the thread that finished what it waited for, which runs the item's
/// next stage itself.
///
/// ```
/// use rt_dag::Pipeline;
///
/// let rt = rt_core::Runtime::new(2).unwrap();
/// let mut written = Vec::new();
/// let report = Pipeline::from_iter(4, 0..100u32)
///     .parallel(|chunk| chunk * 2)          // compress, in parallel
///     .serial(|chunk| written.push(chunk))  // write, in order
///     .run(&rt)
///     .unwrap();
/// assert_eq!(report.items(), 100);
/// assert_eq!(written, (0..100).map(|x| x * 2).collect::<Vec<_>>());
/// ```
///
/// # Failures
///
/// A panic in a stage stops the pipeline: the items before the failed one
/// go on through every stage, the failed one and those after it start no
/// other stage, the source produces no more, and [`run`](Self::run) returns
/// [`PipelineError::Panicked`] naming the item (counted from 0 in the
/// source's order) and the stage (0 is the source, then the stages in the
/// order they were added), once nothing runs any more. Every item the
/// source produced is dropped exactly once: by the stage that consumed it,
/// or by the pipeline. Cancellation ([`run_cancellable`](Self::run_cancellable))
/// stops every item at its next stage. With a serial last stage, the items
/// it saw are exactly the first `completed` ones.
#[must_use = "a pipeline does nothing until it is run"]
pub struct Pipeline<'a, T> {
    lines: usize,
    /// The source first, then the stages.
    steps: Vec<Box<dyn Step + 'a>>,
    /// Where the last step puts its items.
    output: Arc<Slots<T>>,
}

impl<'a, T: Send + 'a> Pipeline<'a, T> {
    /// A pipeline of at most `lines` items at once over `items`.
    pub fn from_iter<I>(lines: usize, items: I) -> Self
    where
        I: IntoIterator<Item = T>,
        I::IntoIter: Send + 'a,
    {
        let mut items = items.into_iter();
        Self::from_fn(lines, move || items.next())
    }

    /// A pipeline of at most `lines` items at once over what `next`
    /// produces, until it returns `None`. `next` is called one item at a
    /// time, on the executor's threads.
    pub fn from_fn<F>(lines: usize, next: F) -> Self
    where
        F: FnMut() -> Option<T> + Send + 'a,
    {
        let output = Slots::new(lines);
        Self {
            lines,
            steps: vec![Box::new(Source::new(output.clone(), next))],
            output,
        }
    }

    /// Adds a serial stage: `f` maps one item at a time, in the order the
    /// source produced them.
    pub fn serial<U, F>(self, f: F) -> Pipeline<'a, U>
    where
        U: Send + 'a,
        F: FnMut(T) -> U + Send + 'a,
    {
        self.then(SerialFn::new(f))
    }

    /// Adds a parallel stage: `f` maps any number of items at once, in any
    /// order.
    pub fn parallel<U, F>(self, f: F) -> Pipeline<'a, U>
    where
        U: Send + 'a,
        F: Fn(T) -> U + Send + Sync + 'a,
    {
        self.then(ParallelFn(f))
    }

    fn then<U: Send + 'a, C: stage::Call<T, U> + 'a>(self, f: C) -> Pipeline<'a, U> {
        let Self {
            lines,
            mut steps,
            output,
        } = self;
        let next = Slots::new(lines);
        steps.push(Box::new(Map::new(output, next.clone(), f)));
        Pipeline {
            lines,
            steps,
            output: next,
        }
    }

    /// How many items may be in the pipeline at once.
    pub fn lines(&self) -> usize {
        self.lines
    }

    /// The kind of each stage, the source (serial) first.
    pub fn stages(&self) -> impl ExactSizeIterator<Item = StageKind> + '_ {
        self.steps.iter().map(|s| s.kind())
    }

    /// Runs the pipeline on `executor` until the source has no more items
    /// and every item went through every stage; the last stage's outputs
    /// are dropped. Blocks the calling thread meanwhile (on a worker of the
    /// work-stealing runtime it submits to, it helps run the stages).
    ///
    /// # Errors
    ///
    /// [`PipelineError::Panicked`] if a stage (or the source) panicked,
    /// [`PipelineError::Rejected`] if the executor refused a stage's job
    /// (it is shut down), [`PipelineError::ZeroLines`] for `lines == 0`.
    pub fn run<E: Executor + ?Sized>(self, executor: &E) -> Result<PipelineReport, PipelineError> {
        schedule::run(&self.steps, self.lines, &executor, None)
    }

    /// Like [`run`](Self::run), but every item stops at its next stage
    /// once `token` is cancelled, and the source produces no more.
    ///
    /// # Errors
    ///
    /// As [`run`](Self::run), and [`PipelineError::Cancelled`] if `token`
    /// was cancelled (a failure is reported instead if there was one).
    pub fn run_cancellable<E: Executor + ?Sized>(
        self,
        executor: &E,
        token: &CancellationToken,
    ) -> Result<PipelineReport, PipelineError> {
        schedule::run(&self.steps, self.lines, &executor, Some(token.clone()))
    }

    /// Runs the pipeline (as [`run`](Self::run)) and returns the last
    /// stage's outputs, in the order the source produced their items.
    ///
    /// ```
    /// use rt_dag::Pipeline;
    ///
    /// let rt = rt_core::Runtime::new(2).unwrap();
    /// let words = ["pipe", "lines", "keep", "order"];
    /// let lengths = Pipeline::from_iter(2, words)
    ///     .parallel(|word: &str| word.len())
    ///     .collect(&rt)
    ///     .unwrap();
    /// assert_eq!(lengths, [4, 5, 4, 5]);
    /// ```
    ///
    /// # Errors
    ///
    /// As [`run`](Self::run).
    pub fn collect<E: Executor + ?Sized>(self, executor: &E) -> Result<Vec<T>, PipelineError> {
        let mut out = Vec::new();
        self.serial(|item| out.push(item)).run(executor)?;
        Ok(out)
    }
}

impl<T> fmt::Debug for Pipeline<'_, T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Pipeline")
            .field("lines", &self.lines)
            .field(
                "stages",
                &self.steps.iter().map(|s| s.kind()).collect::<Vec<_>>(),
            )
            .finish()
    }
}

/// What a pipeline that ran to its end reports.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct PipelineReport {
    items: u64,
}

impl PipelineReport {
    /// How many items went through every stage: all the source produced.
    pub fn items(&self) -> u64 {
        self.items
    }
}

/// Why a pipeline stopped before its end.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[non_exhaustive]
pub enum PipelineError {
    /// A stage panicked on an item. Items are counted from 0 in the
    /// source's order; stage 0 is the source, then the stages in the order
    /// they were added. When several items failed, the first one.
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
    /// A pipeline needs at least one line.
    #[error("a pipeline needs at least one line")]
    ZeroLines,
}
