//! `JoinHandle<T>`: the spawner's side of a task.

use std::cell::RefCell;
use std::fmt;
use std::future::Future;
use std::pin::Pin;
use std::rc::{Rc, Weak};
use std::task::{Context, Poll, Waker};

use crate::core::Core;
use crate::error::JoinError;
use crate::shared::Header;
use crate::sync::Arc;
use crate::task::{BoxFuture, Finish};

/// Where a task's result meets its handle (both on the executor's thread).
pub(crate) struct JoinState<T> {
    inner: RefCell<JoinInner<T>>,
}

struct JoinInner<T> {
    result: Option<Result<T, JoinError>>,
    waker: Option<Waker>,
    finished: bool,
}

impl<T> JoinState<T> {
    pub(crate) fn new() -> Self {
        Self {
            inner: RefCell::new(JoinInner {
                result: None,
                waker: None,
                finished: false,
            }),
        }
    }

    /// Stores the task's result (the first one wins) and wakes the handle.
    pub(crate) fn finish(&self, result: Result<T, JoinError>) {
        let waker = {
            let mut inner = self.inner.borrow_mut();
            if inner.finished {
                return;
            }
            inner.finished = true;
            inner.result = Some(result);
            inner.waker.take()
        };
        if let Some(waker) = waker {
            waker.wake();
        }
    }
}

impl<T> Finish for JoinState<T> {
    fn fail(&self, error: JoinError) {
        self.finish(Err(error));
    }
}

/// Awaits a spawned task's output: a `Future<Output = Result<T, JoinError>>`.
///
/// Dropping the handle detaches the task (it keeps running). Like the
/// executor, a handle stays on the executor's thread (`!Send`).
///
/// ```
/// use rt_fair::{FairExecutorBuilder, JoinError};
///
/// let executor = FairExecutorBuilder::new().with_queue(0u8, 1).build()?;
/// let queue = executor.queue(0).unwrap();
/// let answer = queue.spawn(async { 6 * 7 });
/// let never = queue.spawn(std::future::pending::<()>());
/// never.abort();
/// let (answer, never) = executor.block_on(async { (answer.await, never.await) });
/// assert_eq!(answer, Ok(42));
/// assert_eq!(never, Err(JoinError::Cancelled));
/// # Ok::<(), rt_fair::BuildError>(())
/// ```
pub struct JoinHandle<T> {
    state: Rc<JoinState<T>>,
    task: Option<(Weak<Core>, Arc<Header>)>,
}

impl<T> JoinHandle<T> {
    /// Spawns `future` onto `queue` of `core`: the executor gets the future
    /// with its output plumbing erased (it stores the output here, in the
    /// join state), the caller the handle.
    pub(crate) fn spawn<F>(core: &Rc<Core>, queue: usize, future: F) -> Self
    where
        F: Future<Output = T> + 'static,
        T: 'static,
    {
        let state = Rc::new(JoinState::new());
        let output = Rc::clone(&state);
        let task: BoxFuture = Box::pin(async move {
            let value = future.await;
            output.finish(Ok(value));
        });
        let header = core.spawn(queue, task, Rc::clone(&state) as Rc<dyn Finish>);
        Self {
            state,
            task: Some((Rc::downgrade(core), header)),
        }
    }

    /// A handle for a task that could not be spawned (the executor is gone).
    pub(crate) fn aborted() -> Self {
        let state = Rc::new(JoinState::new());
        state.fail(JoinError::Cancelled);
        Self { state, task: None }
    }

    /// Aborts the task: its future is dropped at once if it is queued or
    /// waiting on a waker, or as soon as its current poll returns if it is
    /// running (it called `abort` on itself, directly or through code it
    /// called). The handle then returns [`JoinError::Cancelled`]. No effect on
    /// a task that has finished; a task that completes during the poll in
    /// which it is aborted keeps its output.
    ///
    /// A panic of the future's destructor never unwinds out of `abort` (nor
    /// out of the executor's loop or drop): as in tokio, it is contained and
    /// the handle returns [`JoinError::Panicked`] with its payload instead.
    pub fn abort(&self) {
        if let Some((core, header)) = &self.task {
            if let Some(core) = core.upgrade() {
                core.abort(header);
            }
        }
    }

    /// Whether the task has finished, panicked or been aborted (so that
    /// awaiting the handle returns at once).
    pub fn is_finished(&self) -> bool {
        self.state.inner.borrow().finished
    }
}

impl<T> Future for JoinHandle<T> {
    type Output = Result<T, JoinError>;

    /// # Panics
    ///
    /// If polled again after it returned `Ready`.
    fn poll(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Self::Output> {
        let mut inner = self.state.inner.borrow_mut();
        if let Some(result) = inner.result.take() {
            return Poll::Ready(result);
        }
        assert!(!inner.finished, "JoinHandle polled after it returned Ready");
        match &inner.waker {
            Some(w) if w.will_wake(cx.waker()) => {}
            _ => inner.waker = Some(cx.waker().clone()),
        }
        Poll::Pending
    }
}

impl<T> fmt::Debug for JoinHandle<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("JoinHandle")
            .field("finished", &self.is_finished())
            .finish_non_exhaustive()
    }
}
