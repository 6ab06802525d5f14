//! The one place this crate takes its concurrency primitives from.
//!
//! They are `std`'s. The scheduler's protocol is a single mutex-guarded heap
//! with two condition variables, so there is no lock-free code to model-check;
//! keeping every import here still means a `cfg(loom)` branch could later
//! swap in loom's types without touching the rest of the crate.

use std::sync::{LockResult, PoisonError};

pub(crate) use std::sync::{Condvar, Mutex, MutexGuard};

/// Unwraps a lock result, ignoring poisoning.
///
/// No code in this crate runs user code, or anything else that can panic,
/// while it holds its lock: callbacks run, and entries (whose captures may
/// have a `Drop` of their own) are dropped, only after the lock is released.
/// So a poisoned lock still guards consistent state.
pub(crate) fn unpoison<G>(result: LockResult<G>) -> G {
    result.unwrap_or_else(PoisonError::into_inner)
}
