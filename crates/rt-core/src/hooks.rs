//! User code the runtime calls at fixed points: lifecycle hooks and the
//! panic handler for detached tasks. All of it runs behind `catch_unwind`.

use std::fmt;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::Arc;

/// A hook given the index of the worker it runs on.
pub(crate) type WorkerHook = Arc<dyn Fn(usize) + Send + Sync>;
/// Receives the worker index and the message of a detached task's panic.
pub(crate) type PanicHandler = Arc<dyn Fn(usize, &str) + Send + Sync>;

/// Every hook is optional; with none set, the per-task cost is a few
/// predictable branches on a read-only cache line.
#[derive(Clone, Default)]
pub(crate) struct Hooks {
    pub(crate) before_worker_start: Option<WorkerHook>,
    pub(crate) after_worker_stop: Option<WorkerHook>,
    pub(crate) before_task: Option<WorkerHook>,
    pub(crate) after_task: Option<WorkerHook>,
    pub(crate) panic_handler: Option<PanicHandler>,
}

/// Runs `hook` for `worker` if it is set. Returns false if it panicked; the
/// panic is contained (its payload dropped without unwinding further).
#[inline]
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
            rt_handle::panic_message(payload);
            false
        }
    }
}

impl fmt::Debug for Hooks {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let set = |h: bool| if h { "set" } else { "unset" };
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
