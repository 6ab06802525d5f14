//! A task with a handle: one allocation holding the [`Header`], the
//! task's completion (its scope, for a task of a scope) and the stage (the
//! closure until it runs, then its output until the handle takes it).
//!
//! The functions here are the cell type's vtable entries, the steps that
//! need `F`, `T` and `C`; the protocol around them (claim, complete, wake,
//! cancel, let go) is written once, in `header.rs`. See `JOIN_STATE.md`
//! beside this file. In short: whoever
//! moves the state out of "not started" (a worker running the task, a
//! joiner running it inline, or a canceller) owns the stage exclusively
//! until it sets `COMPLETE`; after `COMPLETE` the single handle owns it,
//! or, if the handle is gone, the completer drops the output at once.
//!
//! Also here, the two sides that own such a cell (`JOIN_STATE.md`, "Who
//! frees the task"): the queue side, the [`Job`], the type-erased unit of
//! work that executors queue, one thin pointer to a task's header; and the
//! handle side, [`JoinHandle`] (and [`ScopedJoinHandle`], [`CancelOnDrop`]),
//! the caller's side: wait for the result, or cancel the task. A spawned
//! task's cell, both its sides and their letting go are thus one file.

use std::fmt;
use std::future::Future;
use std::marker::PhantomData;
use std::mem::{ManuallyDrop, MaybeUninit};
use std::panic::{catch_unwind, AssertUnwindSafe, RefUnwindSafe, UnwindSafe};
use std::pin::Pin;
use std::ptr::NonNull;
use std::task::{Context, Poll};

use crate::body_wrapper::{call_inside, BodyWrapper};
use crate::completion::{Completion, ScopeCompletion, ScopeRef};
use crate::detached_cell::DetachedCell;
use crate::header::{
    drop_handle, let_go, outcome_bit, release, release_queue_side, tag_bits, Header, PanicReport,
    Payload, TaskRef, VTable, CANCELLED, COMPLETE, HANDLE_DONE, JOB_DONE, PINNED, REJECTED,
    RUNNING, TAKEN,
};
use crate::ids::{Awaited, PoolId, RunnerTag, ScopeId, Stamp, TaskId};
use crate::outcome::Discarded;
use crate::raw::{waiting, JobControl, Joining};
use crate::sync::{drop_quietly, Ordering, UnsafeCell};
use crate::token::{TokenLink, WithToken};
use crate::{
    CancellationContext, CancellationToken, JoinError, PanicMessage, Priority, RunOutcome,
    TaskStatus,
};

/// What the cell holds besides its header and completion.
enum Stage<F, T> {
    /// The closure, until someone claims the task.
    Pending(F),
    /// Nothing: the body is running, or the task ended without an output
    /// (cancelled or rejected), or the output was taken or dropped.
    Empty,
    /// The body's value, until the handle takes it.
    Value(T),
    /// The body's panic, until the handle takes it.
    Panicked(PanicMessage),
}

/// What a cell's stage holds until the task runs: the body. Its output is
/// the task's value, or `Err(Cancelled)` for a body that its token skipped.
pub(crate) trait Body<T, C>: Send {
    /// Runs the body of a task whose completion is a token link
    /// (`C::HAS_TOKEN`): the body finds its context there.
    fn call(self, completion: &C) -> Result<T, JoinError>;
    /// Runs the body of any other task, which needs nothing from its cell:
    /// the call the worker's unwinding guard wraps then captures the body
    /// alone.
    fn call_alone(self) -> Result<T, JoinError>;
}

/// A plain closure, for a task without a token.
impl<F, T, C> Body<T, C> for F
where
    F: FnOnce() -> Result<T, JoinError> + Send,
{
    #[inline(always)]
    fn call(self, _: &C) -> Result<T, JoinError> {
        self()
    }

    #[inline(always)]
    fn call_alone(self) -> Result<T, JoinError> {
        self()
    }
}

/// A task queued with a token: its closure gets the token's context, and
/// does not run if the token was cancelled first (`TokenLink::call`).
impl<F, T> Body<T, TokenLink> for WithToken<F>
where
    F: FnOnce(&CancellationContext) -> T + Send,
{
    #[inline]
    fn call(self, link: &TokenLink) -> Result<T, JoinError> {
        link.call(self.0)
    }

    fn call_alone(self) -> Result<T, JoinError> {
        unreachable!("a task queued with a token is called with its token link")
    }
}

/// One task with a handle. `#[repr(C)]` with the header first: a pointer
/// to the cell is a pointer to its header.
#[repr(C)]
pub(crate) struct TaskCell<F, T, C> {
    header: Header,
    completion: C,
    stage: UnsafeCell<Stage<F, T>>,
}

/// A result nobody will take: the payload of a panic, to hand to the
/// completion; a value is dropped here, with a panic of its `Drop`
/// contained.
#[inline(always)]
fn unjoined_panic<T>(result: Result<T, JoinError>) -> Option<Payload> {
    match result {
        Ok(value) => {
            drop_quietly(value);
            None
        }
        Err(JoinError::Panicked(message)) => Some(message.into_payload()),
        // `Cancelled` holds nothing.
        Err(_) => None,
    }
}

/// What a run of the body counts as.
#[inline(always)]
fn outcome_of<T>(result: &Result<T, JoinError>) -> RunOutcome {
    match result {
        Ok(_) => RunOutcome::Completed,
        Err(JoinError::Panicked(_)) => RunOutcome::Panicked,
        Err(_) => RunOutcome::Cancelled,
    }
}

impl<F, T, C> TaskCell<F, T, C>
where
    F: Body<T, C>,
    T: Send,
    C: Completion,
{
    /// The cell type's vtable: one static table per `TaskCell<F, T, C>`.
    const VTABLE: VTable = VTable {
        run: Self::run,
        call: Self::call,
        drop_body: Self::drop_body,
        take_output: Self::take_output,
        drop_output: Self::drop_output,
        scope: if C::IN_SCOPE { Some(Self::scope) } else { None },
        leave_token: if C::HAS_TOKEN {
            Some(Self::leave_token)
        } else {
            None
        },
        dealloc: Self::dealloc,
    };

    /// Moves a new cell for `body` into a recycled block (`recycle/`):
    /// the pointer the job and the handle share, each owning one side
    /// (the end of `header.rs`).
    pub(crate) fn allocate(body: F, completion: C) -> NonNull<Header> {
        rt_queue::path_step!();
        crate::recycle::allocate(Self {
            header: Header::new(&Self::VTABLE, 0),
            completion,
            stage: UnsafeCell::new(Stage::Pending(body)),
        })
        .cast()
    }

    /// The cell `header` heads.
    ///
    /// # Safety
    ///
    /// `header` heads a live `TaskCell<F, T, C>` (its vtable is this
    /// type's), which stays live for `'a`.
    #[inline(always)]
    unsafe fn cell<'a>(header: NonNull<Header>) -> &'a Self {
        rt_queue::path_step!();
        // SAFETY: per the contract; the pointer came from `allocate` (cast
        // back, with the whole cell's provenance).
        unsafe { header.cast::<Self>().as_ref() }
    }

    /// Takes the body out of the stage.
    ///
    /// # Safety
    ///
    /// The caller owns the stage (it claimed the task, or it is the queue
    /// side once the handle let go, or it holds both sides), and the task
    /// has not started.
    #[inline(always)]
    unsafe fn take_body(&self) -> F {
        rt_queue::path_step!();
        // SAFETY: no other thread reads or writes the stage meanwhile (the
        // contract).
        self.stage.with_mut(|stage| unsafe {
            match std::mem::replace(&mut *stage, Stage::Empty) {
                Stage::Pending(body) => body,
                _ => unreachable!("a task that has not started holds its body"),
            }
        })
    }

    /// Runs `body` (the cell's, taken out of its stage), inside `wrapper`
    /// if one is given, catching a panic. Never unwinds. A body that needs
    /// nothing from the cell (every task without a token) is called without
    /// a reference to it, so that the calls below capture the body alone.
    #[inline(always)]
    fn run_body(&self, wrapper: Option<BodyWrapper<'_>>, body: F) -> Result<T, JoinError> {
        rt_queue::path_step!();
        let call = |body: F| {
            if C::HAS_TOKEN {
                Self::catch(|| body.call(&self.completion))
            } else {
                Self::catch(|| body.call_alone())
            }
        };
        // Unwrapped (every task without a wrapper), the body is called
        // here; inside a wrapper, out of line.
        match wrapper {
            None => call(body),
            Some(wrapper) => call_inside(wrapper, body, call),
        }
    }

    /// Calls `body`, catching a panic. Never unwinds.
    #[inline(always)]
    fn catch(body: impl FnOnce() -> Result<T, JoinError>) -> Result<T, JoinError> {
        rt_queue::path_step!();
        match catch_unwind(AssertUnwindSafe(body)) {
            Ok(Ok(value)) => Ok(value),
            Ok(Err(JoinError::Cancelled)) => Err(JoinError::Cancelled),
            Ok(Err(other)) => unreachable!("a body only reports cancellation, not {other:?}"),
            Err(payload) => Err(JoinError::Panicked(PanicMessage::from_payload(payload))),
        }
    }

    /// Vtable `run`: the queue side runs the task and lets go of it.
    ///
    /// # Safety
    ///
    /// `header` heads a live cell of this type whose queue side the caller
    /// owns and hands over; it does not touch the cell again.
    unsafe fn run(
        header: NonNull<Header>,
        tag: Option<RunnerTag>,
        _report: PanicReport<'_>,
        wrapper: Option<BodyWrapper<'_>>,
    ) -> RunOutcome {
        rt_queue::path_step!();
        // SAFETY: the queue side keeps the cell live until it lets go below.
        let this = unsafe { Self::cell(header) };
        // SAFETY: as above.
        let task = unsafe { TaskRef::new(header) };
        // A task queued with a token leaves the token's list first (known
        // to the compiler: nothing for any other type): from then on no
        // cancel of the token reaches it, and one that claimed it before is
        // seen below.
        if C::HAS_TOKEN {
            if let Some(link) = this.completion.token() {
                link.leave();
            }
        }
        // Acquire pairs with the Release of the handle's letting go: the
        // handle is done with the cell for good, and only the handle could
        // claim, cancel or join the task besides this queue side (a token's
        // cancel, the third, can no longer reach it).
        let state = this.header.state.load(Ordering::Acquire);
        if state & (HANDLE_DONE | RUNNING | COMPLETE) == HANDLE_DONE {
            // Alone: no claim, no completion to publish; the result is
            // dropped at once, as a completer does when the handle is gone.
            // SAFETY: nobody else can reach the stage any more.
            let result = this.run_body(wrapper, unsafe { this.take_body() });
            let outcome = outcome_of(&result);
            task.tell_completed(unjoined_panic(result));
            // SAFETY: the handle let go before (seen above), and this was
            // the queue side's last access.
            unsafe { Self::dealloc(header) };
            return outcome;
        }
        let outcome = match this.header.claim(tag_bits(tag)) {
            Ok(()) => {
                // SAFETY: the claim succeeded: this thread owns the stage.
                let outcome = unsafe { Self::call(header, wrapper) };
                task.complete(outcome_bit(outcome));
                outcome
            }
            Err(state) if state & PINNED != 0 => return Self::claimed_pinned(task, header, state),
            Err(state) => task.claimed_by(state),
        };
        // SAFETY: the queue side's last access to the cell was above.
        if unsafe { let_go(header, JOB_DONE) } {
            // SAFETY: both sides have let go.
            unsafe { Self::dealloc(header) };
        }
        outcome
    }

    /// The queue side found the task claimed by a token's cancel that may
    /// still work on the cell (`PINNED`): what it counts, then it lets go
    /// as the pin allows (`release_queue_side`). Out of line: rare.
    #[cold]
    #[inline(never)]
    fn claimed_pinned(task: TaskRef<'_>, header: NonNull<Header>, state: usize) -> RunOutcome {
        let outcome = task.claimed_by(state);
        // SAFETY: the queue side's last access to the cell was above.
        unsafe { release_queue_side(header, state) };
        outcome
    }

    /// Vtable `call`: runs the body and stores its output.
    ///
    /// # Safety
    ///
    /// `header` heads a live cell of this type, whose stage the caller owns
    /// and which has not started.
    unsafe fn call(header: NonNull<Header>, wrapper: Option<BodyWrapper<'_>>) -> RunOutcome {
        rt_queue::path_step!();
        // SAFETY: per the contract.
        let this = unsafe { Self::cell(header) };
        // SAFETY: per the contract.
        let result = this.run_body(wrapper, unsafe { this.take_body() });
        let outcome = outcome_of(&result);
        let stage = match result {
            Ok(value) => Stage::Value(value),
            Err(JoinError::Panicked(message)) => Stage::Panicked(message),
            // Cancelled by its token: the state's bit says so.
            Err(_) => return outcome,
        };
        // SAFETY: the caller still owns the stage, which `take_body` left
        // empty (nothing to drop in it).
        this.stage.with_mut(|s| unsafe { s.write(stage) });
        outcome
    }

    /// Vtable `drop_body`.
    ///
    /// # Safety
    ///
    /// As [`call`](Self::call).
    unsafe fn drop_body(header: NonNull<Header>) {
        // SAFETY: per the contract.
        let this = unsafe { Self::cell(header) };
        // The closure's captures may panic when dropped; that must not
        // unwind into a worker or a canceller.
        // SAFETY: per the contract.
        drop_quietly(unsafe { this.take_body() });
    }

    /// Takes the output out of the stage.
    ///
    /// # Safety
    ///
    /// The task completed with an output, which the caller (the handle, or
    /// the completer once the handle is gone) owns and nobody took.
    unsafe fn output(header: NonNull<Header>) -> Result<T, JoinError> {
        rt_queue::path_step!();
        // SAFETY: per the contract.
        let this = unsafe { Self::cell(header) };
        // SAFETY: per the contract, no other thread touches the stage.
        this.stage.with_mut(|stage| unsafe {
            match std::mem::replace(&mut *stage, Stage::Empty) {
                Stage::Value(value) => Ok(value),
                Stage::Panicked(message) => Err(JoinError::Panicked(message)),
                _ => unreachable!("a task that completed with an output holds it until taken"),
            }
        })
    }

    /// Vtable `take_output`.
    ///
    /// # Safety
    ///
    /// As [`output`](Self::output); `out` points at room for a
    /// `Result<T, JoinError>`.
    unsafe fn take_output(header: NonNull<Header>, out: NonNull<()>) {
        rt_queue::path_step!();
        // SAFETY: per the contract.
        let output = unsafe { Self::output(header) };
        // SAFETY: per the contract.
        unsafe { out.cast::<Result<T, JoinError>>().write(output) };
    }

    /// Vtable `drop_output`.
    ///
    /// # Safety
    ///
    /// As [`output`](Self::output).
    unsafe fn drop_output(header: NonNull<Header>) -> Option<Payload> {
        // SAFETY: per the contract.
        unjoined_panic(unsafe { Self::output(header) })
    }

    /// Vtable `scope` (for a task of a scope).
    ///
    /// # Safety
    ///
    /// `header` heads a live cell of this type.
    unsafe fn scope(header: NonNull<Header>) -> NonNull<dyn ScopeCompletion> {
        // SAFETY: per the contract.
        unsafe { Self::cell(header) }.completion.scope()
    }

    /// Vtable `leave_token` (for a task queued with a token).
    ///
    /// # Safety
    ///
    /// `header` heads a live cell of this type.
    unsafe fn leave_token(header: NonNull<Header>) {
        // SAFETY: per the contract.
        let link = unsafe { Self::cell(header) }.completion.token();
        link.expect("a cell type with a token has a token link")
            .leave();
    }

    /// Vtable `dealloc`.
    ///
    /// # Safety
    ///
    /// `header` heads a cell of this type made by `allocate`, which both
    /// sides have let go of.
    unsafe fn dealloc(header: NonNull<Header>) {
        // SAFETY: per the contract.
        unsafe { crate::recycle::deallocate(header.cast::<Self>()) };
    }
}

// The queue side: `Job`.

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
    /// The queue side's ownership of the task's allocation (the end of `header.rs`):
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
        rt_queue::path_step!();
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
        let task = TaskCell::<WithToken<F>, T, TokenLink>::allocate(WithToken(f), link);
        // SAFETY: a new cell of a task with a handle, whose output is a `T`;
        // this is its handle side.
        let handle = unsafe { JoinHandle::new(task) };
        // SAFETY: the cell is new and live, of this type, and its queue side
        // is ours (the job below) and not handed out yet.
        unsafe {
            TaskCell::<WithToken<F>, T, TokenLink>::cell(task)
                .completion
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
        rt_queue::path_step!();
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
        rt_queue::path_step!();
        // SAFETY: the job owns its side until it is consumed, so the cell
        // lives at least as long as the borrow of `self`.
        unsafe { TaskRef::new(self.task) }
    }

    /// Gives up the job without dropping it: the queue side's ownership
    /// passes to the pointer returned.
    #[inline(always)]
    fn into_header(self) -> NonNull<Header> {
        rt_queue::path_step!();
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
        rt_queue::path_step!();
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
            Err(RunOutcome::Stale) => Discarded::Stale,
            // Cancelled through its handle or its token, untold: this entry
            // counts it.
            Err(_) => Discarded::AlreadyCancelled,
        }
    }

    #[inline]
    fn set_owner(&self, owner: PoolId, class: Priority) {
        rt_queue::path_step!();
        self.task().header().set_owner(owner, class);
    }

    #[inline]
    fn set_stamp(&self, stamp: Stamp) {
        self.task().header().set_stamp(stamp);
    }

    #[inline]
    fn stamp(&self) -> Option<Stamp> {
        rt_queue::path_step!();
        self.task().stamp()
    }

    #[inline]
    fn awaited(&self) -> Awaited {
        rt_queue::path_step!();
        self.task().awaited()
    }

    #[inline]
    fn scope(&self) -> Option<ScopeId> {
        rt_queue::path_step!();
        self.task().scope()
    }

    #[inline]
    fn id(&self) -> TaskId {
        rt_queue::path_step!();
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

// The handle side: `JoinHandle`, `ScopedJoinHandle`, `CancelOnDrop`.
// The caller's side of a task: wait for its result, or cancel it.

/// The methods both handles have besides `join`, written once.
macro_rules! handle_methods {
    () => {
        /// True once the task has finished (run, panicked, cancelled or been
        /// rejected): `join` will then return without waiting.
        pub fn is_finished(&self) -> bool {
            self.inner.task().is_finished()
        }

        /// The task's state right now.
        pub fn status(&self) -> TaskStatus {
            self.inner.task().header().status()
        }

        /// Cancels the task if it has not started: its body will never run
        /// and `join` returns [`JoinError::Cancelled`]. Returns false, and
        /// changes nothing, when the task is already running or finished
        /// (a running task is never interrupted: give it a
        /// `CancellationToken` to poll).
        ///
        /// When it returns true, the task has ended: `status()` says
        /// `Cancelled`, a waiting `join` has been woken, its closure has
        /// been dropped (on this thread; a panic of a capture's `Drop` is
        /// contained), and the executor that queued it has been told, if it
        /// asks to be: the work-stealing runtime counts it in `metrics()`
        /// (`cancelled`) and leaves it out of `stats()` (`queued`) at once,
        /// although its stale queue entry is taken out only later, by a
        /// worker that skips it.
        #[doc(alias = "abort")]
        pub fn cancel(&self) -> bool {
            self.inner.task().cancel()
        }
    };
}

/// An owned permission to wait for a task's result.
///
/// Wait by blocking the thread with [`join`](Self::join), or, in async code,
/// by awaiting the handle: it is a [`Future`] whose output is the same
/// `Result` (ready at once if the task has finished). Awaiting never blocks
/// the async runtime's thread: the task's completion wakes the awaiting
/// future. Polling it again after it returned `Ready` panics, as for most
/// futures.
///
/// Dropping a `JoinHandle` detaches the task: it still runs, and its result
/// is dropped when it finishes (at once, if it already has). To cancel a
/// task that has not started when its handle is dropped (a request that
/// timed out, say), await [`cancel_on_drop`](Self::cancel_on_drop) instead.
///
/// ```
/// use rt_handle::{Job, JoinError};
///
/// let (job, handle) = Job::new(|| -> u32 { panic!("boom") });
/// job.run();
/// assert_eq!(handle.join(), Err(JoinError::Panicked("boom".into())));
/// ```
pub struct JoinHandle<T> {
    inner: Handle<'static, T>,
}

impl<T> JoinHandle<T> {
    /// # Safety
    ///
    /// As [`Handle::new`].
    pub(crate) unsafe fn new(task: NonNull<Header>) -> Self {
        Self {
            // SAFETY: per this function's contract.
            inner: unsafe { Handle::new(task) },
        }
    }

    /// Waits for the task to finish and returns its value, or why there is
    /// none: [`JoinError::Panicked`], [`JoinError::Cancelled`] or
    /// [`JoinError::Rejected`].
    ///
    /// On a thread that is not a worker of the executor that runs the task,
    /// the calling thread spins briefly and then parks; it uses no CPU while
    /// it waits. Called from a task of the work-stealing runtime on a handle
    /// of the same runtime, it never blocks the worker uselessly: a task
    /// that has not started runs at once on the caller's thread, and while
    /// it runs elsewhere the worker helps with work that belongs to it or to
    /// the caller's own task (never with unrelated work), parking only when
    /// there is none; see the runtime's `JOIN_HELPING.md`. On a worker of
    /// an elastic pool (rt-elastic), a task of the same pool that has not
    /// started also runs at once on the caller's thread.
    ///
    /// It blocks the calling thread: do not call it on the thread of an
    /// async runtime, where it would stall every other future; `.await` the
    /// handle there instead.
    ///
    /// # Panics
    ///
    /// If the handle was already awaited to completion (its result is
    /// gone). Called inside the task it joins (or inside work that task
    /// runs while it waits), on a worker of the work-stealing runtime or
    /// of an elastic pool; or on the timer thread of a delayed-task
    /// scheduler (rt-timer) for a callback of that scheduler that only the
    /// timer thread can run (not yet due, or running there): either wait
    /// could never end.
    #[track_caller]
    pub fn join(self) -> Result<T, JoinError> {
        rt_queue::path_step!();
        self.inner.join()
    }

    /// Turns the handle into a future that cancels the task if it is
    /// dropped before the task started: the body never runs, and the task
    /// counts as cancelled in the executor's metrics. A task already
    /// running when the future is dropped finishes, and its result is
    /// dropped. Awaited to the end, it yields what awaiting the handle
    /// would.
    ///
    /// This is what a request with a deadline wants:
    /// `tokio::time::timeout(limit, handle.cancel_on_drop())` stops the
    /// queued work of a request that gave up.
    ///
    /// ```
    /// use rt_handle::{Job, JoinError};
    ///
    /// let (job, handle) = Job::new(|| 42);
    /// drop(handle.cancel_on_drop()); // the request gave up before it ran
    /// job.run(); // the executor takes the job: the body does not run
    /// # let (job2, handle2) = Job::new(|| 42);
    /// # let handle2 = handle2.cancel_on_drop();
    /// # job2.run();
    /// # assert_eq!(handle2.into_handle().join(), Ok(42));
    /// ```
    pub fn cancel_on_drop(self) -> CancelOnDrop<T> {
        CancelOnDrop { handle: Some(self) }
    }

    handle_methods!();

    /// The type-erased view of the task.
    #[cfg(test)]
    pub(crate) fn core(&self) -> TaskRef<'_> {
        self.inner.task()
    }
}

// A panic while a handle is used (in `join`, say) leaves nothing half done
// that another use could observe: the cell's state word changes only by
// atomic steps, and the task's output is moved out whole or not at all
// (tokio's handles are unwind-safe for the same reason).
impl<T> UnwindSafe for JoinHandle<T> {}
impl<T> RefUnwindSafe for JoinHandle<T> {}

impl<T> fmt::Debug for JoinHandle<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("JoinHandle")
            .field("status", &self.status())
            .finish()
    }
}

impl<T> Future for JoinHandle<T> {
    type Output = Result<T, JoinError>;

    /// Ready with the task's result once it finished; until then, the
    /// task's completion wakes the latest waker polled with. No allocation
    /// and no lock: the waker goes into the task's own cell (cloned only
    /// when it differs from the last poll's).
    ///
    /// Panics, as [`join`](Self::join) does, if polled while its task is
    /// unfinished inside that very task (a `block_on` of the task's own
    /// handle, say) on a worker of the work-stealing runtime or of an
    /// elastic pool: the wait could never end.
    fn poll(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Self::Output> {
        self.inner.poll(cx)
    }
}

/// A [`JoinHandle`] that cancels its task if dropped before the task
/// started; see [`JoinHandle::cancel_on_drop`].
pub struct CancelOnDrop<T> {
    /// `None` only once given back by [`into_handle`](Self::into_handle).
    handle: Option<JoinHandle<T>>,
}

impl<T> CancelOnDrop<T> {
    /// The plain handle back (dropping it then detaches the task instead
    /// of cancelling it).
    pub fn into_handle(mut self) -> JoinHandle<T> {
        self.handle
            .take()
            .expect("a CancelOnDrop holds its handle until given back")
    }

    fn handle(&self) -> &JoinHandle<T> {
        self.handle
            .as_ref()
            .expect("a CancelOnDrop holds its handle until given back")
    }

    /// True once the task has finished.
    pub fn is_finished(&self) -> bool {
        self.handle().is_finished()
    }

    /// Cancels the task now if it has not started, as
    /// [`JoinHandle::cancel`] does (tokio's `abort`); false, and nothing
    /// changes, when it is already running or finished. Awaiting the future
    /// afterwards yields [`JoinError::Cancelled`] for a cancelled task.
    ///
    /// ```
    /// use rt_handle::{Job, JoinError};
    ///
    /// let (job, handle) = Job::new(|| 1);
    /// let future = handle.cancel_on_drop();
    /// assert!(future.cancel());
    /// job.run(); // the body does not run
    /// assert_eq!(future.into_handle().join(), Err(JoinError::Cancelled));
    /// ```
    #[doc(alias = "abort")]
    pub fn cancel(&self) -> bool {
        self.handle().cancel()
    }

    /// The task's state right now.
    pub fn status(&self) -> TaskStatus {
        self.handle().status()
    }
}

impl<T> Future for CancelOnDrop<T> {
    type Output = Result<T, JoinError>;

    fn poll(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Self::Output> {
        let handle = self
            .handle
            .as_mut()
            .expect("a CancelOnDrop holds its handle until given back");
        Pin::new(handle).poll(cx)
    }
}

impl<T> Drop for CancelOnDrop<T> {
    fn drop(&mut self) {
        if let Some(handle) = self.handle.take() {
            // False, and nothing changes, if the task already started (or
            // was awaited to completion).
            handle.cancel();
        }
    }
}

impl<T> fmt::Debug for CancelOnDrop<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut d = f.debug_struct("CancelOnDrop");
        if let Some(handle) = &self.handle {
            d.field("status", &handle.status());
        }
        d.finish()
    }
}

/// A handle to a task of a scope: like [`JoinHandle`], but the task may
/// borrow data that lives for `'scope`, so the handle cannot outlive the
/// scope either (`std::thread::ScopedJoinHandle`'s shape).
///
/// Dropping it without joining detaches the task; the scope still waits for
/// it, and if it panicked, the scope panics once all its tasks finished.
pub struct ScopedJoinHandle<'scope, T> {
    inner: Handle<'scope, T>,
}

impl<'scope, T> ScopedJoinHandle<'scope, T> {
    /// # Safety
    ///
    /// As [`Handle::new`].
    pub(crate) unsafe fn new(task: NonNull<Header>) -> Self {
        Self {
            // SAFETY: per this function's contract.
            inner: unsafe { Handle::new(task) },
        }
    }

    /// Waits for the task and returns its value, or why there is none, as
    /// [`JoinHandle::join`] does (and helping in the same way when called
    /// from a task of the same runtime). A panic joined here is the
    /// caller's to handle: the scope does not panic for it.
    #[track_caller]
    pub fn join(self) -> Result<T, JoinError> {
        self.inner.join()
    }

    handle_methods!();

    /// The type-erased view of the task.
    #[cfg(all(test, not(loom)))]
    pub(crate) fn core(&self) -> TaskRef<'_> {
        self.inner.task()
    }
}

impl<T> fmt::Debug for ScopedJoinHandle<'_, T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ScopedJoinHandle")
            .field("status", &self.status())
            .finish()
    }
}

/// What both handles are: one thin pointer to the task, until joined or
/// dropped.
struct Handle<'a, T> {
    /// The handle side's ownership of the task's allocation
    /// (the end of `header.rs`), let go of when the handle is joined or dropped.
    task: NonNull<Header>,
    /// The output, a `T`, is only ever moved out to the joiner; the task
    /// may borrow data that lives for `'a`.
    _output: PhantomData<(T, &'a ())>,
}

impl<'a, T> Handle<'a, T> {
    /// # Safety
    ///
    /// `task` heads a new cell made by `recycle::allocate` of a task with a
    /// handle whose output is a `Result<T, JoinError>`, and may borrow
    /// data that lives for `'a`; the handle takes over its handle side.
    unsafe fn new(task: NonNull<Header>) -> Self {
        Self {
            task,
            _output: PhantomData,
        }
    }

    /// The task, while the handle holds it.
    #[inline(always)]
    fn task(&self) -> TaskRef<'_> {
        rt_queue::path_step!();
        // SAFETY: the handle owns its side until it lets go in `join` or
        // `drop`, so the cell lives at least as long as the borrow.
        unsafe { TaskRef::new(self.task) }
    }

    /// Takes the output of the task, which completed with `state` (seen
    /// with Acquire): cancelled and rejected tasks have none, their error
    /// is in the state.
    fn take_result(&self, state: usize) -> Result<T, JoinError> {
        rt_queue::path_step!();
        if state & CANCELLED != 0 {
            return Err(JoinError::Cancelled);
        }
        if state & REJECTED != 0 {
            return Err(JoinError::Rejected);
        }
        let mut output = MaybeUninit::<Result<T, JoinError>>::uninit();
        // The task completed with an output (neither cancelled nor
        // rejected), which only the handle takes, once (the callers check
        // `TAKEN`).
        // SAFETY: so the output is there to take; `output` has room for the
        // cell's `Result<T, JoinError>` (`new`'s contract).
        unsafe {
            (self.task().header().vtable.take_output)(self.task, NonNull::from(&mut output).cast())
        };
        // SAFETY: `take_output` wrote it.
        unsafe { output.assume_init() }
    }

    fn poll(&mut self, cx: &mut Context<'_>) -> Poll<Result<T, JoinError>> {
        let task = self.task();
        let Some(state) = task.header().poll_completion(cx.waker()) else {
            if waiting::runs_here(task) {
                panic!("{}", waiting::SELF_WAIT);
            }
            return Poll::Pending;
        };
        // TAKEN is set only once the task is complete, so a state seen
        // complete tells.
        assert!(
            state & TAKEN == 0,
            "a JoinHandle was polled after it returned Ready"
        );
        let result = self.take_result(state);
        // Relaxed: only this handle reads TAKEN; the other side may set its
        // own bit meanwhile, hence the read-modify-write.
        self.task()
            .header()
            .state
            .fetch_or(TAKEN, Ordering::Relaxed);
        Poll::Ready(result)
    }

    #[track_caller]
    fn join(self) -> Result<T, JoinError> {
        rt_queue::path_step!();
        let task = self.task();
        let joining = waiting::Joining::new(task);
        // A panic here (a join the runtime refuses, a join after the output
        // was taken) drops the handle as usual.
        let state = if task.is_finished() || waiting::help_join(joining) {
            task.header().wait()
        } else {
            waiting::blocking(|| task.header().wait())
        };
        // TAKEN is set only once the task is complete, so a handle awaited
        // to completion finds it at once (`is_finished`).
        assert!(
            state & TAKEN == 0,
            "JoinHandle::join called after the handle was awaited to completion"
        );
        // Nothing below runs user code or can panic: the handle lets go
        // here instead of in `drop`.
        let this = ManuallyDrop::new(self);
        let result = this.take_result(state);
        // SAFETY: the handle owned its side, and is done with the cell.
        unsafe { release(this.task, HANDLE_DONE) };
        result
    }
}

// The handle never pins `T` (it only moves a finished result out), so it is
// `Unpin` whatever `T` is, and can be awaited as `&mut handle`.
impl<T> Unpin for Handle<'_, T> {}

// SAFETY: a handle is the handle side's ownership of a task, whose cell is
// shared only through its atomic protocol; the result `T` moves to the
// handle's thread, hence `T: Send`. Shared, a handle only reads the state
// word or cancels through it.
unsafe impl<T: Send> Send for Handle<'_, T> {}
// SAFETY: as above.
unsafe impl<T: Send> Sync for Handle<'_, T> {}

impl<T> Drop for Handle<'_, T> {
    fn drop(&mut self) {
        // SAFETY: the handle owned its side, and is done with the cell.
        unsafe { drop_handle(self.task) };
    }
}
