//! Tasks added while others run: a group of tasks on an executor, each
//! started as soon as the tasks it names have finished (Taskflow's `async`,
//! `silent_async` and `dependent_async`; `GROUP.md` beside this file).

mod error;
mod handle;
mod task;

use std::fmt;
use std::marker::PhantomData;
use std::panic::{catch_unwind, resume_unwind, AssertUnwindSafe};
use std::sync::{Arc, Mutex, MutexGuard};

use rt_handle::{Executor, PanicMessage};

pub use error::{TaskError, TaskGroupError, TaskId};
pub use handle::TaskHandle;
pub use task::TaskRef;

use crate::release::EndSignal;
use crate::run::launch::ExecutorPtr;
use crate::run::wait;
use crate::sync::{AtomicUsize, Ordering};
use handle::{Slot, Unobserved};
use task::{running, Body, Start, TaskNode};

/// Runs `body` with a new [`TaskGroup`] on `executor`, and returns what it
/// returns once every task of the group has finished, those the body left
/// running included (as [`std::thread::scope`] does).
///
/// Tasks may borrow what outlives the call (`'scope`), as scoped threads
/// do. If the body panics, the call waits for the tasks, then resumes the
/// panic. If a task whose handle was dropped panicked and no
/// [`wait_for_all`](TaskGroup::wait_for_all) reported it, the call resumes
/// that panic's payload once every task has finished, as a scoped thread's
/// unjoined panic does: call `wait_for_all` at the end of the body to get
/// it as an error instead.
///
/// Waiting (at the end, in [`wait_for_all`](TaskGroup::wait_for_all) and
/// [`TaskHandle::join`]) on a worker of the work-stealing runtime runs the
/// jobs the worker queued meanwhile, so a group inside a task or a graph
/// node completes even on one worker; on another executor's thread it
/// blocks, so do not wait from the tasks of a pool whose every thread the
/// group needs.
///
/// ```
/// use rt_dag::task_group;
///
/// let rt = rt_core::Runtime::new(2).unwrap();
/// let words = ["pipe", "lines", "keep", "order"];
/// let total = task_group(&rt, |group| {
///     // Taskflow's dependent_async: `sum` starts once both halves finished,
///     // while the body goes on adding tasks.
///     let left = group.spawn(|_| words[..2].iter().map(|w| w.len()).sum::<usize>());
///     let right = group.spawn(|_| words[2..].iter().map(|w| w.len()).sum::<usize>());
///     let (l, r) = (left.task(), right.task());
///     let sum = group
///         .spawn_after(&[l, r], move |_| left.join().unwrap() + right.join().unwrap())
///         .unwrap();
///     group.spawn(|group| {
///         group.spawn(|_| ()); // tasks may spawn tasks
///     });
///     sum.join().unwrap()
/// });
/// assert_eq!(total, 18);
/// ```
pub fn task_group<'scope, E, F, R>(executor: &E, body: F) -> R
where
    E: Executor + ?Sized,
    F: FnOnce(&TaskGroup<'scope>) -> R,
{
    let borrowed: &dyn Executor = &executor;
    // Why this is sound: this function keeps `borrowed` in its frame, and does not
    // return, nor unwind, before every task of the group has finished
    // (`wait_idle` below), and only a task that has not finished submits to
    // the executor.
    // SAFETY: `borrowed` outlives every task's use of it (above).
    let pointer = unsafe { ExecutorPtr::new(&borrowed) };
    let group = TaskGroup {
        group: Arc::new(Group::new(pointer)),
        _scope: PhantomData,
    };
    let result = catch_unwind(AssertUnwindSafe(|| body(&group)));
    group.group.wait_idle();
    let unobserved = group.group.take_unobserved();
    match result {
        Err(payload) => resume_unwind(payload),
        Ok(value) => {
            if let Some((_, message)) = unobserved {
                resume_unwind(message.into_payload());
            }
            value
        }
    }
}

/// What the tasks of a group share.
pub(crate) struct Group {
    id: u64,
    executor: ExecutorPtr,
    /// The next task's index.
    next_index: std::sync::atomic::AtomicU64,
    /// Tasks spawned and not finished. While it is above zero the scope
    /// has not ended, so the executor is alive.
    pending: AtomicUsize,
    /// The threads waiting for `pending` to reach zero, each on its own
    /// signal.
    idle: Mutex<Vec<Arc<EndSignal>>>,
    /// Panics of tasks whose handles were dropped, oldest first.
    unobserved: Mutex<Vec<Unobserved>>,
}

// SAFETY: everything shared is atomic or behind a mutex, but the executor
// pointer, which is only used while a task is pending (see `task_group`).
unsafe impl Send for Group {}
// SAFETY: as above.
unsafe impl Sync for Group {}

fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(|e| e.into_inner())
}

impl Group {
    fn new(executor: ExecutorPtr) -> Self {
        static NEXT_GROUP: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(1);
        Self {
            id: NEXT_GROUP.fetch_add(1, std::sync::atomic::Ordering::Relaxed),
            executor,
            next_index: std::sync::atomic::AtomicU64::new(0),
            pending: AtomicUsize::new(0),
            idle: Mutex::new(Vec::new()),
            unobserved: Mutex::new(Vec::new()),
        }
    }

    /// A task finished: one unit back; the last wakes the waiters.
    pub(crate) fn finish_task(&self) {
        if self.pending.fetch_sub(1, Ordering::AcqRel) == 1 {
            let waiters = std::mem::take(&mut *lock(&self.idle));
            for waiter in waiters {
                waiter.set();
            }
        }
    }

    /// Waits until no task is pending (it may have been zero at any moment
    /// since the call).
    fn wait_idle(&self) {
        loop {
            let signal = {
                let mut idle = lock(&self.idle);
                // Under the lock: a finisher that brought it to zero takes
                // the waiters after this, or this reads zero.
                if self.pending.load(Ordering::Acquire) == 0 {
                    return;
                }
                let signal = Arc::new(EndSignal::new());
                idle.push(signal.clone());
                signal
            };
            wait::wait(&signal, None);
        }
    }

    pub(crate) fn unobserved(&self, task: TaskId, message: PanicMessage) {
        lock(&self.unobserved).push((task, message));
    }

    fn take_unobserved(&self) -> Option<Unobserved> {
        let mut unobserved = lock(&self.unobserved);
        (!unobserved.is_empty()).then(|| unobserved.remove(0))
    }
}

/// A group of tasks on one executor, added from outside any graph while
/// others run (Taskflow's `async`, `silent_async`, `dependent_async`, and
/// its `TaskGroup`): made by [`task_group`], which returns once every task
/// of the group has finished.
///
/// * [`spawn`](Self::spawn) starts a task at once; its [`TaskHandle`]
///   joins it, or names it ([`TaskHandle::task`]) as a prerequisite.
/// * [`spawn_after`](Self::spawn_after) starts a task as soon as the tasks
///   it names have finished — on the thread that finished the last of
///   them — while the caller goes on adding others. If one of them did not
///   complete (it panicked, was skipped or rejected), the new task is
///   skipped: its closure never runs, and its handle reports
///   [`TaskError::Skipped`] naming that prerequisite; so are the tasks
///   spawned after it.
/// * [`wait_for_all`](Self::wait_for_all) waits until every task spawned so
///   far, and those they spawned, has finished.
///
/// A task's closure receives the group, to spawn more tasks. Misuse is an
/// error, never a hang: a prerequisite of another group
/// ([`TaskGroupError::ForeignTask`]), waiting for the whole group from one
/// of its tasks ([`TaskGroupError::WaitInsideTask`]), a task joining
/// itself ([`TaskError::JoinedItself`]).
///
/// ```
/// use std::sync::atomic::{AtomicU64, Ordering};
/// use rt_dag::{task_group, TaskError};
///
/// let rt = rt_core::Runtime::new(2).unwrap();
/// let counter = AtomicU64::new(0);
/// task_group(&rt, |group| {
///     let mut previous = group.spawn(|_| counter.fetch_add(1, Ordering::SeqCst)).task();
///     for _ in 0..99 {
///         // A chain: each starts when the previous one finished.
///         previous = group
///             .spawn_after(&[previous], |_| counter.fetch_add(1, Ordering::SeqCst))
///             .unwrap()
///             .task();
///     }
///     let failing = group.spawn(|_| -> u64 { panic!("no") });
///     let after = group.spawn_after(&[failing.task()], |_| 1).unwrap();
///     # let hook = std::panic::take_hook();
///     # std::panic::set_hook(Box::new(|_| {}));
///     assert!(matches!(failing.join(), Err(TaskError::Panicked { .. })));
///     # std::panic::set_hook(hook);
///     assert!(matches!(after.join(), Err(TaskError::Skipped { .. })));
///     group.wait_for_all().unwrap();
///     assert_eq!(counter.load(Ordering::SeqCst), 100);
/// });
/// ```
pub struct TaskGroup<'scope> {
    group: Arc<Group>,
    /// Invariant in `'scope`, as `std::thread::Scope`.
    _scope: PhantomData<&'scope mut &'scope ()>,
}

impl<'scope> TaskGroup<'scope> {
    /// Spawns `f` as a task of the group; it starts at once (it is
    /// submitted to the executor). `f` receives the group, to spawn more.
    pub fn spawn<F, T>(&self, f: F) -> TaskHandle<'scope, T>
    where
        F: FnOnce(&TaskGroup<'scope>) -> T + Send + 'scope,
        T: Send + 'scope,
    {
        let (node, handle) = self.task(f);
        self.registered(node);
        handle
    }

    /// Spawns `f` as a task of the group that starts once every task in
    /// `after` has finished, on the thread that finished the last of them
    /// (at once if they all have). If one of them did not complete, `f`
    /// never runs and the handle reports [`TaskError::Skipped`].
    ///
    /// # Errors
    ///
    /// [`TaskGroupError::ForeignTask`] if a task in `after` belongs to
    /// another group; nothing is spawned then.
    pub fn spawn_after<F, T>(
        &self,
        after: &[TaskRef],
        f: F,
    ) -> Result<TaskHandle<'scope, T>, TaskGroupError>
    where
        F: FnOnce(&TaskGroup<'scope>) -> T + Send + 'scope,
        T: Send + 'scope,
    {
        if let Some(foreign) = after.iter().find(|t| t.node.id.group != self.group.id) {
            return Err(TaskGroupError::ForeignTask {
                task: foreign.node.id,
                group: self.group.id,
            });
        }
        let (node, handle) = self.task(f);
        for prerequisite in after {
            prerequisite.node.precede(&node);
        }
        self.registered(node);
        Ok(handle)
    }

    /// Waits until every task of the group spawned so far, and every task
    /// they spawn meanwhile, has finished. On a worker of the work-stealing
    /// runtime it runs the jobs it queued meanwhile.
    ///
    /// # Errors
    ///
    /// [`TaskGroupError::Panicked`]: a task whose handle was dropped
    /// panicked (the oldest such panic not reported yet; the others are
    /// reported by the next calls, or, left, by the end of the scope).
    /// [`TaskGroupError::WaitInsideTask`] when called from a task of this
    /// group, which would wait for itself; it returns at once.
    pub fn wait_for_all(&self) -> Result<(), TaskGroupError> {
        if let Some(task) = running().filter(|t| t.group == self.group.id) {
            return Err(TaskGroupError::WaitInsideTask { task });
        }
        self.group.wait_idle();
        match self.group.take_unobserved() {
            Some((task, message)) => Err(TaskGroupError::Panicked { task, message }),
            None => Ok(()),
        }
    }

    /// The group's number, as task ids name it.
    pub fn id(&self) -> u64 {
        self.group.id
    }

    /// A new task of the group for `f`, counted as pending, not yet ready
    /// (its registration's count), and its handle.
    fn task<F, T>(&self, f: F) -> (Arc<TaskNode>, TaskHandle<'scope, T>)
    where
        F: FnOnce(&TaskGroup<'scope>) -> T + Send + 'scope,
        T: Send + 'scope,
    {
        let id = TaskId {
            group: self.group.id,
            index: self
                .group
                .next_index
                .fetch_add(1, std::sync::atomic::Ordering::Relaxed),
        };
        let slot = Slot::new();
        let body_slot = slot.clone();
        let body = move |start: Start| -> bool {
            match start {
                Start::Run(group) => {
                    let scope = TaskGroup {
                        group,
                        _scope: PhantomData,
                    };
                    let result = catch_unwind(AssertUnwindSafe(|| f(&scope)));
                    let completed = result.is_ok();
                    let result = result.map_err(|payload| TaskError::Panicked {
                        task: id,
                        message: PanicMessage::from_payload(payload),
                    });
                    body_slot.store(&scope.group, result);
                    completed
                }
                Start::Skip(error) => {
                    rt_handle::raw::drop_quietly(f);
                    body_slot.store_error(error);
                    false
                }
            }
        };
        let body: Box<dyn FnOnce(Start) -> bool + Send + 'scope> = Box::new(body);
        // Why this is sound: only the trait object's lifetime bound changes, not its
        // layout. The erased `'scope` outlives every use of the body: it is
        // called or dropped before its task finishes, and `task_group`,
        // whose call `'scope` outlives, does not return nor unwind before
        // every task has finished (`wait_idle`), so nothing the body
        // borrows for `'scope` is used after `'scope`. Kept rather than
        // carried because a task's node (`TaskNode`) is shared with the
        // executor's jobs, which are `'static`. Checked under miri by
        // `tests/lifetimes_under_miri.rs`
        // (`task_group_bodies_borrowing_the_caller_run_before_it_returns`).
        // SAFETY: same layout; `'scope` outlives every call and drop (above).
        let body: Body = unsafe {
            std::mem::transmute::<Box<dyn FnOnce(Start) -> bool + Send + 'scope>, Body>(body)
        };
        // Relaxed: the caller holds the group (or runs one of its tasks),
        // so the count cannot reach zero meanwhile.
        self.group.pending.fetch_add(1, Ordering::Relaxed);
        let node = Arc::new(TaskNode::new(id, body));
        let handle = TaskHandle::new(node.clone(), slot, self.group.clone());
        (node, handle)
    }

    /// Ends the registration of `node`: if no prerequisite is left to
    /// wait for, it is ready and submitted.
    fn registered(&self, node: Arc<TaskNode>) {
        if node.count_down() {
            task::launch(&self.group, node);
        }
    }
}

impl fmt::Debug for TaskGroup<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("TaskGroup")
            .field("id", &self.group.id)
            .field("pending", &self.group.pending.load(Ordering::Relaxed))
            .finish()
    }
}
