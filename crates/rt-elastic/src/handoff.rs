//! Giving a newly started worker the task that made the pool start it.

use rt_handle::Job;

use rt_handle::raw::unpoison;

use crate::sync::{Condvar, Mutex};

/// A one-job slot between a submitter and the worker thread it starts.
///
/// The submitter starts the thread *before* it turns its closure into a
/// [`Job`]: if the OS refuses the thread, the closure is still the caller's,
/// and `try_spawn` can hand it back. Once the thread exists the submitter
/// puts the job here, and the new worker, which waits for it, runs it first.
/// Starting a thread takes far longer than wrapping a closure, so the worker
/// almost never actually waits.
#[derive(Debug, Default)]
pub(crate) struct Handoff {
    slot: Mutex<Option<Job>>,
    filled: Condvar,
}

impl Handoff {
    pub(crate) fn put(&self, job: Job) {
        *unpoison(self.slot.lock()) = Some(job);
        self.filled.notify_one();
    }

    pub(crate) fn take(&self) -> Job {
        let mut slot = unpoison(self.slot.lock());
        loop {
            if let Some(job) = slot.take() {
                return job;
            }
            slot = unpoison(self.filled.wait(slot));
        }
    }
}
