//! Tasks of a scope that its waiting worker must be able to reach although
//! they are in no deque of its: tasks spawned into the scope from a thread
//! that is not a worker of the runtime, and tasks of a running scope that
//! `stop` took out of the queues (they are part of their caller's
//! computation, like the halves of a `join`, and still run).
//!
//! One inbox per runtime. A spawn from outside puts its task here and a
//! *ticket* ([`Entry::ScopeTicket`](crate::worker::entry::Entry)) on the injector of
//! its priority, so any worker can run it; the scope's own waiting worker
//! takes the tasks of its scope from here itself (`JOIN_HELPING.md`, rule
//! 2b), so none waits for a worker that will never come. A scope opened
//! outside the pool has a thread as its waiter instead, which registers
//! here and runs the tasks `stop` moved here for it. The inbox is found
//! by scope identity, never through a pointer to the scope: an entry may
//! outlive its scope when a joiner ran the task meanwhile (its entry is
//! then stale and skipped, as in any queue).

use std::collections::VecDeque;
use std::fmt;
use std::sync::Mutex;
use std::thread::{self, Thread};

use rt_handle::raw::unpoison;
use rt_handle::raw::{JobControl, ScopeId};
use rt_handle::Job;
use rt_queue::Priority;

use crate::sync::{AtomicUsize, Ordering};
use crate::worker::entry::TaskSpan;

/// A task waiting in the inbox.
pub(crate) struct InboxTask {
    pub(crate) priority: Priority,
    pub(crate) job: Job,
    pub(crate) span: TaskSpan,
}

pub(crate) struct ScopeInbox {
    tasks: Mutex<Queued>,
    /// `tasks.len()`, readable without the lock: waiters look at it in
    /// every round of their wait.
    len: AtomicUsize,
}

/// What the inbox's lock guards.
#[derive(Default)]
struct Queued {
    tasks: VecDeque<InboxTask>,
    /// Threads waiting at the end of a scope they opened outside the pool,
    /// by scope: a push for their scope unparks them.
    waiting_threads: Vec<(ScopeId, Thread)>,
}

impl ScopeInbox {
    pub(crate) fn new() -> Self {
        Self {
            tasks: Mutex::new(Queued::default()),
            len: AtomicUsize::new(0),
        }
    }

    /// Adds a task of a scope (`job.scope()` is `Some`), and unparks the
    /// thread waiting for that scope, if one registered.
    pub(crate) fn push(&self, task: InboxTask) {
        let scope = task.job.scope();
        debug_assert!(scope.is_some());
        let mut queued = unpoison(self.tasks.lock());
        queued.tasks.push_back(task);
        // Relaxed: a hint; the lock orders the task itself, and whoever
        // must see it is unparked after this push.
        self.len.store(queued.tasks.len(), Ordering::Relaxed);
        if let Some((_, thread)) = queued
            .waiting_threads
            .iter()
            .find(|(s, _)| Some(*s) == scope)
        {
            thread.unpark();
        }
    }

    /// The calling thread waits for scope `scope`, which it opened outside
    /// the pool, until [`unregister`](Self::unregister): a push of one of
    /// the scope's tasks unparks it.
    pub(crate) fn register(&self, scope: ScopeId) {
        let mut queued = unpoison(self.tasks.lock());
        queued.waiting_threads.push((scope, thread::current()));
    }

    /// The thread waiting for `scope` is done.
    pub(crate) fn unregister(&self, scope: ScopeId) {
        let mut queued = unpoison(self.tasks.lock());
        queued.waiting_threads.retain(|(s, _)| *s != scope);
    }

    /// Takes the oldest task of any scope: what a ticket runs.
    pub(crate) fn pop_any(&self) -> Option<InboxTask> {
        self.pop(|_| true)
    }

    /// Takes the oldest task of scope `scope`: what its waiter runs.
    pub(crate) fn pop_for(&self, scope: ScopeId) -> Option<InboxTask> {
        self.pop(|task| task.job.scope() == Some(scope))
    }

    fn pop(&self, wanted: impl Fn(&InboxTask) -> bool) -> Option<InboxTask> {
        if self.len.load(Ordering::Relaxed) == 0 {
            return None;
        }
        let mut queued = unpoison(self.tasks.lock());
        let at = queued.tasks.iter().position(wanted)?;
        let task = queued.tasks.remove(at);
        self.len.store(queued.tasks.len(), Ordering::Relaxed);
        task
    }
}

impl fmt::Debug for ScopeInbox {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ScopeInbox")
            .field("len", &self.len.load(Ordering::Relaxed))
            .finish()
    }
}
