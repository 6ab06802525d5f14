//! The one place this crate takes its concurrency primitives from.
//!
//! `std`'s normally; loom's when built with `RUSTFLAGS="--cfg loom"`, so the
//! loom models in `src/loom_*.rs` check the doorbell and the shutdown gate
//! with every interleaving of the very code the runtime runs.

#[cfg(loom)]
pub(crate) use loom::{
    sync::{
        atomic::{fence, AtomicBool, AtomicPtr, AtomicU64, AtomicUsize, Ordering},
        Condvar, Mutex, MutexGuard,
    },
    thread::{self, yield_now},
};

#[cfg(not(loom))]
pub(crate) use std::{
    sync::{
        atomic::{fence, AtomicBool, AtomicPtr, AtomicU64, AtomicUsize, Ordering},
        Condvar, Mutex, MutexGuard,
    },
    thread::{self, yield_now},
};

/// The cell whose accesses loom checks (std's otherwise), shared with
/// rt-handle.
pub(crate) use rt_handle::raw::UnsafeCell;
