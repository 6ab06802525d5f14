//! The one place this crate takes its thread-safe primitives from.
//!
//! Only the wake path crosses threads: a task's [`Waker`](std::task::Waker)
//! may be woken from any thread (a timer thread, a thread that produces
//! work), so everything it touches lives behind these types. Futures, the
//! task arena and the scheduler stay on the executor's thread in `Rc` and
//! `RefCell`, and never appear here.

pub(crate) use std::sync::{
    atomic::{AtomicBool, AtomicU64, AtomicU8, Ordering},
    Arc, Mutex,
};
pub(crate) use std::thread::{self, Thread};

// Poisoning is ignored with `rt_handle::raw::unpoison`: no code of this
// crate panics while it holds one of its locks, and no user code runs under
// them, so a poisoned lock still guards consistent state.
pub(crate) use rt_handle::raw::unpoison;
