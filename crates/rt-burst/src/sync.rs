//! The one place this crate takes its concurrency primitives from.
//!
//! `std`'s normally; loom's when built with `RUSTFLAGS="--cfg loom"`, so the
//! loom model in `loom_wake.rs` checks the wake protocol of `WAKE.md` with
//! every interleaving of the very code the workers and producers run.

#[cfg(loom)]
pub(crate) use loom::sync::{
    atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering},
    Condvar, Mutex,
};
#[cfg(loom)]
pub(crate) use loom::thread;
#[cfg(loom)]
use rt_handle::raw::unpoison;

#[cfg(not(loom))]
pub(crate) use std::sync::{
    atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering},
    Mutex,
};
#[cfg(not(loom))]
pub(crate) use std::thread;

// Poisoning is ignored with `rt_handle::raw::unpoison`: no user code
// runs while this crate's own locks are held, so a poisoned lock still
// guards valid data.

/// Where a worker parks: `std::thread::park` on the worker's own thread,
/// woken by `Thread::unpark` (a futex on Linux: the floor). Zero-sized.
#[cfg(not(loom))]
#[derive(Debug)]
pub(crate) struct Parker;

#[cfg(not(loom))]
impl Parker {
    pub(crate) fn new() -> Self {
        Parker
    }

    /// Blocks the calling thread until its unpark token is available, and
    /// consumes it; may also return spuriously.
    #[inline]
    pub(crate) fn park(&self) {
        thread::park();
    }

    /// Makes `thread`'s token available (it must be the thread that parks
    /// on this parker).
    #[inline]
    pub(crate) fn unpark(&self, thread: &thread::Thread) {
        thread.unpark();
    }
}

/// Under loom: the same token semantics as `std`'s park/unpark, kept in a
/// mutex and a condition variable. (loom's own `thread::park` cannot be used:
/// its `unpark` also wakes a thread that is blocked on a mutex, which then
/// fails loom's lock assertion.)
#[cfg(loom)]
#[derive(Debug)]
pub(crate) struct Parker {
    token: Mutex<bool>,
    bell: Condvar,
}

#[cfg(loom)]
impl Parker {
    pub(crate) fn new() -> Self {
        Self {
            token: Mutex::new(false),
            bell: Condvar::new(),
        }
    }

    pub(crate) fn park(&self) {
        let mut token = unpoison(self.token.lock());
        while !*token {
            token = unpoison(self.bell.wait(token));
        }
        *token = false;
    }

    pub(crate) fn unpark(&self, _thread: &thread::Thread) {
        *unpoison(self.token.lock()) = true;
        self.bell.notify_one();
    }
}
