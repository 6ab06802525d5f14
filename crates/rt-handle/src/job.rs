//! The type-erased unit of work that executors queue: one thin pointer to
//! a task's header.

use std::fmt;
use std::mem::ManuallyDrop;
use std::ptr::NonNull;

use crate::body_wrapper::BodyWrapper;
use crate::completion::{ScopeCompletion, ScopeRef};
use crate::detached_cell::DetachedCell;
use crate::header::JOB_DONE;
use crate::header::{Header, TaskRef};
use crate::ids::{Awaited, PoolId, RunnerTag, ScopeId, Stamp, TaskId};
use crate::join_handle::ScopedJoinHandle;
use crate::outcome::Discarded;
use crate::ownership::{release, release_queue_side};
use crate::raw::JobControl;
use crate::raw::Joining;
use crate::task_cell::TaskCell;
use crate::token::{TokenLink, WithToken};
use crate::{CancellationContext, CancellationToken, JoinError, JoinHandle, Priority, RunOutcome};

/// A task with its type erased: what an [`Executor`](crate::Executor) queues.
///
/// A `Job` and its [`JoinHandle`] share one heap allocation holding the
/// closure, the state word and the result slot. The executor calls
/// [`run`](Job::run) exactly once; the result goes to the handle. A `Job`
/// is one thin pointer (so is an `Option<Job>`).
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
/// assert_eq!(size_of::<Option<Job>>(), size_of::<usize>());
/// ```
pub struct Job {
    /// The queue side's ownership of the task's allocation (`ownership.rs`):
    /// the header of a cell made by `recycle::allocate`, let go of when the
    /// job is consumed.
    task: NonNull<Header>,
}

// SAFETY: a `Job` is the queue side's ownership of its task; every cell's
// constructor requires its closure and result to be `Send`, and they cross
// threads only through the cell's state machine.
unsafe impl Send for Job {}

impl Job {
    /// Wraps `f` into a job and the handle that receives its result.
    pub fn new<F, T>(f: F) -> (Job, JoinHandle<T>)
    where
        F: FnOnce() -> T + Send + 'static,
        T: Send + 'static,
    {
        Self::from_body(move || Ok(f()))
    }

    /// Like [`new`](Job::new), but cancelled by `token`: while the job is
    /// queued (not yet run, discarded, cancelled or dropped),
    /// [`CancellationToken::cancel`] cancels it before it returns (the
    /// handle then reports [`JoinError::Cancelled`], and the job, when run,
    /// does nothing); if the token is cancelled when the job starts, the
    /// body is skipped. The body receives a [`CancellationContext`] to
    /// notice a later cancellation itself.
    ///
    /// The token keeps the job on its list of queued tasks from now until
    /// the job is consumed, unless it is cancelled already.
    pub fn cancellable<F, T>(token: &CancellationToken, f: F) -> (Job, JoinHandle<T>)
    where
        F: FnOnce(&CancellationContext) -> T + Send + 'static,
        T: Send + 'static,
    {
        let link = TokenLink::new(token.context());
        let task = TaskCell::allocate(WithToken(f), link);
        // SAFETY: a new cell of a task with a handle, whose output is a `T`;
        // this is its handle side.
        let handle = unsafe { JoinHandle::new(task) };
        // SAFETY: the cell is new and live, its queue side is ours (the job
        // below) and not handed out yet.
        unsafe {
            (task
                .as_ref()
                .vtable
                .token
                .expect("a cancellable task has a token link"))(task)
            .as_ref()
            .register(task)
        };
        (Job { task }, handle)
    }

    /// A fire-and-forget job: no handle and no result slot, only the closure
    /// and the header. A panic in it is caught; its message goes to the
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
        Job {
            task: DetachedCell::allocate(f, ()),
        }
    }

    /// A task of a scope: `f` may borrow data that lives for `'scope`, and
    /// `scope` hears of the task's completion. For executors that offer
    /// scopes (rt-core's `Scope` is made of it), hence hidden from the
    /// documentation like the rest of their plumbing.
    ///
    /// # Safety
    ///
    /// The caller must not let `'scope` end before `scope` has heard
    /// [`task_completed`](ScopeCompletion::task_completed) from this task
    /// (the job runs, is cancelled, or is dropped, which rejects it). After
    /// that call the allocation still lives as long as the job and the
    /// handle are around, but it holds nothing borrowed for `'scope` but a
    /// raw pointer to `scope`, which it never dereferences again.
    #[doc(hidden)]
    pub unsafe fn scoped<'scope, F, T>(
        scope: &'scope dyn ScopeCompletion,
        f: F,
    ) -> (Job, ScopedJoinHandle<'scope, T>)
    where
        F: FnOnce() -> T + Send + 'scope,
        T: Send + 'scope,
    {
        // The job's pointer does not carry `'scope`: the caller keeps
        // `'scope` alive until the task completes, after which the cell
        // holds no `'scope` data (the body was consumed or dropped; the
        // result went to the handle, which cannot outlive `'scope`, or was
        // dropped by the completer); see `JOIN_STATE.md`.
        let task = TaskCell::allocate(move || Ok(f()), ScopeRef::new(scope));
        // SAFETY: a new cell of a task with a handle; this is its handle
        // side.
        let handle = unsafe { ScopedJoinHandle::new(task) };
        (Job { task }, handle)
    }

    /// A task of a scope without a handle: `f` may borrow data that lives
    /// for `'scope`, and `scope` hears of the task's completion, with the
    /// payload of its panic if it panicked (rayon's `Scope::spawn`). It
    /// costs no result slot, and no atomic operation on the task's state
    /// word when it runs: nobody else can reach the task. For executors that
    /// offer scopes, as [`scoped`](Job::scoped) is.
    ///
    /// # Safety
    ///
    /// As [`scoped`](Job::scoped): the caller must not let `'scope` end
    /// before `scope` has heard
    /// [`task_completed`](ScopeCompletion::task_completed) from this task.
    #[doc(hidden)]
    pub unsafe fn scoped_detached<'scope, F>(scope: &'scope dyn ScopeCompletion, f: F) -> Job
    where
        F: FnOnce() + Send + 'scope,
    {
        // The job's pointer does not carry `'scope`: the caller keeps it
        // alive until the task completes, after which the cell holds no
        // `'scope` data (the body was consumed or dropped).
        Job {
            task: DetachedCell::allocate(f, ScopeRef::new(scope)),
        }
    }

    fn from_body<F, T>(body: F) -> (Job, JoinHandle<T>)
    where
        F: FnOnce() -> Result<T, JoinError> + Send + 'static,
        T: Send + 'static,
    {
        let task = TaskCell::allocate(body, ());
        // SAFETY: a new cell of a task with a handle, whose output is a `T`;
        // this is its handle side.
        let handle = unsafe { JoinHandle::new(task) };
        (Job { task }, handle)
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
    pub fn cancel(self) -> bool {
        // SAFETY: the queue side is the job's, handed over here.
        unsafe { end_unrun(self.into_header(), JoinError::Cancelled) }.is_ok()
    }

    /// Completes the job as [`JoinError::Rejected`] without running it: what
    /// an executor does with a job it cannot accept. Dropping the job does
    /// the same.
    pub fn reject(self) {
        drop(self);
    }

    /// True once the job has completed: run, cancelled or rejected.
    pub fn is_finished(&self) -> bool {
        self.task().is_finished()
    }

    /// The job as a bare pointer, for a queue entry that stores its own
    /// kind of work in one word: the queue side's ownership of the task
    /// passes to the pointer, to be turned back into a `Job` exactly once
    /// with [`from_raw`](Job::from_raw) (or the task leaks, and its handle
    /// waits for ever). The pointer is not null and is aligned to at least
    /// 8 bytes.
    ///
    /// ```
    /// use rt_handle::Job;
    ///
    /// let (job, handle) = Job::new(|| 7);
    /// let raw = job.into_raw();
    /// // SAFETY: `raw` came from `into_raw` and is turned back once.
    /// let job = unsafe { Job::from_raw(raw) };
    /// job.run();
    /// assert_eq!(handle.join(), Ok(7));
    /// ```
    pub fn into_raw(self) -> std::ptr::NonNull<()> {
        self.into_header().cast()
    }

    /// The job [`into_raw`](Job::into_raw) turned into `raw`.
    ///
    /// # Safety
    ///
    /// `raw` came from [`Job::into_raw`], and no `Job` was made from it
    /// since: the new job takes over the queue side's ownership that the
    /// pointer held.
    pub unsafe fn from_raw(raw: std::ptr::NonNull<()>) -> Job {
        Job { task: raw.cast() }
    }

    /// The task, while the job holds it.
    #[inline(always)]
    fn task(&self) -> TaskRef<'_> {
        // SAFETY: the job owns its side until it is consumed, so the cell
        // lives at least as long as the borrow of `self`.
        unsafe { TaskRef::new(self.task) }
    }

    /// Gives up the job without dropping it: the queue side's ownership
    /// passes to the pointer returned.
    #[inline(always)]
    fn into_header(self) -> NonNull<Header> {
        ManuallyDrop::new(self).task
    }
}

/// The queue side ends its task without running it (a drain's cancel, a
/// rejection), and lets go: leaves the token's list, claims the task and
/// drops its body, or finds who claimed it before. `Err`: what to count for
/// a task somebody else claimed. If the handle is gone too, the allocation
/// is freed here, and with it a closure that never ran: a panic in its
/// `Drop` is contained, so the worker survives it.
///
/// # Safety
///
/// `task` heads a live cell whose queue side the caller owns and hands
/// over; the caller does not touch it again.
unsafe fn end_unrun(task: NonNull<Header>, reason: JoinError) -> Result<(), RunOutcome> {
    // SAFETY: the queue side is owned until the `release` below.
    let this = unsafe { TaskRef::new(task) };
    this.leave_token();
    match this.finish_unrun(reason) {
        Ok(()) => {
            // SAFETY: the queue side's last access was above.
            unsafe { release(task, JOB_DONE) };
            Ok(())
        }
        Err(state) => {
            let outcome = this.claimed_by(state);
            // SAFETY: as above.
            unsafe { release_queue_side(task, state) };
            Err(outcome)
        }
    }
}

impl JobControl for Job {
    #[inline]
    fn run_as(
        self,
        tag: Option<RunnerTag>,
        mut report: impl FnMut(&str),
        wrapper: Option<BodyWrapper<'_>>,
    ) -> RunOutcome {
        let task = self.into_header();
        // SAFETY: the queue side is owned until `run` lets go of it.
        let run = unsafe { task.as_ref() }.vtable.run;
        // SAFETY: the cell is live and of the vtable's type; the queue side
        // passes to `run`, which lets go of it.
        unsafe { run(task, tag, &mut report, wrapper) }
    }

    fn run_joined(self, joining: Joining<'_>, wrapper: Option<BodyWrapper<'_>>) -> RunOutcome {
        assert_eq!(
            joining.task().id(),
            self.id(),
            "run_joined: the handle joined is another task's"
        );
        // `run_joined` lets go of the queue side itself: no `release` here.
        // `joining` (made only inside this task's join, kept on its thread)
        // shows that this thread holds the handle side, so the cell stays
        // live throughout.
        let task = self.into_header();
        // SAFETY: as above.
        unsafe { TaskRef::new(task) }.run_joined(wrapper)
    }

    fn discard(self) -> Discarded {
        // SAFETY: the queue side is the job's, handed over here.
        match unsafe { end_unrun(self.into_header(), JoinError::Cancelled) } {
            Ok(()) => Discarded::Cancelled,
            // A joiner runs or ran the task, or a canceller that told the
            // executor counted it: nothing to count.
            Err(RunOutcome::Skipped) => Discarded::Skipped,
            // Cancelled through its handle or its token, untold: this entry
            // counts it.
            Err(_) => Discarded::AlreadyCancelled,
        }
    }

    #[inline]
    fn set_owner(&self, owner: PoolId, class: Priority) {
        self.task().header().set_owner(owner, class);
    }

    #[inline]
    fn set_stamp(&self, stamp: Stamp) {
        self.task().header().set_stamp(stamp);
    }

    #[inline]
    fn stamp(&self) -> Option<Stamp> {
        self.task().stamp()
    }

    #[inline]
    fn awaited(&self) -> Awaited {
        self.task().awaited()
    }

    #[inline]
    fn scope(&self) -> Option<ScopeId> {
        self.task().scope()
    }

    #[inline]
    fn id(&self) -> TaskId {
        self.task().id()
    }
}

impl Drop for Job {
    fn drop(&mut self) {
        // SAFETY: the job owns the queue side, and is being dropped.
        let _ = unsafe { end_unrun(self.task, JoinError::Rejected) };
    }
}

impl fmt::Debug for Job {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Job")
            .field("finished", &self.is_finished())
            .finish()
    }
}
