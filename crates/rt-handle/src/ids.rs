//! Typed identities: of pools, tasks, scopes, runners and submission times,
//! each a newtype rather than a bare number with special values.

use std::num::{NonZeroU64, NonZeroUsize};
use std::sync::Arc;

/// An executor instance, as task owners name it:
/// the address of the executor's shared state, unique while it lives.
/// That state must be aligned to at least 4 bytes (any struct holding an
/// atomic word or a pointer is): a task's owner word keeps the task's
/// priority class in the address's two low bits
/// ([`JobControl::set_owner`](crate::raw::JobControl::set_owner)).
///
/// ```
/// use std::sync::Arc;
/// use rt_handle::raw::PoolId;
///
/// let state = Arc::new(());
/// assert_eq!(PoolId::of(&state), PoolId::of(&state.clone()));
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct PoolId(NonZeroUsize);

impl PoolId {
    /// The identity of the executor whose shared state is `state`.
    pub fn of<T: ?Sized>(state: &Arc<T>) -> Self {
        rt_queue::path_step!();
        Self::of_state(&**state)
    }

    /// The identity of the executor whose state is `state`, wherever it
    /// lives (the same as [`of`](Self::of) for the contents of an `Arc`).
    /// The executor must keep `state` in place while the identity is used.
    ///
    /// # Panics
    ///
    /// If `state`'s address is not a multiple of 4 (for a type aligned to
    /// 4 or more the compiler knows it is, and the check costs nothing at
    /// run time; the contents of an `Arc` always are).
    #[inline]
    pub fn of_state<T: ?Sized>(state: &T) -> Self {
        let addr = std::ptr::NonNull::from(state).cast::<u8>().addr();
        assert!(
            std::mem::align_of_val(state) >= OWNER_ALIGN || addr.get() % OWNER_ALIGN == 0,
            "an executor's state must be aligned to at least 4 bytes to be its PoolId"
        );
        Self(addr)
    }

    /// The pool in a task's `owner` word, whose low bits hold the task's
    /// class (0: none).
    pub(crate) fn from_owner_word(raw: usize) -> Option<Self> {
        NonZeroUsize::new(raw & !(OWNER_ALIGN - 1)).map(Self)
    }

    pub(crate) fn get(self) -> usize {
        self.0.get()
    }
}

/// A task, while its allocation lives: the address of that allocation
/// (shared by its queue entry and its handle). Addresses are reused once a
/// task is freed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct TaskId(NonZeroUsize);

impl TaskId {
    pub(crate) fn of<T: ?Sized>(task: std::ptr::NonNull<T>) -> Self {
        rt_queue::path_step!();
        Self(task.cast::<u8>().addr())
    }

    /// The number, for keys in maps and traces.
    pub fn get(self) -> usize {
        self.0.get()
    }
}

/// A scope, while it runs: the address of the
/// [`ScopeCompletion`](crate::raw::ScopeCompletion) its tasks
/// report to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct ScopeId(NonZeroUsize);

impl ScopeId {
    pub(crate) fn of<T: ?Sized>(scope: std::ptr::NonNull<T>) -> Self {
        Self(scope.cast::<u8>().addr())
    }

    /// The identity of `scope`, as its tasks report it.
    pub fn of_scope<S: crate::raw::ScopeCompletion>(scope: &S) -> Self {
        Self::of(std::ptr::NonNull::from(scope))
    }

    /// The number, for a scheduler that publishes it in an atomic word.
    pub fn get(self) -> usize {
        self.0.get()
    }
}

/// The alignment every [`PoolId`]'s address has at least: the owner word
/// of a task keeps the task's class in the bits below it.
pub(crate) const OWNER_ALIGN: usize = 4;

/// Where a runner tag sits in a task's state word: the bits from here up
/// (the bits below are the protocol's flags, `header.rs`).
pub(crate) const TAG_SHIFT: u32 = 15;

/// An executor's own name for the thread that claimed a task, recorded in
/// the task's state word while it runs (see
/// [`JobControl::run_as`](crate::raw::JobControl::run_as)), so
/// that a joiner can tell who runs it. At most [`RunnerTag::MAX`].
///
/// ```
/// use rt_handle::raw::RunnerTag;
///
/// let tag = RunnerTag::new(3).unwrap();
/// assert_eq!(tag.get(), 3);
/// assert!(RunnerTag::new(0).is_none());
/// assert!(RunnerTag::new(RunnerTag::MAX + 1).is_none());
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct RunnerTag(NonZeroUsize);

impl RunnerTag {
    /// The largest tag the state word can hold.
    pub const MAX: usize = usize::MAX >> TAG_SHIFT;

    /// A tag, unless `value` is 0 or above [`MAX`](Self::MAX).
    pub const fn new(value: usize) -> Option<Self> {
        if value > Self::MAX {
            return None;
        }
        match NonZeroUsize::new(value) {
            Some(value) => Some(Self(value)),
            None => None,
        }
    }

    /// The tag's value.
    pub const fn get(self) -> usize {
        self.0.get()
    }
}

/// When an executor accepted a task, in its own clock (the runtime stamps
/// nanoseconds since it started), for latency histograms and traces.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Stamp(NonZeroU64);

impl Stamp {
    /// A stamp, unless `value` is 0.
    pub const fn new(value: u64) -> Option<Self> {
        match NonZeroU64::new(value) {
            Some(value) => Some(Self(value)),
            None => None,
        }
    }

    /// The stamp's value.
    pub const fn get(self) -> u64 {
        self.0.get()
    }
}

/// Who may still wait for a task: what an executor that helps joiners
/// asks a queued job
/// ([`JobControl::awaited`](crate::raw::JobControl::awaited)).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Awaited {
    /// Nothing: a task submitted without a handle, or whose handle is gone,
    /// outside any scope. Once `Never`, always `Never`.
    Never,
    /// Its handle, outside any scope.
    ByHandle,
    /// Its scope, which always waits for it (and its handle, if kept).
    InScope(ScopeId),
}
