//! With the `tracing` feature: each task runs inside a span `rt.task`
//! (fields `priority` and `worker`) whose parent is the span that was
//! current where the task was spawned, so a request's span follows its CPU
//! work onto the pool. Without the feature this is a zero-sized no-op.
//!
//! The span travels with the queue entry. A task that a joiner claims and
//! runs inline without taking its entry (it sat in another queue) runs in
//! the joiner's span instead, which is where its spawner's context is
//! anyway.

use rt_queue::Priority;

/// The span a task will run in.
#[cfg(feature = "tracing")]
pub(crate) struct TaskSpan(tracing::Span);

/// The span a task will run in (nothing: the `tracing` feature is off).
#[cfg(not(feature = "tracing"))]
pub(crate) struct TaskSpan;

impl TaskSpan {
    /// A span for a task spawned now at `priority`, child of the current
    /// span (cheap when no subscriber is interested).
    #[inline]
    pub(crate) fn for_spawn(priority: Priority) -> Self {
        #[cfg(feature = "tracing")]
        {
            TaskSpan(tracing::info_span!(
                "rt.task",
                priority = %priority,
                worker = tracing::field::Empty
            ))
        }
        #[cfg(not(feature = "tracing"))]
        {
            let _ = priority;
            TaskSpan
        }
    }

    /// Runs `f` inside the span, on `worker`.
    #[inline]
    pub(crate) fn run<R>(&self, worker: usize, f: impl FnOnce() -> R) -> R {
        #[cfg(feature = "tracing")]
        {
            self.0.record("worker", worker);
            self.0.in_scope(f)
        }
        #[cfg(not(feature = "tracing"))]
        {
            let _ = worker;
            f()
        }
    }
}
