//! The one place this crate takes its concurrency primitives from.
//!
//! They are `std`'s: these executors are deliberately simple (one mutex and
//! a condition variable, or one counter), and no loom model checks them.
//! Poisoning is ignored with `rt_handle::raw::unpoison`: no code in this
//! crate panics while it holds one of its locks (task bodies, which may,
//! always run with every lock released, and `Job::run` catches their panics
//! anyway), so a poisoned lock still guards consistent state.

pub(crate) use rt_handle::raw::unpoison;
pub(crate) use std::sync::{
    atomic::{AtomicUsize, Ordering},
    Condvar, Mutex, MutexGuard,
};
pub(crate) use std::thread;
