//! Broadcasts: a closure run once on every worker of a runtime (rayon's
//! `broadcast` and `spawn_broadcast`), for per-thread set-up, per-thread
//! statistics, or flushing thread-locals.
//!
//! A broadcast posts one *letter* to each core worker's mailbox (a frame:
//! the closure and a slot for that worker's result) and rings the worker.
//! A worker reads its mailbox before anything else when it looks for work,
//! and also while it waits inside a unit (a join, a scope's end): a
//! broadcast waits for every worker, so a worker that waits must not make
//! it wait. The letter runs there as work that is not the waiting unit's
//! (`WorkerContext::run_foreign`). Protocol and proof: `BROADCAST.md`.

pub(crate) mod mailbox;

#[cfg(all(test, loom))]
mod loom_mailbox;

use std::fmt;
use std::marker::PhantomData;
use std::panic::{catch_unwind, resume_unwind, AssertUnwindSafe};
use std::ptr::NonNull;
use std::sync::Arc;

use rt_handle::raw::{drop_quietly, payload_message};
use rt_queue::Priority;

use crate::broadcast::mailbox::Letter;
use crate::fork_join::helping::{self, Target};
use crate::fork_join::install::wait_off_the_pool;
use crate::fork_join::latch::Latch;
use crate::observe::hooks::contain;
use crate::runtime::Runtime;
use crate::shared::gate;
use crate::shared::Shared;
use crate::sync::thread;
use crate::sync::UnsafeCell;
use crate::worker::entry::{FrameAction, FrameRef};
use crate::worker::{self, bump, WorkerContext};

/// What a broadcast closure is told about where it runs (rayon's
/// `BroadcastContext`). It stays on its thread.
pub struct BroadcastContext<'a> {
    index: usize,
    threads: usize,
    /// Not `Send`, and tied to the call.
    _marker: PhantomData<&'a mut dyn Fn()>,
}

impl BroadcastContext<'_> {
    /// The index of the worker the closure runs on: each of `0..num_threads()`
    /// once per broadcast.
    pub fn index(&self) -> usize {
        self.index
    }

    /// The number of workers the broadcast runs on: the runtime's
    /// [`threads`](crate::Runtime::threads).
    pub fn num_threads(&self) -> usize {
        self.threads
    }
}

impl fmt::Debug for BroadcastContext<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("BroadcastContext")
            .field("index", &self.index)
            .field("num_threads", &self.threads)
            .finish()
    }
}

impl Runtime {
    /// Runs `op` once on every worker of this runtime (its
    /// [`threads`](Self::threads) core workers, not compensating ones) and
    /// returns the results in worker order: rayon's `ThreadPool::broadcast`.
    ///
    /// Each worker runs it when it next looks for work, or while it waits
    /// inside a task (a join, a scope's end); a worker busy with a long
    /// task runs it after that task. Called on a worker of this runtime,
    /// the caller runs its own share while it waits. If `op` panics on a
    /// worker, the other workers still run it; then the first panic (by
    /// worker index) resumes here.
    ///
    /// ```
    /// let rt = rt_core::Runtime::new(3)?;
    /// let indexes = rt.broadcast(|ctx| (ctx.index(), ctx.num_threads()));
    /// assert_eq!(indexes, [(0, 3), (1, 3), (2, 3)]);
    /// # Ok::<(), rt_core::BuildError>(())
    /// ```
    ///
    /// # Panics
    ///
    /// If the runtime is shut down, or a worker will never run it (its
    /// worker was dropped by a spawn handler without running, or
    /// [`stop`](Self::stop) gave its share back).
    pub fn broadcast<F, R>(&self, op: F) -> Vec<R>
    where
        F: Fn(BroadcastContext<'_>) -> R + Sync,
        R: Send,
    {
        broadcast_on(&self.shared, op)
    }

    /// Runs `op` once on every worker of this runtime without waiting for
    /// it: rayon's `ThreadPool::spawn_broadcast`. A panic of `op` goes to
    /// the runtime's panic handler (`Builder::panic_handler`), if any, and
    /// never stops a worker.
    ///
    /// ```
    /// use std::sync::atomic::{AtomicUsize, Ordering};
    /// use std::sync::Arc;
    ///
    /// let rt = rt_core::Runtime::new(2)?;
    /// let ran = Arc::new(AtomicUsize::new(0));
    /// let counter = Arc::clone(&ran);
    /// rt.spawn_broadcast(move |_| {
    ///     counter.fetch_add(1, Ordering::SeqCst);
    /// });
    /// rt.shutdown(); // runs what was posted
    /// assert_eq!(ran.load(Ordering::SeqCst), 2);
    /// # Ok::<(), rt_core::BuildError>(())
    /// ```
    ///
    /// # Panics
    ///
    /// If the runtime is shut down.
    pub fn spawn_broadcast<F>(&self, op: F)
    where
        F: Fn(BroadcastContext<'_>) + Send + Sync + 'static,
    {
        spawn_broadcast_on(&self.shared, op);
    }
}

/// [`Runtime::broadcast`] on the runtime of the worker this is called on,
/// or on the [global runtime](crate::Runtime::global) from any other
/// thread: rayon's `broadcast`.
///
/// ```
/// let rt = rt_core::Runtime::new(2)?;
/// let sum: usize = rt.install(|| rt_core::broadcast(|ctx| ctx.index()).into_iter().sum());
/// assert_eq!(sum, 1);
/// # Ok::<(), rt_core::BuildError>(())
/// ```
pub fn broadcast<F, R>(op: F) -> Vec<R>
where
    F: Fn(BroadcastContext<'_>) -> R + Sync,
    R: Send,
{
    broadcast_on(&current_runtime(), op)
}

/// [`Runtime::spawn_broadcast`] on the runtime of the worker this is
/// called on, or on the [global runtime](crate::Runtime::global) from any
/// other thread: rayon's `spawn_broadcast`.
pub fn spawn_broadcast<F>(op: F)
where
    F: Fn(BroadcastContext<'_>) + Send + Sync + 'static,
{
    spawn_broadcast_on(&current_runtime(), op);
}

/// The runtime of the calling worker, or the global one.
fn current_runtime() -> Arc<Shared> {
    worker::with_current(|worker| worker.map(|w| Arc::clone(w.shared())))
        .unwrap_or_else(|| Arc::clone(&Runtime::global().shared))
}

/// A waited-for broadcast, on its caller's stack: the closure, one result
/// slot per worker, and the latch the caller waits on.
struct Broadcast<'a, F, R> {
    latch: Latch,
    op: &'a F,
    threads: usize,
    results: Box<[UnsafeCell<Option<std::thread::Result<R>>>]>,
}

impl<F, R> Broadcast<'_, F, R>
where
    F: Fn(BroadcastContext<'_>) -> R + Sync,
    R: Send,
{
    /// A worker's letter runs it, or (`GiveBack`) the worker will never:
    /// either way its latch counts down.
    ///
    /// # Safety
    ///
    /// `frame` points at a live `Broadcast` of these types, whose caller
    /// waits for its latch before it frees it; each worker gets one letter.
    unsafe fn execute(frame: NonNull<()>, action: FrameAction) {
        // SAFETY: per the contract.
        let job = unsafe { frame.cast::<Self>().as_ref() };
        if action == FrameAction::Run {
            let index = worker::with_current(|w| w.expect("a letter runs on its worker").index());
            let context = BroadcastContext {
                index,
                threads: job.threads,
                _marker: PhantomData,
            };
            let result = catch_unwind(AssertUnwindSafe(|| (job.op)(context)));
            // SAFETY: only worker `index` runs this letter, so it alone
            // writes this slot, before the count-down publishes it.
            job.results[index].with_mut(|slot| unsafe { *slot = Some(result) });
        }
        job.latch.count_down();
    }
}

fn broadcast_on<F, R>(shared: &Arc<Shared>, op: F) -> Vec<R>
where
    F: Fn(BroadcastContext<'_>) -> R + Sync,
    R: Send,
{
    let threads = shared.threads();
    let job = Broadcast {
        latch: Latch::new(threads),
        op: &op,
        threads,
        results: (0..threads).map(|_| UnsafeCell::new(None)).collect(),
    };
    // SAFETY: the job outlives every letter: this function waits for the
    // latch, which each letter counts down last, before it returns.
    let letter =
        || unsafe { FrameRef::new(NonNull::from(&job).cast(), Broadcast::<F, R>::execute) };
    let own = worker::with_local(shared, |worker| {
        worker.map(|worker| {
            job.latch.set_waiter_worker(worker.thread());
            post(shared, worker.priority(), letter);
            // This worker's own letter is among those it runs while it
            // waits.
            worker.in_a_unit(|| helping::wait_for(worker, &Target::Broadcast(&job.latch)));
        })
    });
    if own.is_none() {
        let caller = thread::current();
        job.latch.set_waiter_in_frame(&caller);
        if !gate::admit(shared.gate(), shared.idle()) {
            panic!("broadcast on a runtime that is shut down");
        }
        post(shared, Priority::Normal, letter);
        gate::after_leave(shared.idle(), shared.gate().leave());
        wait_off_the_pool(&job.latch);
    }
    collect(job.results)
}

/// The results in worker order, or the first panic.
fn collect<R>(results: Box<[UnsafeCell<Option<std::thread::Result<R>>>]>) -> Vec<R> {
    let mut values = Vec::with_capacity(results.len());
    let mut panic = None;
    for (index, slot) in results.into_vec().into_iter().enumerate() {
        // SAFETY: every letter has counted the latch down (the caller saw
        // it set, Acquire): nothing else touches the slots any more.
        match slot.with_mut(|result| unsafe { (*result).take() }) {
            Some(Ok(value)) => values.push(value),
            Some(Err(payload)) if panic.is_none() => panic = Some(payload),
            Some(Err(payload)) => drop_quietly(payload),
            None if panic.is_none() => {
                panic = Some(Box::new(format!(
                    "broadcast: worker {index} never ran its share (the runtime was \
                     stopped, or the worker was never started)"
                )))
            }
            None => {}
        }
    }
    match panic {
        Some(payload) => {
            drop_quietly(values);
            resume_unwind(payload)
        }
        None => values,
    }
}

/// Posts a letter made by `letter` to every core worker, ringing each. A
/// worker that will never run gets its letter back at once (given back).
fn post(shared: &Shared, priority: Priority, letter: impl Fn() -> FrameRef) {
    for index in 0..shared.threads() {
        let slot = &shared.slots()[index];
        let posted = slot.mailbox().post(Letter {
            frame: letter(),
            priority,
        });
        match posted {
            Ok(()) => {
                shared.idle().ring(index);
                // A worker parked in a wait inside a unit looks at its
                // mailbox when it wakes (`helping::wait_for`).
                slot.unpark();
            }
            Err(refused) => refused.frame.execute(FrameAction::GiveBack),
        }
    }
}

/// A broadcast nobody waits for: the closure, shared by the letters (each
/// holds one count of the `Arc`).
struct SpawnedBroadcast<F> {
    op: F,
    threads: usize,
}

impl<F> SpawnedBroadcast<F>
where
    F: Fn(BroadcastContext<'_>) + Send + Sync + 'static,
{
    /// # Safety
    ///
    /// `frame` came from `Arc::into_raw` of an `Arc<Self>`, once per letter.
    unsafe fn execute(frame: NonNull<()>, action: FrameAction) {
        // SAFETY: per the contract: this letter's count of the `Arc`.
        let job = unsafe { Arc::from_raw(frame.cast::<Self>().as_ptr()) };
        if action == FrameAction::GiveBack {
            return;
        }
        worker::with_current(|worker| {
            let worker = worker.expect("a letter runs on its worker");
            let context = BroadcastContext {
                index: worker.index(),
                threads: job.threads,
                _marker: PhantomData,
            };
            if let Err(payload) = catch_unwind(AssertUnwindSafe(|| (job.op)(context))) {
                report_panic(worker, payload);
            }
        });
    }
}

/// A spawned broadcast's panic: to the runtime's panic handler, if any.
fn report_panic(worker: &WorkerContext<'_>, payload: Box<dyn std::any::Any + Send>) {
    let message = payload_message(&*payload);
    drop_quietly(payload);
    if let Some(handler) = &worker.shared().hooks().panic_handler {
        if !contain(|| handler(worker.index(), &message)) {
            bump(&worker.counters().hook_panics);
        }
    }
}

fn spawn_broadcast_on<F>(shared: &Arc<Shared>, op: F)
where
    F: Fn(BroadcastContext<'_>) + Send + Sync + 'static,
{
    let job = Arc::new(SpawnedBroadcast {
        op,
        threads: shared.threads(),
    });
    let letter = || {
        let frame = NonNull::new(Arc::into_raw(Arc::clone(&job)).cast_mut())
            .expect("an Arc is not null")
            .cast();
        // SAFETY: the letter holds its own count of the `Arc`, which
        // `execute` takes back, once.
        unsafe { FrameRef::new(frame, SpawnedBroadcast::<F>::execute) }
    };
    match worker::with_local(shared, |worker| worker.map(WorkerContext::priority)) {
        // From a worker of this runtime, which is busy: the runtime
        // cannot end before it has posted.
        Some(priority) => post(shared, priority, letter),
        None => {
            if !gate::admit(shared.gate(), shared.idle()) {
                panic!("spawn_broadcast on a runtime that is shut down");
            }
            post(shared, Priority::Normal, letter);
            gate::after_leave(shared.idle(), shared.gate().leave());
        }
    }
}
