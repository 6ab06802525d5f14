//! A worker thread: its loop, the units of work it runs, and how tasks
//! running on it spawn onto its own deque.
//!
//! A *unit* is one piece of work a worker runs: a task, a stolen half of a
//! `join`, a closure installed from outside. The main loop runs units taken
//! from the queues; a worker waiting inside a unit (a join, the end of a
//! scope) may run further units nested inside it, but only ones that belong
//! to it (`JOIN_HELPING.md`). For each unit the worker remembers where its
//! own deques stood when the unit began (so that it can tell what the unit
//! pushed), the unit's priority (the default of what it forks), and the
//! unit's private list of `join` halves not yet made stealable.

use std::cell::Cell;
use std::ptr::{self, NonNull};
use std::sync::Arc;
use std::time::Instant;

use rt_handle::membership::{self, Member};
use rt_handle::{BodyWrapper, Job, RunOutcome};
use rt_queue::{ClassShares, Found, Marks, Priority, PriorityPolicy, TaskSource, WorkerQueues};

use crate::entry::Entry;
use crate::hooks::{self, contain};
use crate::idle_signal::IdleSignal;
use crate::join::JoinFrame;
use crate::metrics::{add, bump, WorkerCounters};
use crate::shared::{Shared, RUNTIME};
use crate::sync::{AtomicU64, AtomicUsize, Ordering};
use crate::trace::{Event, Key, Source};
use crate::wait_for_work::{next_task, Counted, WorkSource};
use crate::worker_slot::{CleanUnit, WorkerSlot};

/// What a worker thread owns: the runtime's shared state, its private half
/// of the queues, and the state of the unit it runs. Tasks running on the
/// worker reach it through the thread's membership frame.
pub(crate) struct WorkerContext {
    pub(crate) shared: Arc<Shared>,
    queues: WorkerQueues<Entry>,
    index: usize,
    /// More than one worker: a fork can run in parallel.
    pub(crate) parallel: bool,
    /// This worker's slot, the runtime's demand count and this worker's
    /// counters, all inside `shared` (which this context keeps alive):
    /// cached, since every fork reads the first two and every task the
    /// counters.
    slot: NonNull<WorkerSlot>,
    demand: NonNull<AtomicUsize>,
    counters: NonNull<WorkerCounters>,
    unit: Unit,
    /// Under a weighted policy: this worker's shares of the classes
    /// (`WEIGHTED_SHARES.md` in rt-queue).
    shares: Option<ClassShares>,
    /// Whether to measure each task's CPU time.
    timed: bool,
    /// The observed task running now, for the trace's parent links.
    current: Cell<Key>,
}

/// A task run being observed (`WorkerContext::started`).
pub(crate) struct Observed {
    task: Key,
    start: u64,
    /// The parent to restore when it ends.
    outer: Key,
}

/// The unit of work the worker runs now (the innermost, when units nest).
struct Unit {
    /// False outside any unit (in the worker's hooks, or its idle loop).
    active: Cell<bool>,
    /// Where the worker's own deques stood when the unit began.
    base: Cell<Marks>,
    priority: Cell<Priority>,
    /// The unit's pending `join` halves, newest first (a list through the
    /// joiners' stack frames), and the newest of those already made
    /// stealable: they are always the oldest ones, from the bottom up.
    newest: Cell<*const JoinFrame>,
    newest_stealable: Cell<*const JoinFrame>,
    /// Whether the unit is clean (began with empty deques, and something
    /// may wait for it), and whether it published that in the worker's
    /// slot yet.
    clean: Cell<Clean>,
}

/// A unit's cleanliness (`JOIN_HELPING.md`). A clean unit is published in
/// the worker's slot lazily, at its first push: until then its deques hold
/// nothing of it for a leapfrogger to take, and a unit that never pushes
/// (most tasks) never touches the slot, nor pays the fence of ending one.
/// A unit nothing can wait for (a task without a handle, or whose handle
/// is gone, outside any scope) is never clean: no leapfrogger would ask.
#[derive(Clone, Copy)]
enum Clean {
    /// The unit began with entries in its deques, or nothing waits for it.
    No,
    /// Clean; nothing pushed yet, so nothing published.
    Unpublished(CleanUnit),
    /// Clean and published; `outer` is what to restore when it ends.
    Published { outer: CleanUnit },
}

/// A copy of a [`Unit`]'s cells but `active`: what a nested unit saves and
/// restores (the unit it interrupts is active by definition).
#[derive(Clone, Copy)]
struct UnitState {
    base: Marks,
    priority: Priority,
    newest: *const JoinFrame,
    newest_stealable: *const JoinFrame,
    clean: Clean,
}

impl Unit {
    /// Outside any unit: what a worker's unit state is before its first.
    fn idle() -> Self {
        Self {
            active: Cell::new(false),
            base: Cell::new(Marks::ORIGIN),
            priority: Cell::new(Priority::Normal),
            newest: Cell::new(ptr::null()),
            newest_stealable: Cell::new(ptr::null()),
            clean: Cell::new(Clean::No),
        }
    }

    fn get(&self) -> UnitState {
        UnitState {
            base: self.base.get(),
            priority: self.priority.get(),
            newest: self.newest.get(),
            newest_stealable: self.newest_stealable.get(),
            clean: self.clean.get(),
        }
    }

    fn set(&self, state: UnitState) {
        self.base.set(state.base);
        self.priority.set(state.priority);
        self.newest.set(state.newest);
        self.newest_stealable.set(state.newest_stealable);
        self.clean.set(state.clean);
    }
}

/// Calls `f` with the calling thread's worker context if the thread is a
/// worker of the runtime owning `shared` (running a task, or a hook), else
/// with `None`.
#[inline]
pub(crate) fn with_local<R>(
    shared: &Arc<Shared>,
    f: impl FnOnce(Option<&WorkerContext>) -> R,
) -> R {
    let pool = shared.pool_id();
    membership::with_innermost(|member| {
        f(member
            .filter(|m| m.pool() == pool)
            // SAFETY: see `context_of`.
            .map(|m| unsafe { context_of(m) }))
    })
}

/// Calls `f` with the worker context of the calling thread if it is a
/// worker of any runtime (and this is the innermost membership), else with
/// `None`. One read of the thread-local: forks call it.
#[inline]
pub(crate) fn with_any<R>(f: impl FnOnce(Option<&WorkerContext>) -> R) -> R {
    let context = membership::innermost_context(&RUNTIME);
    // A RUNTIME frame's context is `run_worker`'s `WorkerContext`, which
    // outlives the frame, entered while this thread runs the calling code.
    // SAFETY: so the pointer is valid here; the reference does not escape `f`.
    f(context.map(|c| unsafe { &*c.cast::<WorkerContext>() }))
}

/// # Safety
///
/// `member` must be a frame of kind [`RUNTIME`]: only `run_worker` enters
/// such frames, with a context pointing at its `WorkerContext`, which lives
/// on that frame's stack until the frame is left; `with_innermost` hands the
/// frame out only while it is entered, and not beyond the call.
unsafe fn context_of<'m>(member: &'m Member<'_>) -> &'m WorkerContext {
    // SAFETY: per the contract above.
    unsafe { &*member.context().cast::<WorkerContext>() }
}

/// True when the calling thread is one of the threads of the runtime owning
/// `shared`, even inside something that runs tasks of another executor.
pub(crate) fn is_thread_of(shared: &Arc<Shared>) -> bool {
    membership::is_thread_of(shared.pool_id())
}

/// The index of the worker the calling thread is, in whichever runtime it
/// belongs to; `None` on threads that are not workers.
///
/// ```
/// let rt = rt_core::Runtime::new(2).unwrap();
/// assert_eq!(rt_core::current_worker(), None);
/// let inside = rt.spawn(rt_core::current_worker).join().unwrap();
/// assert!(matches!(inside, Some(0) | Some(1)));
/// ```
pub fn current_worker() -> Option<usize> {
    membership::index_in(&RUNTIME)
}

/// What a spawn from inside the pool does: count the task (if `spawned`),
/// make it visible with `push`, ring the doorbell. Counting first keeps the
/// metrics' promise (see `metrics::snapshot`); the loom model in
/// `loom_metrics.rs` runs this very function.
#[inline]
pub(crate) fn publish_local(spawned: Option<&AtomicU64>, idle: &IdleSignal, push: impl FnOnce()) {
    if let Some(spawned) = spawned {
        bump(spawned);
    }
    push();
    idle.notify_one();
}

/// The body of every worker thread: a core worker's (`Counted::No`), or a
/// compensating worker's, which starts out counted as searching.
pub(crate) fn run_worker(shared: Arc<Shared>, queues: WorkerQueues<Entry>, start: Counted) {
    let index = queues.index();
    let parallel = shared.threads > 1;
    let slot = NonNull::from(&shared.slots[index]);
    let demand = NonNull::from(&*shared.demand);
    let counters = NonNull::from(&shared.counters[index]);
    let shares = match shared.policy {
        PriorityPolicy::Strict => None,
        PriorityPolicy::Weighted {
            high,
            normal,
            background,
        } => Some(ClassShares::new([high, normal, background])),
    };
    let timed = shared.measure_cpu_time;
    let ctx = WorkerContext {
        shares,
        timed,
        current: Cell::new((0, 0)),
        shared,
        queues,
        index,
        parallel,
        slot,
        demand,
        counters,
        unit: Unit::idle(),
    };
    ctx.slot().register_thread();
    let member = Member::new(ctx.shared.pool_id(), &RUNTIME, index)
        .with_context(ptr::from_ref(&ctx).cast())
        .with_helper(&ctx);
    member.enter(|| {
        ctx.hook(&ctx.shared.hooks.before_worker_start);
        ctx.shared.idle.placement.register_thread(index);
        // A core worker counts as wanting work from the start
        // (`Shared::new` counts every core worker), until it first finds
        // some; a compensating worker counts itself when it looks.
        let mut wants_work = start == Counted::No;
        let mut counted = start;
        while let Some(found) = ctx.next(&mut wants_work, counted) {
            counted = Counted::No;
            ctx.run_root(found);
        }
    });
    // Outside the worker's frame: a task the hook spawns goes through the
    // (closed) gate and is rejected, rather than into a deque nobody drains.
    ctx.hook(&ctx.shared.hooks.after_worker_stop);
    debug_assert!(
        ctx.queues.is_empty(),
        "worker {index} exits with queued work"
    );
    ctx.shared.exits.mark_exited();
}

impl WorkSource for WorkerContext {
    type Task = Found<Entry>;

    // Always inlined into the main loop: as a call it cost a frame of saved
    // registers per task, 32 of a worker's instructions per task under
    // callgrind (the per-task overhead section of `docs/BENCHMARKS.md`).
    #[inline(always)]
    fn find(&self) -> Option<Found<Entry>> {
        let global = &self.shared.queues;
        match &self.shares {
            None => self.queues.find(global),
            Some(shares) => self
                .queues
                .find_in(global, shares.order(self.queues.has_work(global))),
        }
    }

    fn sees_work(&self) -> bool {
        self.queues.sees_work(&self.shared.queues)
    }

    fn may_exit(&self) -> bool {
        self.shared.gate.is_closed_and_quiet()
    }
}

impl WorkerContext {
    pub(crate) fn index(&self) -> usize {
        self.index
    }

    pub(crate) fn slot(&self) -> &WorkerSlot {
        // SAFETY: points into `self.shared`, which `self` keeps alive.
        unsafe { self.slot.as_ref() }
    }

    /// The runtime's demand count (see `Shared::demand`).
    pub(crate) fn demand(&self) -> &AtomicUsize {
        // SAFETY: points into `self.shared`, which `self` keeps alive.
        unsafe { self.demand.as_ref() }
    }

    fn counters(&self) -> &WorkerCounters {
        // SAFETY: points into `self.shared`, which `self` keeps alive.
        unsafe { self.counters.as_ref() }
    }

    /// The tag this worker records in the tasks it runs: its index + 1.
    pub(crate) fn tag(&self) -> usize {
        self.index + 1
    }

    /// The main loop's next unit: from the queues, or after searching and
    /// sleeping; `None` once the runtime has terminated. While it has none,
    /// the worker counts in the runtime's demand (`wants_work` says whether
    /// it does now), so that busy workers make their pending `join` halves
    /// stealable. The count changes only when the worker runs dry or finds
    /// work again, not per task.
    ///
    /// `counted` says whether the doorbell already counts this worker as
    /// searching (a compensating worker's first call): then it goes
    /// straight to the search.
    fn next(&self, wants_work: &mut bool, counted: Counted) -> Option<Found<Entry>> {
        let found = match counted {
            Counted::No => self.find(),
            Counted::AsSearching => None,
        };
        let found = found.or_else(|| {
            if !*wants_work {
                self.demand().fetch_add(1, Ordering::Relaxed);
                *wants_work = true;
            }
            let trace = &self.shared.trace;
            let idle_since = trace.is_active().then(|| self.shared.now_ns());
            let found = next_task(&self.shared.idle, self.index, self, counted);
            if let Some(start) = idle_since {
                let end = self.shared.now_ns();
                trace.record(self.index, Event::Idle { start, end });
            }
            found
        });
        if found.is_some() && *wants_work {
            self.demand().fetch_sub(1, Ordering::Relaxed);
            *wants_work = false;
        }
        found
    }

    /// Pushes an entry made by a unit running on this worker onto its own
    /// deque: a spawned task (counted first; see `metrics::snapshot`) or a
    /// `join` half made stealable (not a task: not counted).
    // Always inlined into the spawn path and `join`: as a call it cost a
    // frame per spawn, 25 of a chain link's instructions under callgrind.
    #[inline(always)]
    pub(crate) fn push(&self, priority: Priority, entry: Entry) {
        let spawned = match &entry {
            Entry::Task(job, _) => {
                let trace = &self.shared.trace;
                if trace.is_active() {
                    let spawn = Event::Spawn {
                        task: (job.id(), job.stamp()),
                        parent: self.current.get(),
                    };
                    trace.record(self.index, spawn);
                }
                Some(&self.counters().spawned)
            }
            Entry::Frame(_) => None,
            Entry::ScopeTicket => unreachable!("tickets go to injectors only"),
        };
        if let Clean::Unpublished(unit) = self.unit.clean.get() {
            // Before the push: a leapfrogger that sees the unit published
            // may take what it pushes from now on.
            let outer = self.slot().enter_clean(unit);
            self.unit.clean.set(Clean::Published { outer });
        }
        publish_local(spawned, &self.shared.idle, || {
            self.queues.push(priority, entry)
        });
        // After the doorbell's fence: see `WorkerSlot::wake_leapfroggers`.
        self.slot().wake_leapfroggers(&self.shared.slots);
    }

    /// The priority of the unit running now: the default of what it forks.
    pub(crate) fn priority(&self) -> Priority {
        if self.unit.active.get() {
            self.unit.priority.get()
        } else {
            Priority::Normal
        }
    }

    /// Whether a unit is running (a task, a `join` half, an installed
    /// closure), as opposed to the worker's hooks.
    pub(crate) fn in_unit(&self) -> bool {
        self.unit.active.get()
    }

    /// Runs `f` as a unit of work identified by `id`: records where the
    /// deques stand, opens an empty list of `join` halves, and, if the
    /// deques are empty and something may wait for the unit (`awaited` is
    /// `Some`, holding its scope for a task of a scope, else 0), makes the
    /// unit clean: `push` publishes it for leapfrogging joiners
    /// (`WorkerSlot`) before its first push. `f` must not unwind (every
    /// caller runs user code under `catch_unwind`).
    #[inline]
    pub(crate) fn run_unit<R>(
        &self,
        id: usize,
        awaited: Option<usize>,
        priority: Priority,
        f: impl FnOnce() -> R,
    ) -> R {
        let unit = &self.unit;
        // A unit the main loop runs has nothing around it to save.
        let outer = unit.active.get().then(|| unit.get());
        let base = self.queues.marks();
        let clean = match awaited {
            Some(scope) if self.queues.is_empty() => {
                Clean::Unpublished(CleanUnit { unit: id, scope })
            }
            _ => Clean::No,
        };
        unit.active.set(true);
        unit.set(UnitState {
            base,
            priority,
            newest: ptr::null(),
            newest_stealable: ptr::null(),
            clean,
        });
        let result = f();
        if let Clean::Published { outer } = unit.clean.get() {
            self.slot().leave_clean(outer);
        }
        debug_assert!(unit.newest.get().is_null(), "a unit ends with its joins");
        match outer {
            // `active` stays set: the interrupted unit resumes.
            Some(outer) => unit.set(outer),
            // Back in the main loop: between units only `active` and
            // `clean` are read (`in_unit`, and `push` from a hook); the
            // next unit sets every field.
            None => {
                unit.active.set(false);
                unit.clean.set(Clean::No);
            }
        }
        result
    }

    /// Runs a unit the main loop took from a queue, with the task hooks.
    #[inline]
    fn run_root(&self, found: Found<Entry>) {
        let shared = &*self.shared;
        let counters = self.counters();
        shared.left_queue(found.source);
        if found.source == TaskSource::Peer {
            bump(&counters.stolen);
        }
        counters.running.store(1, Ordering::Relaxed);
        self.hook(&shared.hooks.before_task);
        let started = self.timed.then(Instant::now);
        self.run_entry(
            found.task,
            found.priority,
            Source::of(found.source, found.victim),
            false,
        );
        if let Some(started) = started {
            // Nested units (work this task helped with while it waited)
            // are charged to it: they ran on its behalf.
            let ns = u64::try_from(started.elapsed().as_nanos()).unwrap_or(u64::MAX);
            if let Some(shares) = &self.shares {
                shares.charge(found.priority, ns);
            }
            add(&counters.cpu_ns[found.priority.index()], ns);
        }
        self.hook(&shared.hooks.after_task);
        counters.running.store(0, Ordering::Relaxed);
        let nudged = shared.idle.placement.check(self.index);
        if nudged != 0 {
            add(&counters.nudged_wakes, nudged);
        }
    }

    /// Runs an entry taken while waiting inside a unit (`JOIN_HELPING.md`):
    /// as a nested unit, inside the waiting unit's hooks.
    /// `source` is `Helping` for the worker's own work, `Stolen` for work
    /// leapfrogged from a peer.
    pub(crate) fn run_nested(&self, entry: Entry, priority: Priority, source: Source) {
        if let Source::Stolen { .. } = source {
            bump(&self.counters().stolen);
        }
        self.run_entry(entry, priority, source, true);
    }

    fn run_entry(&self, entry: Entry, priority: Priority, source: Source, nested: bool) {
        match entry {
            Entry::Task(job, span) => {
                let id = job.id();
                let observed = self
                    .observing()
                    .then(|| self.started((id, job.stamp()), priority, (source, nested)));
                let outcome = if self.is_stopping() && job.scope().is_none() {
                    // `stop` was called: nothing more starts, but the tasks
                    // of running scopes, which their scopes wait for.
                    job.discard()
                } else {
                    // A task nothing waits for has no use for a clean unit.
                    let awaited = job.awaited_in();
                    span.wrap(priority, self.index, |wrapper| {
                        self.run_unit(id, awaited, priority, || self.run_job(job, wrapper))
                    })
                };
                if let Some(run) = observed {
                    self.finished(run, priority, outcome);
                }
                self.count(outcome);
            }
            Entry::ScopeTicket => {
                if let Some(task) = self.shared.scope_inbox.pop_any() {
                    let entry = Entry::Task(task.job, task.span);
                    self.run_entry(entry, task.priority, source, nested);
                }
            }
            Entry::Frame(frame) => {
                if self.is_stopping() {
                    // The frame's owner (a joiner, or a thread that
                    // installed work) runs it itself.
                    frame.give_back(&self.shared.slots);
                } else {
                    self.run_unit(frame.id(), Some(0), priority, || frame.run(self));
                }
            }
        }
    }

    /// Whether tasks' runs are recorded (latency histograms or a trace).
    #[inline]
    pub(crate) fn observing(&self) -> bool {
        self.shared.latency.is_some() || self.shared.trace.is_active()
    }

    /// Task `task` starts now on this worker while its run is observed
    /// (`observing()`): records its start in the trace, if one runs, and
    /// makes it the parent of what it spawns.
    pub(crate) fn started(
        &self,
        task: Key,
        priority: Priority,
        (source, nested): (Source, bool),
    ) -> Observed {
        let shared = &*self.shared;
        let start = shared.now_ns();
        if shared.trace.is_active() {
            let event = Event::Start {
                task,
                priority,
                source,
                nested,
                start,
            };
            shared.trace.record(self.index, event);
        }
        Observed {
            task,
            start,
            outer: self.current.replace(task),
        }
    }

    /// The observed task just ended: restores the outer parent, records
    /// its latency and its end in the trace. Only runs go into the
    /// histograms: a stale entry (`Skipped`: a joiner ran the task and
    /// recorded it) and a task whose body never ran (`Cancelled`) add
    /// nothing.
    pub(crate) fn finished(&self, run: Observed, priority: Priority, outcome: RunOutcome) {
        let Observed { task, start, outer } = run;
        self.current.set(outer);
        let shared = &*self.shared;
        let end = shared.now_ns();
        if let Some(latency) = &shared.latency {
            if matches!(outcome, RunOutcome::Completed | RunOutcome::Panicked) {
                let queue_delay = (task.1 != 0).then(|| start.saturating_sub(task.1));
                latency[self.index].record(priority, queue_delay, end - start);
            }
        }
        if shared.trace.is_active() {
            let event = Event::End {
                task,
                start,
                end,
                outcome,
            };
            shared.trace.record(self.index, event);
        }
    }

    fn run_job(&self, job: Job, wrapper: Option<BodyWrapper<'_>>) -> RunOutcome {
        match &self.shared.hooks.panic_handler {
            None => job.run_tagged(self.tag(), |_| {}, wrapper),
            Some(handler) => job.run_tagged(
                self.tag(),
                |message| {
                    if !contain(|| handler(self.index, message)) {
                        bump(&self.counters().hook_panics);
                    }
                },
                wrapper,
            ),
        }
    }

    /// Counts how a task ended, on this worker's counters.
    pub(crate) fn count(&self, outcome: RunOutcome) {
        let counters = self.counters();
        match outcome {
            RunOutcome::Completed => bump(&counters.completed),
            RunOutcome::Panicked => bump(&counters.panicked),
            RunOutcome::Cancelled => bump(&counters.cancelled),
            RunOutcome::Skipped => {}
        }
    }

    pub(crate) fn is_stopping(&self) -> bool {
        // Relaxed: see `Shared::stop`.
        self.shared.stopping.load(Ordering::Relaxed)
    }

    /// The worker's private queues.
    pub(crate) fn queues(&self) -> &WorkerQueues<Entry> {
        &self.queues
    }

    /// Where the running unit's own deques stood when it began.
    pub(crate) fn unit_base(&self) -> Marks {
        self.unit.base.get()
    }

    /// The running unit's list of pending `join` halves: the newest, and
    /// the newest of those made stealable.
    pub(crate) fn join_list(&self) -> (&Cell<*const JoinFrame>, &Cell<*const JoinFrame>) {
        (&self.unit.newest, &self.unit.newest_stealable)
    }

    /// Runs a lifecycle hook for this worker, counting a panic in it.
    #[inline]
    fn hook(&self, hook: &Option<hooks::WorkerHook>) {
        if hook.is_some() && !hooks::call(hook, self.index) {
            bump(&self.counters().hook_panics);
        }
    }
}
