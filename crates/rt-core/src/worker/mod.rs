//! A worker thread: its loop, the units of work it runs, how tasks running
//! on it spawn onto its own deque, and the one thread-local that tells any
//! code on the thread which worker of which runtime it runs on, and in
//! which unit.
//!
//! A *unit* is one piece of work a worker runs: a task, a shared half of a
//! `join` that it stole, a closure installed from outside. The main loop
//! runs units taken from the queues; a worker waiting inside a unit (a
//! join, the end of a scope) may run further units nested inside it, but
//! only ones that belong to it (`JOIN_HELPING.md`). For each unit the
//! worker keeps one value ([`Unit`]): where its own deques stood when the
//! unit began (so that it can tell what the unit pushed), the unit's
//! priority (the default of what it forks), and the unit's private list of
//! `join` halves not yet shared.
//!
//! Here too, the worker's own deques with their *marks* (`OwnDeques`,
//! `Marks`) and the unit's value (`Unit`): every task a worker runs goes
//! through them, so they are in this file rather than in files of their
//! own.
//!
//! Everything that observes the runtime (hooks around tasks, CPU timing,
//! weighted shares, latency histograms, the trace, wake placement) is
//! behind one flag, read once per task: with none of them on, a task runs
//! without looking at any of them.

pub(crate) mod adopted;
pub(crate) mod entry;
pub(crate) mod thread;

#[cfg(all(test, not(loom)))]
mod deques_tests;

use std::cell::Cell;
use std::marker::PhantomData;
use std::panic::{catch_unwind, resume_unwind, AssertUnwindSafe};
use std::ptr::{self, NonNull};
use std::sync::Arc;

use rt_handle::raw::{
    release_idle_memory, Awaited, BodyWrapper, JobControl, PoolId, RunnerTag, ScopeId,
};
use rt_handle::{Job, RunOutcome};
use rt_queue::{
    ClassSet, ClassShares, Found, GlobalQueues, Priority, PriorityPolicy, TaskSource, WorkerQueues,
};

use crate::fork_join::worker_slot::{CleanUnit, Published, WorkerSlot};
use crate::idle::{next_task, Counted, WorkSource};
use crate::idle::{Compensation, IdleSignal};
use crate::observe::hooks::{self, contain};
use crate::observe::metrics::WorkerCounters;
use crate::observe::trace::{self, Event, Key, Source};
use crate::shared::Shared;
use crate::sync::thread::Thread;
use crate::sync::{AtomicU64, AtomicUsize, Ordering};
use crate::worker::entry::TaskSpan;
use crate::worker::entry::{runner_tag, WorkId};
use crate::worker::entry::{Entry, FrameAction, FrameRef};
use crate::worker::thread::WorkerThread;

/// What a worker thread owns: the runtime's shared state (borrowed from
/// `run_worker`, which keeps it alive), its private half of the queues, and
/// the unit it runs. Code running on the worker reaches it through the
/// thread-local ([`with_current`]).
pub(crate) struct WorkerContext<'a> {
    shared: &'a Arc<Shared>,
    deques: OwnDeques<Entry>,
    index: usize,
    /// More than one core worker: a fork can run in parallel.
    parallel: bool,
    /// How many of a unit's pending `join` halves may be private before a
    /// further `join` runs its pair in place (`fork_join/FORKS.md`).
    private_halves: u32,
    /// The tag this worker records in the tasks it runs.
    tag: RunnerTag,
    /// This worker's slot and counters in `shared`.
    slot: &'a WorkerSlot,
    /// The count of letters in the slot's mailbox, read first at every
    /// scan ([`has_mail`](Self::has_mail)).
    mail: &'a AtomicUsize,
    counters: &'a WorkerCounters,
    /// The unit running now, in the frame of the `run_unit` call that runs
    /// it; `None` outside any unit (in the worker's hooks, or between
    /// units).
    unit: Cell<Option<NonNull<Unit>>>,
    /// Under a weighted policy: this worker's shares of the classes
    /// (`WEIGHTED_SHARES.md` in rt-queue).
    shares: Option<ClassShares>,
    /// The traced task running now, for the trace's parent links.
    current: Cell<Option<Key>>,
    /// Whether this worker has seen `stop` finish draining the queues
    /// (`Shared::is_drained`), looked at before it takes work. A task it
    /// takes once it has seen that is cancelled instead of run; one it
    /// takes before, it runs, since the drain may not have reached it and
    /// counts only what it cancelled itself (`Runtime::stop`'s count).
    /// Stale is safe both ways: "not yet" only lets a task run, and "yes"
    /// was true before the take.
    drained: Cell<bool>,
    /// Whether the worker is in its loop (its start hook included). Once
    /// it left the loop (its stop hook runs), the thread is still the
    /// runtime's ([`is_thread_of`]) but submits like an outsider, through
    /// the closed gate, rather than into a deque nobody drains.
    working: Cell<bool>,
    /// Whether the worker runs the main loop on a thread of its own, or is
    /// a thread the runtime adopted (`Builder::use_current_thread`).
    kind: WorkerKind,
    /// When Background work on this worker last gave its CPU to the OS
    /// (`yield_cpu_if_due`), in the runtime's clock.
    last_os_yield: Cell<u64>,
}

/// How long Background work runs on a worker before it gives its CPU to
/// the OS scheduler at its next fork or checkpoint: 200 µs.
pub(crate) const OS_YIELD_INTERVAL_NS: u64 = 200_000;

/// How a worker's thread takes part in its runtime.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum WorkerKind {
    /// A thread that runs the worker loop (started by the runtime, or by a
    /// spawn handler that called `WorkerThread::run`).
    Looping,
    /// The thread that built the runtime, adopted as worker 0
    /// (`Builder::use_current_thread`): it runs the runtime's work only
    /// inside its own calls into it (a `join`, a scope, an `install`, a
    /// yield), and counts neither as idle nor as busy (`adopted.rs`).
    Adopted,
}

/// How a unit came to run: from the main loop, or nested inside a unit
/// that waits.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Nesting {
    Root,
    Nested,
}

/// Where work that is not the running unit's may come from
/// ([`WorkerContext::find_foreign`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Reach {
    /// The worker's own deques only (rayon's `yield_local`).
    Local,
    /// Also the injectors and every worker's deque.
    Anywhere,
}

/// A task run being observed ([`WorkerContext::started`]).
pub(crate) struct Observed {
    task: Key,
    start: u64,
    /// The parent to restore when it ends.
    outer: Option<Key>,
}

#[cfg(not(loom))]
std::thread_local! {
    /// The worker context of the calling thread, for as long as its thread
    /// runs `run_worker` (null on every other thread). The lifetime is
    /// erased: the context lives in `run_worker`'s frame, which resets this
    /// before leaving.
    static CURRENT: Cell<*const WorkerContext<'static>> = const { Cell::new(ptr::null()) };
}

// Under loom, one per loom thread (loom's threads share OS threads).
#[cfg(loom)]
loom::thread_local! {
    static CURRENT: Cell<*const WorkerContext<'static>> = Cell::new(ptr::null());
}

/// Makes `context` the calling thread's worker context (null: none).
fn set_current(context: *const WorkerContext<'static>) {
    let _ = CURRENT.try_with(|current| current.set(context));
}

/// The worker context of the calling thread, in whatever phase.
#[inline(always)]
fn with_context<R>(f: impl FnOnce(Option<&WorkerContext<'_>>) -> R) -> R {
    rt_queue::path_step!();
    let current = CURRENT.try_with(Cell::get).unwrap_or(ptr::null());
    // A non-null pointer is the context of the `run_worker` this thread
    // runs, set by it and reset before that context goes away.
    // SAFETY: so it is valid here; the reference does not escape `f`.
    f(unsafe { current.as_ref() })
}

/// Calls `f` with the worker context of the calling thread, if it is a
/// worker of a runtime in its loop (its start hook, a task, the loop
/// itself), else with `None`. One read of a thread-local: forks call it.
#[inline]
pub(crate) fn with_current<R>(f: impl FnOnce(Option<&WorkerContext<'_>>) -> R) -> R {
    rt_queue::path_step!();
    with_context(|worker| f(worker.filter(|w| w.working.get())))
}

/// Calls `f` with the calling thread's worker context if the thread is a
/// worker of the runtime owning `shared`, in its loop, else with `None`.
#[inline]
pub(crate) fn with_local<R>(
    shared: &Arc<Shared>,
    f: impl FnOnce(Option<&WorkerContext<'_>>) -> R,
) -> R {
    rt_queue::path_step!();
    with_current(|worker| f(worker.filter(|w| Arc::ptr_eq(w.shared, shared))))
}

/// The calling thread's worker, if it is a worker of the runtime owning
/// `shared` in its loop: what straight-line code (a submission) pushes to.
/// A `Local` stays on its thread (`!Send`), and crate code uses one only
/// inside the call that got it, which runs on the worker, inside
/// `run_worker`, so the context it points at outlives it.
#[inline]
pub(crate) fn local(shared: &Arc<Shared>) -> Option<Local> {
    rt_queue::path_step!();
    with_local(shared, |worker| {
        worker.map(|w| Local(NonNull::from(w).cast(), PhantomData))
    })
}

/// See [`local`].
#[derive(Clone, Copy)]
pub(crate) struct Local(NonNull<WorkerContext<'static>>, PhantomData<*const ()>);

impl std::ops::Deref for Local {
    type Target = WorkerContext<'static>;

    #[inline(always)]
    fn deref(&self) -> &WorkerContext<'static> {
        rt_queue::path_step!();
        // SAFETY: `local`'s contract: the context lives in `run_worker`'s
        // frame, below every code that holds a `Local` on this thread.
        unsafe { self.0.as_ref() }
    }
}

/// True when the calling thread is one of the threads of the runtime owning
/// `shared`, in its loop or in a hook around it.
pub(crate) fn is_thread_of(shared: &Arc<Shared>) -> bool {
    with_context(|worker| worker.is_some_and(|w| Arc::ptr_eq(w.shared, shared)))
}

/// The index of the worker the calling thread is, in whichever runtime it
/// belongs to; `None` on threads that are not workers
/// ([`current_thread_index`](crate::current_thread_index)).
pub(crate) fn current_index() -> Option<usize> {
    with_current(|worker| worker.map(|w| w.index))
}

/// What a spawn from inside the pool does: count the task (if `spawned`),
/// make it visible with `push`, ring the doorbell (`queued` as in
/// `gate::publish`). Counting first keeps the metrics' promise (see
/// `metrics::snapshot`); the loom model in `loom_metrics.rs` runs this very
/// function.
#[inline]
pub(crate) fn publish_local(
    spawned: Option<&AtomicU64>,
    idle: &IdleSignal,
    push: impl FnOnce(),
    queued: impl FnOnce() -> usize,
) {
    if let Some(spawned) = spawned {
        bump(spawned);
    }
    push();
    idle.notify_one(queued);
}

impl WorkerContext<'_> {
    /// This worker parks in `wait` until what it waits for is done: if
    /// that leaves no live worker free to take queued work, a compensating
    /// worker is made live (`COMPENSATION.md`). An adopted thread is not
    /// counted among the live workers, so its waits are not either.
    pub(crate) fn waiting<R>(&self, wait: impl FnOnce() -> R) -> R {
        struct EndWait<'a>(&'a IdleSignal);
        impl Drop for EndWait<'_> {
            fn drop(&mut self) {
                self.0.end_wait();
            }
        }
        if self.kind == WorkerKind::Adopted {
            return wait();
        }
        let shared = self.shared;
        if let Compensation::Start(index) = shared.idle().begin_wait() {
            start_spare(shared, index);
        }
        let _end = EndWait(shared.idle());
        wait()
    }
}

/// Starts the thread of compensating worker `index`, which `begin_wait`
/// counted live and searching. If the OS refuses the thread, the runtime
/// goes on without it (`Shared::never_ran`).
#[cold]
fn start_spare(shared: &Arc<Shared>, index: usize) {
    let Some(queues) = shared.queues().add_worker(index) else {
        unreachable!("compensating worker {index} has room and was not added before");
    };
    shared.exits().add_worker();
    // A refusal drops the worker unrun, which tells the runtime.
    let _ = WorkerThread::new(shared, queues, Counted::AsSearching).spawn();
}

/// Adds one to a counter of `observe/metrics.rs` that only the calling
/// worker writes (here, beside the worker that writes it, so that counting
/// a task runs no other file's code): a plain load
/// and store, no read-modify-write. Release pairs with the Acquire loads of
/// [`snapshot`](crate::observe::metrics::snapshot): a snapshot that sees the new count sees what the worker did
/// before it (for a completion: the task's submission count).
#[inline]
pub(crate) fn bump(counter: &AtomicU64) {
    add(counter, 1);
}

/// Adds `n` to a counter that only the calling worker writes (see [`bump`]).
#[inline]
pub(crate) fn add(counter: &AtomicU64, n: u64) {
    #[cfg(not(loom))]
    counter.store(counter.load(Ordering::Relaxed) + n, Ordering::Release);
    // Under loom an RMW, which gives a single writer the same values: loom
    // 0.7 does not explore every interleaving around a plain load-then-store
    // (it misses the very reordering `loom_metrics.rs` looks for, which it
    // finds with the RMW).
    #[cfg(loom)]
    counter.fetch_add(n, Ordering::Release);
}

/// The body of every worker thread: a core worker's (`Counted::No`), or a
/// compensating worker's, which starts out counted as searching.
fn run_worker(shared: Arc<Shared>, queues: WorkerQueues<Entry>, start: Counted) {
    let ctx = WorkerContext::new(&shared, queues, WorkerKind::Looping);
    let index = ctx.index;
    ctx.slot.register_thread();
    ctx.enter(|| {
        // The join of a task's handle finds this worker's help through the
        // thread-local `enter` set (rt-handle's `ExecutorKind`, `RUNTIME` in
        // `helping.rs`).
        ctx.hook(&shared.hooks().before_worker_start);
        shared.idle().placement.register_thread(index);
        work_loop(&ctx, start);
        // Out of the loop: a task the hook spawns goes through the (closed)
        // gate and is rejected, rather than into a deque nobody drains.
        ctx.working.set(false);
        ctx.hook(&shared.hooks().after_worker_stop);
    });
    debug_assert!(
        ctx.deques.is_empty(),
        "worker {index} exits with queued work"
    );
    shared.exits().mark_exited();
}

/// The worker loop: runs units until the runtime lets the worker exit.
fn work_loop(ctx: &WorkerContext<'_>, start: Counted) {
    if !ctx.wait_and_run(start) {
        return;
    }
    // A unit the scan found runs in place, and the search runs what it
    // finds itself: one `Option` shared by both ways made a user's build
    // (no LTO) copy the entry through the stack per task
    // (`docs/BENCHMARKS.md`, per-task instructions).
    loop {
        if let Some(found) = ctx.find() {
            ctx.run_root(found);
        } else if !ctx.wait_and_run(Counted::No) {
            break;
        }
    }
}

impl WorkSource for WorkerContext<'_> {
    type Task = Found<Entry>;

    #[inline(always)]
    fn find(&self) -> Option<Found<Entry>> {
        rt_queue::path_step!();
        self.look_for_stop();
        if self.has_mail() {
            if let Some(letter) = self.take_letter() {
                return Some(letter);
            }
        }
        let global = self.shared.queues();
        match &self.shares {
            None => self.deques.find(global, Priority::ALL),
            Some(shares) => self
                .deques
                .find(global, shares.order(self.deques.queues().has_work(global))),
        }
    }

    fn sees_work(&self) -> bool {
        rt_queue::path_step!();
        // After the registration's fence: a letter posted before the
        // poster looked for sleepers is seen here (`BROADCAST.md`).
        self.has_mail() || self.deques.queues().sees_work(self.shared.queues())
    }

    fn may_exit(&self) -> bool {
        rt_queue::path_step!();
        self.shared.gate().is_closed_and_quiet()
    }

    fn going_idle(&self) {
        rt_queue::path_step!();
        release_idle_memory();
    }
}

/// Three private halves (chili's count), plus the levels of `join`s a
/// divide-and-conquer splits through before every worker has a piece
/// (log2 of the workers, rounded up: rayon's splitter and rt-par's split
/// that deep), so that the halves those splits and their leaves leave
/// pending stay linked, where a checkpoint can share them.
fn private_halves_for(threads: usize) -> u32 {
    3 + threads.next_power_of_two().trailing_zeros()
}

impl<'a> WorkerContext<'a> {
    fn new(shared: &'a Arc<Shared>, queues: WorkerQueues<Entry>, kind: WorkerKind) -> Self {
        let index = queues.index();
        let shares = match shared.policy() {
            PriorityPolicy::Strict => None,
            PriorityPolicy::Weighted {
                high,
                normal,
                background,
            } => Some(ClassShares::new([high, normal, background])),
        };
        Self {
            shared,
            deques: OwnDeques::new(queues),
            index,
            parallel: shared.threads() > 1,
            private_halves: private_halves_for(shared.threads()),
            tag: runner_tag(index),
            slot: &shared.slots()[index],
            mail: shared.slots()[index].mailbox().count_word(),
            counters: &shared.counters()[index],
            unit: Cell::new(None),
            shares,
            current: Cell::new(None),
            drained: Cell::new(false),
            working: Cell::new(true),
            kind,
            last_os_yield: Cell::new(0),
        }
    }

    /// Runs `f` with this context as the calling thread's current worker.
    fn enter<R>(&self, f: impl FnOnce() -> R) -> R {
        struct Leave(*const WorkerContext<'static>);
        impl Drop for Leave {
            fn drop(&mut self) {
                set_current(self.0);
            }
        }
        // Only the lifetime is erased: `Leave` puts the previous pointer
        // back before `self` can go away.
        let this = ptr::from_ref(self).cast::<WorkerContext<'static>>();
        let Ok(previous) = CURRENT.try_with(|current| current.replace(this)) else {
            return f();
        };
        let _leave = Leave(previous);
        f()
    }

    /// The runtime's shared state.
    #[inline(always)]
    pub(crate) fn shared(&self) -> &'a Arc<Shared> {
        self.shared
    }

    /// This worker's index in its runtime.
    #[inline(always)]
    pub(crate) fn index(&self) -> usize {
        self.index
    }

    /// Whether another worker could take a fork's second half.
    #[inline(always)]
    pub(crate) fn is_parallel(&self) -> bool {
        self.parallel
    }

    /// How many of a unit's pending `join` halves may be private before a
    /// further `join` runs its pair in place.
    #[inline]
    pub(crate) fn private_halves(&self) -> u32 {
        self.private_halves
    }

    /// Whether a letter waits in this worker's mailbox: `Mailbox::has_mail`
    /// (same load, same ordering, see there), on the word this context
    /// keeps, so that a scan reads it without a call into the mailbox.
    #[inline(always)]
    pub(crate) fn has_mail(&self) -> bool {
        self.mail.load(Ordering::Relaxed) != 0
    }

    pub(crate) fn slot(&self) -> &WorkerSlot {
        self.slot
    }

    /// This worker's counters in `shared`.
    pub(crate) fn counters(&self) -> &WorkerCounters {
        self.counters
    }

    /// This worker's thread: what a latch it waits on unparks.
    pub(crate) fn thread(&self) -> &Thread {
        self.slot.thread()
    }

    /// The worker's own deques.
    pub(crate) fn deques(&self) -> &OwnDeques<Entry> {
        &self.deques
    }

    /// The tag this worker records in the tasks it runs.
    #[inline(always)]
    pub(crate) fn tag(&self) -> RunnerTag {
        rt_queue::path_step!();
        self.tag
    }

    /// Whether this worker's own deques, or its mailbox, hold work.
    pub(crate) fn has_pending_tasks(&self) -> bool {
        !self.deques.is_empty() || self.has_mail()
    }

    /// The unit running now, if any.
    #[inline(always)]
    pub(crate) fn unit(&self) -> Option<&Unit> {
        // SAFETY: the pointer is to the unit in the frame of the `run_unit`
        // call running now on this thread, which outlives every caller (they
        // run inside it), and the worker points at it only meanwhile.
        self.unit.get().map(|unit| unsafe { unit.as_ref() })
    }

    /// The priority of the unit running now: the default of what it forks.
    #[inline]
    pub(crate) fn priority(&self) -> Priority {
        self.unit().map_or(Priority::Normal, |unit| unit.priority)
    }

    /// Whether a unit is running (a task, a `join` half, an installed
    /// closure), as opposed to the worker's hooks.
    #[inline]
    pub(crate) fn in_unit(&self) -> bool {
        self.unit.get().is_some()
    }

    /// The worker's first unit, and the next one whenever the main loop's
    /// scan finds none: searches and sleeps until it finds one, and runs
    /// it. False once the runtime has terminated. `counted` says whether
    /// the doorbell already counts this worker as searching (a compensating
    /// worker's first call). Outlined: the main loop's fast path (a unit
    /// found at once) stays small.
    #[cold]
    #[inline(never)]
    fn wait_and_run(&self, counted: Counted) -> bool {
        rt_queue::path_step!();
        let trace = self.shared.trace();
        // `observed` first: one load while nothing observes the runtime.
        let idle_since =
            (self.shared.observed() && trace.is_active()).then(|| self.shared.now_ns());
        let found = next_task(self.shared.idle(), self.index, self, counted);
        if let Some(start) = idle_since {
            let end = self.shared.now_ns();
            trace.record(self.index, Event::Idle { start, end });
        }
        let Some(found) = found else {
            return false;
        };
        self.run_root(found);
        true
    }

    /// Pushes an entry made by a unit running on this worker onto its own
    /// deque: a spawned task (counted first; see `metrics::snapshot`) or a
    /// shared `join` half (not a task: not counted).
    #[inline(always)]
    pub(crate) fn push(&self, priority: Priority, entry: Entry) {
        let spawned = match &entry {
            Entry::Task(job, _) => {
                if self.shared.observed() {
                    self.trace_spawn(job);
                }
                Some(&self.counters.spawned)
            }
            Entry::Frame(_) => None,
            Entry::ScopeTicket => unreachable!("tickets go to injectors only"),
        };
        if let Some(unit) = self.unit() {
            if let Clean::Unpublished(clean) = unit.clean.get() {
                // Before the push: a leapfrogger that sees the unit
                // published may take what it pushes from now on.
                let outer = self.slot.enter_clean(clean);
                unit.clean.set(Clean::Published { unit: clean, outer });
            }
        }
        publish_local(
            spawned,
            self.shared.idle(),
            || {
                entry.set_owner(PoolId::of(self.shared), priority);
                self.deques.push(priority, entry)
            },
            || self.deques.queues().len_at(priority),
        );
        // After the doorbell's fence: see `WorkerSlot::wake_leapfroggers`.
        self.slot.wake_leapfroggers(self.shared.slots());
    }

    /// Runs `f` as a unit of work identified by `id`: records where the
    /// deques stand, opens an empty list of `join` halves, and, if the
    /// deques are empty and something may wait for the unit, makes the unit
    /// clean: `push` publishes it for leapfrogging joiners (`WorkerSlot`)
    /// before its first push. `f` must not unwind (every caller runs user
    /// code under `catch_unwind`).
    #[inline(always)]
    pub(crate) fn run_unit<R>(
        &self,
        id: WorkId,
        waited: Waited,
        priority: Priority,
        f: impl FnOnce() -> R,
    ) -> R {
        rt_queue::path_step!();
        let unit = Unit::begin(id, waited, priority, self.deques.marks(), || {
            self.deques.is_empty()
        });
        let outer = self.unit.replace(Some(NonNull::from(&unit)));
        let result = f();
        if let Clean::Published { outer, .. } = unit.clean.get() {
            self.slot.leave_clean(outer);
        }
        debug_assert!(unit.newest.get().is_null(), "a unit ends with its joins");
        debug_assert_eq!(unit.private.get(), 0, "a unit ends with its joins");
        self.unit.set(outer);
        result
    }

    /// Runs `op` as a unit of `priority` nested in the running one (for
    /// `with_priority`): what it forks is queued at `priority`. Nothing
    /// else waits for it, so it is never clean; a panic resumes after the
    /// running unit is back.
    pub(crate) fn run_at<R>(&self, priority: Priority, op: impl FnOnce() -> R) -> R {
        if self.unit().is_some_and(|unit| unit.priority == priority) {
            return op();
        }
        let marker = 0_u8;
        let id = WorkId::of_frame(NonNull::from(&marker).cast());
        let result = self.run_unit(id, Waited::Never, priority, || {
            catch_unwind(AssertUnwindSafe(op))
        });
        result.unwrap_or_else(|payload| resume_unwind(payload))
    }

    /// Runs a unit the main loop took from a queue.
    #[inline(always)]
    fn run_root(&self, found: Found<Entry>) {
        rt_queue::path_step!();
        let Found {
            task,
            source,
            priority,
            victim,
        } = found;
        let shared = self.shared;
        shared.left_queue(source);
        if source == TaskSource::Stolen {
            bump(&self.counters.stolen);
        }
        self.counters.running.store(1, Ordering::Relaxed);
        match task {
            // The common case, kept small: a task, with nothing observing.
            Entry::Task(job, span) if !shared.observed() => {
                let outcome = self.run_task(job, span, priority);
                self.count(outcome);
            }
            entry => self.run_root_other(entry, priority, Source::of(source, victim)),
        }
        self.counters.running.store(0, Ordering::Relaxed);
        rt_queue::path_step!(ran);
    }

    /// `run_root` of anything but a task with nothing observing: a frame,
    /// a scope ticket, or any entry while something observes the runtime.
    /// Cold and outlined, so that the main loop's path for a task stays
    /// short: the main loop meets a frame only when it stole a `join` half
    /// or took a closure installed from outside, rare next to tasks, and
    /// observing has a cost of its own.
    #[cold]
    #[inline(never)]
    fn run_root_other(&self, entry: Entry, priority: Priority, source: Source) {
        if self.shared.observed() {
            self.run_root_observed(entry, priority, source);
        } else {
            self.run_entry(entry, priority, source, Nesting::Root);
        }
    }

    /// `run_root` with something observing the runtime: the task hooks,
    /// CPU timing (and weighted shares, which charge it), wake placement.
    #[cold]
    #[inline(never)]
    fn run_root_observed(&self, entry: Entry, priority: Priority, source: Source) {
        let shared = self.shared;
        self.hook(&shared.hooks().before_task);
        let started = shared.measures_cpu_time().then(|| shared.now_ns());
        self.run_entry(entry, priority, source, Nesting::Root);
        if let Some(started) = started {
            // Nested units (work this task helped with while it waited)
            // are charged to it: they ran on its behalf.
            let ns = shared.now_ns().saturating_sub(started);
            if let Some(shares) = &self.shares {
                shares.charge(priority, ns);
            }
            add(&self.counters.cpu_ns[priority.index()], ns);
        }
        self.hook(&shared.hooks().after_task);
        let nudged = shared.idle().placement.check(self.index);
        if nudged != 0 {
            add(&self.counters.nudged_wakes, nudged);
        }
    }

    /// Runs an entry taken while waiting inside a unit (`JOIN_HELPING.md`):
    /// as a nested unit, inside the waiting unit's hooks. `source` is
    /// `Helping` for the worker's own work, `Stolen` for work leapfrogged
    /// from a peer.
    pub(crate) fn run_nested(&self, entry: Entry, priority: Priority, source: Source) {
        if let Source::Stolen { .. } = source {
            bump(&self.counters.stolen);
        }
        self.run_entry(entry, priority, source, Nesting::Nested);
    }

    /// Runs `f` inside a unit of work: the running one, or, where none
    /// runs (an adopted thread between its calls into the runtime, a
    /// worker's hook), one opened for `f`, at Normal priority. A panic of
    /// `f` resumes here.
    pub(crate) fn in_a_unit<R>(&self, f: impl FnOnce() -> R) -> R {
        if self.in_unit() {
            f()
        } else {
            self.run_at(Priority::Normal, f)
        }
    }

    /// Whether the thread is a worker the runtime adopted rather than one
    /// that runs the worker loop.
    #[inline]
    pub(crate) fn is_adopted(&self) -> bool {
        self.kind == WorkerKind::Adopted
    }

    /// At a fork of work below High: if a task of a more urgent class waits
    /// in any queue this worker could take it from, runs one first, as a
    /// checkpoint does. One load while no more urgent class was ever used
    /// in the runtime; two per queue of the more urgent classes once one
    /// was.
    #[inline(always)]
    pub(crate) fn let_more_urgent_in(&self, priority: Priority) {
        if priority == Priority::High {
            return;
        }
        if priority == Priority::Background {
            self.yield_cpu_if_due();
        }
        let global = self.shared.queues();
        let urgent = ClassSet::more_urgent_than(priority).intersection(global.classes_seen());
        if !urgent.is_empty() && self.deques.queues().holds_any_of(global, urgent) {
            self.run_more_urgent();
        }
    }

    /// Background work gives its CPU to the OS scheduler (`yield_now`) if
    /// this worker has not done so for [`OS_YIELD_INTERVAL_NS`]: at its forks
    /// and checkpoints. Threads outside the runtime that wait for a CPU (a
    /// request handler about to hand in High work, the code that waits for
    /// it) then get one within about that interval, even while Background
    /// work keeps every worker busy, instead of waiting for the kernel's
    /// time slice (several ms). One clock read per call; a yield with
    /// nothing else runnable returns at once.
    #[inline]
    pub(crate) fn yield_cpu_if_due(&self) {
        let now = self.shared.now_ns();
        if now.saturating_sub(self.last_os_yield.get()) >= OS_YIELD_INTERVAL_NS {
            self.last_os_yield.set(now);
            crate::sync::yield_now();
        }
    }

    /// Runs one queued task (or shared half) of a class more urgent than
    /// the running unit's, if there is one, nested in that unit: what
    /// [`checkpoint`](crate::checkpoint) does. True if it ran one. Under a
    /// weighted policy the classes share the worker by weight at task
    /// boundaries instead, and nothing runs here.
    pub(crate) fn run_more_urgent(&self) -> bool {
        if self.shares.is_some() {
            return false;
        }
        let urgent = ClassSet::more_urgent_than(self.priority())
            .intersection(self.shared.queues().classes_seen());
        if urgent.is_empty() {
            return false;
        }
        match self.find_foreign(urgent, Reach::Anywhere) {
            Some(found) => {
                self.run_foreign(found);
                true
            }
            None => false,
        }
    }

    /// Runs the oldest letter in this worker's mailbox (its share of a
    /// broadcast), if there is one, nested in the running unit as work
    /// that is not the unit's. True if it ran one.
    #[inline]
    pub(crate) fn run_letter(&self) -> bool {
        // Inlined: every round of every wait looks, and there is rarely one.
        if !self.has_mail() {
            return false;
        }
        match self.take_letter() {
            Some(found) => {
                self.run_foreign(found);
                true
            }
            None => false,
        }
    }

    /// The oldest letter in this worker's mailbox, as a found entry.
    fn take_letter(&self) -> Option<Found<Entry>> {
        let letter = self.slot.mailbox().take()?;
        Some(Found {
            task: Entry::Frame(letter.frame),
            source: TaskSource::OwnDeque,
            priority: letter.priority,
            victim: None,
        })
    }

    /// One queued entry of `classes` for work that is not the running
    /// unit's (a checkpoint's, a yield's): the unit's own newest entry, or
    /// where no unit runs the worker's newest; then, if `reach` allows,
    /// one from the injectors or from the oldest end of any worker's
    /// deque, this one's included. Never the newest entry of a deque
    /// below the running unit's marks: the units below count those as
    /// theirs (`JOIN_HELPING.md`, "Work run at a checkpoint").
    pub(crate) fn find_foreign(&self, classes: ClassSet, reach: Reach) -> Option<Found<Entry>> {
        self.look_for_stop();
        let own = classes.iter().find_map(|p| {
            let entry = match self.unit() {
                Some(unit) => self.deques.pop_above(p, unit.base),
                None => self.deques.pop(p),
            };
            entry.map(|entry| (entry, p))
        });
        if let Some((task, priority)) = own {
            return Some(Found {
                task,
                source: TaskSource::OwnDeque,
                priority,
                victim: None,
            });
        }
        match reach {
            Reach::Anywhere => self.shared.queues().steal_among(classes),
            Reach::Local => None,
        }
    }

    /// Runs `found`, work that is not the running unit's, nested in it.
    ///
    /// So that the rule of `JOIN_HELPING.md` stays true for every unit on
    /// the stack: while it runs, the unit is not published as clean (no
    /// leapfrogger takes what the work pushes), and what the work leaves
    /// in the deques (tasks it spawned and did not join) moves to the
    /// injectors afterwards, so that the deques hold exactly what they held
    /// before it, and every unit's marks stay true.
    pub(crate) fn run_foreign(&self, found: Found<Entry>) {
        if let Some(unit) = self.unit() {
            if let Clean::Published { unit: clean, outer } = unit.clean.get() {
                self.slot.leave_clean(outer);
                // Published again at the unit's next push.
                unit.clean.set(Clean::Unpublished(clean));
            }
        }
        let marks = self.deques.marks();
        self.shared.left_queue(found.source);
        if found.source == TaskSource::Stolen {
            bump(&self.counters.stolen);
        }
        let source = Source::of(found.source, found.victim);
        self.run_entry(found.task, found.priority, source, Nesting::Nested);
        while let Some((entry, priority)) = self.deques.pop_above_any(marks) {
            self.shared.requeue(priority, entry);
        }
    }

    fn run_entry(&self, entry: Entry, priority: Priority, source: Source, nesting: Nesting) {
        match entry {
            Entry::Task(job, span) => {
                let id = job.id();
                let observed = (self.shared.observed() && self.shared.records_runs())
                    .then(|| self.started(trace::key(id, job.stamp()), priority, source, nesting));
                let outcome = self.run_task(job, span, priority);
                if let Some(run) = observed {
                    self.finished(run, priority, outcome);
                }
                self.count(outcome);
            }
            Entry::Frame(frame) => {
                if self.is_stopping() {
                    // The frame's owner (a joiner, or a thread that
                    // installed work) runs it itself.
                    frame.execute(FrameAction::GiveBack);
                } else {
                    let waited = Waited::By { scope: None };
                    self.run_unit(frame.id(), waited, priority, || {
                        frame.execute(FrameAction::Run)
                    });
                }
            }
            Entry::ScopeTicket => {
                if let Some(task) = self.shared.scope_inbox().pop_any() {
                    let entry = Entry::Task(task.job, task.span);
                    self.run_entry(entry, task.priority, source, nesting);
                }
            }
        }
    }

    /// Runs a task as a unit of its own, unless `stop` drained the queues
    /// before it was taken: then it is cancelled, but a task of a running
    /// scope, which its scope waits for.
    #[inline(always)]
    fn run_task(&self, job: Job, span: TaskSpan, priority: Priority) -> RunOutcome {
        rt_queue::path_step!();
        if self.is_stopping() && job.scope().is_none() {
            return job.discard().outcome();
        }
        let waited = match job.awaited() {
            Awaited::Never => Waited::Never,
            Awaited::ByHandle => Waited::By { scope: None },
            Awaited::InScope(scope) => Waited::By { scope: Some(scope) },
        };
        let id = WorkId::of_task(job.id());
        span.wrap(priority, self.index, |wrapper| {
            self.run_unit(id, waited, priority, || self.run_job(job, wrapper))
        })
    }

    fn run_job(&self, job: Job, wrapper: Option<BodyWrapper<'_>>) -> RunOutcome {
        rt_queue::path_step!();
        job.run_as(
            Some(self.tag()),
            |message| {
                if let Some(handler) = &self.shared.hooks().panic_handler {
                    if !contain(|| handler(self.index, message)) {
                        bump(&self.counters.hook_panics);
                    }
                }
            },
            wrapper,
        )
    }

    /// Task `task` starts now on this worker while runs are observed
    /// (`Shared::records_runs`): records its start in the trace, if one
    /// runs, and makes it the parent of what it spawns.
    pub(crate) fn started(
        &self,
        task: Key,
        priority: Priority,
        source: Source,
        nesting: Nesting,
    ) -> Observed {
        let shared = self.shared;
        let start = shared.now_ns();
        if shared.trace().is_active() {
            let event = Event::Start {
                task,
                priority,
                source,
                nested: nesting == Nesting::Nested,
                start,
            };
            shared.trace().record(self.index, event);
        }
        Observed {
            task,
            start,
            outer: self.current.replace(Some(task)),
        }
    }

    /// The observed task just ended: restores the outer parent, records
    /// its latency (if it ran: not a stale entry, nor a cancellation) and
    /// its end in the trace.
    pub(crate) fn finished(&self, run: Observed, priority: Priority, outcome: RunOutcome) {
        let Observed { task, start, outer } = run;
        self.current.set(outer);
        let shared = self.shared;
        let end = shared.now_ns();
        if let Some(latency) = shared.latency() {
            if matches!(outcome, RunOutcome::Completed | RunOutcome::Panicked) {
                let queue_delay = task.stamp.map(|stamp| start.saturating_sub(stamp));
                latency[self.index].record(priority, queue_delay, end.saturating_sub(start));
            }
        }
        if shared.trace().is_active() {
            let event = Event::End {
                task,
                start,
                end,
                outcome,
            };
            shared.trace().record(self.index, event);
        }
    }

    #[cold]
    fn trace_spawn(&self, job: &Job) {
        let trace = self.shared.trace();
        if trace.is_active() {
            let spawn = Event::Spawn {
                task: trace::key(job.id(), job.stamp()),
                parent: self.current.get(),
            };
            trace.record(self.index, spawn);
        }
    }

    /// Counts how a task ended, on this worker's counters.
    #[inline(always)]
    pub(crate) fn count(&self, outcome: RunOutcome) {
        rt_queue::path_step!();
        let counters = self.counters;
        let counter = match outcome {
            RunOutcome::Completed => &counters.completed,
            RunOutcome::Panicked => &counters.panicked,
            RunOutcome::Cancelled => &counters.cancelled,
            RunOutcome::Stale => return,
        };
        bump(counter);
    }

    /// Whether a task taken now (after the last [`look_for_stop`]) is
    /// cancelled instead of run: `stop` had drained the queues before.
    ///
    /// [`look_for_stop`]: Self::look_for_stop
    #[inline]
    pub(crate) fn is_stopping(&self) -> bool {
        rt_queue::path_step!();
        self.drained.get()
    }

    /// Looks whether `stop` has drained the queues, before taking work.
    #[inline(always)]
    pub(crate) fn look_for_stop(&self) {
        rt_queue::path_step!();
        if !self.drained.get() && self.shared.is_drained() {
            self.drained.set(true);
        }
    }

    /// Runs a lifecycle hook for this worker, counting a panic in it.
    #[inline]
    fn hook(&self, hook: &Option<hooks::WorkerHook>) {
        if hook.is_some() && !hooks::call(hook, self.index) {
            bump(&self.counters.hook_panics);
        }
    }
}

// The unit of work a worker runs now, as one value (`JOIN_HELPING.md`,
// "Units"): it lives in the frame of the `run_unit` call that runs it, and
// the worker points at the innermost one.

/// The unit of work a worker runs (the innermost, when units nest). A
/// nested unit points at the one it interrupts, which the worker points at
/// again when it ends.
pub(crate) struct Unit {
    /// Where the worker's own deques stood when the unit began.
    pub(crate) base: Marks,
    /// The unit's priority: the default of what it forks.
    pub(crate) priority: Priority,
    /// The unit's pending `join` halves, newest first (a list through the
    /// joiners' stack frames), and the newest of those already shared:
    /// they are always the oldest ones, from the bottom up.
    pub(crate) newest: Cell<*const JoinFrame>,
    pub(crate) newest_shared: Cell<*const JoinFrame>,
    /// How many of the pending halves are not shared (those newer than
    /// `newest_shared`), and how many `join`s the unit made: a `join`
    /// links a pending half only while fewer than a few are private, or
    /// at a regular count of forks (`fork_join/join.rs`, `FORKS.md`).
    pub(crate) private: Cell<u32>,
    pub(crate) forks: Cell<u32>,
    /// Whether the unit is clean, and whether it published that yet.
    pub(crate) clean: Cell<Clean>,
}

/// A unit's cleanliness (`JOIN_HELPING.md`). A clean unit is published in
/// the worker's slot lazily, at its first push: until then its deques hold
/// nothing of it for a leapfrogger to take, and a unit that never pushes
/// (most tasks) never touches the slot, nor pays the fence of ending one.
#[derive(Clone, Copy)]
pub(crate) enum Clean {
    /// The unit began with entries in its deques, or nothing waits for it.
    No,
    /// Clean; nothing pushed yet, so nothing published.
    Unpublished(CleanUnit),
    /// Clean and published as `unit`; `outer` is what to restore when it
    /// ends.
    Published { unit: CleanUnit, outer: Published },
}

/// One pending `join` half in its unit's private list, on the joiner's
/// stack: enough for any later `join` of the unit to share it without
/// knowing its types (`fork_join/join.rs`).
pub(crate) struct JoinFrame {
    /// The next older pending half of the unit.
    pub(crate) older: *const JoinFrame,
    /// The half's `StackJob`, and the function that runs it.
    pub(crate) job: NonNull<()>,
    pub(crate) execute: unsafe fn(NonNull<()>, FrameAction),
    /// Whether the half was shared (pushed onto the deque).
    pub(crate) is_shared: Cell<bool>,
}

impl JoinFrame {
    /// The queue entry of the half.
    ///
    /// # Safety
    ///
    /// As [`FrameRef::new`]: the half stays in place until its entry was
    /// executed (or taken back by its owner).
    pub(crate) unsafe fn frame_ref(&self) -> FrameRef {
        // SAFETY: per this function's contract.
        unsafe { FrameRef::new(self.job, self.execute) }
    }
}

/// Whether anything may wait for a unit (a task's handle or scope, the
/// owner of a shared half or an installed closure): a unit nothing waits
/// for is never clean, since no leapfrogger would ask for its work.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Waited {
    Never,
    /// Something waits; for a task of a scope, the scope.
    By {
        scope: Option<ScopeId>,
    },
}

impl Unit {
    /// A unit that begins now, identified by `id`, with the deques at
    /// `base`; `deques_empty` says whether they hold nothing (asked only
    /// when something waits for the unit).
    #[inline(always)]
    pub(crate) fn begin(
        id: WorkId,
        waited: Waited,
        priority: Priority,
        base: Marks,
        deques_empty: impl FnOnce() -> bool,
    ) -> Self {
        rt_queue::path_step!();
        let clean = match waited {
            Waited::By { scope } if deques_empty() => {
                Clean::Unpublished(CleanUnit { unit: id, scope })
            }
            _ => Clean::No,
        };
        Self {
            base,
            priority,
            newest: Cell::new(ptr::null()),
            newest_shared: Cell::new(ptr::null()),
            private: Cell::new(0),
            forks: Cell::new(0),
            clean: Cell::new(clean),
        }
    }
}

// A worker's own deques, and the *marks* that tell a unit of work's own
// entries from older ones (`JOIN_HELPING.md`, rule 2).

/// Where a worker's own deques stood when a unit of work began: for each
/// priority, the worker's pushes minus its own pops so far.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Marks([isize; Priority::COUNT]);

/// The worker's private half of the queues, with its net pushes per deque:
/// this worker's pushes minus its own pops that took an entry. Thieves, and
/// batches moved in from an injector, leave the count alone, so a unit that
/// recorded the count when it began ([`marks`](Self::marks)) can tell
/// whether the newest entry is its own, however many older entries thieves
/// took meanwhile ([`pop_above`](Self::pop_above)).
pub(crate) struct OwnDeques<T> {
    queues: WorkerQueues<T>,
    net_pushes: [Cell<isize>; Priority::COUNT],
}

impl<T> OwnDeques<T> {
    pub(crate) fn new(queues: WorkerQueues<T>) -> Self {
        Self {
            queues,
            net_pushes: Default::default(),
        }
    }

    /// The queues without the counts, for what does not pop its own end.
    pub(crate) fn queues(&self) -> &WorkerQueues<T> {
        rt_queue::path_step!();
        &self.queues
    }

    /// Pushes an entry made on this worker.
    #[inline(always)]
    pub(crate) fn push(&self, priority: Priority, entry: T) {
        self.queues.push(priority, entry);
        let net = &self.net_pushes[priority.index()];
        net.set(net.get() + 1);
    }

    /// The next entry for the main loop, looking at the classes in `order`
    /// (`WorkerQueues::find_in`), keeping the counts true.
    #[inline(always)]
    pub(crate) fn find(
        &self,
        global: &GlobalQueues<T>,
        order: [Priority; Priority::COUNT],
    ) -> Option<Found<T>> {
        rt_queue::path_step!();
        let found = self.queues.find_in(global, order);
        self.count_taken(&found);
        found
    }

    /// Counts a found entry that came from the own deques as popped. It
    /// looks at the entry in place: passing it through by value made a
    /// user's build (no LTO) copy it twice per task.
    #[inline(always)]
    fn count_taken(&self, found: &Option<Found<T>>) {
        rt_queue::path_step!();
        if let Some(Found {
            source: TaskSource::OwnDeque,
            priority,
            ..
        }) = found
        {
            let net = &self.net_pushes[priority.index()];
            net.set(net.get() - 1);
        }
    }

    /// Where the deques stand: recorded when a unit of work begins.
    #[inline]
    pub(crate) fn marks(&self) -> Marks {
        rt_queue::path_step!();
        Marks(self.net_pushes.each_ref().map(Cell::get))
    }

    /// Pops the newest entry of the deque at `priority` if it was pushed
    /// since `marks` were taken (and the owner has not popped it).
    ///
    /// Why that is "the net count of pushes grew": the entries a deque
    /// holds are the newest pushed and not popped by the owner (thieves
    /// take the oldest), so if the owner pushed more than it popped since
    /// `marks`, the newest entry it holds, if any, is one of those, however
    /// many of the older ones thieves took meanwhile; if not, every entry
    /// it holds is older. (Comparing lengths instead would miss a unit's
    /// own entries once thieves had taken older ones.) Only the owner's
    /// pushes and pops inside the unit change the count, so it never drops
    /// below the mark there.
    #[inline]
    pub(crate) fn pop_above(&self, priority: Priority, marks: Marks) -> Option<T> {
        if !self.pushed_since(priority, marks) {
            return None;
        }
        let entry = self.queues.pop(priority)?;
        let net = &self.net_pushes[priority.index()];
        net.set(net.get() - 1);
        Some(entry)
    }

    /// Pops the newest entry of the deque at `priority`, whichever unit
    /// pushed it: only where no unit runs (an adopted thread between its
    /// calls into the runtime), since inside one it could take an entry an
    /// enclosing unit counts as its own.
    #[inline]
    pub(crate) fn pop(&self, priority: Priority) -> Option<T> {
        let entry = self.queues.pop(priority)?;
        let net = &self.net_pushes[priority.index()];
        net.set(net.get() - 1);
        Some(entry)
    }

    /// [`pop_above`](Self::pop_above) over every priority, High first.
    #[inline]
    pub(crate) fn pop_above_any(&self, marks: Marks) -> Option<(T, Priority)> {
        Priority::ALL
            .into_iter()
            .find_map(|p| self.pop_above(p, marks).map(|entry| (entry, p)))
    }

    /// Whether the deque at `priority` holds an entry pushed since `marks`
    /// were taken (a racy look: a thief may take it right after).
    #[inline]
    pub(crate) fn holds_above(&self, priority: Priority, marks: Marks) -> bool {
        self.pushed_since(priority, marks) && !self.queues.is_empty_at(priority)
    }

    fn pushed_since(&self, priority: Priority, marks: Marks) -> bool {
        self.net_pushes[priority.index()].get() > marks.0[priority.index()]
    }

    /// True when every deque of this worker is empty.
    #[inline]
    pub(crate) fn is_empty(&self) -> bool {
        rt_queue::path_step!();
        self.queues.is_empty()
    }
}
