//! Which executor, if any, the current thread is working for.
//!
//! Executors need to know it in several places: a task that submits to its
//! own executor is never refused while that executor drains (and, in the
//! work-stealing runtime, goes to the worker's own deque); `shutdown` called
//! from one of the executor's own threads must not wait for that thread; a
//! join inside a worker may help instead of blocking. One thread-local
//! answers all of them for every executor of the workspace.
//!
//! The thread-local points at the innermost [`Member`] frame, and each frame
//! points at the one it was entered inside, so memberships nest: a task of a
//! global-queue pool may run a single-threaded executor's task inline, and
//! inside that the thread still works for the pool. A frame lives on the
//! stack of the code that entered it, for exactly as long as
//! [`Member::enter`]'s closure runs.
//!
//! ```
//! use rt_handle::membership::{self, Member, PoolKind};
//!
//! static MY_POOL: PoolKind = PoolKind::new("my pool");
//! let pool_id = 0x1000; // the address of the pool's shared state, in practice
//!
//! assert_eq!(membership::index_in(&MY_POOL), None);
//! Member::new(pool_id, &MY_POOL, 3).enter(|| {
//!     assert_eq!(membership::index_in(&MY_POOL), Some(3));
//!     assert!(membership::is_working_for(pool_id));
//! });
//! assert!(!membership::is_thread_of(pool_id));
//! ```

use std::cell::Cell;
use std::fmt;
use std::ptr;

/// What kind of executor a [`Member`] frame belongs to. Kinds are compared
/// by address: declare one `static` per executor type.
#[derive(Debug)]
pub struct PoolKind {
    name: &'static str,
}

impl PoolKind {
    /// A kind with a name for `Debug` output.
    pub const fn new(name: &'static str) -> Self {
        Self { name }
    }

    /// The name given to [`new`](Self::new).
    pub fn name(&self) -> &'static str {
        self.name
    }
}

/// One frame of the current thread's memberships: "this thread works for
/// pool `pool` as its worker `index`", for as long as [`enter`](Self::enter)
/// runs.
pub struct Member {
    pool: usize,
    kind: &'static PoolKind,
    index: usize,
    /// False once the worker has left its loop but still runs on the
    /// pool's thread (its stop hook): it then submits like an outsider.
    working: Cell<bool>,
    /// For the executor's own use (the runtime keeps its worker context
    /// here); never dereferenced by this module.
    context: *const (),
    /// The frame that was innermost when this one was entered.
    outer: Cell<*const Member>,
}

thread_local! {
    /// The innermost frame entered on this thread, or null.
    static INNERMOST: Cell<*const Member> = const { Cell::new(ptr::null()) };
}

impl Member {
    /// A frame for worker `index` of the pool identified by `pool` (the
    /// address of the pool's shared state: unique while the pool lives, and
    /// a member thread keeps the pool alive).
    pub fn new(pool: usize, kind: &'static PoolKind, index: usize) -> Self {
        Self {
            pool,
            kind,
            index,
            working: Cell::new(true),
            context: ptr::null(),
            outer: Cell::new(ptr::null()),
        }
    }

    /// Attaches a pointer for the executor's own use, read back with
    /// [`context`](Self::context).
    pub fn with_context(mut self, context: *const ()) -> Self {
        self.context = context;
        self
    }

    /// Runs `f` with the current thread marked as this member. The mark is
    /// removed when `f` returns or unwinds.
    pub fn enter<R>(&self, f: impl FnOnce() -> R) -> R {
        struct Leave<'a>(&'a Member);
        impl Drop for Leave<'_> {
            fn drop(&mut self) {
                let outer = self.0.outer.get();
                let _ = INNERMOST.try_with(|top| top.set(outer));
            }
        }
        // `try_with` fails only while the thread's locals are being
        // destroyed; `f` then runs without the mark, as an outsider.
        let Ok(outer) = INNERMOST.try_with(|top| top.replace(self)) else {
            return f();
        };
        self.outer.set(outer);
        let _leave = Leave(self);
        f()
    }

    /// The pool this frame belongs to.
    pub fn pool(&self) -> usize {
        self.pool
    }

    /// The kind of executor this frame belongs to.
    pub fn kind(&self) -> &'static PoolKind {
        self.kind
    }

    /// The worker index.
    pub fn index(&self) -> usize {
        self.index
    }

    /// The pointer given to [`with_context`](Self::with_context), or null.
    pub fn context(&self) -> *const () {
        self.context
    }

    /// Whether the worker is inside its loop (see [`set_working`](Self::set_working)).
    pub fn is_working(&self) -> bool {
        self.working.get()
    }

    /// Marks the worker as out of its loop (false) or back in it (true).
    pub fn set_working(&self, working: bool) {
        self.working.set(working);
    }

    fn is_of_kind(&self, kind: &'static PoolKind) -> bool {
        ptr::eq(self.kind, kind)
    }
}

impl fmt::Debug for Member {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Member")
            .field("kind", &self.kind.name)
            .field("index", &self.index)
            .field("working", &self.working.get())
            .finish_non_exhaustive()
    }
}

/// Calls `f` with the innermost frame on this thread, if any.
#[inline]
pub fn with_innermost<R>(f: impl FnOnce(Option<&Member>) -> R) -> R {
    let top = INNERMOST.try_with(Cell::get).unwrap_or(ptr::null());
    // SAFETY: a non-null INNERMOST points at a `Member` whose `enter` is
    // running on this thread (it resets the pointer before returning or
    // unwinding), so the frame outlives this call; the reference cannot
    // escape `f`.
    f(unsafe { top.as_ref() })
}

/// Calls `f` with each frame on this thread, innermost first, until it
/// returns `Some`.
fn find_frame<R>(mut f: impl FnMut(&Member) -> Option<R>) -> Option<R> {
    with_innermost(|mut frame| {
        while let Some(member) = frame {
            if let Some(found) = f(member) {
                return Some(found);
            }
            // SAFETY: `outer` was the innermost frame when `member` was
            // entered, so its `enter` is still running further up this
            // thread's stack.
            frame = unsafe { member.outer.get().as_ref() };
        }
        None
    })
}

/// True when the current thread works for `pool` and is inside its loop.
pub fn is_working_for(pool: usize) -> bool {
    find_frame(|m| (m.pool == pool).then_some(m.working.get())).unwrap_or(false)
}

/// True when the current thread is one of `pool`'s threads, inside its
/// loop or not.
pub fn is_thread_of(pool: usize) -> bool {
    find_frame(|m| (m.pool == pool).then_some(())).is_some()
}

/// The index of the innermost working frame of `kind` on this thread: the
/// `current_worker()` of each executor.
pub fn index_in(kind: &'static PoolKind) -> Option<usize> {
    find_frame(|m| {
        m.is_of_kind(kind)
            .then_some(m.is_working().then_some(m.index))
    })
    .flatten()
}

#[cfg(test)]
mod tests {
    use super::*;

    static A: PoolKind = PoolKind::new("a");
    static B: PoolKind = PoolKind::new("b");

    #[test]
    fn frames_nest_and_unwind() {
        Member::new(1, &A, 0).enter(|| {
            Member::new(2, &B, 5).enter(|| {
                assert!(is_working_for(1) && is_working_for(2));
                assert_eq!((index_in(&A), index_in(&B)), (Some(0), Some(5)));
            });
            assert!(!is_thread_of(2));
            let caught = std::panic::catch_unwind(|| {
                Member::new(3, &B, 1).enter(|| panic!("unwinds through enter"))
            });
            assert!(caught.is_err());
            assert!(!is_thread_of(3) && is_working_for(1));
        });
        assert_eq!(index_in(&A), None);
    }

    #[test]
    fn a_member_out_of_its_loop_is_still_a_thread_of_the_pool() {
        let member = Member::new(7, &A, 2);
        member.enter(|| {
            member.set_working(false);
            assert!(is_thread_of(7));
            assert!(!is_working_for(7));
            assert_eq!(index_in(&A), None);
        });
    }
}
