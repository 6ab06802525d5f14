//! The one place this crate takes its concurrency primitives from.
//!
//! They are `std`'s. The scheduler's protocol is a single mutex-guarded heap
//! with two condition variables, so there is no lock-free code to model-check;
//! keeping every import here still means a `cfg(loom)` branch could later
//! swap in loom's types without touching the rest of the crate. Poisoning is
//! ignored with `rt_handle::raw::unpoison`: no code of this crate runs
//! user code, or anything else that can panic, while it holds its lock
//! (callbacks run, and entries are dropped, only after it is released).

pub(crate) use std::sync::{Condvar, Mutex, MutexGuard};
