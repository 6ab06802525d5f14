//! Running a closure on the runtime's workers from outside them: what
//! `Runtime::install`, and `Runtime::join` and `Runtime::scope` called from
//! outside, do (rayon's `install`).
//!
//! The closure waits in an [`InstallJob`] on the caller's stack; a frame
//! entry for it goes through the submission gate onto an injector, a worker
//! runs it as a unit of its own, stores the result and counts the job's
//! [`Latch`] down, which unparks the caller. If the runtime refuses the
//! entry (it is shut down), or `stop` gives it back, the caller runs the
//! closure itself, outside the pool.

use std::panic::{catch_unwind, resume_unwind, AssertUnwindSafe};
use std::ptr::NonNull;
use std::sync::Arc;

use rt_handle::executor_support::Wait;
use rt_queue::Priority;

use crate::fork_join::latch::{Latch, Waiter};
use crate::shared::Shared;
use crate::submit::gate::Submission;
use crate::submit::submit;
use crate::sync::thread::{self, Thread};
use crate::sync::UnsafeCell;
use crate::worker::entry::{Entry, FrameRef, FrameVTable};
use crate::worker::{self, WorkerContext};

/// Runs `op` on a worker of the runtime owning `shared` and returns its
/// result (a panic in `op` resumes here). On a worker of this runtime, `op`
/// runs at once, inline; elsewhere it is queued at `priority`, and runs as
/// a unit of that priority. If the runtime refuses the work (shut down) or
/// gives it back (`stop`), `op` runs on the calling thread with `None`.
pub(crate) fn install<R, F>(shared: &Arc<Shared>, priority: Priority, op: F) -> R
where
    F: FnOnce(Option<&WorkerContext<'_>>) -> R + Send,
    R: Send,
{
    let op = match worker::with_local(shared, |local| match local {
        Some(worker) if worker.in_unit() => Ok(op(Some(worker))),
        // A worker of this runtime outside any unit (in a hook): waiting
        // for another worker could wait for itself; run it right here.
        Some(_) => Ok(op(None)),
        None => Err(op),
    }) {
        Ok(result) => return result,
        Err(op) => op,
    };
    let job = InstallJob {
        latch: Latch::new(1),
        caller: thread::current(),
        op: UnsafeCell::new(Some(op)),
        result: UnsafeCell::new(None),
    };
    job.latch.set_waiter(Waiter::Thread(&job.caller));
    // SAFETY: `job` stays in place until this function returns, which is
    // after the latch is set (the worker ran it or gave it back), or after
    // the entry came back refused.
    let frame = unsafe { job.frame_ref() };
    let submitted = submit(
        shared,
        priority,
        Submission::Frame,
        frame,
        Wait::Block,
        Entry::Frame,
    );
    if submitted.is_ok() {
        let wait = || {
            while !job.latch.is_set() {
                job.latch.park_once();
            }
        };
        // On a worker of another runtime, that runtime counts this worker
        // as waiting, so that it keeps one worker free for the work this
        // closure may hand back to it (`COMPENSATION.md`).
        worker::with_current(|other| match other {
            Some(other) => other.shared.waiting(wait),
            None => wait(),
        });
        // SAFETY: the latch was seen set (Acquire): the worker wrote the
        // result, if it ran the closure, and no longer touches the job.
        if let Some(result) = job.result.with_mut(|r| unsafe { (*r).take() }) {
            match result {
                Ok(value) => return value,
                Err(payload) => resume_unwind(payload),
            }
        }
    }
    // Refused, or given back unrun: run it here, outside the pool.
    job.take_op()(None)
}

/// A closure installed from outside the pool, on the caller's stack.
struct InstallJob<F, R> {
    /// Set by the worker that ran the closure, or by `stop` giving it back.
    latch: Latch,
    /// The caller, whom the latch wakes.
    caller: Thread,
    op: UnsafeCell<Option<F>>,
    result: UnsafeCell<Option<std::thread::Result<R>>>,
}

impl<F, R> InstallJob<F, R>
where
    F: FnOnce(Option<&WorkerContext<'_>>) -> R + Send,
    R: Send,
{
    const VTABLE: FrameVTable = FrameVTable {
        run: Self::run_erased,
        give_back: Self::give_back_erased,
    };

    /// # Safety
    ///
    /// The job must stay in place until its latch is set, or until the
    /// entry came back refused.
    unsafe fn frame_ref(&self) -> FrameRef {
        let vtable: &'static FrameVTable = &Self::VTABLE;
        // SAFETY: per this function's contract.
        unsafe { FrameRef::new(NonNull::from(self).cast(), vtable) }
    }

    fn take_op(&self) -> F {
        // SAFETY: the closure is taken once: by the one worker that took the
        // entry, or by the caller when nobody ran it.
        self.op
            .with_mut(|op| unsafe { (*op).take() })
            .expect("an installed closure runs once")
    }

    /// # Safety
    ///
    /// `frame` comes from [`frame_ref`](Self::frame_ref), and this is the
    /// one call for its entry.
    unsafe fn run_erased(frame: NonNull<()>, worker: &WorkerContext<'_>) {
        // SAFETY: the caller keeps the job alive until the latch is set.
        let job = unsafe { frame.cast::<Self>().as_ref() };
        let op = job.take_op();
        let result = catch_unwind(AssertUnwindSafe(|| op(Some(worker))));
        // SAFETY: this worker took the entry, so it alone writes the result,
        // before the count-down publishes it.
        job.result.with_mut(|r| unsafe { *r = Some(result) });
        job.latch.count_down();
    }

    /// # Safety
    ///
    /// As for [`run_erased`](Self::run_erased).
    unsafe fn give_back_erased(frame: NonNull<()>) {
        // SAFETY: as in `run_erased`.
        let job = unsafe { frame.cast::<Self>().as_ref() };
        job.latch.count_down();
    }
}

/// Runs `op` so that the work it forks (the halves of its
/// [`join`](crate::join())s and the tasks of its [`scope`](crate::scope())s)
/// is queued at `priority`, and returns its result: a panic in `op` resumes
/// here. Tasks spawned with a handle (`spawn`, `spawn_with_priority`) keep
/// their own priority.
///
/// On a worker (inside a task, a scope or a `join`), `op` runs right here,
/// on the calling thread, as a unit of work of that priority nested in the
/// current one. On any other thread it runs on a worker of the
/// [global runtime](crate::Runtime::global), queued at `priority`, while
/// the caller blocks, as [`Runtime::install`](crate::Runtime::install)
/// does. In a worker's hook (outside any task) it runs right here with no
/// runtime behind it, as `join` does there.
///
/// ```
/// use rt_core::Priority;
///
/// let rt = rt_core::Runtime::new(2)?;
/// let sum = rt.install(|| {
///     rt_core::with_priority(Priority::Background, || {
///         let (a, b) = rt_core::join(|| (1..=50).sum::<u64>(), || (51..=100).sum::<u64>());
///         a + b
///     })
/// });
/// assert_eq!(sum, 5050);
/// # Ok::<(), rt_core::BuildError>(())
/// ```
pub fn with_priority<R, F>(priority: Priority, op: F) -> R
where
    F: FnOnce() -> R + Send,
    R: Send,
{
    let op = match worker::with_current(|worker| match worker {
        Some(worker) if worker.in_unit() => Ok(worker.run_at(priority, op)),
        Some(_) => Ok(op()),
        None => Err(op),
    }) {
        Ok(result) => return result,
        Err(op) => op,
    };
    install(&crate::Runtime::global().shared, priority, move |_| op())
}
