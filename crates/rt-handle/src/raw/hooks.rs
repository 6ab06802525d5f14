//! Lifecycle hooks and the panic handler that executors call at fixed
//! points, shared so that every executor offers the same hooks with the same
//! guarantees: each call runs behind `catch_unwind`, so a panicking hook never
//! kills a worker, and the executor counts it instead.

use std::fmt;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::Arc;

/// A hook given the index of the worker it runs on.
pub type WorkerHook = Arc<dyn Fn(usize) + Send + Sync>;

/// Receives the worker index and the message of a panic in a task that has
/// no handle to report it to (one submitted with `execute`).
pub type PanicHandler = Arc<dyn Fn(usize, &str) + Send + Sync>;

/// The optional hooks of an executor's builder. With none set, an executor
/// pays a few never-taken branches per task.
#[derive(Clone, Default)]
pub struct ExecutorHooks {
    /// Runs on each worker thread when it starts.
    pub before_worker_start: Option<WorkerHook>,
    /// Runs on each worker thread just before it exits.
    pub after_worker_stop: Option<WorkerHook>,
    /// Runs on the worker just before each task.
    pub before_task: Option<WorkerHook>,
    /// Runs on the worker just after each task, whether it returned or panicked.
    pub after_task: Option<WorkerHook>,
    /// Receives panics of tasks without a handle.
    pub panic_handler: Option<PanicHandler>,
}

/// Runs `hook(worker)` if the hook is set. Returns false if it panicked; the
/// panic is contained and its payload dropped without unwinding further.
#[inline]
pub fn call_hook(hook: &Option<WorkerHook>, worker: usize) -> bool {
    match hook {
        None => true,
        Some(hook) => contain_panic(|| hook(worker)),
    }
}

/// Runs `f`, containing a panic; false if it panicked.
pub fn contain_panic(f: impl FnOnce()) -> bool {
    match catch_unwind(AssertUnwindSafe(f)) {
        Ok(()) => true,
        Err(payload) => {
            // Turning the payload into a message drops it behind its own
            // guard, so even a payload whose `Drop` panics is contained.
            crate::panic_message::panic_message(payload);
            false
        }
    }
}

impl fmt::Debug for ExecutorHooks {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let set = |is_set: bool| if is_set { "set" } else { "unset" };
        f.debug_struct("ExecutorHooks")
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

/// Emits the builder methods that set an executor's hooks:
/// `before_worker_start`, `after_worker_stop`, `before_task`, `after_task`
/// and `panic_handler`. Use it inside the `impl` of a builder that has a field
/// `hooks: ExecutorHooks`, so every executor offers the same hook API.
///
/// ```
/// use rt_handle::raw::hooks::ExecutorHooks;
///
/// #[derive(Default)]
/// struct PoolBuilder {
///     hooks: ExecutorHooks,
/// }
///
/// impl PoolBuilder {
///     rt_handle::hook_builder_methods!();
/// }
///
/// let b = PoolBuilder::default().before_task(|worker| println!("task on {worker}"));
/// assert!(b.hooks.before_task.is_some() && b.hooks.after_task.is_none());
/// ```
// Part of the executor interface, beside `raw`.
#[macro_export]
macro_rules! hook_builder_methods {
    () => {
        /// Runs `hook(worker_index)` on each worker thread when it starts.
        /// A panic in it is caught and counted; the worker carries on.
        pub fn before_worker_start(mut self, hook: impl Fn(usize) + Send + Sync + 'static) -> Self {
            self.hooks.before_worker_start = Some(::std::sync::Arc::new(hook));
            self
        }

        /// Runs `hook(worker_index)` on each worker thread just before it
        /// exits, whatever the reason (shutdown, or an idle worker's
        /// keep-alive running out).
        pub fn after_worker_stop(mut self, hook: impl Fn(usize) + Send + Sync + 'static) -> Self {
            self.hooks.after_worker_stop = Some(::std::sync::Arc::new(hook));
            self
        }

        /// Runs `hook(worker_index)` on the worker just before each task.
        pub fn before_task(mut self, hook: impl Fn(usize) + Send + Sync + 'static) -> Self {
            self.hooks.before_task = Some(::std::sync::Arc::new(hook));
            self
        }

        /// Runs `hook(worker_index)` on the worker just after each task,
        /// whether it returned or panicked.
        pub fn after_task(mut self, hook: impl Fn(usize) + Send + Sync + 'static) -> Self {
            self.hooks.after_task = Some(::std::sync::Arc::new(hook));
            self
        }

        /// Receives `(worker_index, panic_message)` when a task submitted with
        /// `execute` panics (tasks with a handle report panics to the handle).
        pub fn panic_handler(
            mut self,
            handler: impl Fn(usize, &str) + Send + Sync + 'static,
        ) -> Self {
            self.hooks.panic_handler = Some(::std::sync::Arc::new(handler));
            self
        }
    };
}
