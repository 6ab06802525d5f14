//! Which of these executors the current thread is working for: this
//! crate's one thread-local, a stack of executor identities.
//!
//! After shutdown begins, an executor still accepts work from its own tasks
//! (so that tasks spawned while draining are not lost) and refuses everyone
//! else; and it must not wait for its own threads from inside one of them.
//! Memberships nest: a task of a `GlobalQueuePool` may run a
//! `SingleThreaded` task inline, and inside that the thread still belongs
//! to the pool. These executors' threads offer no help to the waits of the
//! code they run (rt-handle's `ExecutorKind`): a join on them blocks.

use std::cell::RefCell;

use rt_handle::raw::PoolId;

std::thread_local! {
    /// The executors the current thread works for, innermost last.
    static MEMBERSHIPS: RefCell<Vec<PoolId>> = const { RefCell::new(Vec::new()) };
}

/// Identifies one executor instance for as long as it is alive: the address
/// of its shared state. A member thread keeps that state alive (it holds an
/// `Arc` to it, or a borrow of it), so no other executor can take the address
/// while the key is on a thread's list.
pub(crate) fn key_of<T>(shared: &T) -> PoolId {
    PoolId::of_state(shared)
}

/// Runs `f` with the current thread marked as working for the executor
/// `key`. The mark is removed when `f` returns or unwinds.
pub(crate) fn working_for<R>(key: PoolId, f: impl FnOnce() -> R) -> R {
    struct Leave;
    impl Drop for Leave {
        fn drop(&mut self) {
            let _ = MEMBERSHIPS.try_with(|stack| stack.borrow_mut().pop());
        }
    }
    // `try_with` fails only while the thread's locals are destroyed; `f`
    // then runs without the mark.
    if MEMBERSHIPS
        .try_with(|stack| stack.borrow_mut().push(key))
        .is_err()
    {
        return f();
    }
    let _leave = Leave;
    f()
}

/// True when the current thread is running a task of the executor `key`.
pub(crate) fn is_member(key: PoolId) -> bool {
    MEMBERSHIPS
        .try_with(|stack| stack.borrow().contains(&key))
        .unwrap_or(false)
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use super::*;

    #[test]
    fn memberships_nest_and_unwind() {
        let states: Vec<Arc<u8>> = (0..3).map(Arc::new).collect();
        let [one, two, three] = [0, 1, 2].map(|i| key_of(&*states[i]));
        working_for(one, || {
            working_for(two, || assert!(is_member(one) && is_member(two)));
            assert!(!is_member(two));
            let caught =
                std::panic::catch_unwind(|| working_for(three, || panic!("unwinds through")));
            assert!(caught.is_err());
            assert!(!is_member(three) && is_member(one));
        });
        assert!(!is_member(one));
    }
}
