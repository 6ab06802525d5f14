//! The one place this crate takes its concurrency primitives from.
//!
//! Built normally, these are `std`'s. Built with `RUSTFLAGS="--cfg loom"`, they
//! are loom's, so the loom models in `src/loom_*.rs` explore every
//! interleaving of the same code. The task allocation itself stays a
//! `std::sync::Arc` in both builds: loom's `Arc` cannot unsize to a trait
//! object, and the reference count is not the protocol under test.

#[cfg(loom)]
pub(crate) use loom::{
    sync::atomic::{AtomicBool, AtomicUsize, Ordering},
    sync::{Condvar, Mutex},
    thread,
};

#[cfg(not(loom))]
pub(crate) use std::{
    sync::atomic::{AtomicBool, AtomicUsize, Ordering},
    sync::{Condvar, Mutex},
    thread,
};

#[cfg(loom)]
pub(crate) use loom::cell::UnsafeCell;

/// `std::cell::UnsafeCell` with loom's closure-based API, so call sites are
/// the same in both builds and loom can check every access.
#[cfg(not(loom))]
#[derive(Debug)]
pub(crate) struct UnsafeCell<T>(std::cell::UnsafeCell<T>);

#[cfg(not(loom))]
impl<T> UnsafeCell<T> {
    pub(crate) const fn new(value: T) -> Self {
        Self(std::cell::UnsafeCell::new(value))
    }

    #[inline(always)]
    pub(crate) fn with_mut<R>(&self, f: impl FnOnce(*mut T) -> R) -> R {
        f(self.0.get())
    }
}
