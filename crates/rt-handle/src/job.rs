//! The type-erased unit of work that executors queue.

use std::any::Any;
use std::fmt;
use std::ptr::NonNull;

use crate::body_wrapper::BodyWrapper;
use crate::detached_cell::DetachedCell;
use crate::executor_support::membership::Joining;
use crate::executor_support::JobControl;
use crate::ids::{Awaited, PoolId, RunnerTag, ScopeId, Stamp, TaskId};
use crate::join_handle::ScopedJoinHandle;
use crate::ownership::{release, JOB_DONE};
use crate::task_cell::{Discarded, JoinTarget, Runnable, TaskCell};
use crate::{CancellationContext, CancellationToken, JoinError, JoinHandle, RunOutcome};

/// What a scope hears from its tasks: implemented by an executor's scope
/// (see [`Job::scoped`]).
///
/// The payload of a panic nobody joined is handed over (a scope re-raises
/// one when it ends, say); one the scope does not keep should be dropped
/// with [`drop_quietly`](crate::executor_support::drop_quietly), since a payload's
/// `Drop` may panic.
///
/// ```
/// use std::any::Any;
/// use std::sync::Mutex;
/// use rt_handle::Job;
/// use rt_handle::executor_support::ScopeCompletion;
///
/// /// Keeps the payload of the first unjoined panic.
/// #[derive(Default)]
/// struct FirstPanic(Mutex<Option<Box<dyn Any + Send>>>);
///
/// impl ScopeCompletion for FirstPanic {
///     fn task_completed(&self, unjoined_panic: Option<Box<dyn Any + Send>>) {
///         if let Some(payload) = unjoined_panic {
///             self.handle_dropped_a_panic(payload);
///         }
///     }
///     fn handle_dropped_a_panic(&self, payload: Box<dyn Any + Send>) {
///         let mut first = self.0.lock().unwrap();
///         if first.is_none() {
///             *first = Some(payload);
///         } else {
///             rt_handle::executor_support::drop_quietly(payload);
///         }
///     }
/// }
///
/// let scope = FirstPanic::default();
/// // SAFETY: the job runs below, while `scope` lives.
/// let (job, handle) = unsafe { Job::scoped(&scope, || -> u8 { std::panic::panic_any(7_u8) }) };
/// drop(handle);
/// # let prev = std::panic::take_hook(); std::panic::set_hook(Box::new(|_| {}));
/// job.run();
/// # std::panic::set_hook(prev);
/// let payload = scope.0.lock().unwrap().take().unwrap();
/// assert_eq!(payload.downcast_ref::<u8>(), Some(&7));
/// ```
pub trait ScopeCompletion: Sync {
    /// A task of the scope completed (ran, panicked, or was cancelled or
    /// rejected), and everything else it owned has been dropped.
    /// `unjoined_panic`: the payload of its panic, if it panicked and its
    /// handle was already gone.
    fn task_completed(&self, unjoined_panic: Option<Box<dyn Any + Send>>);
    /// A handle of the scope was dropped without joining a task that
    /// panicked with `payload`.
    fn handle_dropped_a_panic(&self, payload: Box<dyn Any + Send>);
}

/// A scoped task's pointer to its scope. A raw pointer, not a reference:
/// the cell outlives the scope (a stale queue entry may still hold it), and
/// a reference that dangles must not exist even unused. It is dereferenced
/// only by the completion and by the handle, both of which happen before
/// the scope ends (`Job::scoped`'s contract).
struct ScopeRef(NonNull<dyn ScopeCompletion>);

// SAFETY: the scope is `Sync` (a `ScopeCompletion` supertrait), and is
// reached through this pointer only while it is alive.
unsafe impl Send for ScopeRef {}
// SAFETY: as above.
unsafe impl Sync for ScopeRef {}

impl crate::task_cell::Completion for ScopeRef {
    #[inline]
    fn completed(&self, unjoined_panic: Option<Box<dyn Any + Send>>) {
        // SAFETY: the task completes once, and the scope does not end before
        // it heard of that completion (`Job::scoped`'s contract).
        unsafe { self.0.as_ref() }.task_completed(unjoined_panic);
    }
    #[inline]
    fn dropped_unjoined_panic(&self, payload: Box<dyn Any + Send>) {
        // SAFETY: the handle cannot outlive the scope (`ScopedJoinHandle`
        // carries `'scope`), and it drops a panic only once the task
        // completed, before the scope can have ended.
        unsafe { self.0.as_ref() }.handle_dropped_a_panic(payload);
    }
    #[inline]
    fn scope(&self) -> Option<ScopeId> {
        Some(ScopeId::of(self.0))
    }
}

/// A task with its type erased: what an [`Executor`](crate::Executor) queues.
///
/// A `Job` and its [`JoinHandle`] share one heap allocation holding the
/// closure, the state word and the result slot. The executor calls
/// [`run`](Job::run) exactly once; the result goes to the handle.
///
/// A job is never silently lost: dropping a `Job` that has not run completes
/// its handle with [`JoinError::Rejected`], so a joiner never waits for a task
/// that nobody will run.
///
/// ```
/// use rt_handle::{Job, RunOutcome};
///
/// let (job, handle) = Job::new(|| 6 * 7);
/// assert_eq!(job.run(), RunOutcome::Completed);
/// assert_eq!(handle.join(), Ok(42));
/// ```
pub struct Job {
    /// The queue side's ownership of the task's allocation (`ownership.rs`):
    /// made by `recycle::allocate`, let go of when the job is consumed.
    task: Option<NonNull<dyn Runnable>>,
}

// SAFETY: a `Job` is the queue side's ownership of its task, and tasks are
// `Send + Sync` (`Runnable`'s supertraits): the body and result cross
// threads only through the cell's state machine.
unsafe impl Send for Job {}

/// Allocates `cell` for its two sides (in a recycled block, `recycle/`):
/// the pointers the job and the handle hold, to be let go of through
/// `ownership::release`.
fn into_raw<C>(cell: C) -> NonNull<C> {
    crate::recycle::allocate(cell)
}

impl Job {
    /// Wraps `f` into a job and the handle that receives its result.
    pub fn new<F, T>(f: F) -> (Job, JoinHandle<T>)
    where
        F: FnOnce() -> T + Send + 'static,
        T: Send + 'static,
    {
        Self::from_body(move || Ok(f()))
    }

    /// Like [`new`](Job::new), but the body is skipped, and the handle
    /// reports [`JoinError::Cancelled`], if `token` is cancelled by the time
    /// the job starts. The body receives a [`CancellationContext`] to notice
    /// a later cancellation itself.
    pub fn cancellable<F, T>(token: &CancellationToken, f: F) -> (Job, JoinHandle<T>)
    where
        F: FnOnce(&CancellationContext) -> T + Send + 'static,
        T: Send + 'static,
    {
        let context = token.context();
        Self::from_body(move || {
            if context.is_cancelled() {
                Err(JoinError::Cancelled)
            } else {
                Ok(f(&context))
            }
        })
    }

    /// A fire-and-forget job: no handle and no result slot, only the closure
    /// and a state word. A panic in it is caught; its message goes to the
    /// `report` of [`run_reporting`](Job::run_reporting).
    ///
    /// ```
    /// use rt_handle::{Job, RunOutcome};
    ///
    /// let job = Job::detached(|| panic!("lost?"));
    /// let mut seen = String::new();
    /// # let prev = std::panic::take_hook(); std::panic::set_hook(Box::new(|_| {}));
    /// assert_eq!(job.run_reporting(|msg| seen = msg.to_owned()), RunOutcome::Panicked);
    /// # std::panic::set_hook(prev);
    /// assert_eq!(seen, "lost?");
    /// ```
    pub fn detached<F>(f: F) -> Job
    where
        F: FnOnce() + Send + 'static,
    {
        let cell: NonNull<dyn Runnable> = into_raw(DetachedCell::new(f));
        Job { task: Some(cell) }
    }

    /// A task of a scope: `f` may borrow data that lives for `'scope`, and
    /// `scope` hears of the task's completion.
    ///
    /// # Safety
    ///
    /// The caller must not let `'scope` end before `scope` has heard
    /// [`task_completed`](ScopeCompletion::task_completed) from this task
    /// (the job runs, is cancelled, or is dropped, which rejects it). After
    /// that call the allocation still lives as long as the job and the
    /// handle are around, but it holds nothing borrowed for `'scope` but a
    /// raw pointer to `scope`, which it never dereferences again.
    pub unsafe fn scoped<'scope, F, T>(
        scope: &'scope dyn ScopeCompletion,
        f: F,
    ) -> (Job, ScopedJoinHandle<'scope, T>)
    where
        F: FnOnce() -> T + Send + 'scope,
        T: Send + 'scope,
    {
        let scope: NonNull<dyn ScopeCompletion + 'scope> = NonNull::from(scope);
        // SAFETY: only the trait object's lifetime bound is erased; the
        // pointer is dereferenced only while the scope lives (`ScopeRef`).
        let scope: NonNull<dyn ScopeCompletion> = unsafe { std::mem::transmute(scope) };
        let cell = into_raw(TaskCell::new(move || Ok(f()), ScopeRef(scope)));
        let handle = ScopedJoinHandle::new(cell as NonNull<dyn JoinTarget<T> + 'scope>);
        let task: NonNull<dyn Runnable + 'scope> = cell;
        // The caller keeps `'scope` alive until the task completes, after
        // which the cell holds no `'scope` data (the body was consumed or
        // dropped; the result went to the handle, which cannot outlive
        // `'scope`, or was dropped by the completer); see `JOIN_STATE.md`.
        // SAFETY: so only the trait object's lifetime bound changes, not its layout.
        let task: NonNull<dyn Runnable + 'static> = unsafe { std::mem::transmute(task) };
        (Job { task: Some(task) }, handle)
    }

    fn from_body<F, T>(body: F) -> (Job, JoinHandle<T>)
    where
        F: FnOnce() -> Result<T, JoinError> + Send + 'static,
        T: Send + 'static,
    {
        let cell = into_raw(TaskCell::new(body, ()));
        let handle = JoinHandle::new(cell as NonNull<dyn JoinTarget<T>>);
        (Job { task: Some(cell) }, handle)
    }

    /// Runs the task on the calling thread, unless it was cancelled while
    /// queued (or a joiner ran it already). A panic in the body (or in
    /// dropping its captures or an unjoined result) is caught and never
    /// unwinds out of `run`.
    #[inline]
    pub fn run(self) -> RunOutcome {
        self.run_as(None, |_| {}, None)
    }

    /// Like [`run`](Job::run); if the job is [detached](Job::detached) and
    /// panics, `report` receives the panic message (a job with a handle
    /// reports its panic through the handle instead).
    #[inline]
    pub fn run_reporting(self, report: impl FnMut(&str)) -> RunOutcome {
        self.run_as(None, report, None)
    }

    /// Completes the job as [`JoinError::Cancelled`] without running it.
    /// False when it had already started or finished.
    pub fn cancel(mut self) -> bool {
        self.consume(|task| task.finish_unrun(JoinError::Cancelled))
    }

    /// Completes the job as [`JoinError::Rejected`] without running it: what
    /// an executor does with a job it cannot accept. Dropping the job does
    /// the same.
    pub fn reject(self) {
        drop(self);
    }

    /// True once the job has completed: run, cancelled or rejected.
    pub fn is_finished(&self) -> bool {
        self.task().is_some_and(|t| t.is_finished())
    }

    /// The cell, while the job holds it (always, until it is consumed).
    fn task(&self) -> Option<&dyn Runnable> {
        // SAFETY: the job owns its side of the task until `consume`, so
        // the cell is live while the job holds the pointer.
        self.task.map(|task| unsafe { task.as_ref() })
    }

    /// Uses the task one last time, then lets go of the queue side. If the
    /// handle is gone too, the allocation is freed here, and with it a
    /// closure that never ran: a panic in its `Drop` is contained, so the
    /// worker survives it.
    fn consume<R>(&mut self, last_use: impl FnOnce(&dyn Runnable) -> R) -> R {
        let task = self
            .task
            .take()
            .expect("a job holds its task until consumed");
        // SAFETY: the job owned its side until the `take` above.
        let result = last_use(unsafe { task.as_ref() });
        // SAFETY: the cell came from `into_raw`, the job owned the queue
        // side, and `last_use` has returned: nothing here touches the cell
        // again.
        unsafe { release(task, JOB_DONE) };
        result
    }
}

impl JobControl for Job {
    #[inline]
    fn run_as(
        mut self,
        tag: Option<RunnerTag>,
        mut report: impl FnMut(&str),
        wrapper: Option<BodyWrapper<'_>>,
    ) -> RunOutcome {
        self.consume(|task| match wrapper {
            None => task.run(tag, &mut report),
            Some(wrapper) => task.run_wrapped(tag, &mut report, wrapper),
        })
    }

    fn run_joined(mut self, joining: Joining<'_>, wrapper: Option<BodyWrapper<'_>>) -> RunOutcome {
        assert_eq!(
            joining.task().id(),
            self.id(),
            "run_joined: the handle joined is another task's"
        );
        let task = self
            .task
            .take()
            .expect("a job holds its task until consumed");
        // `run_joined` lets go of the queue side itself: no `release` here.
        // The job owned its side until the `take` above; `joining` (made
        // only inside this task's join, kept on its thread) shows that this
        // thread holds the other.
        // SAFETY: both sides of the task are this thread's, so the cell is live.
        unsafe { task.as_ref().run_joined(wrapper) }
    }

    fn discard(mut self) -> Discarded {
        self.consume(|task| task.discard())
    }

    fn set_owner(&self, owner: PoolId) {
        if let Some(task) = self.task() {
            task.set_owner(owner);
        }
    }

    fn set_stamp(&self, stamp: Stamp) {
        if let Some(task) = self.task() {
            task.set_stamp(stamp);
        }
    }

    fn stamp(&self) -> Option<Stamp> {
        self.task().and_then(|task| task.stamp())
    }

    fn awaited(&self) -> Awaited {
        self.task().map_or(Awaited::Never, |task| task.awaited())
    }

    fn scope(&self) -> Option<ScopeId> {
        self.task().and_then(|task| task.scope())
    }

    fn id(&self) -> TaskId {
        TaskId::of(self.task.expect("a job holds its task until consumed"))
    }
}

impl Drop for Job {
    fn drop(&mut self) {
        if self.task.is_some() {
            self.consume(|task| task.finish_unrun(JoinError::Rejected));
        }
    }
}

impl fmt::Debug for Job {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Job")
            .field("finished", &self.is_finished())
            .finish()
    }
}
