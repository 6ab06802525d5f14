//! The one place this crate takes its concurrency primitives from; and
//! [`drop_quietly`], the drop that lets no panic out, which the task's path
//! uses where it drops what user code left (re-exported by
//! `panic_message.rs` and `rt_handle::raw`).
//!
//! Built normally, these are `std`'s. Built with `RUSTFLAGS="--cfg loom"`, they
//! are loom's, so the loom models in `src/loom_*.rs` explore every
//! interleaving of the same code, including who frees a task's allocation
//! (`header.rs`, "Who frees a task's allocation": a cell freed by the second of its two owners to let
//! go, decided through the task's state word).

#[cfg(loom)]
pub(crate) use loom::{
    sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering},
    sync::{Condvar, Mutex},
    thread,
};

use std::panic::{catch_unwind, AssertUnwindSafe};

#[cfg(not(loom))]
pub(crate) use std::{
    sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering},
    sync::{Condvar, Mutex},
    thread,
};

// The registry of executor kinds (`raw/waiting.rs`) is `std`'s even under
// loom: a `static` array written once per kind, no part of any protocol the
// models check, and kept across their runs as a process keeps it.
pub(crate) use std::sync::atomic::AtomicPtr;

#[cfg(loom)]
pub use loom::cell::UnsafeCell;

/// `std::cell::UnsafeCell` with loom's closure-based API, so call sites are
/// the same in both builds and loom can check every access (built with
/// `--cfg loom`, this is loom's cell). Executors of the workspace use it
/// for the same reason, through `rt_handle::raw`.
#[cfg(not(loom))]
#[derive(Debug)]
pub struct UnsafeCell<T>(std::cell::UnsafeCell<T>);

#[cfg(not(loom))]
impl<T> UnsafeCell<T> {
    /// A cell holding `value`.
    pub const fn new(value: T) -> Self {
        Self(std::cell::UnsafeCell::new(value))
    }

    /// Calls `f` with a raw pointer to the contents; the caller is
    /// responsible for the exclusivity of what it does with it.
    #[inline(always)]
    pub fn with_mut<R>(&self, f: impl FnOnce(*mut T) -> R) -> R {
        rt_queue::path_step!();
        f(self.0.get())
    }

    /// Calls `f` with a raw pointer to read the contents through; the
    /// caller is responsible for no thread writing them meanwhile.
    #[inline(always)]
    pub fn with<R>(&self, f: impl FnOnce(*const T) -> R) -> R {
        rt_queue::path_step!();
        f(self.0.get())
    }
}

/// Drops `value`, swallowing a panic from its destructor. The panic's payload
/// is dropped too (it is almost always a string); only if *that* panics as
/// well is the last payload leaked, since dropping it could panic again.
///
/// Executors drop whatever user code left behind (captures of a cancelled
/// closure, an unjoined result, a panic payload) with it, so that a
/// destructor's panic never unwinds into a worker.
///
/// ```
/// struct Bomb;
/// impl Drop for Bomb {
///     fn drop(&mut self) { panic!("in drop") }
/// }
/// # let prev = std::panic::take_hook(); std::panic::set_hook(Box::new(|_| {}));
/// rt_handle::raw::drop_quietly(Bomb); // returns normally
/// # std::panic::set_hook(prev);
/// ```
#[inline]
pub fn drop_quietly<V>(value: V) {
    rt_queue::path_step!();
    if !std::mem::needs_drop::<V>() {
        // Nothing runs, so nothing can panic: skip the landing pad.
        std::mem::forget(value);
        return;
    }
    if let Err(payload) = catch_unwind(AssertUnwindSafe(move || drop(value))) {
        if let Err(nested) = catch_unwind(AssertUnwindSafe(move || drop(payload))) {
            std::mem::forget(nested);
        }
    }
}
