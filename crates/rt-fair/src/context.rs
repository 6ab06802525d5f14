//! The thread-local view of the running executor that `yield_maybe` reads.

use std::cell::RefCell;
use std::time::Instant;

use crate::shared::Shared;
use crate::sync::Arc;

struct Current {
    shared: Arc<Shared>,
    /// Set while a task is polled: when (ns since the executor's epoch) its
    /// queue's slice, or the host's turn, runs out.
    slice_end: Option<u64>,
}

std::thread_local! {
    static CURRENT: RefCell<Option<Current>> = const { RefCell::new(None) };
}

/// Restores the previous executor's context (executors may nest on one
/// thread: a task may `block_on` another executor).
pub(crate) struct Entered {
    previous: Option<Current>,
}

/// Makes `shared` the current executor of this thread until the guard drops.
pub(crate) fn enter(shared: &Arc<Shared>) -> Entered {
    let previous = CURRENT.with(|c| {
        c.borrow_mut().replace(Current {
            shared: Arc::clone(shared),
            slice_end: None,
        })
    });
    Entered { previous }
}

impl Drop for Entered {
    fn drop(&mut self) {
        let previous = self.previous.take();
        let _ = CURRENT.try_with(|c| *c.borrow_mut() = previous);
    }
}

/// Sets the end of the running task's slice (`None` between polls).
pub(crate) fn set_slice_end(end: Option<u64>) {
    CURRENT.with(|c| {
        if let Some(current) = c.borrow_mut().as_mut() {
            current.slice_end = end;
        }
    });
}

/// Whether the task being polled should yield now: its slice is used up, or
/// a queue that preempts its own became runnable. `false` outside a task.
pub(crate) fn should_yield() -> bool {
    CURRENT.with(|c| match c.borrow().as_ref() {
        Some(Current {
            shared,
            slice_end: Some(end),
        }) => shared.ns_since_epoch(Instant::now()) >= shared.preempt_at().min(*end),
        _ => false,
    })
}
