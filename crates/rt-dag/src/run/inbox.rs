//! The jobs a run's threads made ready and did not run themselves, waiting
//! for the future awaiting the run to submit them (`async_run.rs`).

use std::collections::VecDeque;
use std::sync::Mutex;
use std::task::Waker;

use rt_handle::{Executor, Job};
use rt_queue::Priority;

/// Jobs waiting for the future awaiting the run to submit them: the future
/// borrows the executor only while it is polled, so the run's threads
/// cannot submit to it themselves.
pub(crate) struct Inbox {
    state: Mutex<InboxState>,
}

struct InboxState {
    queue: VecDeque<(Priority, Job)>,
    /// The future is gone: whatever arrives is dropped (rejected).
    closed: bool,
    waker: Option<Waker>,
}

impl Inbox {
    pub(crate) fn new() -> Self {
        Self {
            state: Mutex::new(InboxState {
                queue: VecDeque::new(),
                closed: false,
                waker: None,
            }),
        }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, InboxState> {
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Queues `job` for the future and wakes it. Once the future is gone
    /// the job is dropped: nobody will submit it, and its work's `Drop`
    /// rejects it.
    pub(crate) fn push(&self, priority: Priority, job: Job) {
        if let Err(refused) = self.offer(priority, job) {
            drop(refused);
        }
    }

    /// Queues `job` for the future and wakes it; hands it back once the
    /// future is gone.
    fn offer(&self, priority: Priority, job: Job) -> Result<(), Job> {
        let mut state = self.lock();
        if state.closed {
            return Err(job);
        }
        state.queue.push_back((priority, job));
        let waker = state.waker.take();
        drop(state);
        if let Some(waker) = waker {
            let _ = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| waker.wake()));
        }
        Ok(())
    }

    /// The oldest job queued, if any.
    pub(crate) fn pop(&self) -> Option<(Priority, Job)> {
        self.lock().queue.pop_front()
    }

    /// Registers `waker` for the next push; false if something is queued
    /// already (then the caller looks again instead of waiting).
    pub(crate) fn register(&self, waker: &Waker) -> bool {
        let mut state = self.lock();
        if !state.queue.is_empty() {
            return false;
        }
        match &state.waker {
            Some(old) if old.will_wake(waker) => {}
            _ => state.waker = Some(waker.clone()),
        }
        true
    }

    /// Drops what is queued and everything that arrives later.
    pub(crate) fn close(&self) {
        let queued = {
            let mut state = self.lock();
            state.closed = true;
            state.waker = None;
            std::mem::take(&mut state.queue)
        };
        drop(queued);
    }
}

/// What a node of an awaited run reaches as its executor
/// (`DependencyResults::executor`): a job submitted here goes to the future,
/// which submits it to the real executor when polled; once the future is
/// gone the job is refused.
impl Executor for Inbox {
    fn submit(&self, priority: Priority, job: Job) -> Result<(), Job> {
        self.offer(priority, job)
    }
}
