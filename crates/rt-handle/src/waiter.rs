//! Who a task tells when it completes: a thread parked in `join`, or the
//! async task that polled its handle. One slot in the task cell holds
//! either, so that `join` and `.await` share one protocol (`JOIN_STATE.md`).

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::task::Waker;

use crate::panic_message::drop_quietly;
use crate::sync::thread;

/// The occupant of the cell's waiter slot.
pub(crate) enum Waiter {
    /// A thread blocked in `join` (or a worker parked while it helps).
    Thread(thread::Thread),
    /// The waker of the last poll of the handle as a future.
    Waker(Waker),
}

/// Who is about to wait, before the slot holds it.
pub(crate) enum Wanted<'a> {
    /// The calling thread, to be unparked.
    CurrentThread,
    /// An async task, to be woken.
    Waker(&'a Waker),
}

impl Waiter {
    /// Whether the slot already holds `wanted`, so that registering it again
    /// changes nothing.
    pub(crate) fn is(&self, wanted: &Wanted<'_>) -> bool {
        match (self, wanted) {
            (Waiter::Thread(thread), Wanted::CurrentThread) => {
                thread.id() == thread::current().id()
            }
            (Waiter::Waker(waker), Wanted::Waker(new)) => waker.will_wake(new),
            _ => false,
        }
    }

    pub(crate) fn new(wanted: &Wanted<'_>) -> Self {
        rt_queue::path_step!();
        match wanted {
            Wanted::CurrentThread => Waiter::Thread(thread::current()),
            Wanted::Waker(waker) => Waiter::Waker((*waker).clone()),
        }
    }

    /// Tells the waiter the task completed. Takes `&self`: the handle may be
    /// reading the slot at the same time (to compare wakers), so the
    /// completer only reads it too, and the occupant is dropped with the
    /// cell or replaced by the handle.
    pub(crate) fn wake(&self) {
        rt_queue::path_step!();
        match self {
            Waiter::Thread(thread) => thread.unpark(),
            Waiter::Waker(waker) => {
                // A waker is user code (the async runtime's): a panic in it
                // must not unwind into the worker that completed the task.
                if let Err(payload) = catch_unwind(AssertUnwindSafe(|| waker.wake_by_ref())) {
                    drop_quietly(payload);
                }
            }
        }
    }
}
