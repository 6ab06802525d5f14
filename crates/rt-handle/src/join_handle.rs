//! The caller's side of a task: wait for its result, or cancel it.

use std::fmt;
use std::future::Future;
use std::marker::PhantomData;
use std::mem::{ManuallyDrop, MaybeUninit};
use std::panic::{RefUnwindSafe, UnwindSafe};
use std::pin::Pin;
use std::ptr::NonNull;
use std::task::{Context, Poll};

use crate::header::HANDLE_DONE;
use crate::header::{Header, TaskRef, CANCELLED, REJECTED, TAKEN};
use crate::ownership::{drop_handle, release};
use crate::raw::waiting;
use crate::sync::Ordering;
use crate::{JoinError, TaskStatus};

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
    /// (`ownership.rs`), let go of when the handle is joined or dropped.
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
        // SAFETY: the handle owns its side until it lets go in `join` or
        // `drop`, so the cell lives at least as long as the borrow.
        unsafe { TaskRef::new(self.task) }
    }

    /// Takes the output of the task, which completed with `state` (seen
    /// with Acquire): cancelled and rejected tasks have none, their error
    /// is in the state.
    fn take_result(&self, state: usize) -> Result<T, JoinError> {
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
