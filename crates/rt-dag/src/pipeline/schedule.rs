//! Running a pipeline: a counter per (line, stage) that releases the stage
//! of the item a line carries, on the thread that finished what it waited
//! for (`PIPELINE.md`).

use std::mem::ManuallyDrop;
use std::sync::atomic::AtomicU64;
use std::sync::{Arc, Mutex};

use rt_handle::{CancellationToken, Executor};
use rt_queue::Priority;

use super::stage::{StageKind, Step};
use super::{PipelineError, PipelineReport};
use crate::release::{EndSignal, JoinCounter, Pending};
use crate::run::help_desk::HelpDesk;
use crate::run::launch::{self, ExecutorPtr};
use crate::run::wait;
use crate::sync::Ordering;

/// Items not stopped: every item has an index below this.
const NO_STOP: u64 = u64::MAX;

/// What stopped the pipeline at its lowest item.
struct Failure {
    item: u64,
    stage: usize,
    /// The panic's message, or `None` for a job the executor refused.
    message: Option<String>,
}

/// One run of a pipeline.
pub(crate) struct PipeRun {
    /// The stages, the source first. The borrow's lifetime is erased: the
    /// pipeline is borrowed by `run`, which returns only once every unit
    /// of work is given back (as `ExecutorPtr`).
    steps: *const [Box<dyn Step + 'static>],
    kinds: Box<[StageKind]>,
    lines: usize,
    /// `counters[line * stages + stage]`: what the stage of the item on
    /// `line` still waits for.
    counters: Box<[JoinCounter]>,
    /// The item each line carries.
    items: Box<[AtomicU64]>,
    /// The index of the next item the source produces (the source is
    /// serial: one task at a time touches it).
    next_item: AtomicU64,
    /// Items from this index on do not start another stage.
    stop_at: AtomicU64,
    /// Items that went through every stage.
    completed: AtomicU64,
    failure: Mutex<Option<Failure>>,
    token: Option<CancellationToken>,
    executor: ExecutorPtr,
    /// The worker waiting for the run, when it can take part in it.
    desk: Option<Arc<HelpDesk>>,
    pending: Pending,
    end: EndSignal,
}

// SAFETY: shared state is atomic or behind a mutex; the stages are `Sync`
// (each documents why), and the two erased borrows are only used by holders
// of a unit, as documented on the fields.
unsafe impl Send for PipeRun {}
// SAFETY: as above.
unsafe impl Sync for PipeRun {}

/// A pointer to a run, valid while its holder holds a unit (the run keeps
/// a reference to itself until its last unit is given back).
#[derive(Clone, Copy)]
struct PipeRef(*const PipeRun);

// SAFETY: `PipeRun` is `Sync`; the pointer is only dereferenced by holders
// of a unit.
unsafe impl Send for PipeRef {}

impl PipeRef {
    /// # Safety
    ///
    /// The caller holds a unit of the run.
    unsafe fn get<'a>(self) -> &'a PipeRun {
        // SAFETY: alive while a unit is held.
        unsafe { &*self.0 }
    }
}

/// Runs `steps` (the source first) over `lines` lines on `executor`, and
/// waits for the end.
pub(crate) fn run(
    steps: &[Box<dyn Step + '_>],
    lines: usize,
    executor: &dyn Executor,
    token: Option<CancellationToken>,
) -> Result<PipelineReport, PipelineError> {
    if lines == 0 {
        return Err(PipelineError::ZeroLines);
    }
    let stages = steps.len();
    let kinds: Box<[StageKind]> = steps.iter().map(|s| s.kind()).collect();
    let counters = (0..lines * stages)
        .map(|i| {
            let (line, stage) = (i / stages, i % stages);
            JoinCounter::new(first_wait(&kinds, line, stage))
        })
        .collect();
    let steps: *const [Box<dyn Step + '_>] = steps;
    // SAFETY: the executor is borrowed until the run has ended (below).
    let executor = unsafe { ExecutorPtr::new(executor) };
    let run = Arc::new(PipeRun {
        // SAFETY: only the trait objects' lifetime bound changes; the
        // stages outlive the run, which ends before this function returns.
        steps: unsafe {
            std::mem::transmute::<*const [Box<dyn Step + '_>], *const [Box<dyn Step + 'static>]>(
                steps,
            )
        },
        kinds,
        lines,
        counters,
        items: (0..lines).map(|_| AtomicU64::new(0)).collect(),
        next_item: AtomicU64::new(0),
        stop_at: AtomicU64::new(NO_STOP),
        completed: AtomicU64::new(0),
        failure: Mutex::new(None),
        token,
        executor,
        desk: wait::desk_for_this_thread(executor).map(Arc::new),
        pending: Pending::new(),
        end: EndSignal::new(),
    });
    let me = PipeRef(Arc::into_raw(Arc::clone(&run)));
    // The first item's source task, then the caller's unit back.
    run.pending.add(1);
    PipeTask {
        run: me,
        line: 0,
        stage: 0,
    }
    .submit();
    finish_unit(me);
    wait::wait(&run.end, run.desk.as_deref());
    // Items a stop left in slots no task will read (a later item waiting
    // at a serial stage for a stopped one) are dropped here, as every
    // other item the pipeline drops: quietly.
    for step in run.steps() {
        for line in 0..lines {
            // SAFETY: the run has ended: no task touches the slots.
            unsafe { step.discard_output(line) };
        }
    }
    run.report()
}

/// What the stage of the first item on `line` waits for: the previous
/// stage of the same item, and, for a serial stage, the previous item
/// (none for item 0, on line 0); a source waits for the previous item only.
fn first_wait(kinds: &[StageKind], line: usize, stage: usize) -> u32 {
    let previous_item = u32::from(kinds[stage] == StageKind::Serial && line > 0);
    let previous_stage = u32::from(stage > 0);
    previous_item + previous_stage
}

/// What the stage of every later item on a line waits for: the previous
/// stage (or, for the source, the line to be free), and, for a serial stage,
/// the previous item.
fn steady_wait(kind: StageKind) -> u32 {
    1 + u32::from(kind == StageKind::Serial)
}

impl PipeRun {
    fn steps(&self) -> &[Box<dyn Step + 'static>] {
        // SAFETY: the stages outlive the run (see the field).
        unsafe { &*self.steps }
    }

    fn stages(&self) -> usize {
        self.kinds.len()
    }

    fn counter(&self, line: usize, stage: usize) -> &JoinCounter {
        &self.counters[line * self.stages() + stage]
    }

    fn stopped(&self, item: u64) -> bool {
        item >= self.stop_at.load(Ordering::Acquire)
            || self.token.as_ref().is_some_and(|t| t.is_cancelled())
    }

    /// Records what stopped the pipeline at `item`: items from `item` on
    /// start no more stages; earlier ones go on.
    fn fail(&self, item: u64, stage: usize, message: Option<String>) {
        let mut failure = self.failure.lock().unwrap_or_else(|e| e.into_inner());
        if failure.as_ref().is_none_or(|f| item < f.item) {
            *failure = Some(Failure {
                item,
                stage,
                message,
            });
        }
        self.stop_at.fetch_min(item, Ordering::AcqRel);
    }

    /// Runs the task of `stage` for the item on `line`; returns the task
    /// this thread runs next, if any (with the unit), having submitted the
    /// others it released.
    fn execute(&self, me: PipeRef, line: usize, stage: usize) -> Option<(usize, usize)> {
        let step = &self.steps()[stage];
        let item = if stage == 0 {
            self.next_item.load(Ordering::Relaxed)
        } else {
            self.items[line].load(Ordering::Relaxed)
        };
        if self.stopped(item) {
            // SAFETY: this task owns the line's input slot of the stage.
            unsafe { step.discard_input(line) };
            return None;
        }
        // Armed for the line's next item before anything is released.
        self.counter(line, stage)
            .reset(steady_wait(self.kinds[stage]));
        // SAFETY: this task is the stage's for `line`; a serial stage's
        // previous task released this one.
        match unsafe { step.run(line) } {
            Ok(true) => {}
            Ok(false) => return None, // the source has no more items
            Err(message) => {
                self.fail(item, stage, Some(message));
                return None;
            }
        }
        if stage == 0 {
            self.items[line].store(item, Ordering::Relaxed);
            self.next_item.store(item + 1, Ordering::Relaxed);
        }
        let last = stage + 1 == self.stages();
        let mut ready: [Option<(usize, usize)>; 3] = [None; 3];
        if last {
            // SAFETY: the last stage's task owns its output slot.
            unsafe { step.discard_output(line) };
            self.completed.fetch_add(1, Ordering::Relaxed);
            // The line is free for its next item.
            if self.counter(line, 0).count_down() {
                ready[0] = Some((line, 0));
            }
        } else if self.counter(line, stage + 1).count_down() {
            ready[0] = Some((line, stage + 1));
        }
        if self.kinds[stage] == StageKind::Serial {
            let next_line = (line + 1) % self.lines;
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

    fn report(&self) -> Result<PipelineReport, PipelineError> {
        let completed = self.completed.load(Ordering::Acquire);
        let failure = self
            .failure
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .take();
        match failure {
            Some(Failure {
                item,
                stage,
                message: Some(message),
            }) => Err(PipelineError::Panicked {
                item,
                stage,
                message,
                completed,
            }),
            Some(Failure {
                item,
                stage,
                message: None,
            }) => Err(PipelineError::Rejected {
                item,
                stage,
                completed,
            }),
            None if self.token.as_ref().is_some_and(|t| t.is_cancelled()) => {
                Err(PipelineError::Cancelled { completed })
            }
            None => Ok(PipelineReport { items: completed }),
        }
    }
}

/// Gives one unit back; the last one ends the run.
fn finish_unit(run: PipeRef) {
    // SAFETY: the caller holds a unit.
    if unsafe { run.get() }.pending.done() {
        // SAFETY: the run's reference to itself, made in `run`, released
        // only here, by the last unit.
        let this = unsafe { Arc::from_raw(run.0) };
        this.end.set();
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
        // SAFETY: the task holds a unit, so the executor is alive.
        let run = unsafe { self.run.get() };
        // SAFETY: as above.
        let executor = unsafe { run.executor.get() };
        match &run.desk {
            Some(desk) => launch::hand(desk, self),
            None => launch::submit(executor, Priority::Normal, self),
        }
    }
}

impl launch::Work for PipeTask {
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
        let item = if stage == 0 {
            run.next_item.load(Ordering::Relaxed)
        } else {
            run.items[line].load(Ordering::Relaxed)
        };
        run.fail(item, stage, None);
        // SAFETY: the task owns the line's input slot of the stage.
        unsafe { run.steps()[stage].discard_input(line) };
        finish_unit(self.run);
    }
}
