//! With the `tracing` feature: each run of a task happens inside a span
//! `rt.task` (fields `priority` and `worker`) whose parent is the span that
//! was current where the task was spawned, so a request's span follows its
//! CPU work onto the pool. Without the feature this is a zero-sized no-op.
//!
//! The spawner's context (its current span and subscriber) travels in the
//! queue entry; the span itself is made only once the task is claimed, by
//! whichever thread runs it (through `rt_handle::raw::BodyWrapper`). So a task
//! has one span per run, never one for a stale entry or a cancelled task,
//! and a task that a joiner claims and runs inline while its entry sits in
//! another worker's hands still runs in an `rt.task` span: a child of the
//! joiner's span, which is where its spawner's context is anyway.

use rt_handle::raw::BodyWrapper;
use rt_queue::Priority;

/// The context a task's span is made in.
#[cfg(feature = "tracing")]
pub(crate) struct TaskSpan {
    parent: tracing::Span,
    dispatch: tracing::Dispatch,
}

/// The context a task's span is made in (nothing: the `tracing` feature is
/// off).
#[cfg(not(feature = "tracing"))]
pub(crate) struct TaskSpan;

impl TaskSpan {
    /// The calling thread's context: where a task is spawned, or where a
    /// joiner runs one inline.
    #[inline]
    pub(crate) fn here() -> Self {
        #[cfg(feature = "tracing")]
        {
            TaskSpan {
                parent: tracing::Span::current(),
                dispatch: tracing::dispatcher::get_default(tracing::Dispatch::clone),
            }
        }
        #[cfg(not(feature = "tracing"))]
        {
            TaskSpan
        }
    }

    /// Calls `run` with the wrapper that makes the task's span and enters
    /// it around the body (none without the feature).
    #[inline]
    pub(crate) fn wrap<R>(
        &self,
        priority: Priority,
        worker: usize,
        run: impl FnOnce(Option<BodyWrapper<'_>>) -> R,
    ) -> R {
        #[cfg(feature = "tracing")]
        {
            let enter = |body: &mut dyn FnMut()| {
                let span = tracing::dispatcher::with_default(&self.dispatch, || {
                    tracing::info_span!(
                        parent: &self.parent,
                        "rt.task",
                        priority = %priority,
                        worker = worker
                    )
                });
                span.in_scope(body);
            };
            run(Some(&enter))
        }
        #[cfg(not(feature = "tracing"))]
        {
            let _ = (priority, worker);
            run(None)
        }
    }
}
