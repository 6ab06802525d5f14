//! Locks that ignore poisoning.

use std::sync::{LockResult, PoisonError};

/// Unwraps the result of `lock`, `wait` or `wait_timeout`, ignoring
/// poisoning.
///
/// Every executor of this workspace runs user code (task bodies, hooks,
/// the destructors of closures and results) only with its own locks
/// released, so a lock can be poisoned only by a bug in the executor itself;
/// the data behind it is still consistent, and refusing to use it would turn
/// one failure into many.
///
/// ```
/// use std::sync::Mutex;
/// use rt_handle::raw::unpoison;
///
/// let m = Mutex::new(1);
/// let _ = std::panic::catch_unwind(|| {
///     let _guard = m.lock().unwrap();
///     panic!("poisons the lock");
/// });
/// assert_eq!(*unpoison(m.lock()), 1);
/// ```
pub fn unpoison<G>(result: LockResult<G>) -> G {
    rt_queue::path_step!();
    result.unwrap_or_else(PoisonError::into_inner)
}
