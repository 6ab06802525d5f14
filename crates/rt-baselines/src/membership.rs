//! Which of these executors the current thread is working for, through the
//! workspace's one membership thread-local (`rt_handle::executor_support::membership`).
//!
//! After shutdown begins, an executor still accepts work from its own tasks
//! (so that tasks spawned while draining are not lost) and refuses everyone
//! else; and it must not wait for its own threads from inside one of them.
//! Memberships nest: a task of a `GlobalQueuePool` may run a
//! `SingleThreaded` task inline, and inside that the thread still belongs
//! to the pool.

use rt_handle::executor_support::membership::{self, Member, PoolKind};
use rt_handle::executor_support::PoolId;

/// The kind of every frame these executors enter.
static BASELINE: PoolKind = PoolKind::new("rt-baselines executor");

/// Identifies one executor instance for as long as it is alive: the address
/// of its shared state. A member thread keeps that state alive (it holds an
/// `Arc` to it, or a borrow of it), so no other executor can take the address
/// while the key is on a thread's list.
pub(crate) fn key_of<T>(shared: &T) -> PoolId {
    PoolId::of_state(shared)
}

/// Runs `f` with the current thread marked as working for the executor
/// `key`.
pub(crate) fn working_for<R>(key: PoolId, f: impl FnOnce() -> R) -> R {
    Member::new(key, &BASELINE, 0).enter(f)
}

/// True when the current thread is running a task of the executor `key`.
pub(crate) fn is_member(key: PoolId) -> bool {
    membership::is_working_for(key)
}
