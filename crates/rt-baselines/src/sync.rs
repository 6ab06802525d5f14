//! The one place this crate takes its concurrency primitives from.
//!
//! Built normally, these are `std`'s. Built with `RUSTFLAGS="--cfg loom"`,
//! they are loom's, so a loom model could explore every interleaving of the
//! same executor code. That build also needs
//! `[target.'cfg(loom)'.dependencies] loom.workspace = true` in this crate's
//! manifest, which is left out until such models exist; the normal build never
//! looks at the `cfg(loom)` lines.
//!
//! The shared state of each executor stays a `std::sync::Arc`, as in
//! `rt-handle`: its reference count is not the protocol under test.

use std::cell::RefCell;
use std::sync::{LockResult, PoisonError};

#[cfg(loom)]
pub(crate) use loom::{
    sync::{
        atomic::{AtomicUsize, Ordering},
        Condvar, Mutex, MutexGuard,
    },
    thread,
};

#[cfg(not(loom))]
pub(crate) use std::{
    sync::{
        atomic::{AtomicUsize, Ordering},
        Condvar, Mutex, MutexGuard,
    },
    thread,
};

#[cfg(loom)]
loom::thread_local! {
    /// Keys of the executors whose work the current thread is doing right now
    /// (see `membership`). Loom's thread locals take no `const` initialiser.
    pub(crate) static MEMBERSHIPS: RefCell<Vec<usize>> = RefCell::new(Vec::new());
}

#[cfg(not(loom))]
std::thread_local! {
    /// Keys of the executors whose work the current thread is doing right now
    /// (see `membership`).
    pub(crate) static MEMBERSHIPS: RefCell<Vec<usize>> = const { RefCell::new(Vec::new()) };
}

/// Unwraps a lock result, ignoring poisoning.
///
/// No code in this crate panics while it holds one of its locks: task bodies
/// (which may panic) always run with every lock released, and `Job::run`
/// catches their panics anyway. So a poisoned lock still guards consistent
/// state, and refusing to use it would only turn one bug into many.
pub(crate) fn unpoison<G>(result: LockResult<G>) -> G {
    result.unwrap_or_else(PoisonError::into_inner)
}
