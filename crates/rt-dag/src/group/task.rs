//! One task of a group: the prerequisites it waits for, the tasks that wait
//! for it, and its run on the thread that made it ready (`GROUP.md`).

use std::cell::Cell;
use std::fmt;
use std::mem::ManuallyDrop;
use std::sync::{Arc, Mutex, MutexGuard};

use rt_queue::Priority;

use super::error::{TaskError, TaskId};
use super::Group;
use crate::release::EndSignal;
use crate::run::launch;
use crate::sync::{AtomicUsize, Ordering};

/// What a task's closure is told when its turn comes: run, with its group,
/// or do not, for this reason. The closure stores its result (or this
/// error) for its handle, and says whether it completed.
pub(crate) enum Start {
    Run(Arc<Group>),
    Skip(TaskError),
}

/// A task's closure with its result slot, its `'scope` lifetime erased: it
/// is called (or dropped) before the task finishes, and the group's scope
/// waits for every task to finish (`GROUP.md`, "Why the borrows are
/// valid").
pub(crate) type Body = Box<dyn FnOnce(Start) -> bool + Send>;

/// One task of a group.
pub(crate) struct TaskNode {
    pub(crate) id: TaskId,
    state: Mutex<State>,
    /// Prerequisites not finished yet, and one more while `spawn_after`
    /// registers it with them: the decrement that reaches zero makes the
    /// task ready.
    waiting: AtomicUsize,
    /// The first prerequisite found not to have completed.
    failed_prerequisite: Mutex<Option<TaskId>>,
    body: Mutex<Option<Body>>,
    /// Set once the task finished: its result is stored.
    pub(crate) done: EndSignal,
}

enum State {
    /// Not finished: the tasks spawned after it that wait for it.
    Pending(Vec<Arc<TaskNode>>),
    /// Finished; whether it completed.
    Finished { completed: bool },
}

fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(|e| e.into_inner())
}

std::thread_local! {
    /// The task whose closure runs on this thread, if any (a task that
    /// joins another may run it here, nested: the previous one is put back
    /// after).
    static RUNNING: Cell<Option<TaskId>> = const { Cell::new(None) };
}

/// The task whose closure runs on this thread, if any.
pub(crate) fn running() -> Option<TaskId> {
    RUNNING.with(Cell::get)
}

impl TaskNode {
    /// A task waiting for its registration (one count of `waiting`).
    pub(crate) fn new(id: TaskId, body: Body) -> Self {
        Self {
            id,
            state: Mutex::new(State::Pending(Vec::new())),
            waiting: AtomicUsize::new(1),
            failed_prerequisite: Mutex::new(None),
            body: Mutex::new(Some(body)),
            done: EndSignal::new(),
        }
    }

    /// Registers `dependent` to wait for this task, unless it finished;
    /// one that did not complete is recorded as the dependent's failed
    /// prerequisite.
    pub(crate) fn precede(&self, dependent: &Arc<TaskNode>) {
        let mut state = lock(&self.state);
        match &mut *state {
            State::Pending(dependents) => {
                // Relaxed: the registration's own count keeps `waiting`
                // above zero until `registered`.
                dependent.waiting.fetch_add(1, Ordering::Relaxed);
                dependents.push(dependent.clone());
            }
            State::Finished { completed: true } => {}
            State::Finished { completed: false } => dependent.note_failed(self.id),
        }
    }

    fn note_failed(&self, prerequisite: TaskId) {
        lock(&self.failed_prerequisite).get_or_insert(prerequisite);
    }

    /// Counts one awaited event down (a prerequisite finished, or the
    /// registration ended); true if that made the task ready. AcqRel: the
    /// releaser sees every prerequisite's writes (and failure notes).
    pub(crate) fn count_down(&self) -> bool {
        self.waiting.fetch_sub(1, Ordering::AcqRel) == 1
    }

    /// Whether the task has finished.
    pub(crate) fn is_finished(&self) -> bool {
        self.done.is_set()
    }
}

/// Submits `task`, ready, to its group's executor; skips it here if a
/// prerequisite did not complete (that needs no executor).
pub(crate) fn launch(group: &Arc<Group>, task: Arc<TaskNode>) {
    if lock(&task.failed_prerequisite).is_some() {
        run(group, task);
        return;
    }
    // SAFETY: the task holds a unit of the group (`Group::pending`), so
    // the scope, which borrows the executor, has not ended.
    let executor = unsafe { group.executor.get() };
    launch::submit(
        executor,
        Priority::Normal,
        TaskJob {
            group: group.clone(),
            task,
        },
    );
}

/// A ready task as a job: started, it runs the task and what that makes
/// ready for this thread; dropped unstarted, the task is rejected.
struct TaskJob {
    group: Arc<Group>,
    task: Arc<TaskNode>,
}

impl launch::Startable for TaskJob {
    fn start(self) {
        let this = ManuallyDrop::new(self);
        // SAFETY: read once each, out of a value whose `Drop` never runs.
        let (group, task) = unsafe { (std::ptr::read(&this.group), std::ptr::read(&this.task)) };
        run(&group, task);
    }
}

impl Drop for TaskJob {
    fn drop(&mut self) {
        let rejected = TaskError::Rejected { task: self.task.id };
        let mut ready = Vec::new();
        finish(&self.group, &self.task, Start::Skip(rejected), &mut ready);
        // What it made ready is skipped, here: nothing goes back to the
        // executor that dropped the job.
        run_all(&self.group, ready);
    }
}

/// Runs `task`, then, one after another, the tasks that made ready for
/// this thread.
fn run(group: &Arc<Group>, task: Arc<TaskNode>) {
    run_all(group, vec![task]);
}

/// Runs (or skips) the ready tasks of `work`, and those they make ready for
/// this thread, until none is left.
fn run_all(group: &Arc<Group>, work: Vec<Arc<TaskNode>>) {
    let mut work = work;
    while let Some(task) = work.pop() {
        let start = match *lock(&task.failed_prerequisite) {
            Some(prerequisite) => Start::Skip(TaskError::Skipped {
                task: task.id,
                prerequisite,
            }),
            None => Start::Run(group.clone()),
        };
        finish(group, &task, start, &mut work);
    }
}

/// Calls (or skips) the task's closure, records that it finished, and
/// releases the tasks waiting for it. After a completion the last one made
/// ready goes to `work`, for this thread to run next, and the others are
/// submitted; after a failure every one made ready goes to `work`: they
/// are skipped, which needs no executor. Gives the task's unit of the
/// group back last.
fn finish(group: &Arc<Group>, task: &Arc<TaskNode>, start: Start, work: &mut Vec<Arc<TaskNode>>) {
    let body = lock(&task.body).take();
    let completed = match body {
        Some(body) => {
            let previous = RUNNING.with(|r| r.replace(Some(task.id)));
            // The body catches its closure's panic; it cannot unwind.
            let completed = body(start);
            RUNNING.with(|r| r.set(previous));
            completed
        }
        None => false,
    };
    let dependents = match std::mem::replace(&mut *lock(&task.state), State::Finished { completed })
    {
        State::Pending(dependents) => dependents,
        State::Finished { .. } => Vec::new(),
    };
    task.done.set();
    let mut kept: Option<Arc<TaskNode>> = None;
    for dependent in dependents {
        if !completed {
            dependent.note_failed(task.id);
        }
        if dependent.count_down() {
            if !completed {
                work.push(dependent);
            } else if let Some(earlier) = kept.replace(dependent) {
                launch(group, earlier);
            }
        }
    }
    work.extend(kept);
    group.finish_task();
}

/// A task of a [`TaskGroup`](crate::TaskGroup), to name as a prerequisite
/// of tasks spawned later ([`spawn_after`](crate::TaskGroup::spawn_after))
/// or to ask whether it finished: Taskflow's `AsyncTask`. Cheap to clone;
/// [`TaskHandle::task`](crate::TaskHandle::task) gives one.
#[derive(Clone)]
pub struct TaskRef {
    pub(crate) node: Arc<TaskNode>,
}

impl TaskRef {
    /// The task's id.
    pub fn id(&self) -> TaskId {
        self.node.id
    }

    /// Whether the task has finished (completed, panicked, been skipped or
    /// rejected).
    pub fn is_finished(&self) -> bool {
        self.node.is_finished()
    }
}

impl fmt::Debug for TaskRef {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("TaskRef")
            .field("id", &self.node.id)
            .field("finished", &self.is_finished())
            .finish()
    }
}
