//! `scope`: tasks that may borrow from the caller's stack, all finished
//! before the scope returns (`std::thread::scope`'s shape).
//!
//! A scope counts its unfinished tasks. Each task is a heap task like any
//! other, whose completion (run, panicked, cancelled or rejected) counts the
//! scope down after everything the task owned has been dropped. The scope
//! body runs on a worker; at its end that worker waits for the count to
//! reach zero, helping under the rule of `JOIN_HELPING.md` (its own deque,
//! and the deques of workers that run tasks of this scope), and the last
//! task to finish unparks it.

use std::any::Any;
use std::marker::PhantomData;
use std::panic::{catch_unwind, resume_unwind, AssertUnwindSafe};
use std::sync::Arc;

use rt_handle::raw::{drop_quietly, ScopeCompletion, ScopeId, SpinThenPark};
use rt_handle::{Job, ScopedJoinHandle};
use rt_queue::Priority;

use crate::fork_join::helping::{self, Target};
use crate::fork_join::install::install;
use crate::fork_join::latch::Latch;
use crate::fork_join::worker_slot::WorkerSlot;
use crate::runtime::Runtime;
use crate::shared::{ScopeWaiter, Shared};
use crate::submit::submit_scoped;
use crate::sync::thread::{self, Thread};
use crate::sync::{AtomicPtr, Ordering};
use crate::worker::{self, WorkerContext};

impl Runtime {
    /// Opens a scope on this runtime: tasks spawned through it
    /// (`s.spawn(f)`) run on the runtime's workers, may borrow anything
    /// that outlives the scope, and have all finished when `scope` returns
    /// (`std::thread::scope`'s shape). The body runs on a worker (the
    /// caller blocks meanwhile, unless it is one), and at its end that
    /// worker helps with the scope's tasks instead of waiting idly.
    ///
    /// If a task panicked and its handle was not joined, `scope` panics
    /// once every task has finished, with the payload of the first such
    /// panic; a panic of `f` itself resumes after the tasks finished, and
    /// takes precedence. If the runtime is shut down, the scope runs on
    /// the calling thread, its tasks one after another as they are spawned.
    /// Tasks may be spawned into the scope from any thread, a worker or
    /// not; [`stop`](Self::stop) while the scope runs cancels none of them.
    ///
    /// ```
    /// let rt = rt_core::Runtime::new(2)?;
    /// let mut halves = [0u64, 0];
    /// let data: Vec<u64> = (1..=1_000).collect();
    /// rt.scope(|s| {
    ///     let (a, b) = halves.split_at_mut(1);
    ///     let (left, right) = data.split_at(500);
    ///     s.spawn(move || a[0] = left.iter().sum());
    ///     s.spawn(move || b[0] = right.iter().sum());
    /// });
    /// assert_eq!(halves[0] + halves[1], 500_500);
    /// # Ok::<(), rt_core::BuildError>(())
    /// ```
    pub fn scope<'env, F, T>(&self, f: F) -> T
    where
        F: for<'scope> FnOnce(&'scope Scope<'scope, 'env>) -> T + Send,
        T: Send,
    {
        let shared = &self.shared;
        install(shared, Priority::Normal, move || {
            worker::with_local(shared, |worker| match worker {
                Some(worker) if worker.in_unit() => run_scope(Host::Worker(worker), f),
                _ => run_scope(Host::Sequential, f),
            })
        })
    }
}

impl Runtime {
    /// Opens a scope whose body runs right here, on the calling thread,
    /// and whose tasks run on this runtime (rayon's
    /// `ThreadPool::in_place_scope`): unlike [`scope`](Self::scope), the
    /// body may block on its tasks' progress (a channel, a barrier) even
    /// on a one-worker runtime. On a worker of this runtime it is
    /// [`scope`](crate::scope()); elsewhere the caller waits for the tasks
    /// at the end, parked (a worker of another runtime is counted as
    /// waiting there, as in [`install`](Self::install)). Panics as
    /// [`scope`](Self::scope).
    ///
    /// ```
    /// let rt = rt_core::Runtime::new(1)?;
    /// let (tx, rx) = std::sync::mpsc::channel();
    /// rt.in_place_scope(|s| {
    ///     s.spawn(move || tx.send(42).unwrap());
    ///     assert_eq!(rx.recv(), Ok(42)); // the runtime's worker is free
    /// });
    /// # Ok::<(), rt_core::BuildError>(())
    /// ```
    pub fn in_place_scope<'env, F, T>(&self, f: F) -> T
    where
        F: for<'scope> FnOnce(&'scope Scope<'scope, 'env>) -> T,
    {
        let shared = &self.shared;
        let outside = worker::with_local(shared, |worker| match worker {
            Some(worker) if worker.in_unit() || worker.is_adopted() => {
                Ok(worker.in_a_unit(|| run_scope(Host::Worker(worker), f)))
            }
            // In a hook, as `scope` there.
            Some(_) => Ok(run_scope(Host::Sequential, f)),
            None => Err(f),
        });
        outside.unwrap_or_else(|f| run_scope(Host::Thread(shared), f))
    }
}

/// A scope to spawn tasks that may borrow data from outside it: see
/// [`Runtime::scope`](crate::Runtime::scope) and [`scope`](crate::scope()).
///
/// ```
/// let rt = rt_core::Runtime::new(2)?;
/// let mut counts = vec![0u32; 4];
/// rt.scope(|s| {
///     for (i, count) in counts.iter_mut().enumerate() {
///         s.spawn(move || *count = i as u32 * 10); // borrows `counts` mutably
///     }
/// });
/// assert_eq!(counts, [0, 10, 20, 30]);
/// # Ok::<(), rt_core::BuildError>(())
/// ```
pub struct Scope<'scope, 'env: 'scope> {
    state: ScopeState,
    /// Where tasks go: the scope's runtime, or none (they run at once, on
    /// the spawning thread).
    pool: Option<&'scope Arc<Shared>>,
    /// Who waits for the tasks at the end: a worker of `pool`, or the
    /// thread that opened the scope outside it.
    waiter: ScopeWaiter,
    /// The waiting worker's slot, unparked by a spawn from outside the pool
    /// (its task lands in the scope inbox, which the worker looks at).
    waiter_slot: Option<&'scope WorkerSlot>,
    /// The waiting thread, for a scope opened outside the pool: the latch
    /// wakes it through this handle.
    thread: Option<Thread>,
    /// The priority of tasks spawned without one: the body's own.
    priority: Priority,
    /// Invariant in `'scope` and `'env`, as `std::thread::Scope` is.
    scope: PhantomData<&'scope mut &'scope ()>,
    env: PhantomData<&'env mut &'env ()>,
}

/// The part of a scope its tasks report to.
///
/// Every field is made of word-sized atomics, so that a `&ScopeState`
/// covers interior-mutable bytes only, padding included (there is none):
/// the task that sets the latch may still be inside `task_completed`
/// (holding `&self`) when the scope's owner sees it set and frees the
/// scope, which Rust allows for interior-mutable bytes and not for plain
/// fields or padding.
pub(crate) struct ScopeState {
    /// Tasks spawned and not yet completed.
    pending: Latch,
    /// The payload of the first task panic that nobody joined, boxed once
    /// more so that a thin pointer reaches it; null while there is none.
    /// Set once (a compare-exchange from null; later payloads are dropped),
    /// taken by the scope's owner once every task completed.
    unjoined_panic: AtomicPtr<Box<dyn Any + Send>>,
}

// No padding: three words (the latch's two and the panic's), every byte
// inside an atomic.
const _: () = assert!(std::mem::size_of::<ScopeState>() == 3 * std::mem::size_of::<usize>());

impl<'scope> Scope<'scope, '_> {
    /// Spawns `f` at the priority of the code that opened the scope; the
    /// scope waits for it before returning. `f` may borrow anything that
    /// outlives the scope, and may spawn further tasks through the scope.
    ///
    /// Any thread may spawn: a task of the scope, the scope's body, a
    /// thread the body started, a worker of another runtime. The task is
    /// never refused: after `shutdown` or `stop` it still runs before the
    /// scope returns, as part of the caller's computation. A scope opened
    /// on a runtime already shut down runs each task at
    /// once, on the thread that spawns it.
    pub fn spawn<F, T>(&'scope self, f: F) -> ScopedJoinHandle<'scope, T>
    where
        F: FnOnce() -> T + Send + 'scope,
        T: Send + 'scope,
    {
        self.spawn_with_priority(self.priority, f)
    }

    /// Like [`spawn`](Self::spawn), at `priority`.
    pub fn spawn_with_priority<F, T>(
        &'scope self,
        priority: Priority,
        f: F,
    ) -> ScopedJoinHandle<'scope, T>
    where
        F: FnOnce() -> T + Send + 'scope,
        T: Send + 'scope,
    {
        self.state.pending.add_one();
        // SAFETY: `run_scope` does not return, so `'scope` does not end,
        // before `pending` is back to zero, that is, before this task has
        // reported its completion.
        let (job, handle) = unsafe { Job::scoped(&self.state, f) };
        self.submit(priority, job);
        handle
    }

    /// Spawns `f` without a handle, at the priority of the code that opened
    /// the scope (rayon's `Scope::spawn`): as [`spawn`](Self::spawn), but
    /// with no result to keep and no handle to let go of, it costs less. A
    /// panic of `f` makes the scope panic when it ends, with `f`'s payload
    /// if it is the first.
    ///
    /// ```
    /// use std::sync::atomic::{AtomicUsize, Ordering};
    ///
    /// let rt = rt_core::Runtime::new(2)?;
    /// let total = AtomicUsize::new(0);
    /// rt.scope(|s| {
    ///     for i in 1..=10 {
    ///         let total = &total;
    ///         s.execute(move || {
    ///             total.fetch_add(i, Ordering::Relaxed);
    ///         });
    ///     }
    /// });
    /// assert_eq!(total.into_inner(), 55);
    /// # Ok::<(), rt_core::BuildError>(())
    /// ```
    pub fn execute<F>(&'scope self, f: F)
    where
        F: FnOnce() + Send + 'scope,
    {
        self.state.pending.add_one();
        // SAFETY: as in `spawn_with_priority`: the scope waits for this
        // task's completion before `'scope` ends.
        let job = unsafe { Job::scoped_detached(&self.state, f) };
        self.submit(self.priority, job);
    }

    /// Hands a task of this scope to its runtime; with none (sequential, or
    /// the runtime is shut down), runs it here, now.
    fn submit(&'scope self, priority: Priority, job: Job) {
        let refused = match self.pool {
            Some(shared) => submit_scoped(shared, priority, job, self.waiter, || {
                if let Some(slot) = self.waiter_slot {
                    slot.unpark();
                }
            }),
            None => Err(job),
        };
        if let Err(job) = refused {
            job.run();
        }
    }
}

impl std::fmt::Debug for Scope<'_, '_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Scope")
            .field("done", &self.state.is_done())
            .field("priority", &self.priority)
            .field("sequential", &self.pool.is_none())
            .field("waiter", &self.waiter)
            .finish()
    }
}

impl ScopeState {
    /// The scope's identity, as its tasks report it.
    pub(crate) fn id(&self) -> ScopeId {
        ScopeId::of_scope(self)
    }

    /// Whether every task spawned in the scope has completed.
    pub(crate) fn is_done(&self) -> bool {
        self.pending.is_set()
    }

    /// The latch the scope's end waits on.
    pub(crate) fn pending(&self) -> &Latch {
        &self.pending
    }

    /// Keeps `payload` if it is the scope's first unjoined panic, else
    /// drops it (quietly: a payload's `Drop` may panic).
    fn keep_unjoined_panic(&self, payload: Box<dyn Any + Send>) {
        let boxed = Box::into_raw(Box::new(payload));
        // Relaxed: the payload reaches the scope's owner through `pending`
        // (a task's completion publishes it with the decrement's Release;
        // a handle dropped in the scope body is the owner's own doing),
        // and a failed exchange reads nothing through the pointer.
        let kept = self.unjoined_panic.compare_exchange(
            std::ptr::null_mut(),
            boxed,
            Ordering::Relaxed,
            Ordering::Relaxed,
        );
        if kept.is_err() {
            // SAFETY: `boxed` came from `Box::into_raw` above and was not
            // stored, so it is still ours alone.
            drop_quietly(unsafe { Box::from_raw(boxed) });
        }
    }

    /// Takes the first unjoined panic's payload; called by the scope's
    /// owner once every task has completed (`is_done`), once.
    fn take_unjoined_panic(&self) -> Option<Box<dyn Any + Send>> {
        // Relaxed: the owner's Acquire in `is_done` made the payload
        // visible. A load and a store rather than a swap (a locked
        // instruction, per scope): every task has completed and the body
        // has returned, so nothing else writes the slot any more.
        let first = self.unjoined_panic.load(Ordering::Relaxed);
        if first.is_null() {
            return None;
        }
        self.unjoined_panic
            .store(std::ptr::null_mut(), Ordering::Relaxed);
        // SAFETY: a non-null pointer came from `Box::into_raw` in
        // `keep_unjoined_panic`, and the store took it out of the slot,
        // which nobody else reaches any more: it is ours alone.
        Some(*unsafe { Box::from_raw(first) })
    }
}

impl ScopeCompletion for ScopeState {
    fn task_completed(&self, unjoined_panic: Option<Box<dyn Any + Send>>) {
        if let Some(payload) = unjoined_panic {
            // Published by the count-down's Release below.
            self.keep_unjoined_panic(payload);
        }
        // The thread completing a task is a worker of the scope's runtime
        // (which it keeps alive), a thread inside `Runtime::stop`, or a
        // thread inside the scope's extent: the waiter's slot outlives the
        // count-down (`Latch`).
        self.pending.count_down();
    }

    fn handle_dropped_a_panic(&self, payload: Box<dyn Any + Send>) {
        // The drop happens in the scope body or in a task of the scope,
        // before the body ends or that task's completion is published.
        self.keep_unjoined_panic(payload);
    }
}

/// Where a scope's body runs and who waits for its tasks.
pub(crate) enum Host<'a> {
    /// A worker of the scope's runtime: the body runs on it, and at the end
    /// it helps with the scope's tasks (`JOIN_HELPING.md`).
    Worker(&'a WorkerContext<'a>),
    /// The calling thread, outside any runtime: the body runs here, the
    /// tasks on the runtime, and at the end this thread parks until they
    /// finished, running only those `stop` moved to the scope inbox.
    Thread(&'a Arc<Shared>),
    /// No runtime to run the tasks (it is shut down, or the caller is a
    /// worker in a hook, outside any task): each task runs when it is
    /// spawned.
    Sequential,
}

/// Opens a scope on `host`, runs `f`, waits for every task spawned in it,
/// and returns `f`'s result; resumes `f`'s panic if it panicked, or else
/// the first panic of a task that nobody joined, with that task's own
/// payload.
pub(crate) fn run_scope<'env, F, T>(host: Host<'_>, f: F) -> T
where
    F: for<'scope> FnOnce(&'scope Scope<'scope, 'env>) -> T,
{
    let (pool, waiter, waiter_slot, priority) = match host {
        Host::Worker(worker) => (
            Some(worker.shared()),
            ScopeWaiter::Worker,
            Some(worker.slot()),
            worker.priority(),
        ),
        Host::Thread(shared) => (Some(shared), ScopeWaiter::Thread, None, Priority::Normal),
        Host::Sequential => (None, ScopeWaiter::Thread, None, Priority::Normal),
    };
    let scope = Scope {
        state: ScopeState {
            pending: Latch::new(0),
            unjoined_panic: AtomicPtr::new(std::ptr::null_mut()),
        },
        pool,
        waiter,
        waiter_slot,
        thread: matches!(host, Host::Thread(_)).then(thread::current),
        priority,
        scope: PhantomData,
        env: PhantomData,
    };
    match (&scope.thread, waiter_slot) {
        (Some(thread), _) => scope.state.pending.set_waiter_in_frame(thread),
        (None, Some(slot)) => scope.state.pending.set_waiter_worker(slot.thread()),
        (None, None) => {}
    }
    let result = catch_unwind(AssertUnwindSafe(|| f(&scope)));
    match host {
        Host::Worker(worker) => {
            let target = Target::Scope {
                latch: scope.state.pending(),
                id: scope.state.id(),
            };
            helping::wait_for(worker, &target);
        }
        Host::Thread(shared) => wait_on_thread(shared, &scope.state),
        Host::Sequential => {}
    }
    debug_assert!(scope.state.is_done());
    let unjoined_panic = scope.state.take_unjoined_panic();
    match result {
        Err(payload) => {
            drop_quietly(unjoined_panic);
            resume_unwind(payload)
        }
        Ok(value) => match unjoined_panic {
            Some(payload) => {
                drop_quietly(value);
                resume_unwind(payload)
            }
            None => value,
        },
    }
}

/// The end of a scope opened outside the pool: park until every task
/// completed (the last one unparks this thread), running here the tasks
/// `stop` moved to the scope inbox, which no worker would run.
fn wait_on_thread(shared: &Shared, state: &ScopeState) {
    let id = state.id();
    let inbox = shared.scope_inbox();
    inbox.register(id);
    let wait = || {
        while !state.is_done() {
            match inbox.pop_for(id) {
                Some(task) => {
                    let outcome = task.job.run();
                    shared.off_workers().count(outcome, 1);
                }
                // Polls before it parks (`SpinThenPark`); a task `stop`
                // moves to the inbox meanwhile unparks this thread, so the
                // park that follows returns at once.
                None => {
                    let pending = state.pending();
                    if !SpinThenPark::poll(|| pending.is_set()) {
                        pending.park_once();
                    }
                }
            }
        }
    };
    // On a worker of another runtime (`Runtime::in_place_scope`), that
    // runtime counts it as waiting (`COMPENSATION.md`).
    worker::with_current(|worker| match worker {
        Some(worker) => worker.waiting(wait),
        None => wait(),
    });
    inbox.unregister(id);
}

/// Opens a scope on the runtime of the worker this is called on: tasks
/// spawned in it run on that runtime, may borrow anything that outlives the
/// scope, and have all finished when `scope` returns. On any other thread
/// (`main`, say) the body runs right here, as `std::thread::scope`'s does,
/// and the tasks run on the [global runtime](crate::Runtime::global)
/// (started on first use) while this thread waits for them at the end (as
/// rayon's `in_place_scope`). In a worker's hook (outside any task), each
/// task runs on the calling thread when it is spawned.
///
/// If a task panicked and its handle was not joined, `scope` panics once
/// every task has finished, with that task's own payload (the first such
/// task's, as rayon does); a panic of `f` itself resumes after the tasks
/// have finished.
///
/// ```
/// fn sum(values: &[u64]) -> u64 {
///     if values.len() <= 1_000 {
///         return values.iter().sum();
///     }
///     let (left, right) = values.split_at(values.len() / 2);
///     rt_core::scope(|s| {
///         let l = s.spawn(|| sum(left)); // borrows `values`
///         sum(right) + l.join().unwrap()
///     })
/// }
///
/// let rt = rt_core::Runtime::new(2)?;
/// let values: Vec<u64> = (1..=100_000).collect();
/// assert_eq!(rt.install(|| sum(&values)), 5_000_050_000);
/// assert_eq!(sum(&values), 5_000_050_000); // tasks on the global runtime
/// # Ok::<(), rt_core::BuildError>(())
/// ```
pub fn scope<'env, F, T>(f: F) -> T
where
    F: for<'scope> FnOnce(&'scope Scope<'scope, 'env>) -> T,
{
    worker::with_current(|worker| match worker {
        Some(worker) if worker.in_unit() => run_scope(Host::Worker(worker), f),
        Some(worker) if worker.is_adopted() => {
            worker.in_a_unit(|| run_scope(Host::Worker(worker), f))
        }
        // A worker outside any unit (in a hook): waiting for other workers
        // could wait for itself; the tasks run right here.
        Some(_) => run_scope(Host::Sequential, f),
        None => run_scope(Host::Thread(&Runtime::global().shared), f),
    })
}
