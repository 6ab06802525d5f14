//! Who is told when what it waits for is done: a thread parked in `join`,
//! or the async task that polled its handle. One slot in the task cell
//! holds either, so that `join` and `.await` share one protocol
//! (`JOIN_STATE.md`); rt-dag's end of a run keeps one the same way.

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::task::Waker;

use crate::panic_message::drop_quietly;
use crate::sync::thread;

/// Who waits, and how to wake it: the one waiter type of the workspace,
/// held by a task cell's waiter slot and by rt-dag's end of a run. What
/// the waiter is parked on, and when it is woken, is the holder's protocol.
#[derive(Debug)]
pub enum Waiter {
    /// A thread blocked in `join` (or a worker parked while it helps).
    Thread(thread::Thread),
    /// The waker of the last poll of the handle as a future.
    Waker(Waker),
}

/// Who is about to wait, before a slot holds it ([`Waiter::new`]).
#[derive(Debug, Clone, Copy)]
pub enum Wanted<'a> {
    /// The calling thread, to be unparked.
    CurrentThread,
    /// An async task, to be woken.
    Waker(&'a Waker),
}

impl Waiter {
    /// Whether the slot already holds `wanted`, so that registering it again
    /// changes nothing.
    pub fn is(&self, wanted: &Wanted<'_>) -> bool {
        match (self, wanted) {
            (Waiter::Thread(thread), Wanted::CurrentThread) => {
                thread.id() == thread::current().id()
            }
            (Waiter::Waker(waker), Wanted::Waker(new)) => waker.will_wake(new),
            _ => false,
        }
    }

    /// The waiter `wanted` names (the calling thread's handle, or a clone
    /// of the waker).
    pub fn new(wanted: &Wanted<'_>) -> Self {
        rt_queue::path_step!();
        match wanted {
            Wanted::CurrentThread => Waiter::Thread(thread::current()),
            Wanted::Waker(waker) => Waiter::Waker((*waker).clone()),
        }
    }

    /// Tells the waiter the wait is over: unparks the thread, or wakes the
    /// waker, whose panic is caught and dropped (it never unwinds into the
    /// thread that ended the wait). Takes `&self`: in a task cell the
    /// handle may be reading the slot at the same time (to compare
    /// wakers), so the completer only reads it too, and the occupant is
    /// dropped with the cell or replaced by the handle.
    pub fn wake(&self) {
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
