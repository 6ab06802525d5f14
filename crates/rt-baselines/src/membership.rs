//! Which executors the current thread is working for.
//!
//! After shutdown begins, an executor still accepts work from its own tasks
//! (so that tasks spawned while draining are not lost) and refuses everyone
//! else. It also must not wait for its own threads from inside one of them,
//! which would deadlock. Both decisions need to know whether the calling
//! thread is, right now, running a task of this executor; a thread-local list
//! of executor keys answers that without any shared state.
//!
//! It is a list rather than one slot because executors nest: a task of a
//! `GlobalQueuePool` may run a `SingleThreaded` task inline, and inside that
//! the thread still belongs to the pool.

use crate::sync::MEMBERSHIPS;

/// Identifies one executor instance for as long as it is alive: the address
/// of its shared state. A member thread keeps that state alive (it holds an
/// `Arc` to it, or a borrow of it), so no other executor can take the address
/// while the key is on a thread's list.
pub(crate) fn key_of<T>(shared: &T) -> usize {
    std::ptr::from_ref(shared).addr()
}

/// Marks the current thread as working for the executor `key` until the
/// returned guard is dropped.
pub(crate) fn enter(key: usize) -> Member {
    // `try_with` fails only while the thread's locals are being destroyed; a
    // task submitted from a thread-local destructor then simply runs without
    // membership, which only matters if it races with shutdown.
    let entered = MEMBERSHIPS
        .try_with(|keys| keys.borrow_mut().push(key))
        .is_ok();
    Member { key, entered }
}

/// True when the current thread is running a task of the executor `key`.
pub(crate) fn is_member(key: usize) -> bool {
    MEMBERSHIPS
        .try_with(|keys| keys.borrow().contains(&key))
        .unwrap_or(false)
}

/// Membership of the current thread in one executor; ends when dropped.
#[derive(Debug)]
pub(crate) struct Member {
    key: usize,
    entered: bool,
}

impl Drop for Member {
    fn drop(&mut self) {
        if !self.entered {
            return;
        }
        let key = self.key;
        // Guards drop in reverse order of creation, so our key is normally
        // the last one; searching from the end keeps that case O(1) and still
        // copes with an out-of-order drop.
        let _ = MEMBERSHIPS.try_with(|keys| {
            let mut keys = keys.borrow_mut();
            if let Some(at) = keys.iter().rposition(|&k| k == key) {
                keys.remove(at);
            }
        });
    }
}
