//! Handing work to the executor: a job per piece of work that the thread
//! which made it ready does not run itself, with a trampoline for
//! executors that run a job inside `submit`.
//!
//! Graph runs, pipelines and task groups submit through [`submit`]: the
//! work is a [`Startable`] value whose `Drop` reports it as not run, so a job the executor
//! refuses, or drops without running, is reported rather than lost.

use std::cell::{Cell, RefCell};
use std::collections::VecDeque;
use std::fmt;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::task::Waker;

use rt_handle::{Executor, Job, SubmitError};
use rt_queue::Priority;

/// A piece of work handed to an executor: started once by the job, or
/// dropped unstarted, whose `Drop` then reports it.
pub(crate) trait Startable: Send + 'static {
    /// Runs the work on the calling thread.
    fn start(self);
}

/// An executor borrowed by a run, reached by the run's jobs without a
/// lifetime: a thin pointer to the caller's `&dyn Executor`, a local of the
/// call that started the run (`run_blocking`, `task_group`), which lives in
/// that call's frame.
///
/// Only dereferenced by code that holds a unit of work of a run that was
/// given this executor (`release::Pending`): the call that started the run
/// borrows the executor, and keeps the reference it points at, and does not
/// return, even when unwinding, before every unit has been given back, so
/// both outlive every such dereference. No lifetime is transmuted: the
/// pointer is to a `Sized` value (a reference), stored untyped, and given
/// back its type, with the lifetime of the `&self` borrow, in [`get`](Self::get).
#[derive(Clone, Copy)]
pub(crate) struct ExecutorPtr(*const ());

// SAFETY: an `Executor` is `Send + Sync`; the pointer is only dereferenced
// as documented on the type, which is what sharing `&dyn Executor` across
// threads needs.
unsafe impl Send for ExecutorPtr {}
// SAFETY: as above.
unsafe impl Sync for ExecutorPtr {}

impl ExecutorPtr {
    /// Points at `executor`, a reference the caller keeps in its frame.
    ///
    /// # Safety
    ///
    /// The caller keeps `*executor` (the reference) and the executor it
    /// refers to alive, and in place, until no run that holds the pointer
    /// has a unit of work left (see the type).
    pub(crate) unsafe fn new<'e>(executor: &'e &'e (dyn Executor + 'e)) -> Self {
        let ptr: *const &'e (dyn Executor + 'e) = executor;
        Self(ptr.cast::<()>())
    }

    /// The executor.
    ///
    /// # Safety
    ///
    /// The caller holds a unit of work of a run that holds this pointer.
    pub(crate) unsafe fn get(&self) -> &dyn Executor {
        let ptr = self.0.cast::<&dyn Executor>();
        // SAFETY: made by `new` from a `&&dyn Executor`, which the caller of
        // `new` keeps alive while the caller of this holds a unit (see the
        // type); the reference read is `Copy`.
        unsafe { *ptr }
    }
}

impl fmt::Debug for ExecutorPtr {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("ExecutorPtr")
    }
}

/// Submits `work` to `executor` as a job at `priority`. A refused job is
/// dropped here, which reports the work as not run (its `Drop`). A `submit`
/// that panics is contained: the job it was given was either kept (it will
/// run) or dropped while unwinding (reported), and the caller, which holds
/// a unit of its run, must go on to give that unit back.
pub(crate) fn submit<W: Startable>(executor: &dyn Executor, priority: Priority, work: W) {
    submit_job(executor, priority, job_of(work));
}

fn submit_job(executor: &dyn Executor, priority: Priority, job: Job) {
    TRAMPOLINE.with(|t| {
        let submitted = catch_unwind(AssertUnwindSafe(|| {
            t.while_submitting(|| executor.submit(priority, job))
        }));
        if let Ok(refused) = submitted {
            drop(refused);
        }
        t.run_deferred();
    });
}

/// Like [`submit`], without waiting for room in a bounded queue: a job
/// refused as saturated comes back, after `waker` was registered for room.
pub(crate) fn try_submit(
    executor: &dyn Executor,
    priority: Priority,
    job: Job,
    waker: &Waker,
) -> Result<(), Job> {
    TRAMPOLINE.with(|t| {
        let result = t.while_submitting(|| match executor.try_submit(priority, job) {
            Err(SubmitError::Saturated(job)) => {
                executor.wake_when_capacity(waker);
                match executor.try_submit(priority, job) {
                    Err(SubmitError::Saturated(job)) => Err(job),
                    // Refused as shut down: dropping the job reports it.
                    Ok(()) | Err(SubmitError::Shutdown(_)) => Ok(()),
                }
            }
            Ok(()) | Err(SubmitError::Shutdown(_)) => Ok(()),
        });
        t.run_deferred();
        result
    })
}

/// Runs one piece of work deferred on this thread (by an executor that
/// runs jobs inside `submit`), if there is one and this thread is not
/// inside `submit`: for a thread about to wait for work that may be just
/// that, deferred further down its own stack. True if it ran one.
pub(crate) fn help_deferred() -> bool {
    TRAMPOLINE.with(|t| {
        if t.submitting.get() {
            return false;
        }
        let next = t.deferred.borrow_mut().pop_front();
        match next {
            Some(work) => {
                work();
                true
            }
            None => false,
        }
    })
}

/// The job that starts `work`.
pub(crate) fn job_of<W: Startable>(work: W) -> Job {
    Job::detached(move || TRAMPOLINE.with(|t| t.start_or_defer(work)))
}

/// The trampoline. An executor that runs a job inside `submit` (an inline
/// executor, a single-threaded one) would run the work inside the
/// submitting work's frame, which submits again from inside, and so on: a
/// long graph would overflow the stack. So while a thread is inside
/// `submit`, work that starts on it is deferred instead, and the outermost
/// submitter on the thread runs it once `submit` has returned, one piece
/// after another, in the order it was deferred.
struct Trampoline {
    /// This thread is inside an executor's `submit`.
    submitting: Cell<bool>,
    /// This thread runs deferred work, further down its stack.
    draining: Cell<bool>,
    /// Work that started while this thread was inside `submit`.
    deferred: RefCell<VecDeque<Box<dyn FnOnce()>>>,
}

std::thread_local! {
    static TRAMPOLINE: Trampoline = const {
        Trampoline {
            submitting: Cell::new(false),
            draining: Cell::new(false),
            deferred: RefCell::new(VecDeque::new()),
        }
    };
}

impl Trampoline {
    /// Starts `work` now, unless this thread is inside `submit`: then
    /// defers it.
    fn start_or_defer<W: Startable>(&self, work: W) {
        if self.submitting.get() {
            self.deferred
                .borrow_mut()
                .push_back(Box::new(move || work.start()));
        } else {
            work.start();
        }
    }

    /// Calls `submit` with this thread marked as inside `submit`.
    fn while_submitting<R>(&self, submit: impl FnOnce() -> R) -> R {
        struct Restore<'a>(&'a Cell<bool>, bool);
        impl Drop for Restore<'_> {
            fn drop(&mut self) {
                self.0.set(self.1);
            }
        }
        let _restore = Restore(&self.submitting, self.submitting.replace(true));
        submit()
    }

    /// Runs the deferred work, unless a frame further down already does
    /// (it will get to it) or this thread is still inside `submit`.
    fn run_deferred(&self) {
        if self.draining.get() || self.submitting.get() || self.deferred.borrow().is_empty() {
            return;
        }
        struct Stop<'a>(&'a Cell<bool>);
        impl Drop for Stop<'_> {
            fn drop(&mut self) {
                self.0.set(false);
            }
        }
        self.draining.set(true);
        let _stop = Stop(&self.draining);
        // Work is deferred only inside `submit`, and `submit` is only
        // called by work holding a unit, so nothing is left behind.
        loop {
            let next = self.deferred.borrow_mut().pop_front();
            match next {
                Some(work) => work(),
                None => break,
            }
        }
    }
}
