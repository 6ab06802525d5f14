//! Ordered pipelines: items from a source through serial and parallel
//! stages, at most `lines` at a time (`PIPELINE.md` beside this file).

mod context;
mod lines;
mod node;
mod pipe;
mod report;
mod schedule;
mod stage;

use std::fmt;
use std::sync::atomic::AtomicU64;
use std::sync::Arc;

use rt_handle::{CancellationToken, Executor};

pub use context::StageContext;
pub(crate) use node::PipelineNode;
pub use pipe::Pipe;
pub use report::{PipelineError, PipelineReport};
use schedule::{Borrowed, LineStates};
pub(crate) use schedule::{NodeEnd, PipeEnd};
pub use stage::StageKind;
use stage::{Map, ParallelFn, SerialFn, Slots, Source, Stage};

use crate::run::launch::ExecutorPtr;
use crate::run::route::Launch;
use crate::run::wait;
use crate::sync::Ordering;
use rt_handle::raw::drop_quietly;

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
    stages: Vec<Box<dyn Stage + 'a>>,
    /// Where the last stage puts its items.
    output: Arc<Slots<T>>,
    /// The lines' counters, kept between runs, made as lines come into use.
    state: LineStates,
    /// Items the source produced over every run since it was made or reset.
    tokens: AtomicU64,
    /// Why it cannot run, when it was built wrong (pipes).
    misuse: Option<PipelineError>,
}

impl<'a, T: Send + 'a> Pipeline<'a, T> {
    /// The most lines a pipeline may have. Lines are set up as items come
    /// to them, so a pipeline of many more lines than items costs no more
    /// than one of as many lines as items.
    pub const MAX_LINES: usize = u32::MAX as usize;

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
    pub fn from_fn<F>(lines: usize, mut next: F) -> Self
    where
        F: FnMut() -> Option<T> + Send + 'a,
    {
        Self::from_fn_with_context(lines, move |_| next())
    }

    /// Like [`from_fn`](Self::from_fn), with the call's [`StageContext`]:
    /// the item's line and token. The stream ends when `next` returns
    /// `None` or calls [`StageContext::stop`] (then what it returns is
    /// dropped).
    ///
    /// ```
    /// use rt_dag::Pipeline;
    ///
    /// let rt = rt_core::Runtime::new(2).unwrap();
    /// let squares = Pipeline::from_fn_with_context(3, |ctx| {
    ///     if ctx.token() == 4 {
    ///         ctx.stop();
    ///     }
    ///     Some(ctx.token() * ctx.token())
    /// })
    /// .collect(&rt)
    /// .unwrap();
    /// assert_eq!(squares, [0, 1, 4, 9]);
    /// ```
    pub fn from_fn_with_context<F>(lines: usize, next: F) -> Self
    where
        F: FnMut(&mut StageContext) -> Option<T> + Send + 'a,
    {
        let output = Slots::new();
        Self {
            lines,
            stages: vec![Box::new(Source::new(output.clone(), next))],
            output,
            state: LineStates::new(1),
            tokens: AtomicU64::new(0),
            misuse: None,
        }
    }

    /// Adds a serial stage: `f` maps one item at a time, in the order the
    /// source produced them.
    pub fn serial<U, F>(self, mut f: F) -> Pipeline<'a, U>
    where
        U: Send + 'a,
        F: FnMut(T) -> U + Send + 'a,
    {
        self.then(SerialFn::new(move |item, _: &mut StageContext| f(item)))
    }

    /// Adds a parallel stage: `f` maps any number of items at once, in any
    /// order.
    pub fn parallel<U, F>(self, f: F) -> Pipeline<'a, U>
    where
        U: Send + 'a,
        F: Fn(T) -> U + Send + Sync + 'a,
    {
        self.then(ParallelFn(move |item, _: &mut StageContext| f(item)))
    }

    /// Like [`serial`](Self::serial), with the call's [`StageContext`]
    /// (the item's line and token, the stage's index).
    ///
    /// ```
    /// use rt_dag::Pipeline;
    ///
    /// let rt = rt_core::Runtime::new(2).unwrap();
    /// let tagged = Pipeline::from_iter(2, ["a", "b", "c"])
    ///     .serial_with_context(|s, ctx| format!("{s}{}@{}", ctx.token(), ctx.pipe()))
    ///     .collect(&rt)
    ///     .unwrap();
    /// assert_eq!(tagged, ["a0@1", "b1@1", "c2@1"]);
    /// ```
    pub fn serial_with_context<U, F>(self, mut f: F) -> Pipeline<'a, U>
    where
        U: Send + 'a,
        F: FnMut(T, &StageContext) -> U + Send + 'a,
    {
        self.then(SerialFn::new(move |item, ctx: &mut StageContext| {
            f(item, ctx)
        }))
    }

    /// Like [`parallel`](Self::parallel), with the call's [`StageContext`].
    pub fn parallel_with_context<U, F>(self, f: F) -> Pipeline<'a, U>
    where
        U: Send + 'a,
        F: Fn(T, &StageContext) -> U + Send + Sync + 'a,
    {
        self.then(ParallelFn(move |item, ctx: &mut StageContext| f(item, ctx)))
    }

    fn then<U: Send + 'a, C: stage::Call<T, U> + 'a>(self, f: C) -> Pipeline<'a, U> {
        let Self {
            lines,
            mut stages,
            output,
            tokens,
            misuse,
            ..
        } = self;
        let next = Slots::new();
        stages.push(Box::new(Map::new(output, next.clone(), f)));
        Pipeline {
            lines,
            state: LineStates::new(stages.len()),
            stages,
            output: next,
            tokens,
            misuse,
        }
    }

    /// How many items may be in the pipeline at once.
    pub fn lines(&self) -> usize {
        self.lines
    }

    /// Sets how many items may be in the pipeline at once, for the runs to
    /// come (Taskflow's `reset(lines, ..)`); the tokens go on counting.
    /// Checked when it runs ([`PipelineError::ZeroLines`],
    /// [`PipelineError::TooManyLines`]).
    pub fn set_lines(&mut self, lines: usize) {
        self.lines = lines;
        self.state = LineStates::new(self.stages.len());
    }

    /// The kind of each stage, the source (serial) first.
    pub fn stages(&self) -> impl ExactSizeIterator<Item = StageKind> + '_ {
        self.stages.iter().map(|s| s.kind())
    }

    /// How many items the source produced over every run since the
    /// pipeline was made or [`reset`](Self::reset) (Taskflow's
    /// `num_tokens`): the token the next item gets.
    pub fn tokens(&self) -> u64 {
        self.tokens.load(Ordering::Relaxed)
    }

    /// Counts the tokens from 0 again (Taskflow's `reset()`): the next item
    /// gets token 0, on line 0.
    pub fn reset(&mut self) {
        *self.tokens.get_mut() = 0;
    }

    /// Runs the pipeline on `executor` until the source has no more items
    /// and every item went through every stage; the last stage's outputs
    /// are dropped. Blocks the calling thread meanwhile (on a worker of the
    /// work-stealing runtime it submits to, it works on the pipeline).
    /// The pipeline is dropped at the end (a panic in dropping a stage's
    /// captures is contained); to run it again, use
    /// [`run_mut`](Self::run_mut).
    ///
    /// # Errors
    ///
    /// [`PipelineError::Panicked`] if a stage (or the source) panicked,
    /// [`PipelineError::Rejected`] if the executor refused a stage's job
    /// (it is shut down), [`PipelineError::ZeroLines`] for `lines == 0`,
    /// [`PipelineError::TooManyLines`] past [`MAX_LINES`](Self::MAX_LINES).
    pub fn run<E: Executor + ?Sized>(self, executor: &E) -> Result<PipelineReport, PipelineError> {
        let mut this = self;
        let result = this.run_blocking(&executor, None);
        drop_quietly(this);
        result
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
        let mut this = self;
        let result = this.run_blocking(&executor, Some(token.clone()));
        drop_quietly(this);
        result
    }

    /// Runs the pipeline as [`run`](Self::run) does, and keeps it: run it
    /// again as often as needed. Each run goes on from the source's state
    /// (an iterator goes on where it stopped; a closure keeps its state),
    /// and the tokens go on counting ([`tokens`](Self::tokens)).
    ///
    /// ```
    /// use rt_dag::Pipeline;
    ///
    /// let rt = rt_core::Runtime::new(2).unwrap();
    /// let mut batch = 0;
    /// let mut pipeline = Pipeline::from_fn_with_context(4, move |ctx| {
    ///     if ctx.token() == 10 * (batch + 1) {
    ///         batch += 1; // ten items a run
    ///         return None;
    ///     }
    ///     Some(ctx.token())
    /// })
    /// .parallel(|token| token * 2);
    /// for run in 1..=3 {
    ///     let report = pipeline.run_mut(&rt).unwrap();
    ///     assert_eq!(report.items(), 10);
    ///     assert_eq!(report.tokens(), 10 * run);
    /// }
    /// assert_eq!(pipeline.tokens(), 30);
    /// ```
    ///
    /// # Errors
    ///
    /// As [`run`](Self::run).
    pub fn run_mut<E: Executor + ?Sized>(
        &mut self,
        executor: &E,
    ) -> Result<PipelineReport, PipelineError> {
        self.run_blocking(&executor, None)
    }

    /// Like [`run_mut`](Self::run_mut), stopping as
    /// [`run_cancellable`](Self::run_cancellable) does.
    ///
    /// # Errors
    ///
    /// As [`run_cancellable`](Self::run_cancellable).
    pub fn run_mut_cancellable<E: Executor + ?Sized>(
        &mut self,
        executor: &E,
        token: &CancellationToken,
    ) -> Result<PipelineReport, PipelineError> {
        self.run_blocking(&executor, Some(token.clone()))
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

    /// Why the pipeline cannot run as it is, if it cannot.
    fn check(&self) -> Result<(), PipelineError> {
        if let Some(misuse) = &self.misuse {
            return Err(misuse.clone());
        }
        match self.lines {
            0 => Err(PipelineError::ZeroLines),
            lines if lines > Self::MAX_LINES => Err(PipelineError::TooManyLines { lines }),
            _ => Ok(()),
        }
    }

    /// What a run borrows of the pipeline.
    fn borrowed(&self) -> Borrowed {
        let stages: *const [Box<dyn Stage + 'a>] = self.stages.as_slice();
        Borrowed {
            // A cast, not a transmute: a slice pointer's metadata is its
            // length, whatever the element type. The run reads the stages
            // only through `Schedule::stages`, while the pipeline is
            // borrowed for `'a` (`Borrowed`).
            // (Not unnecessary, whatever clippy says: it ignores that the
            // two types differ in the trait objects' lifetime bound.)
            #[allow(clippy::unnecessary_cast)]
            stages: stages as *const [Box<dyn Stage + 'static>],
            state: &self.state,
            tokens: &self.tokens,
            lines: self.lines,
        }
    }

    /// One run, waited for by this thread.
    fn run_blocking(
        &mut self,
        executor: &dyn Executor,
        token: Option<CancellationToken>,
    ) -> Result<PipelineReport, PipelineError> {
        self.check()?;
        // SAFETY: the executor is borrowed, and `executor` (the reference
        // the pointer points at) kept in this frame, until the run has
        // ended: the wait below returns only then.
        let executor = unsafe { ExecutorPtr::new(&executor) };
        let desk = wait::desk_for_this_thread(executor).map(Arc::new);
        let launch = match &desk {
            Some(desk) => Launch::Helped(desk.clone()),
            None => Launch::Executor(executor),
        };
        let first = self.tokens();
        let end = PipeEnd::Signal(crate::release::EndSignal::new());
        // SAFETY: the pipeline is borrowed exclusively, and the executor
        // kept alive, until the run has ended (the wait below); `start`
        // never unwinds (a panicking `submit` is contained).
        let (run, starter) = unsafe { schedule::start(self.borrowed(), first, launch, token, end) };
        drop(starter);
        wait::wait(run.end_signal(), desk.as_deref());
        run.report()
    }
}

impl<'a> Pipeline<'a, ()> {
    /// A pipeline of pipes chosen at run time (Taskflow's
    /// `ScalablePipeline`): stages that carry no data, each a closure of
    /// its [`StageContext`]. The first pipe is the source: it must be
    /// serial, and it ends the stream with [`StageContext::stop`]. Data
    /// goes through buffers indexed by [`StageContext::line`], which one
    /// item at a time uses.
    ///
    /// ```
    /// use std::sync::Mutex;
    /// use rt_dag::{Pipe, Pipeline};
    ///
    /// let rt = rt_core::Runtime::new(2).unwrap();
    /// let lines = 4;
    /// let buffers: Vec<Mutex<u64>> = (0..lines).map(|_| Mutex::new(0)).collect();
    /// let mut pipes = vec![Pipe::serial(|ctx| {
    ///     if ctx.token() == 100 {
    ///         ctx.stop();
    ///     } else {
    ///         *buffers[ctx.line()].lock().unwrap() = ctx.token();
    ///     }
    /// })];
    /// let stages = 3; // chosen at run time
    /// for _ in 0..stages {
    ///     pipes.push(Pipe::parallel(|ctx| *buffers[ctx.line()].lock().unwrap() += 1));
    /// }
    /// let mut total = 0;
    /// pipes.push(Pipe::serial(|ctx| total += *buffers[ctx.line()].lock().unwrap()));
    /// let report = Pipeline::from_pipes(lines, pipes).run(&rt).unwrap();
    /// assert_eq!(report.items(), 100);
    /// assert_eq!(total, (0..100).sum::<u64>() + 3 * 100);
    /// ```
    pub fn from_pipes(lines: usize, pipes: impl IntoIterator<Item = Pipe<'a>>) -> Self {
        let mut pipeline = Self::from_fn_with_context(lines, |_| None);
        pipeline.set_pipes(pipes);
        pipeline
    }

    /// Replaces every stage, the source included, with `pipes`, for the
    /// runs to come (Taskflow's `ScalablePipeline::reset(first, last)`);
    /// the lines and the tokens stay.
    pub fn set_pipes(&mut self, pipes: impl IntoIterator<Item = Pipe<'a>>) {
        let mut pipes = pipes.into_iter();
        let (misuse, first) = match pipes.next() {
            None => (Some(PipelineError::NoPipes), None),
            Some(first) if first.kind() == StageKind::Parallel => {
                (Some(PipelineError::FirstPipeParallel), Some(first))
            }
            Some(first) => (None, Some(first)),
        };
        let output = Slots::new();
        let mut stages: Vec<Box<dyn Stage + 'a>> = Vec::new();
        if let Some(mut first) = first {
            stages.push(Box::new(Source::new(
                output.clone(),
                move |ctx: &mut StageContext| {
                    first.call_mut(ctx);
                    Some(())
                },
            )));
        }
        let mut output = output;
        for pipe in pipes {
            let next = Slots::new();
            stages.push(Box::new(Map::new(output, next.clone(), pipe)));
            output = next;
        }
        let old = std::mem::replace(&mut self.stages, stages);
        drop_quietly(old);
        self.output = output;
        self.state = LineStates::new(self.stages.len());
        self.misuse = misuse;
    }
}

impl<T> fmt::Debug for Pipeline<'_, T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Pipeline")
            .field("lines", &self.lines)
            .field(
                "stages",
                &self.stages.iter().map(|s| s.kind()).collect::<Vec<_>>(),
            )
            .finish()
    }
}
