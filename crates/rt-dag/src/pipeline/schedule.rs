//! Running a pipeline: a counter per (line, stage) that releases the stage
//! of the item a line carries, on the thread that finished what it waited
//! for (`PIPELINE.md`).

use std::mem::ManuallyDrop;
use std::sync::atomic::{AtomicU64, AtomicUsize};
use std::sync::{Arc, Mutex};

use rt_handle::CancellationToken;
use rt_queue::Priority;

use super::context::StageContext;
use super::lines::LineTable;
use super::report::{PipelineError, PipelineReport};
use super::stage::{Stage, StageError, StageKind};
use crate::release::{EndSignal, JoinCounter, Pending};
use crate::run::launch;
use crate::run::route::Launch;
use crate::run::unit::UnitRef;
use crate::sync::Ordering;
use rt_handle::raw::drop_quietly;

/// Items not stopped: every token is below this.
const NO_STOP: u64 = u64::MAX;

/// What a pipeline keeps of its lines between runs: a counter per (line,
/// stage) and the token each line carries, made as lines come into use.
pub(crate) struct LineStates {
    stages: usize,
    /// `counters[line * stages + stage]`: what the stage of the item on
    /// `line` still waits for.
    counters: LineTable<JoinCounter>,
    /// The token each line carries.
    items: LineTable<AtomicU64>,
}

impl LineStates {
    pub(crate) fn new(stages: usize) -> Self {
        Self {
            stages,
            counters: LineTable::new(),
            items: LineTable::new(),
        }
    }
}

/// What stopped the pipeline at its lowest item.
enum Failure {
    Panicked(String),
    /// A job the executor refused or dropped.
    Rejected,
    StoppedLate,
}

/// What the end of a run does.
pub(crate) enum PipeEnd {
    /// Tells the caller waiting for it.
    Signal(EndSignal),
    /// Completes the graph node the pipeline is, whose unit of its graph's
    /// run the pipeline's run holds, and goes on with that run on this
    /// thread.
    Node(NodeEnd),
}

/// How a pipeline that is a graph node reports its end: made by the
/// graph's run (`run/lifecycle.rs`), which alone knows its own type, so
/// that a pipeline knows nothing of graphs.
#[derive(Clone, Copy)]
pub(crate) struct NodeEnd {
    /// The graph's run, erased.
    pub(crate) parent: *const (),
    /// The node this pipeline is.
    pub(crate) node: u32,
    /// Completes node `node` of the run `parent` with the pipeline's
    /// result, and goes on with that run on this thread.
    ///
    /// # Safety
    ///
    /// Called once, by the pipeline run's last unit, with the `parent` and
    /// `node` it was made with: that unit is the node's unit of `parent`,
    /// handed on to `finish`.
    pub(crate) finish: unsafe fn(*const (), u32, Result<PipelineReport, PipelineError>),
}

// SAFETY: `parent` is a graph's run, which is `Sync`, reached only by the
// unit that ends the pipeline's run (`finish`'s contract).
unsafe impl Send for NodeEnd {}
// SAFETY: as above.
unsafe impl Sync for NodeEnd {}

/// What a run borrows of its pipeline, as raw pointers without lifetimes:
/// the pipeline is borrowed (or, as a node, held by a graph borrowed by its
/// run) until the run's last unit is given back. `stages` says `'static`
/// only because a field needs some bound; the stages live for the
/// pipeline's `'a`, and are read only through `PipeRun::all_stages`, with
/// the lifetime of a borrow of the run.
pub(crate) struct Borrowed {
    pub(crate) stages: *const [Box<dyn Stage + 'static>],
    pub(crate) state: *const LineStates,
    pub(crate) tokens: *const AtomicU64,
    pub(crate) lines: usize,
}

/// One run of a pipeline.
pub(crate) struct PipeRun {
    borrowed: Borrowed,
    kinds: Box<[StageKind]>,
    /// The run's first token, and the line it travels on.
    first_token: u64,
    first_line: usize,
    /// Lines set up for this run (only the source task and the starter
    /// before it touch it).
    lines_ready: AtomicUsize,
    /// The token of the next item the source produces (the source is
    /// serial: one task at a time touches it).
    next_item: AtomicU64,
    /// Tokens from this one on do not start another stage.
    stop_at: AtomicU64,
    /// Items that went through every stage.
    completed: AtomicU64,
    /// The lowest token that failed, and at which stage.
    failure: Mutex<Option<(u64, usize, Failure)>>,
    token: Option<CancellationToken>,
    launch: Launch,
    pending: Pending,
    end: PipeEnd,
}

// SAFETY: shared state is atomic or behind a mutex; the stages are `Sync`
// (each documents why), and the borrowed parts are only used by holders of
// a unit, as documented on `Borrowed`.
unsafe impl Send for PipeRun {}
// SAFETY: as above.
unsafe impl Sync for PipeRun {}

/// A pointer to a run, valid while its holder holds a unit (the run keeps
/// a reference to itself until its last unit is given back): the same
/// self-owning handle as a graph's run's.
type PipeRef = UnitRef<PipeRun>;

/// Starts a run of the pipeline `borrowed` (checked: lines in range, at
/// least one stage) from token `first_token`, its jobs going out through
/// `launch`; `end` says what its end does. Returns the run, for a caller
/// that waits on its signal.
///
/// # Safety
///
/// The caller keeps what `borrowed` points to, and every executor behind
/// `launch`, alive and unused otherwise until the run has ended, even when
/// unwinding.
pub(crate) unsafe fn start(
    borrowed: Borrowed,
    first_token: u64,
    launch: Launch,
    token: Option<CancellationToken>,
    end: PipeEnd,
) -> (Arc<PipeRun>, StarterUnit) {
    // SAFETY: alive for the run (the caller's contract).
    let stages = unsafe { &*borrowed.stages };
    let lines = borrowed.lines;
    let first_line = (first_token % lines as u64) as usize;
    let run = Arc::new(PipeRun {
        kinds: stages.iter().map(|s| s.kind()).collect(),
        borrowed,
        first_token,
        first_line,
        lines_ready: AtomicUsize::new(0),
        next_item: AtomicU64::new(first_token),
        stop_at: AtomicU64::new(NO_STOP),
        completed: AtomicU64::new(0),
        failure: Mutex::new(None),
        token,
        launch,
        pending: Pending::new(),
        end,
    });
    // The lines earlier runs set up are armed for this one; the first
    // item's line, and the next, are set up.
    let state = run.state();
    for (i, counter) in state.counters.iter().enumerate() {
        let (line, stage) = (i / state.stages, i % state.stages);
        counter.reset(run.first_wait(line, stage));
    }
    run.set_up_lines(first_line);
    let me = PipeRef::hold(&run);
    // The first item's source task; the starter's unit stays the
    // caller's.
    run.pending.add(1);
    PipeTask {
        run: me,
        line: first_line as u32,
        stage: 0,
    }
    .submit();
    (run, StarterUnit(me))
}

/// The unit of a pipeline's run that its starter holds: given back when
/// dropped, which may end the run there and then (every other unit came
/// back already), and with it a graph node's activation, which goes on
/// with the graph's run. So the starter drops it only once it borrows
/// nothing that run may free (for a node, once `PipelineNode::start` has
/// returned).
pub(crate) struct StarterUnit(PipeRef);

impl Drop for StarterUnit {
    fn drop(&mut self) {
        finish_unit(self.0);
    }
}

/// What the stage of every later item on a line waits for: the previous
/// stage (or, for the source, the line to be free), and, for a serial stage,
/// the previous item.
fn steady_wait(kind: StageKind) -> u32 {
    1 + u32::from(kind == StageKind::Serial)
}

impl PipeRun {
    /// The stages, with the lifetime of this borrow of the run rather than
    /// the `'static` their pointer's type spells (`Borrowed`).
    fn all_stages(&self) -> &[Box<dyn Stage + '_>] {
        // SAFETY: the stages outlive the run (`Borrowed`), and so this
        // borrow of it; the `'static` shortens to it (covariance).
        unsafe { &*self.borrowed.stages }
    }

    fn state(&self) -> &LineStates {
        // SAFETY: as above.
        unsafe { &*self.borrowed.state }
    }

    fn lines(&self) -> usize {
        self.borrowed.lines
    }

    fn stages(&self) -> usize {
        self.kinds.len()
    }

    /// The signal of a run a caller waits for.
    pub(crate) fn end_signal(&self) -> &EndSignal {
        match &self.end {
            PipeEnd::Signal(signal) => signal,
            PipeEnd::Node(_) => unreachable!("a node's pipeline is waited for by nobody"),
        }
    }

    /// What the stage of this run's first item on `line` waits for: the
    /// previous stage of the same item, and, for a serial stage, the
    /// previous item (none for the run's first item); a source waits for
    /// the previous item only.
    fn first_wait(&self, line: usize, stage: usize) -> u32 {
        let serial = stage < self.stages() && self.kinds[stage] == StageKind::Serial;
        let previous_item = u32::from(serial && line != self.first_line);
        previous_item + u32::from(stage > 0)
    }

    /// Sets up the line after `line` (and every line before it) before the
    /// item on `line` releases anything: the item's serial stages count the
    /// next line's counters down. Called by the source, one task at a time.
    fn set_up_lines(&self, line: usize) {
        let needed = (line + 2).min(self.lines());
        if self.lines_ready.load(Ordering::Relaxed) >= needed {
            return;
        }
        let state = self.state();
        let stages = state.stages;
        state.counters.ensure(needed * stages, |i| {
            JoinCounter::new(self.first_wait(i / stages, i % stages))
        });
        state.items.ensure(needed, |_| AtomicU64::new(0));
        for stage in self.all_stages() {
            stage.ensure_lines(needed);
        }
        self.lines_ready.store(needed, Ordering::Relaxed);
    }

    fn counter(&self, line: usize, stage: usize) -> &JoinCounter {
        self.state().counters.get(line * self.stages() + stage)
    }

    fn item_on(&self, line: usize) -> &AtomicU64 {
        self.state().items.get(line)
    }

    fn stopped(&self, item: u64) -> bool {
        item >= self.stop_at.load(Ordering::Acquire)
            || self.token.as_ref().is_some_and(|t| t.is_cancelled())
    }

    /// Records what stopped the pipeline at `item`: items from `item` on
    /// start no more stages; earlier ones go on.
    fn fail(&self, item: u64, stage: usize, why: Failure) {
        let mut failure = self.failure.lock().unwrap_or_else(|e| e.into_inner());
        if failure.as_ref().is_none_or(|(at, _, _)| item < *at) {
            *failure = Some((item, stage, why));
        }
        self.stop_at.fetch_min(item, Ordering::AcqRel);
    }

    /// The token of the item the task `(line, stage)` is for.
    fn item_for(&self, line: usize, stage: usize) -> u64 {
        if stage == 0 {
            self.next_item.load(Ordering::Relaxed)
        } else {
            self.item_on(line).load(Ordering::Relaxed)
        }
    }

    /// Runs the task of `stage` for the item on `line`; returns the task
    /// this thread runs next, if any (with the unit), having submitted the
    /// others it released.
    fn execute(&self, me: PipeRef, line: usize, stage: usize) -> Option<(usize, usize)> {
        let current = &self.all_stages()[stage];
        let item = self.item_for(line, stage);
        if self.stopped(item) {
            // SAFETY: this task owns the line's input slot of the stage.
            unsafe { current.discard_input(line) };
            return None;
        }
        // Armed for the line's next item before anything is released.
        self.counter(line, stage)
            .reset(steady_wait(self.kinds[stage]));
        if stage == 0 {
            self.set_up_lines(line);
        }
        let mut ctx = StageContext::new(line, item, stage);
        // SAFETY: this task is the stage's for `line`; a serial stage's
        // previous task released this one.
        match unsafe { current.run(&mut ctx) } {
            Ok(true) => {}
            Ok(false) => return None, // the source has no more items
            Err(StageError::Panicked(message)) => {
                self.fail(item, stage, Failure::Panicked(message));
                return None;
            }
            Err(StageError::StoppedLate) => {
                self.fail(item, stage, Failure::StoppedLate);
                return None;
            }
        }
        if stage == 0 {
            self.item_on(line).store(item, Ordering::Relaxed);
            self.next_item.store(item + 1, Ordering::Relaxed);
        }
        let last = stage + 1 == self.stages();
        let mut ready: [Option<(usize, usize)>; 3] = [None; 3];
        if last {
            // SAFETY: the last stage's task owns its output slot.
            unsafe { current.discard_output(line) };
            self.completed.fetch_add(1, Ordering::Relaxed);
            // The line is free for its next item.
            if self.counter(line, 0).count_down() {
                ready[0] = Some((line, 0));
            }
        } else if self.counter(line, stage + 1).count_down() {
            ready[0] = Some((line, stage + 1));
        }
        if self.kinds[stage] == StageKind::Serial {
            let next_line = (line + 1) % self.lines();
            if self.counter(next_line, stage).count_down() {
                ready[1] = Some((next_line, stage));
            }
        }
        let mut ready = ready.into_iter().flatten();
        let keep = ready.next();
        for (line, stage) in ready {
            self.pending.add(1);
            PipeTask {
                run: me,
                line: line as u32,
                stage: stage as u32,
            }
            .submit();
        }
        keep
    }

    /// What the run comes to: its report, or why it stopped. Read once the
    /// run has ended.
    pub(crate) fn report(&self) -> Result<PipelineReport, PipelineError> {
        let completed = self.completed.load(Ordering::Acquire);
        let failure = self
            .failure
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .take();
        let Some((token, stage, why)) = failure else {
            if self.token.as_ref().is_some_and(|t| t.is_cancelled()) {
                return Err(PipelineError::Cancelled { completed });
            }
            return Ok(PipelineReport {
                items: completed,
                tokens: self.next_item.load(Ordering::Relaxed),
            });
        };
        let item = token - self.first_token;
        Err(match why {
            Failure::Panicked(message) => PipelineError::Panicked {
                item,
                stage,
                message,
                completed,
            },
            Failure::Rejected => PipelineError::Rejected {
                item,
                stage,
                completed,
            },
            Failure::StoppedLate => PipelineError::StopOutsideTheFirstStage {
                item,
                stage,
                completed,
            },
        })
    }

    /// The run is over (its last unit given back): the items a stop left
    /// in slots no task will read (a later item waiting at a serial stage
    /// for a stopped one) are dropped quietly, as the tasks drop the items
    /// they stop, and the pipeline's token count moves on.
    fn close(&self) {
        for stage in self.all_stages() {
            // SAFETY: no task of the run is left.
            unsafe { stage.drain() };
        }
        // SAFETY: the pipeline outlives the run (`Borrowed`).
        let tokens = unsafe { &*self.borrowed.tokens };
        tokens.store(self.next_item.load(Ordering::Relaxed), Ordering::Relaxed);
    }
}

/// Gives one unit back; the last one ends the run.
fn finish_unit(run: PipeRef) {
    // SAFETY: made by `hold` in `start`, and the caller holds a unit,
    // counted by the run's `pending`.
    let Some(this) = (unsafe { run.give_back(|run| &run.pending) }) else {
        return;
    };
    this.close();
    match this.end {
        PipeEnd::Signal(ref signal) => {
            signal.set();
            drop_quietly(this);
        }
        PipeEnd::Node(end) => {
            let result = this.report();
            drop_quietly(this);
            // SAFETY: this run held the node's unit of the graph's run
            // until now, and hands it on (`NodeEnd`'s contract).
            unsafe { (end.finish)(end.parent, end.node, result) };
        }
    }
}

/// The task of one stage for the item one line carries, holding a unit.
/// Dropped unstarted (its job refused or discarded), it stops the
/// pipeline at its item, as a failure.
struct PipeTask {
    run: PipeRef,
    line: u32,
    stage: u32,
}

impl PipeTask {
    fn submit(self) {
        // SAFETY: the task holds a unit, so the run and its executor are
        // alive.
        let run = unsafe { self.run.get() };
        match &run.launch {
            // SAFETY: as above.
            Launch::Executor(executor) => {
                launch::submit(unsafe { executor.get() }, Priority::Normal, self)
            }
            Launch::Helped(desk) => desk.hand(launch::job_of(self)),
            Launch::Future(inbox) => inbox.push(Priority::Normal, launch::job_of(self)),
        }
    }
}

impl launch::Startable for PipeTask {
    fn start(self) {
        let this = ManuallyDrop::new(self);
        let me = this.run;
        let (mut line, mut stage) = (this.line as usize, this.stage as usize);
        // SAFETY: this task holds a unit.
        let run = unsafe { me.get() };
        while let Some(next) = run.execute(me, line, stage) {
            (line, stage) = next;
        }
        finish_unit(me);
    }
}

impl Drop for PipeTask {
    fn drop(&mut self) {
        // SAFETY: the task holds a unit.
        let run = unsafe { self.run.get() };
        let (line, stage) = (self.line as usize, self.stage as usize);
        let item = run.item_for(line, stage);
        run.fail(item, stage, Failure::Rejected);
        // SAFETY: the task owns the line's input slot of the stage.
        unsafe { run.all_stages()[stage].discard_input(line) };
        finish_unit(self.run);
    }
}
