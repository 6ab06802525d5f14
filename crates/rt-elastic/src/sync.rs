//! The one place this crate takes its concurrency primitives from.
//!
//! `std`'s normally; loom's when built with `RUSTFLAGS="--cfg loom"`, so the
//! loom model in `loom_retire.rs` runs the pool's own code (admission, the
//! worker loop, the keep-alive exit) under every interleaving. Poisoning is
//! ignored with `rt_handle::raw::unpoison`: no code that can panic runs
//! while the pool's lock is held (task bodies, hooks and the destructors of
//! closures all run with it released), so a poisoned lock still guards
//! consistent data.

#[cfg(loom)]
pub(crate) use loom::sync::{atomic::AtomicU64, atomic::Ordering, Condvar, Mutex, MutexGuard};
#[cfg(loom)]
pub(crate) use loom::thread;

#[cfg(not(loom))]
pub(crate) use std::sync::{atomic::AtomicU64, atomic::Ordering, Condvar, Mutex, MutexGuard};
#[cfg(not(loom))]
pub(crate) use std::thread;

/// Whether a worker thread has finished (finished threads' handles are
/// pruned as new workers start). loom's handles cannot tell: they are kept
/// until `shutdown` joins them.
#[cfg(not(loom))]
pub(crate) fn has_finished(handle: &thread::JoinHandle<()>) -> bool {
    handle.is_finished()
}
#[cfg(loom)]
pub(crate) fn has_finished(_handle: &thread::JoinHandle<()>) -> bool {
    false
}
