//! What a blocking wait does on an executor's own threads: one static table
//! of functions per kind of executor ([`ExecutorKind`]), reached from the
//! task being waited for.
//!
//! A join of a task's handle on a worker of the executor that accepted the
//! task may help instead of blocking the worker (the work-stealing runtime
//! runs related work; the elastic pool runs the task inline if it has not
//! started), and must refuse a wait that could never end (the task runs on
//! this very thread, below the join). rt-handle knows neither the executors
//! nor which thread works for which: each executor knows its own threads
//! (rt-core through its worker thread-local) and tells rt-handle what
//! waiting means on them through an [`ExecutorKind`], a `static` of
//! function pointers it [registers](ExecutorKind::register) once before it
//! starts a thread.
//!
//! A join reads the task's owner (the [`PoolId`] recorded by
//! [`JobControl::set_owner`](super::JobControl::set_owner)) and offers it
//! to the registered kinds: the kind whose executor it is, if the calling
//! thread is one of that executor's workers, helps ([`ExecutorKind`]'s
//! `join`); every other kind declines at once. A wait for anything else (a
//! task of another executor, a graph's completion) goes through
//! [`blocking`], [`help_once`] and [`can_help`], which ask the registered
//! kinds whether the calling thread is one of their workers.
//!
//! How long any of these waits polls before it parks is [`SpinThenPark`],
//! the one spin-then-park policy of the workspace's waits (`header.rs`'s,
//! beside the join's wait on a task's state word).
//!
//! ```
//! use std::cell::Cell;
//! use rt_handle::raw::{self, ExecutorKind};
//!
//! std::thread_local! {
//!     // This executor's own "which worker am I" (a flag, here).
//!     static IS_WORKER: Cell<bool> = const { Cell::new(false) };
//! }
//!
//! fn block(wait: &mut dyn FnMut()) -> bool {
//!     if !IS_WORKER.get() {
//!         return false; // not one of ours: the caller waits as usual
//!     }
//!     // An executor would tell its pool a worker blocks here.
//!     wait();
//!     true
//! }
//!
//! static MY_POOL: ExecutorKind = ExecutorKind::new("my pool").with_block(block);
//! MY_POOL.register();
//!
//! assert_eq!(raw::blocking(|| 1), 1); // not a worker: just waits
//! IS_WORKER.set(true);
//! assert_eq!(raw::blocking(|| 2), 2); // through `block`
//! assert!(!raw::help_once()); // this kind offers no help
//! ```

use std::fmt;
use std::marker::PhantomData;
use std::ptr;

use crate::header::TaskRef;
use crate::ids::PoolId;
use crate::sync::{AtomicPtr, Ordering};

/// What waiting means on the threads of one kind of executor: a table of
/// functions, declared as a `static` (one per executor type) and
/// [registered](Self::register) before the executor starts a thread.
///
/// Each function first checks, with the executor's own record of its
/// threads, whether the calling thread is one of its workers, and declines
/// (returns false) at once otherwise: a kind is asked about every wait on
/// every thread. A kind built with [`new`](Self::new) alone declines
/// everything; the `with_*` methods set what it does instead.
///
/// ```
/// use rt_handle::raw::{ExecutorKind, Joining, PoolId, TaskRef};
///
/// // A kind whose threads refuse nothing and help with nothing: a join on
/// // them blocks, as on any thread.
/// fn join(_owner: PoolId, _joining: Joining<'_>) -> bool {
///     false
/// }
/// fn runs_here(_owner: PoolId, _task: TaskRef<'_>) -> bool {
///     false
/// }
/// static PLAIN: ExecutorKind = ExecutorKind::new("plain")
///     .with_join(join)
///     .with_runs_here(runs_here);
/// PLAIN.register();
/// assert_eq!(PLAIN.name(), "plain");
/// ```
pub struct ExecutorKind {
    name: &'static str,
    join: fn(PoolId, Joining<'_>) -> bool,
    runs_here: fn(PoolId, TaskRef<'_>) -> bool,
    block: fn(&mut dyn FnMut()) -> bool,
    help_once: fn() -> bool,
    can_help: fn() -> bool,
}

impl ExecutorKind {
    /// A kind named `name` (for `Debug` output) that declines every wait.
    pub const fn new(name: &'static str) -> Self {
        Self {
            name,
            join: |_, _| false,
            runs_here: |_, _| false,
            block: |_| false,
            help_once: || false,
            can_help: || false,
        }
    }

    /// The join of a task whose owner is `owner`, an executor of this kind:
    /// if the calling thread is a worker of `owner` in its loop, `join`
    /// waits for the task as that worker can (runs it inline, helps with
    /// related work, or panics for a wait that could never end) and returns
    /// true, the task finished or not (the join then blocks for what is
    /// left). False at once on any other thread.
    pub const fn with_join(mut self, join: fn(PoolId, Joining<'_>) -> bool) -> Self {
        self.join = join;
        self
    }

    /// True if `task`, whose owner is `owner`, an executor of this kind,
    /// runs on the calling thread below the caller (the caller is that
    /// task, or work it runs while it waits): a wait for it could never
    /// end, and `JoinHandle::join` and `poll` panic instead.
    pub const fn with_runs_here(mut self, runs_here: fn(PoolId, TaskRef<'_>) -> bool) -> Self {
        self.runs_here = runs_here;
        self
    }

    /// A wait this kind's worker cannot help along (for a task of another
    /// executor, say): if the calling thread is such a worker, `block` runs
    /// `wait`, telling its pool the worker takes no work meanwhile, and
    /// returns true; false (without running `wait`) on any other thread.
    pub const fn with_block(mut self, block: fn(&mut dyn FnMut()) -> bool) -> Self {
        self.block = block;
        self
    }

    /// Runs one queued task that belongs to the work the calling code is
    /// part of, if the calling thread is a worker of this kind and has one:
    /// true if it ran one.
    pub const fn with_help_once(mut self, help_once: fn() -> bool) -> Self {
        self.help_once = help_once;
        self
    }

    /// True if the calling thread is a worker of this kind, in its loop,
    /// whose waits can help (see [`can_help`]).
    pub const fn with_can_help(mut self, can_help: fn() -> bool) -> Self {
        self.can_help = can_help;
        self
    }

    /// The name given to [`new`](Self::new).
    pub fn name(&self) -> &'static str {
        self.name
    }

    /// Makes waits consult this kind from now on; registering it again
    /// does nothing. An executor registers its kind before it starts (or
    /// adopts) a thread that waits through it: a thread started after the
    /// registration sees it.
    ///
    /// # Panics
    ///
    /// If more than [`MAX_KINDS`] kinds are registered.
    pub fn register(&'static self) {
        let this = ptr::from_ref(self).cast_mut();
        for slot in &KINDS {
            // Relaxed: the slot holds the address of a `static`, which
            // needs no publishing; a thread that has to find this kind (one
            // of its executor's workers) starts after this registration.
            match slot.compare_exchange(ptr::null_mut(), this, Ordering::Relaxed, Ordering::Relaxed)
            {
                Ok(_) => return,
                Err(found) if ptr::eq(found, this) => return,
                Err(_) => {}
            }
        }
        panic!("more than {MAX_KINDS} executor kinds registered");
    }
}

impl fmt::Debug for ExecutorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ExecutorKind")
            .field("name", &self.name)
            .finish_non_exhaustive()
    }
}

/// How many [`ExecutorKind`]s can be registered in one process.
pub const MAX_KINDS: usize = 16;

/// The registered kinds, in order, then nulls. A slot is written once.
/// `std`'s atomics even under loom (see `sync.rs`): the registry is no part
/// of any protocol the models check, and outlives each of their runs.
static KINDS: [AtomicPtr<ExecutorKind>; MAX_KINDS] =
    [const { AtomicPtr::new(ptr::null_mut()) }; MAX_KINDS];

/// Calls `f` with each registered kind, in order, until it returns true.
fn any_kind(mut f: impl FnMut(&'static ExecutorKind) -> bool) -> bool {
    rt_queue::path_step!();
    for slot in &KINDS {
        // Relaxed: see `register`.
        let kind = slot.load(Ordering::Relaxed);
        // SAFETY: a non-null slot holds the address of a registered
        // `&'static ExecutorKind`.
        let Some(kind) = (unsafe { kind.as_ref() }) else {
            return false;
        };
        if f(kind) {
            return true;
        }
    }
    false
}

/// The join of a task's own handle, on the calling thread: what an
/// [`ExecutorKind`]'s `join` is given. Only rt-handle's `JoinHandle::join`
/// and `ScopedJoinHandle::join` make one, and it cannot leave their thread
/// (it is not `Send`) or outlive the call, so while a worker holds it, the
/// handle side of the task is that thread's: a worker that also takes the
/// task's queue entry holds the whole task, and may run it without racing
/// anybody ([`JobControl::run_joined`](super::JobControl::run_joined)).
///
/// ```
/// use rt_handle::raw::{Joining, PoolId};
///
/// // A kind's `join` receives one; it can tell which task is joined.
/// fn join(owner: PoolId, joining: Joining<'_>) -> bool {
///     assert_eq!(joining.task().owner(), Some(owner));
///     false
/// }
/// # let _ = join;
/// ```
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

/// What a join or poll of a task's handle panics with inside that very task.
pub(crate) const SELF_WAIT: &str = "JoinHandle joined or awaited inside the task it joins \
    (or inside work that task runs while it waits): the task would wait for itself forever";

/// Waits for the task `joining` joins by helping, if the calling thread is
/// a worker of the executor that accepted it: true once the task has
/// finished that way. False otherwise: the caller then blocks (through
/// [`blocking`]).
///
/// # Panics
///
/// If the task runs on this thread below the caller ([`SELF_WAIT`]), at
/// the caller's location (`#[track_caller]` up to the user's `join`).
#[track_caller]
pub(crate) fn help_join(joining: Joining<'_>) -> bool {
    rt_queue::path_step!();
    let task = joining.task();
    let Some(owner) = task.owner() else {
        return false;
    };
    // The panic is raised here, not in a kind's function, so that its
    // location is the caller's.
    if any_kind(|kind| (kind.runs_here)(owner, task)) {
        panic!("{SELF_WAIT}");
    }
    any_kind(|kind| (kind.join)(owner, joining)) && task.is_finished()
}

/// True if the task is running on this thread below the caller, as told by
/// the kind of the executor that accepted it.
pub(crate) fn runs_here(task: TaskRef<'_>) -> bool {
    task.owner()
        .is_some_and(|owner| any_kind(|kind| (kind.runs_here)(owner, task)))
}

/// Runs `wait`, which blocks the calling thread until something outside
/// its executor happens (a task of another executor finishes, say). On a
/// worker whose executor can keep another thread free meanwhile, the
/// executor is told (its kind's `block`); elsewhere `wait` just runs.
///
/// ```
/// assert_eq!(rt_handle::raw::blocking(|| 7), 7);
/// ```
pub fn blocking<R>(wait: impl FnOnce() -> R) -> R {
    rt_queue::path_step!();
    let mut wait = Some(wait);
    let mut result = None;
    let mut run = || {
        if let Some(wait) = wait.take() {
            result = Some(wait());
        }
    };
    any_kind(|kind| (kind.block)(&mut run));
    match (result, wait) {
        (Some(result), _) => result,
        // No kind took the wait (or one claimed it without running it):
        // it is still owed.
        (None, Some(wait)) => wait(),
        (None, None) => unreachable!("the wait ran, so it returned"),
    }
}

/// Runs one queued task that belongs to the work the calling code is part
/// of, if the current thread is a worker that can help and has one; false
/// otherwise. A blocking wait for something other than a task (a graph
/// scheduler's completion channel, say) calls it between checks, so that on
/// a worker it makes progress instead of blocking the worker.
///
/// ```
/// assert!(!rt_handle::raw::help_once()); // not a worker
/// ```
pub fn help_once() -> bool {
    any_kind(|kind| (kind.help_once)())
}

/// True when the current thread is a worker inside its loop whose blocking
/// waits can help ([`help_once`] may run work there): a wait on it may run
/// the work it waits for instead of parking. False on any other thread.
///
/// ```
/// assert!(!rt_handle::raw::can_help()); // not a worker
/// ```
pub fn can_help() -> bool {
    any_kind(|kind| (kind.can_help)())
}
