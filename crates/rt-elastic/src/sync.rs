//! The one place this crate takes its concurrency primitives from.
//!
//! They are `std`'s. There is no `cfg(loom)` branch: every wait in this pool
//! that matters (keep-alive, the spawn-failure retry) is a *timed* wait, and
//! loom does not model time, so a model would have to replace the very code
//! under test. The protocol is one mutex guarding all of the pool's state,
//! which is what keeps it simple enough to argue about without a model.

pub(crate) use std::sync::atomic::{AtomicU64, Ordering};
pub(crate) use std::sync::{Condvar, Mutex, MutexGuard};

use std::time::Duration;

/// Locks `mutex`, ignoring poisoning: no code that can panic runs while the
/// pool's own locks are held (task bodies, hooks and the destructors of
/// closures all run with every lock released), so a poisoned lock still
/// guards consistent data.
pub(crate) fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
}

/// `condvar.wait(guard)`, ignoring poisoning (see [`lock`]).
pub(crate) fn wait<'a, T>(condvar: &Condvar, guard: MutexGuard<'a, T>) -> MutexGuard<'a, T> {
    condvar
        .wait(guard)
        .unwrap_or_else(|poisoned| poisoned.into_inner())
}

/// `condvar.wait_timeout(guard, timeout)`, ignoring poisoning and whether it
/// timed out: every caller re-checks its condition and the clock itself.
pub(crate) fn wait_timeout<'a, T>(
    condvar: &Condvar,
    guard: MutexGuard<'a, T>,
    timeout: Duration,
) -> MutexGuard<'a, T> {
    condvar
        .wait_timeout(guard, timeout)
        .unwrap_or_else(|poisoned| poisoned.into_inner())
        .0
}
