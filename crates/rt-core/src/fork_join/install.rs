//! Running a closure on the runtime's workers from outside them: what
//! `Runtime::install`, and `Runtime::join` and `Runtime::scope` called from
//! outside, do (rayon's `install`); and `with_priority`.
//!
//! The closure waits in an [`InstallJob`] on the caller's stack; a frame
//! entry for it goes through the submission gate onto an injector, a worker
//! runs it as a unit of its own, stores the result and counts the job's
//! [`Latch`] down, which unparks the caller. If the runtime refuses the
//! entry (it is shut down), or `stop` gives it back, the caller runs the
//! closure itself, outside the pool. The closure finds the worker it runs
//! on, if any, through the worker thread-local (`worker::with_local`).

use std::panic::{catch_unwind, resume_unwind, AssertUnwindSafe};
use std::ptr::NonNull;
use std::sync::Arc;

use rt_handle::raw::Wait;
use rt_queue::Priority;

use crate::fork_join::latch::Latch;
use crate::runtime::Runtime;
use crate::shared::Shared;
use crate::submit::submit_frame;
use crate::sync::thread::{self, Thread};
use crate::sync::UnsafeCell;
use crate::worker;
use crate::worker::entry::{FrameAction, FrameRef};

impl Runtime {
    /// Runs `op` on one of this runtime's workers and returns its result,
    /// blocking the caller meanwhile (rayon's `install`): inside `op`,
    /// [`join`](crate::join()) and [`scope`](crate::scope()) use this
    /// runtime. Called from a task of this runtime, `op` runs at once on
    /// the caller's thread. A panic in `op` resumes here. If the runtime is
    /// shut down (or `stop` drains the request), `op` runs on the calling
    /// thread instead, where `join` and `scope` run sequentially.
    ///
    /// ```
    /// let rt = rt_core::Runtime::new(2)?;
    /// assert!(rt.install(rt_core::current_thread_index).is_some());
    /// # Ok::<(), rt_core::BuildError>(())
    /// ```
    #[doc(alias = "block_on")]
    pub fn install<R, F>(&self, op: F) -> R
    where
        F: FnOnce() -> R + Send,
        R: Send,
    {
        install(&self.shared, Priority::Normal, op)
    }
}

/// Runs `op` on a worker of the runtime owning `shared` and returns its
/// result (a panic in `op` resumes here). On a worker of this runtime, `op`
/// runs at once, inline; elsewhere it is queued at `priority`, and runs as
/// a unit of that priority. If the runtime refuses the work (shut down) or
/// gives it back (`stop`), `op` runs on the calling thread; `op` tells
/// where it runs with `worker::with_local(shared, ..)`.
pub(crate) fn install<R, F>(shared: &Arc<Shared>, priority: Priority, op: F) -> R
where
    F: FnOnce() -> R + Send,
    R: Send,
{
    // On a worker of this runtime (in a unit, or in a hook, where waiting
    // for another worker could wait for itself): right here; on its
    // adopted thread, in a unit of its own, so that what `op` forks can
    // run on the other workers.
    if worker::is_thread_of(shared) {
        return worker::with_local(shared, |worker| match worker {
            Some(worker) if worker.is_adopted() => worker.in_a_unit(op),
            _ => op(),
        });
    }
    let job = InstallJob {
        latch: Latch::new(1),
        caller: thread::current(),
        op: UnsafeCell::new(Some(op)),
        result: UnsafeCell::new(None),
    };
    job.latch.set_waiter_in_frame(&job.caller);
    // SAFETY: `job` stays in place until this function returns, which is
    // after the latch is set (the worker ran it or gave it back), or after
    // the entry came back refused.
    let frame = unsafe { job.frame_ref() };
    if submit_frame(shared, priority, frame, Wait::Block).is_ok() {
        wait_off_the_pool(&job.latch);
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
    job.take_op()()
}

/// Waits until `latch` is set, on a thread that is not a worker of the
/// runtime doing the work. On a worker of another runtime, that runtime
/// counts this worker as waiting, so that it keeps one worker free for the
/// work the awaited work may hand back to it (`COMPENSATION.md`), and the
/// worker runs its own letters meanwhile, so that a broadcast on its
/// runtime does not wait for it (`BROADCAST.md`).
pub(crate) fn wait_off_the_pool(latch: &Latch) {
    worker::with_current(|worker| match worker {
        Some(worker) => worker.waiting(|| {
            while !latch.is_set() {
                if !worker.run_letter() {
                    latch.park_once();
                }
            }
        }),
        None => latch.wait(),
    });
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
    F: FnOnce() -> R + Send,
    R: Send,
{
    /// # Safety
    ///
    /// The job must stay in place until its latch is set, or until the
    /// entry came back refused.
    unsafe fn frame_ref(&self) -> FrameRef {
        // SAFETY: per this function's contract.
        unsafe { FrameRef::new(NonNull::from(self).cast(), Self::execute) }
    }

    fn take_op(&self) -> F {
        // SAFETY: the closure is taken once: by the one worker that took the
        // entry, or by the caller when nobody ran it.
        self.op
            .with_mut(|op| unsafe { (*op).take() })
            .expect("an installed closure runs once")
    }

    /// The job's entry, executed by its one taker: a worker runs it (inside
    /// the unit it opened for it) and sets the latch; `stop` gives it back.
    ///
    /// # Safety
    ///
    /// `frame` comes from [`frame_ref`](Self::frame_ref), and this is the
    /// one call for its entry.
    unsafe fn execute(frame: NonNull<()>, action: FrameAction) {
        // SAFETY: the caller keeps the job alive until the latch is set.
        let job = unsafe { frame.cast::<Self>().as_ref() };
        if action == FrameAction::Run {
            let op = job.take_op();
            let result = catch_unwind(AssertUnwindSafe(op));
            // SAFETY: this worker took the entry, so it alone writes the
            // result, before the count-down publishes it.
            job.result.with_mut(|r| unsafe { *r = Some(result) });
        }
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
        Some(worker) if worker.in_unit() || worker.is_adopted() => Ok(worker.run_at(priority, op)),
        Some(_) => Ok(op()),
        None => Err(op),
    }) {
        Ok(result) => return result,
        Err(op) => op,
    };
    let shared = &Runtime::global().shared;
    install(shared, priority, move || {
        worker::with_local(shared, |worker| match worker {
            Some(worker) if worker.in_unit() => worker.run_at(priority, op),
            _ => op(),
        })
    })
}
