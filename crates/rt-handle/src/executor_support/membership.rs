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
//! use std::sync::Arc;
//! use rt_handle::executor_support::membership::{self, Member, PoolKind};
//! use rt_handle::executor_support::PoolId;
//!
//! static MY_POOL: PoolKind = PoolKind::new("my pool");
//! let shared = Arc::new(()); // the pool's shared state, in practice
//! let pool = PoolId::of(&shared);
//!
//! assert_eq!(membership::index_in(&MY_POOL), None);
//! Member::new(pool, &MY_POOL, 3).enter(|| {
//!     assert_eq!(membership::index_in(&MY_POOL), Some(3));
//!     assert!(membership::is_working_for(pool));
//! });
//! assert!(!membership::is_thread_of(pool));
//! ```

use std::cell::Cell;
use std::fmt;
use std::marker::PhantomData;
use std::ptr;

use crate::header::TaskRef;
use crate::ids::PoolId;

/// What a worker thread offers the blocking waits of code running on it
/// (`JoinHandle::join`, a graph scheduler's wait), so that they make
/// progress instead of blocking the worker: the work-stealing runtime's
/// workers implement it (and the elastic pool's, which run an unstarted
/// joined task inline, and the timer thread's, which refuses a join that
/// only it could complete); other executors' threads simply block.
pub trait WaitHelp {
    /// Returns once the task being joined, accepted by this worker's pool,
    /// has finished: running it inline if it has not started, helping with
    /// related work while it runs elsewhere, parking when there is nothing
    /// to do.
    fn join(&self, joining: Joining<'_>);

    /// Runs one queued task that belongs to the work the calling code is
    /// part of, if there is one; false if there is none.
    fn run_one(&self) -> bool;

    /// Runs `wait`, a wait this worker cannot help along (for a task of
    /// another executor, say), telling its pool that the worker takes no
    /// work meanwhile, so that the pool can keep another thread free for
    /// its queued work.
    fn block(&self, wait: &mut dyn FnMut());

    /// True if `task`, accepted by this worker's pool, is running on this
    /// worker's thread, below the caller on its stack (the caller is that
    /// task, or work it runs while it waits): a wait for it here could
    /// never end, and `JoinHandle::join` and `poll` panic instead. The
    /// default, for a worker that cannot tell, is false.
    fn runs_here(&self, task: TaskRef<'_>) -> bool {
        let _ = task;
        false
    }
}

/// The join of a task's own handle, on the calling thread: what
/// [`WaitHelp::join`] is given. Only rt-handle's `JoinHandle::join` and
/// `ScopedJoinHandle::join` make one, and it cannot leave their thread
/// (it is not `Send`) or outlive the call, so while a worker holds it, the
/// handle side of the task is that thread's: a worker that also takes the
/// task's queue entry holds the whole task, and may run it without racing
/// anybody ([`JobControl::run_joined`](super::JobControl::run_joined)).
#[derive(Clone, Copy)]
pub struct Joining<'a> {
    task: TaskRef<'a>,
    _this_thread: PhantomData<*const ()>,
}

impl<'a> Joining<'a> {
    pub(crate) fn new(task: TaskRef<'a>) -> Self {
        Self {
            task,
            _this_thread: PhantomData,
        }
    }

    /// The task being joined.
    pub fn task(&self) -> TaskRef<'a> {
        self.task
    }
}

impl fmt::Debug for Joining<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Joining")
            .field("task", &self.task.id())
            .finish()
    }
}

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
pub struct Member<'a> {
    pool: PoolId,
    kind: &'static PoolKind,
    index: usize,
    /// False once the worker has left its loop but still runs on the
    /// pool's thread (its stop hook): it then submits like an outsider.
    working: Cell<bool>,
    /// How blocking waits on this thread help, if they can.
    helper: Option<&'a dyn WaitHelp>,
    /// What was innermost when this frame was entered.
    outer: Cell<Innermost>,
    _not_send: PhantomData<*const ()>,
}

/// The innermost frame on a thread (null when none). The lifetime is
/// erased: a frame is reachable only while its `enter` runs.
#[derive(Clone, Copy)]
struct Innermost {
    member: *const Member<'static>,
}

const NONE: Innermost = Innermost {
    member: ptr::null(),
};

#[cfg(not(loom))]
std::thread_local! {
    /// The innermost frame entered on this thread (null when none). The
    /// lifetime is erased: a frame is reachable only while its `enter` runs.
    static INNERMOST: Cell<Innermost> = const { Cell::new(NONE) };
}

// Under loom, one per loom thread (loom's threads share OS threads).
#[cfg(loom)]
loom::thread_local! {
    static INNERMOST: Cell<Innermost> = Cell::new(NONE);
}

impl<'a> Member<'a> {
    /// A frame for worker `index` of the pool `pool` (a member thread keeps
    /// the pool alive, so the identity stays unique while it is used).
    pub fn new(pool: PoolId, kind: &'static PoolKind, index: usize) -> Self {
        Self {
            pool,
            kind,
            index,
            working: Cell::new(true),
            helper: None,
            outer: Cell::new(NONE),
            _not_send: PhantomData,
        }
    }

    /// Lets blocking waits on this thread help through `helper`.
    pub fn with_helper(mut self, helper: &'a dyn WaitHelp) -> Self {
        self.helper = Some(helper);
        self
    }

    /// Runs `f` with the current thread marked as this member. The mark is
    /// removed when `f` returns or unwinds.
    pub fn enter<R>(&self, f: impl FnOnce() -> R) -> R {
        struct Leave<'m, 'a>(&'m Member<'a>);
        impl Drop for Leave<'_, '_> {
            fn drop(&mut self) {
                let outer = self.0.outer.get();
                let _ = INNERMOST.try_with(|top| top.set(outer));
            }
        }
        // Only the lifetime is erased: the frame is reachable through the
        // thread-local only until `Leave` runs, while `self` is borrowed.
        let this = Innermost {
            member: ptr::from_ref(self).cast::<Member<'static>>(),
        };
        // `try_with` fails only while the thread's locals are being
        // destroyed; `f` then runs without the mark, as an outsider.
        let Ok(outer) = INNERMOST.try_with(|top| top.replace(this)) else {
            return f();
        };
        self.outer.set(outer);
        let _leave = Leave(self);
        f()
    }

    /// Marks the current thread as this member until [`leave`](Self::leave):
    /// [`enter`](Self::enter) for a thread an executor adopts as a worker
    /// while it goes on running its own code (rt-core's
    /// `Builder::use_current_thread`), where no closure spans the
    /// membership.
    ///
    /// # Safety
    ///
    /// `self` must not move nor be dropped before `leave` is called, on this
    /// thread, at a point where every frame entered after this one has been
    /// left.
    pub unsafe fn enter_until_left(&self) {
        let this = Innermost {
            member: ptr::from_ref(self).cast::<Member<'static>>(),
        };
        if let Ok(outer) = INNERMOST.try_with(|top| top.replace(this)) {
            self.outer.set(outer);
        }
    }

    /// Ends a membership begun by [`enter_until_left`](Self::enter_until_left)
    /// (nothing, if this frame is not the innermost on this thread).
    pub fn leave(&self) {
        let this = ptr::from_ref(self).cast::<Member<'static>>();
        let _ = INNERMOST.try_with(|top| {
            if ptr::eq(top.get().member, this) {
                top.set(self.outer.get());
            }
        });
    }

    /// The pool this frame belongs to.
    pub fn pool(&self) -> PoolId {
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

    /// Whether the worker is inside its loop (see [`set_working`](Self::set_working)).
    pub fn is_working(&self) -> bool {
        self.working.get()
    }

    /// Marks the worker as out of its loop (false) or back in it (true).
    pub fn set_working(&self, working: bool) {
        self.working.set(working);
    }

    /// How blocking waits on this thread help, if they can.
    pub fn helper(&self) -> Option<&'a dyn WaitHelp> {
        self.helper
    }

    fn is_of_kind(&self, kind: &'static PoolKind) -> bool {
        ptr::eq(self.kind, kind)
    }
}

impl fmt::Debug for Member<'_> {
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
fn with_innermost<R>(f: impl for<'m> FnOnce(Option<&'m Member<'m>>) -> R) -> R {
    let top = INNERMOST.try_with(Cell::get).unwrap_or(NONE).member;
    // A non-null INNERMOST points at a `Member` whose `enter` runs on this
    // thread (it resets the pointer before returning or unwinding).
    // SAFETY: so the frame outlives this call; the reference cannot escape `f`.
    f(unsafe { top.as_ref() })
}

/// Calls `f` with each frame on this thread, innermost first, until it
/// returns `Some`.
fn find_frame<R>(mut f: impl FnMut(&Member<'_>) -> Option<R>) -> Option<R> {
    with_innermost(|mut frame| {
        while let Some(member) = frame {
            if let Some(found) = f(member) {
                return Some(found);
            }
            // SAFETY: `outer` was the innermost frame when `member` was
            // entered, so its `enter` is still running further up this
            // thread's stack.
            frame = unsafe { member.outer.get().member.as_ref() };
        }
        None
    })
}

/// True when the current thread works for `pool` and is inside its loop.
pub fn is_working_for(pool: PoolId) -> bool {
    find_frame(|m| (m.pool == pool).then_some(m.working.get())).unwrap_or(false)
}

/// True when the current thread is one of `pool`'s threads, inside its
/// loop or not.
pub fn is_thread_of(pool: PoolId) -> bool {
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

/// What a join or poll of a task's handle panics with inside that very task.
pub(crate) const SELF_WAIT: &str = "JoinHandle joined or awaited inside the task it joins \
    (or inside work that task runs while it waits): the task would wait for itself forever";

/// Waits for the task `joining` joins by helping, if the innermost frame on
/// this thread belongs to the pool that accepted it and can help: true once
/// the task has finished that way. False at once otherwise: the caller then
/// blocks (through [`blocking`]).
///
/// # Panics
///
/// If the task runs on this thread below the caller ([`SELF_WAIT`]), at
/// the caller's location (`#[track_caller]` up to the user's `join`).
#[track_caller]
pub(crate) fn help_join(joining: Joining<'_>) -> bool {
    /// What the innermost frame's helper did.
    enum Helped {
        /// The task runs below the caller on this thread.
        SelfWait,
        /// It helped until the task finished (or could not).
        Finished(bool),
    }
    let task = joining.task();
    // The panic is raised here, not in the closure, so that its location
    // is the caller's.
    match with_helper_of(task, |helper, working| {
        if helper.runs_here(task) {
            return Helped::SelfWait;
        }
        if working {
            helper.join(joining);
        }
        Helped::Finished(working && task.is_finished())
    }) {
        Some(Helped::SelfWait) => panic!("{SELF_WAIT}"),
        Some(Helped::Finished(finished)) => finished,
        None => false,
    }
}

/// True if the task is running on this thread below the caller, as told by
/// the innermost frame's pool when that pool accepted the task
/// ([`WaitHelp::runs_here`]).
pub(crate) fn runs_here(task: TaskRef<'_>) -> bool {
    with_helper_of(task, |helper, _| helper.runs_here(task)).unwrap_or(false)
}

/// Calls `f` with the helper of the innermost frame on this thread and
/// whether that frame is in its work loop, if the frame's pool accepted
/// `task` and offers a helper; `None` otherwise.
fn with_helper_of<R>(task: TaskRef<'_>, f: impl FnOnce(&dyn WaitHelp, bool) -> R) -> Option<R> {
    let owner = task.owner()?;
    with_innermost(|member| {
        let member = member.filter(|m| m.pool == owner)?;
        let helper = member.helper?;
        Some(f(helper, member.working.get()))
    })
}

/// Runs `wait`, which blocks the calling thread until something outside
/// its pool happens (a task of another executor finishes, say). On a
/// worker whose pool can keep another thread free meanwhile, the pool is
/// told ([`WaitHelp::block`]); elsewhere `wait` just runs.
pub fn blocking<R>(wait: impl FnOnce() -> R) -> R {
    with_innermost(|member| {
        let Some(helper) = member.filter(|m| m.working.get()).and_then(|m| m.helper) else {
            return wait();
        };
        let mut wait = Some(wait);
        let mut result = None;
        helper.block(&mut || {
            if let Some(wait) = wait.take() {
                result = Some(wait());
            }
        });
        match (result, wait) {
            (Some(result), _) => result,
            // A helper that never called `wait` still owes the wait.
            (None, Some(wait)) => wait(),
            (None, None) => unreachable!("the wait ran, so it returned"),
        }
    })
}

/// Runs one queued task that belongs to the work the calling code is part
/// of, if the current thread is a worker that can help and has one; false
/// otherwise. A blocking wait for something other than a task (a graph
/// scheduler's completion channel, say) calls it between checks, so that on
/// a worker it makes progress instead of blocking the worker.
pub fn help_once() -> bool {
    with_innermost(|member| {
        member
            .filter(|m| m.working.get())
            .and_then(|m| m.helper)
            .is_some_and(|helper| helper.run_one())
    })
}

/// True when the current thread is a worker inside its loop whose blocking
/// waits can help ([`help_once`] may run work there): a wait on it may run
/// the work it waits for instead of parking. False on any other thread.
pub fn can_help() -> bool {
    with_innermost(|member| {
        member
            .filter(|m| m.working.get())
            .and_then(|m| m.helper)
            .is_some()
    })
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use super::*;

    static A: PoolKind = PoolKind::new("a");
    static B: PoolKind = PoolKind::new("b");

    /// Three pools' identities, from their shared states.
    fn pools() -> (Vec<Arc<u8>>, [PoolId; 3]) {
        let states: Vec<Arc<u8>> = (0..3).map(Arc::new).collect();
        let ids = [0, 1, 2].map(|i| PoolId::of(&states[i]));
        (states, ids)
    }

    #[test]
    fn frames_nest_and_unwind() {
        let (_states, [one, two, three]) = pools();
        Member::new(one, &A, 0).enter(|| {
            Member::new(two, &B, 5).enter(|| {
                assert!(is_working_for(one) && is_working_for(two));
                assert_eq!((index_in(&A), index_in(&B)), (Some(0), Some(5)));
            });
            assert!(!is_thread_of(two));
            let caught = std::panic::catch_unwind(|| {
                Member::new(three, &B, 1).enter(|| panic!("unwinds through enter"))
            });
            assert!(caught.is_err());
            assert!(!is_thread_of(three) && is_working_for(one));
        });
        assert_eq!(index_in(&A), None);
    }

    #[test]
    fn a_member_out_of_its_loop_is_still_a_thread_of_the_pool() {
        let (_states, [pool, ..]) = pools();
        let member = Member::new(pool, &A, 2);
        member.enter(|| {
            member.set_working(false);
            assert!(is_thread_of(pool));
            assert!(!is_working_for(pool));
            assert_eq!(index_in(&A), None);
        });
    }
}
