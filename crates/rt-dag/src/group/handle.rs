//! The handle of a spawned task: its result, to join.

use std::fmt;
use std::marker::PhantomData;
use std::sync::{Arc, Mutex, MutexGuard};

use rt_handle::PanicMessage;

use super::error::{TaskError, TaskId};
use super::task::{running, TaskNode, TaskRef};
use super::Group;
use crate::run::wait;

/// Where a task's result waits for its handle.
pub(crate) struct Slot<T> {
    state: Mutex<SlotState<T>>,
}

struct SlotState<T> {
    result: Option<Result<T, TaskError>>,
    /// The handle was dropped unjoined: a panic goes to the group instead.
    detached: bool,
}

impl<T> Slot<T> {
    pub(crate) fn new() -> Arc<Self> {
        Arc::new(Self {
            state: Mutex::new(SlotState {
                result: None,
                detached: false,
            }),
        })
    }

    fn lock(&self) -> MutexGuard<'_, SlotState<T>> {
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Stores why the task never ran.
    pub(crate) fn store_error(&self, error: TaskError) {
        self.lock().result = Some(Err(error));
    }

    /// Stores the task's result; a panic nobody will join is handed to
    /// the group.
    pub(crate) fn store(&self, group: &Group, result: Result<T, TaskError>) {
        let mut state = self.lock();
        match result {
            Err(TaskError::Panicked { task, message }) if state.detached => {
                drop(state);
                group.unobserved(task, message);
            }
            result => state.result = Some(result),
        }
    }
}

/// The handle of a task spawned in a [`TaskGroup`](crate::TaskGroup):
/// [`join`](Self::join) waits for its result; [`task`](Self::task) names it
/// as a prerequisite of later tasks.
///
/// Dropping the handle does not stop the task (Taskflow's `silent_async`):
/// it runs, and its group's [`wait_for_all`](crate::TaskGroup::wait_for_all)
/// (or the end of the group's scope) reports its panic, which nobody else
/// would see.
pub struct TaskHandle<'scope, T> {
    node: Arc<TaskNode>,
    slot: Arc<Slot<T>>,
    group: Arc<Group>,
    _scope: PhantomData<&'scope mut &'scope ()>,
}

impl<'scope, T> TaskHandle<'scope, T> {
    pub(crate) fn new(node: Arc<TaskNode>, slot: Arc<Slot<T>>, group: Arc<Group>) -> Self {
        Self {
            node,
            slot,
            group,
            _scope: PhantomData,
        }
    }

    /// The task, to name as a prerequisite
    /// ([`spawn_after`](crate::TaskGroup::spawn_after)).
    pub fn task(&self) -> TaskRef {
        TaskRef {
            node: self.node.clone(),
        }
    }

    /// The task's id.
    pub fn id(&self) -> TaskId {
        self.node.id
    }

    /// Whether the task has finished: [`join`](Self::join) would not wait.
    pub fn is_finished(&self) -> bool {
        self.node.is_finished()
    }

    /// Waits for the task to finish and returns what its closure returned.
    /// On a worker of the work-stealing runtime it runs the jobs it queued
    /// meanwhile (the task itself, if it is still queued there), so a task
    /// may join the tasks it spawned even on one worker.
    ///
    /// # Errors
    ///
    /// [`TaskError::Panicked`] (with the payload), [`TaskError::Skipped`]
    /// (a prerequisite did not complete), [`TaskError::Rejected`], or
    /// [`TaskError::JoinedItself`] for a task joining its own handle.
    pub fn join(self) -> Result<T, TaskError> {
        if running() == Some(self.node.id) {
            return Err(TaskError::JoinedItself { task: self.node.id });
        }
        wait::wait(&self.node.done, None);
        let result = self.slot.lock().result.take();
        result.unwrap_or(Err(TaskError::Rejected { task: self.node.id }))
    }
}

impl<T> Drop for TaskHandle<'_, T> {
    fn drop(&mut self) {
        let mut state = self.slot.lock();
        state.detached = true;
        if let Some(Err(TaskError::Panicked { .. })) = &state.result {
            if let Some(Err(TaskError::Panicked { task, message })) = state.result.take() {
                drop(state);
                self.group.unobserved(task, message);
            }
        }
    }
}

impl<T> fmt::Debug for TaskHandle<'_, T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("TaskHandle")
            .field("id", &self.node.id)
            .field("finished", &self.is_finished())
            .finish()
    }
}

/// A panic kept for whoever waits for the whole group.
pub(crate) type Unobserved = (TaskId, PanicMessage);
