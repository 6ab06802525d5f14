//! One allocation per task: the closure, the state word, the result slot and
//! the joiner's thread, driven by an atomic state machine.
//!
//! See `JOIN_STATE.md` beside this file for the protocol and why its orderings
//! suffice. In short: whoever moves the state out of "not started" (a worker
//! running the task, or a canceller) owns the stage exclusively until it sets
//! `COMPLETE`; after `COMPLETE` the single `JoinHandle` owns it.

use std::panic::{catch_unwind, AssertUnwindSafe};

use crate::panic_message::{drop_quietly, panic_message};
use crate::sync::{thread, AtomicUsize, Ordering, UnsafeCell};
use crate::{JoinError, TaskStatus};

/// A worker (or canceller) owns the stage: the body is running.
pub(crate) const RUNNING: usize = 1 << 0;
/// The stage holds the final result; the `JoinHandle` owns it.
pub(crate) const COMPLETE: usize = 1 << 1;
/// The joiner stored its thread in `waiter` and will park.
pub(crate) const WAITER: usize = 1 << 2;
/// With `COMPLETE`: the result is `Err(Panicked)`.
pub(crate) const PANICKED: usize = 1 << 3;
/// With `COMPLETE`: the result is `Err(Cancelled)`; the body never ran.
pub(crate) const CANCELLED: usize = 1 << 4;
/// With `COMPLETE`: the result is `Err(Rejected)`; the body never ran.
pub(crate) const REJECTED: usize = 1 << 5;

/// Spins before parking in `join`: a task that is about to finish costs a
/// few hundred nanoseconds of spinning instead of a park/unpark round trip
/// (tens of microseconds on a VM).
#[cfg(not(loom))]
const JOIN_SPINS: u32 = 64;
/// Under loom every spin is a load the model checker branches on; one spin
/// still covers both paths (seen while spinning, seen only after parking)
/// without multiplying the interleavings by 64.
#[cfg(loom)]
const JOIN_SPINS: u32 = 1;

/// How a call to [`Job::run`](crate::Job::run) ended, for the executor's
/// metrics.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum RunOutcome {
    /// The body ran and returned a value.
    Completed,
    /// The body ran and panicked; the panic was caught.
    Panicked,
    /// The body did not run: its token was cancelled before it started, or
    /// the task was cancelled while it waited in a queue.
    Cancelled,
}

enum Stage<F, T> {
    Pending(F),
    Running,
    Done(Result<T, JoinError>),
    Taken,
}

pub(crate) struct TaskCell<F, T> {
    state: AtomicUsize,
    stage: UnsafeCell<Stage<F, T>>,
    waiter: UnsafeCell<Option<thread::Thread>>,
}

// SAFETY: the cell moves `F` and `T` between threads (submitter → worker →
// joiner) but never shares a `&F` or `&T`: the state machine gives exactly one
// thread access to `stage` at a time, and to `waiter` (see the protocol doc).
// So `F: Send` and `T: Send` suffice for both `Send` and `Sync`.
unsafe impl<F: Send, T: Send> Send for TaskCell<F, T> {}
// SAFETY: as above.
unsafe impl<F: Send, T: Send> Sync for TaskCell<F, T> {}

impl<F, T> TaskCell<F, T>
where
    F: FnOnce() -> Result<T, JoinError>,
{
    pub(crate) fn new(body: F) -> Self {
        Self {
            state: AtomicUsize::new(0),
            stage: UnsafeCell::new(Stage::Pending(body)),
            waiter: UnsafeCell::new(None),
        }
    }

    /// Claims the stage if the task has not started: sets `RUNNING`.
    #[inline]
    fn claim(&self) -> Result<(), usize> {
        let mut state = self.state.load(Ordering::Relaxed);
        loop {
            if state & (RUNNING | COMPLETE) != 0 {
                return Err(state);
            }
            // Acquire: the stage was written by `new` on the submitting thread;
            // the queue hand-off already orders that, but a canceller on a
            // third thread may reach the stage only through this word.
            match self.state.compare_exchange_weak(
                state,
                state | RUNNING,
                Ordering::Acquire,
                Ordering::Relaxed,
            ) {
                Ok(_) => return Ok(()),
                Err(actual) => state = actual,
            }
        }
    }

    /// Runs the body if nobody claimed the task first.
    pub(crate) fn run(&self) -> RunOutcome {
        if let Err(state) = self.claim() {
            // Completed without running (cancelled in the queue).
            debug_assert!(state & COMPLETE != 0 && state & (CANCELLED | REJECTED) != 0);
            return RunOutcome::Cancelled;
        }
        // SAFETY: `claim` set RUNNING, so this thread owns the stage until it
        // sets COMPLETE below; no other thread reads or writes it meanwhile.
        let body = self.stage.with_mut(|stage| unsafe {
            match std::mem::replace(&mut *stage, Stage::Running) {
                Stage::Pending(body) => body,
                _ => unreachable!("a claimed task holds its body"),
            }
        });
        let (result, outcome_bit, outcome) = match catch_unwind(AssertUnwindSafe(body)) {
            Ok(Ok(value)) => (Ok(value), 0, RunOutcome::Completed),
            Ok(Err(JoinError::Cancelled)) => {
                (Err(JoinError::Cancelled), CANCELLED, RunOutcome::Cancelled)
            }
            Ok(Err(other)) => unreachable!("a body only reports cancellation, not {other:?}"),
            Err(payload) => (
                Err(JoinError::Panicked(panic_message(payload))),
                PANICKED,
                RunOutcome::Panicked,
            ),
        };
        self.complete(result, outcome_bit);
        outcome
    }

    /// Completes a task that has not started without running it: used for
    /// cancellation and rejection. False when it had already started.
    pub(crate) fn finish_unrun(&self, reason: JoinError) -> bool {
        if self.claim().is_err() {
            return false;
        }
        let bit = match reason {
            JoinError::Cancelled => CANCELLED,
            JoinError::Rejected => REJECTED,
            JoinError::Panicked(_) => unreachable!("an unrun task cannot have panicked"),
        };
        // SAFETY: `claim` succeeded, so this thread owns the stage.
        let body = self
            .stage
            .with_mut(|stage| unsafe { std::mem::replace(&mut *stage, Stage::Running) });
        // The closure's captures may panic when dropped; that must not unwind
        // into a worker or a canceller.
        drop_quietly(body);
        self.complete(Err(reason), bit);
        true
    }

    /// Stores the result, publishes COMPLETE and wakes a parked joiner.
    fn complete(&self, result: Result<T, JoinError>, outcome_bit: usize) {
        // SAFETY: the caller set RUNNING and has not yet set COMPLETE, so it
        // still owns the stage.
        self.stage
            .with_mut(|stage| unsafe { *stage = Stage::Done(result) });
        // RUNNING is set and COMPLETE and the outcome bits are clear, so one
        // XOR clears the first and sets the others, leaving WAITER untouched.
        // Release publishes the result to the joiner; Acquire pairs with the
        // joiner's Release of WAITER so its thread handle is visible here.
        let prev = self
            .state
            .fetch_xor(RUNNING | COMPLETE | outcome_bit, Ordering::AcqRel);
        if prev & WAITER != 0 {
            // SAFETY: the joiner wrote `waiter` before setting WAITER, and
            // never touches it again; we observed WAITER, so we are the only
            // thread that accesses it from now on.
            let waiter = self.waiter.with_mut(|w| unsafe { (*w).take() });
            if let Some(thread) = waiter {
                thread.unpark();
            }
        }
    }

    pub(crate) fn is_finished(&self) -> bool {
        self.state.load(Ordering::Acquire) & COMPLETE != 0
    }

    pub(crate) fn status(&self) -> TaskStatus {
        let state = self.state.load(Ordering::Acquire);
        if state & COMPLETE == 0 {
            if state & RUNNING != 0 {
                TaskStatus::Running
            } else {
                TaskStatus::Queued
            }
        } else if state & PANICKED != 0 {
            TaskStatus::Panicked
        } else if state & CANCELLED != 0 {
            TaskStatus::Cancelled
        } else if state & REJECTED != 0 {
            TaskStatus::Rejected
        } else {
            TaskStatus::Finished
        }
    }

    /// Waits for COMPLETE and takes the result. Called at most once, by the
    /// single `JoinHandle`.
    pub(crate) fn join(&self) -> Result<T, JoinError> {
        let mut state = self.state.load(Ordering::Acquire);
        let mut spins = 0;
        while state & COMPLETE == 0 && spins < JOIN_SPINS {
            std::hint::spin_loop();
            spins += 1;
            state = self.state.load(Ordering::Acquire);
        }
        if state & COMPLETE == 0 {
            // SAFETY: WAITER is not set yet, so no other thread reads
            // `waiter`; the completer reads it only after seeing WAITER.
            self.waiter
                .with_mut(|w| unsafe { *w = Some(thread::current()) });
            // Release publishes the thread handle; Acquire makes the result
            // visible if the task completed meanwhile.
            let prev = self.state.fetch_or(WAITER, Ordering::AcqRel);
            if prev & COMPLETE == 0 {
                // `park` may return spuriously, or for an unpark meant for an
                // earlier join on this thread: only COMPLETE ends the wait.
                while self.state.load(Ordering::Acquire) & COMPLETE == 0 {
                    thread::park();
                }
            }
        }
        // SAFETY: COMPLETE was observed with Acquire, so the completer has
        // written the result and will not touch the stage again; this is the
        // only join.
        self.stage.with_mut(|stage| unsafe {
            match std::mem::replace(&mut *stage, Stage::Taken) {
                Stage::Done(result) => result,
                _ => unreachable!("a complete task holds its result until joined"),
            }
        })
    }
}

/// Where a detached task's panic message goes (tasks with a handle send it
/// to the handle instead).
pub(crate) type PanicReport<'a> = &'a mut dyn FnMut(&str);

/// The type-erased face of a task that a queue holds.
pub(crate) trait Runnable: Send + Sync {
    fn run(&self, report: PanicReport<'_>) -> RunOutcome;
    fn finish_unrun(&self, reason: JoinError) -> bool;
    fn is_finished(&self) -> bool;
}

/// The face of a task that its `JoinHandle<T>` holds.
pub(crate) trait JoinTarget<T>: Send + Sync {
    fn join(&self) -> Result<T, JoinError>;
    fn is_finished(&self) -> bool;
    fn status(&self) -> TaskStatus;
    fn cancel(&self) -> bool;
}

impl<F, T> Runnable for TaskCell<F, T>
where
    F: FnOnce() -> Result<T, JoinError> + Send,
    T: Send,
{
    fn run(&self, _report: PanicReport<'_>) -> RunOutcome {
        TaskCell::run(self)
    }
    fn finish_unrun(&self, reason: JoinError) -> bool {
        TaskCell::finish_unrun(self, reason)
    }
    fn is_finished(&self) -> bool {
        TaskCell::is_finished(self)
    }
}

impl<F, T> JoinTarget<T> for TaskCell<F, T>
where
    F: FnOnce() -> Result<T, JoinError> + Send,
    T: Send,
{
    fn join(&self) -> Result<T, JoinError> {
        TaskCell::join(self)
    }
    fn is_finished(&self) -> bool {
        TaskCell::is_finished(self)
    }
    fn status(&self) -> TaskStatus {
        TaskCell::status(self)
    }
    fn cancel(&self) -> bool {
        self.finish_unrun(JoinError::Cancelled)
    }
}
