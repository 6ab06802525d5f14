//! User code the pool calls at fixed points: the lifecycle hooks and the
//! panic handler for `execute`d tasks. All of it runs behind `catch_unwind`,
//! with none of the pool's locks held.

use std::fmt;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::Arc;

/// A hook given the index of the worker it runs on.
pub(crate) type WorkerHook = Arc<dyn Fn(usize) + Send + Sync>;
/// Receives the worker index and the message of an `execute`d task's panic.
pub(crate) type PanicHandler = Arc<dyn Fn(usize, &str) + Send + Sync>;

/// The builder's hooks; each is optional.
#[derive(Clone, Default)]
pub(crate) struct Hooks {
    pub(crate) before_worker_start: Option<WorkerHook>,
    pub(crate) after_worker_stop: Option<WorkerHook>,
    pub(crate) before_task: Option<WorkerHook>,
    pub(crate) after_task: Option<WorkerHook>,
    pub(crate) panic_handler: Option<PanicHandler>,
}

/// Runs `hook(worker)` if the hook is set. False if it panicked; the panic
/// is contained and its payload dropped without unwinding further.
pub(crate) fn call(hook: &Option<WorkerHook>, worker: usize) -> bool {
    match hook {
        None => true,
        Some(hook) => contain(|| hook(worker)),
    }
}

/// Runs `f`, containing a panic; false if it panicked.
pub(crate) fn contain(f: impl FnOnce()) -> bool {
    match catch_unwind(AssertUnwindSafe(f)) {
        Ok(()) => true,
        Err(payload) => {
            // Turning the payload into a message drops it behind its own
            // guard, so even a payload whose `Drop` panics is contained.
            rt_handle::panic_message(payload);
            false
        }
    }
}

impl fmt::Debug for Hooks {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let set = |is_set: bool| if is_set { "set" } else { "unset" };
        f.debug_struct("Hooks")
            .field(
                "before_worker_start",
                &set(self.before_worker_start.is_some()),
            )
            .field("after_worker_stop", &set(self.after_worker_stop.is_some()))
            .field("before_task", &set(self.before_task.is_some()))
            .field("after_task", &set(self.after_task.is_some()))
            .field("panic_handler", &set(self.panic_handler.is_some()))
            .finish()
    }
}
