//! A pipeline's stages: typed closures between per-line slots, behind one
//! object-safe trait the scheduler drives.
//!
//! Stage `k` reads its input from slot `line` of the slots stage `k - 1`
//! writes (the source writes the first ones), and writes its output to its
//! own slot `line`. The scheduler (`schedule.rs`, `PIPELINE.md`) lets a
//! slot be touched by one task at a time and orders the tasks that touch
//! it: the writer of an item's slot releases the reader, which takes the
//! item out before the line can carry the next item. That invariant is
//! what every `unsafe` block here relies on.

use std::cell::UnsafeCell;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::Arc;

use super::context::StageContext;
use super::lines::LineTable;
use rt_handle::raw::{drop_quietly, panic_message};

/// Whether a stage takes items one at a time, in input order, or any
/// number at once, in any order.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum StageKind {
    /// One item at a time, in the order the source produced them
    /// (`FnMut`: it may keep state between items).
    Serial,
    /// Several items at once, in any order (`Fn + Sync`).
    Parallel,
}

/// One slot per line, each holding the item a line carries between two
/// stages; made as lines come into use (`lines.rs`).
pub(crate) struct Slots<T>(LineTable<UnsafeCell<Option<T>>>);

// SAFETY: a slot is touched by one task at a time, each access ordered
// after the previous one by the scheduler (see the module doc), which is
// what moving the items between threads (`T: Send`) needs.
unsafe impl<T: Send> Sync for Slots<T> {}
// SAFETY: as above.
unsafe impl<T: Send> Send for Slots<T> {}

impl<T> Slots<T> {
    pub(crate) fn new() -> Arc<Self> {
        Arc::new(Self(LineTable::new()))
    }

    /// Makes the slots of lines below `lines`.
    fn ensure(&self, lines: usize) {
        self.0.ensure(lines, |_| UnsafeCell::new(None));
    }

    /// Puts the item of `line`.
    ///
    /// # Safety
    ///
    /// The caller is the task that owns slot `line` now (module doc).
    unsafe fn put(&self, line: usize, item: T) {
        // SAFETY: exclusive by the caller's contract.
        let slot = unsafe { &mut *self.0.get(line).get() };
        debug_assert!(slot.is_none(), "a line carries one item at a time");
        *slot = Some(item);
    }

    /// Takes the item of `line` out.
    ///
    /// # Safety
    ///
    /// The caller is the task that owns slot `line` now (module doc).
    unsafe fn take(&self, line: usize) -> Option<T> {
        // SAFETY: exclusive by the caller's contract.
        unsafe { (*self.0.get(line).get()).take() }
    }

    /// Drops every item left in the slots, quietly.
    ///
    /// # Safety
    ///
    /// No task touches the slots (the run is over).
    unsafe fn drain(&self) {
        for slot in self.0.iter() {
            // SAFETY: no task touches the slots (the caller's contract).
            drop_quietly(unsafe { (*slot.get()).take() });
        }
    }
}

/// Why a stage's call failed.
pub(crate) enum StageError {
    /// It panicked with this message.
    Panicked(String),
    /// A stage after the first called [`StageContext::stop`].
    StoppedLate,
}

/// A stage as the scheduler sees it.
pub(crate) trait Stage: Send + Sync {
    fn kind(&self) -> StageKind;

    /// Runs the stage on the item `ctx.line()` carries. For the source,
    /// `Ok(false)` means it has no more items. On `Err` the item is gone
    /// (dropped while unwinding, or quietly).
    ///
    /// # Safety
    ///
    /// The caller runs this stage's task for the line (module doc); for a
    /// serial stage (the source is one), no other task of the stage runs.
    unsafe fn run(&self, ctx: &mut StageContext) -> Result<bool, StageError>;

    /// Drops the item `line` carries into this stage (one that is stopped
    /// before it), if any.
    ///
    /// # Safety
    ///
    /// As for [`run`](Stage::run).
    unsafe fn discard_input(&self, line: usize);

    /// Drops the item this stage wrote for `line` (the last stage's output,
    /// which nobody reads).
    ///
    /// # Safety
    ///
    /// As for [`run`](Stage::run).
    unsafe fn discard_output(&self, line: usize);

    /// Makes this stage's output slots of lines below `lines`.
    fn ensure_lines(&self, lines: usize);

    /// Drops every item left in this stage's output slots, quietly.
    ///
    /// # Safety
    ///
    /// No task of the pipeline runs (between runs).
    unsafe fn drain(&self);
}

/// The source: a closure producing items until it returns `None` or calls
/// [`StageContext::stop`].
pub(crate) struct Source<T, S> {
    pub(crate) output: Arc<Slots<T>>,
    next: UnsafeCell<S>,
}

impl<T, S: FnMut(&mut StageContext) -> Option<T>> Source<T, S> {
    pub(crate) fn new(output: Arc<Slots<T>>, next: S) -> Self {
        Self {
            output,
            next: UnsafeCell::new(next),
        }
    }
}

// SAFETY: the closure is only called by the one source task running at a
// time (the source is serial), each call ordered after the previous one.
unsafe impl<T: Send, S: Send> Sync for Source<T, S> {}

impl<T: Send, S: FnMut(&mut StageContext) -> Option<T> + Send> Stage for Source<T, S> {
    fn kind(&self) -> StageKind {
        StageKind::Serial
    }

    unsafe fn run(&self, ctx: &mut StageContext) -> Result<bool, StageError> {
        // SAFETY: the one source task running now (serial).
        let next = unsafe { &mut *self.next.get() };
        match catch_unwind(AssertUnwindSafe(|| next(ctx))) {
            Ok(item) if ctx.is_stopped() => {
                drop_quietly(item);
                Ok(false)
            }
            Ok(Some(item)) => {
                // SAFETY: the source task owns its output slot for the line.
                unsafe { self.output.put(ctx.line(), item) };
                Ok(true)
            }
            Ok(None) => Ok(false),
            Err(payload) => Err(StageError::Panicked(panic_message(payload))),
        }
    }

    unsafe fn discard_input(&self, _line: usize) {}

    unsafe fn discard_output(&self, line: usize) {
        // SAFETY: as for `run`.
        drop_quietly(unsafe { self.output.take(line) });
    }

    fn ensure_lines(&self, lines: usize) {
        self.output.ensure(lines);
    }

    unsafe fn drain(&self) {
        // SAFETY: as the caller's contract.
        unsafe { self.output.drain() }
    }
}

/// How a stage calls its closure.
pub(crate) trait Call<A, B>: Send + Sync {
    fn kind(&self) -> StageKind;

    /// Calls the closure on `item`.
    ///
    /// # Safety
    ///
    /// For a serial stage, no other call of this closure runs meanwhile,
    /// and the previous one is ordered before this one.
    unsafe fn call(&self, item: A, ctx: &mut StageContext) -> B;
}

/// A serial stage's closure: `FnMut`, called by one task at a time.
pub(crate) struct SerialFn<F>(UnsafeCell<F>);

impl<F> SerialFn<F> {
    pub(crate) fn new(f: F) -> Self {
        Self(UnsafeCell::new(f))
    }
}

// SAFETY: the closure is called by one task at a time, each call ordered
// after the previous one (`Call::call`'s contract), which is what moving it
// between threads (`F: Send`) needs.
unsafe impl<F: Send> Sync for SerialFn<F> {}

impl<A, B, F: FnMut(A, &mut StageContext) -> B + Send> Call<A, B> for SerialFn<F> {
    fn kind(&self) -> StageKind {
        StageKind::Serial
    }

    unsafe fn call(&self, item: A, ctx: &mut StageContext) -> B {
        // SAFETY: no other call runs meanwhile (the caller's contract).
        let f = unsafe { &mut *self.0.get() };
        f(item, ctx)
    }
}

/// A parallel stage's closure: `Fn + Sync`, called by any number of tasks
/// at once.
pub(crate) struct ParallelFn<F>(pub(crate) F);

impl<A, B, F: Fn(A, &mut StageContext) -> B + Send + Sync> Call<A, B> for ParallelFn<F> {
    fn kind(&self) -> StageKind {
        StageKind::Parallel
    }

    unsafe fn call(&self, item: A, ctx: &mut StageContext) -> B {
        (self.0)(item, ctx)
    }
}

/// A stage that maps each item with a closure.
pub(crate) struct Map<A, B, C> {
    input: Arc<Slots<A>>,
    pub(crate) output: Arc<Slots<B>>,
    f: C,
}

impl<A, B, C> Map<A, B, C> {
    pub(crate) fn new(input: Arc<Slots<A>>, output: Arc<Slots<B>>, f: C) -> Self {
        Self { input, output, f }
    }
}

impl<A: Send, B: Send, C: Call<A, B>> Stage for Map<A, B, C> {
    fn kind(&self) -> StageKind {
        self.f.kind()
    }

    unsafe fn run(&self, ctx: &mut StageContext) -> Result<bool, StageError> {
        let line = ctx.line();
        // SAFETY: this stage's task for `line` owns its input slot.
        let Some(item) = (unsafe { self.input.take(line) }) else {
            unreachable!("a stage runs on a line only after the previous stage filled it")
        };
        // SAFETY: a serial stage's task runs alone, after the previous one
        // (the caller's contract).
        match catch_unwind(AssertUnwindSafe(|| unsafe { self.f.call(item, ctx) })) {
            Ok(output) if ctx.is_stopped() => {
                drop_quietly(output);
                Err(StageError::StoppedLate)
            }
            Ok(output) => {
                // SAFETY: and its output slot.
                unsafe { self.output.put(line, output) };
                Ok(true)
            }
            Err(payload) => Err(StageError::Panicked(panic_message(payload))),
        }
    }

    unsafe fn discard_input(&self, line: usize) {
        // SAFETY: as for `run`.
        drop_quietly(unsafe { self.input.take(line) });
    }

    unsafe fn discard_output(&self, line: usize) {
        // SAFETY: as for `run`.
        drop_quietly(unsafe { self.output.take(line) });
    }

    fn ensure_lines(&self, lines: usize) {
        self.output.ensure(lines);
    }

    unsafe fn drain(&self) {
        // SAFETY: as the caller's contract.
        unsafe { self.output.drain() }
    }
}
