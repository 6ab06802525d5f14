//! The state every worker and every `Runtime` handle share, behind methods:
//! the queues, the doorbell, the gate, the per-worker slots and counters,
//! what observes the runtime; and the part of its lifecycle that needs no
//! worker (shutdown, `stop`'s drain, the metrics). Starting worker threads
//! (the core ones and compensating ones) is the worker's folder's
//! (`worker/mod.rs`).
//!
//! The gate that closes at shutdown is here too (`gate`, below): the
//! submission path passes it, and it is the first step of the shutdown
//! this file carries out.

use std::sync::{Arc, Mutex, OnceLock, Weak};

use rt_handle::raw::{listeners, unpoison, CancelListener, Discarded, JobControl, PoolId};
use rt_handle::{Metrics, RunOutcome};
use rt_queue::{GlobalQueues, Priority, PriorityPolicy, TaskSource};

use crate::fork_join::scope_inbox::{InboxTask, ScopeInbox};
use crate::fork_join::worker_slot::WorkerSlot;
use crate::idle::IdleSignal;
use crate::observe::clock::Clock;
use crate::observe::hooks::Hooks;
use crate::observe::latency::WorkerLatency;
use crate::observe::metrics::{snapshot, OffWorkerCounts, WorkerCounters};
use crate::observe::trace::TraceState;
use crate::shared::gate::SubmitGate;
use crate::submit::capacity::QueueCapacity;
use crate::submit::exits::WorkerExits;
use crate::sync::{AtomicBool, Ordering};
use crate::worker::entry::{Entry, FrameAction};

/// Who waits at the end of a scope (`scope.rs`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum ScopeWaiter {
    /// A worker of the scope's runtime: it helps, and takes the scope's
    /// tasks from the scope inbox.
    Worker,
    /// The thread that opened the scope outside any runtime: it parks until
    /// the tasks finished, running only what `stop` moved to the inbox.
    Thread,
}

pub(crate) struct Shared {
    /// The core workers: indexes `0..threads`. Compensating workers
    /// (`COMPENSATION.md`) take the indexes after them, up to
    /// `queues.max_workers()`; every per-worker array has that many slots.
    threads: usize,
    queues: GlobalQueues<Entry>,
    idle: IdleSignal,
    gate: SubmitGate,
    counters: Box<[WorkerCounters]>,
    thread_name: String,
    /// The stack size of every worker thread.
    stack_size: usize,
    capacity: Option<QueueCapacity>,
    hooks: Hooks,
    /// Set by `stop` once it has drained the queues: from then on every
    /// task a worker takes was queued after the drain, and is cancelled
    /// instead of run (`WorkerContext::is_stopping`).
    drained: AtomicBool,
    /// Serialises `stop` calls: a second call waits for the first's drain
    /// (and then finds nothing left to cancel).
    stopping: Mutex<()>,
    /// Tasks that ended off the workers: cancelled by `stop`, run by the
    /// thread that opened a scope outside the pool (`scope.rs`), cancelled
    /// at spawn, or cancelled while queued by a canceller that told the
    /// runtime: the runtime's cancel listener (`rt_handle::raw::
    /// listeners`), registered under its `PoolId` while this lives. An `Arc`
    /// of its own, so that a canceller holding it keeps nothing else alive.
    off_workers: Arc<OffWorkerCounts>,
    exits: WorkerExits,
    /// What each worker publishes for the others (`fork_join/worker_slot.rs`).
    slots: Box<[WorkerSlot]>,
    /// How workers choose between priority classes.
    policy: PriorityPolicy,
    /// Whether workers measure the CPU time of each task (always under a
    /// weighted policy, which charges it).
    measure_cpu_time: bool,
    /// The clock of stamps, latency and traces, made at its first use: the
    /// process's first one calibrates the CPU's counter, which a runtime
    /// that observes nothing need not wait for.
    clock: OnceLock<Clock>,
    /// Per-worker latency histograms, if recorded (`Builder::record_latency`).
    latency: Option<Box<[WorkerLatency]>>,
    /// The execution trace (`Runtime::start_trace`).
    trace: TraceState,
    /// Whether anything observes the tasks (`observed`): set from the
    /// configuration, and while a trace is recorded.
    observed: AtomicBool,
    /// What `observed` is without a trace.
    observed_always: bool,
    /// Tasks of scopes that their waiting workers take from here
    /// (`scope_inbox.rs`).
    scope_inbox: ScopeInbox,
}

/// What a builder configured, as `Shared::new` takes it.
pub(crate) struct Config {
    pub(crate) threads: usize,
    /// Whether worker 0 is the building thread, adopted
    /// (`worker/adopted.rs`): it then counts neither in the doorbell's live
    /// workers nor among the threads to wait for.
    pub(crate) adopted: bool,
    pub(crate) thread_name: String,
    pub(crate) stack_size: usize,
    pub(crate) capacity: Option<usize>,
    pub(crate) move_stacked_wakes: bool,
    pub(crate) hooks: Hooks,
    pub(crate) policy: PriorityPolicy,
    pub(crate) measure_cpu_time: bool,
    pub(crate) record_latency: bool,
}

impl Shared {
    pub(crate) fn new(queues: GlobalQueues<Entry>, config: Config) -> Self {
        let Config {
            threads,
            adopted,
            thread_name,
            stack_size,
            capacity,
            move_stacked_wakes,
            hooks,
            policy,
            measure_cpu_time,
            record_latency,
        } = config;
        let max_workers = queues.max_workers();
        // The workers that run the worker loop.
        let looping = threads - usize::from(adopted);
        let idle = IdleSignal::new(threads, max_workers, move_stacked_wakes);
        idle.set_live(looping);
        let measure_cpu_time = measure_cpu_time || policy != PriorityPolicy::Strict;
        let observed_always = hooks.before_task.is_some()
            || hooks.after_task.is_some()
            || measure_cpu_time
            || record_latency
            || move_stacked_wakes;
        let queues = if capacity.is_some() {
            queues.without_injector_batches()
        } else {
            queues
        };
        Self {
            threads,
            idle,
            gate: SubmitGate::new(),
            counters: (0..max_workers)
                .map(|_| WorkerCounters::default())
                .collect(),
            queues,
            thread_name,
            stack_size,
            capacity: capacity.map(QueueCapacity::new),
            hooks,
            drained: AtomicBool::new(false),
            stopping: Mutex::new(()),
            off_workers: Arc::default(),
            exits: WorkerExits::new(looping),
            slots: (0..max_workers).map(|_| WorkerSlot::new()).collect(),
            measure_cpu_time,
            policy,
            clock: OnceLock::new(),
            latency: record_latency
                .then(|| (0..max_workers).map(|_| WorkerLatency::default()).collect()),
            trace: TraceState::new(max_workers),
            observed: AtomicBool::new(observed_always),
            observed_always,
            scope_inbox: ScopeInbox::new(),
        }
    }

    /// Registers the runtime's cancel listener under its `PoolId` (the
    /// address of this state, in its `Arc`): from now on a task it accepted
    /// and that is cancelled while queued is counted by its canceller.
    /// Deregistered when this state is dropped.
    pub(crate) fn register_cancel_listener(self: &Arc<Self>) {
        let listener: Weak<dyn CancelListener> = Arc::downgrade(&self.off_workers) as _;
        listeners::register(PoolId::of(self), listener);
    }

    /// The configured number of workers (compensating ones not counted).
    #[inline]
    pub(crate) fn threads(&self) -> usize {
        self.threads
    }

    /// The prefix of the workers' thread names.
    pub(crate) fn thread_name(&self) -> &str {
        &self.thread_name
    }

    /// The stack size of every worker thread.
    pub(crate) fn stack_size(&self) -> usize {
        self.stack_size
    }

    /// The queues: injectors and every worker's stealers.
    #[inline(always)]
    pub(crate) fn queues(&self) -> &GlobalQueues<Entry> {
        rt_queue::path_step!();
        &self.queues
    }

    /// The doorbell idle workers sleep on, and compensation.
    #[inline(always)]
    pub(crate) fn idle(&self) -> &IdleSignal {
        rt_queue::path_step!();
        &self.idle
    }

    /// The gate external submissions pass.
    #[inline(always)]
    pub(crate) fn gate(&self) -> &SubmitGate {
        rt_queue::path_step!();
        &self.gate
    }

    /// The bound on queued external tasks, if configured.
    #[inline(always)]
    pub(crate) fn capacity(&self) -> Option<&QueueCapacity> {
        rt_queue::path_step!();
        self.capacity.as_ref()
    }

    /// The worker threads still to be joined, and their count.
    pub(crate) fn exits(&self) -> &WorkerExits {
        &self.exits
    }

    /// Every worker's counters, by index.
    #[inline(always)]
    pub(crate) fn counters(&self) -> &[WorkerCounters] {
        &self.counters
    }

    /// Every worker's published state (`worker_slot.rs`).
    #[inline(always)]
    pub(crate) fn slots(&self) -> &[WorkerSlot] {
        rt_queue::path_step!();
        &self.slots
    }

    /// How workers choose between priority classes.
    pub(crate) fn policy(&self) -> PriorityPolicy {
        self.policy
    }

    /// Whether workers time each task.
    pub(crate) fn measures_cpu_time(&self) -> bool {
        self.measure_cpu_time
    }

    /// The worker hooks and the panic handler.
    pub(crate) fn hooks(&self) -> &Hooks {
        &self.hooks
    }

    /// Per-worker latency histograms, if recorded.
    pub(crate) fn latency(&self) -> Option<&[WorkerLatency]> {
        self.latency.as_deref()
    }

    /// The execution trace.
    pub(crate) fn trace(&self) -> &TraceState {
        &self.trace
    }

    /// Tasks of scopes in no deque (`scope_inbox.rs`).
    pub(crate) fn scope_inbox(&self) -> &ScopeInbox {
        &self.scope_inbox
    }

    /// Tasks that ended off the workers.
    pub(crate) fn off_workers(&self) -> &OffWorkerCounts {
        &self.off_workers
    }

    /// Whether task runs are recorded (latency histograms or a trace): then
    /// tasks get their submission time stamped, and a worker asks it once
    /// `observed` said yes.
    #[inline]
    pub(crate) fn records_runs(&self) -> bool {
        rt_queue::path_step!();
        self.latency.is_some() || self.trace.is_active()
    }

    /// Now, in ns since the clock's first use, never 0 (0 means "no
    /// stamp").
    #[inline]
    pub(crate) fn now_ns(&self) -> u64 {
        self.clock.get_or_init(Clock::new).now_ns() | 1
    }

    /// Whether anything observes the runtime's tasks: hooks around tasks,
    /// CPU timing (also under a weighted policy), latency histograms, wake
    /// placement, or a trace being recorded. One Relaxed load: the one
    /// check a task pays for all of them while none is on.
    #[inline(always)]
    pub(crate) fn observed(&self) -> bool {
        rt_queue::path_step!();
        self.observed.load(Ordering::Relaxed)
    }

    /// A trace started: something observes the tasks now.
    pub(crate) fn trace_started(&self) {
        // Relaxed: a worker that sees the change a little late records a
        // little less (as with the trace's own flag).
        self.observed.store(true, Ordering::Relaxed);
    }

    /// The trace stopped: back to what the configuration observes.
    pub(crate) fn trace_stopped(&self) {
        // Relaxed: as in `trace_started`.
        self.observed.store(self.observed_always, Ordering::Relaxed);
    }

    /// A task left the queues: give its place back if it held one.
    #[inline]
    pub(crate) fn left_queue(&self, source: TaskSource) {
        rt_queue::path_step!();
        if source == TaskSource::Injector {
            if let Some(capacity) = &self.capacity {
                capacity.release();
            }
        }
    }

    /// Core worker `index` will never run (its `WorkerThread` was dropped
    /// unrun): the runtime stops counting on it. Its mailbox closes, and
    /// the letters in it go back to their senders unrun; it leaves the
    /// live workers (waking the sleepers, which re-check whether the
    /// runtime may end) and the threads to wait for. A
    /// compensating worker whose thread the OS refused leaves the
    /// compensation count instead (`COMPENSATION.md`).
    pub(crate) fn never_ran(&self, index: usize) {
        if index >= self.threads {
            self.exits.remove_worker();
            self.idle.not_started(index);
            return;
        }
        for letter in self.slots[index].mailbox().close() {
            letter.frame.execute(FrameAction::GiveBack);
        }
        self.idle.never_ran();
        self.exits.mark_exited();
    }

    /// Puts back on the injector of `priority` an entry that was accepted
    /// already (a task left on a worker's deque by work that was not the
    /// running unit's: `WorkerContext::run_more_urgent`), taking a place
    /// in a bounded queue even beyond its limit, since the place is given
    /// back when a worker takes it from there.
    pub(crate) fn requeue(&self, priority: Priority, entry: Entry) {
        if let Some(capacity) = &self.capacity {
            capacity.force_reserve();
        }
        self.queues.push(priority, entry);
        self.idle.notify_one(|| self.queues.injected(priority));
    }

    /// Closes the gate and wakes every idle worker (so it re-checks whether
    /// it may exit) and every submitter blocked on a full queue (so it gives
    /// up). True if this call started the shutdown.
    pub(crate) fn begin_shutdown(&self) -> bool {
        let first = self.gate.close();
        self.idle.notify_all();
        if let Some(capacity) = &self.capacity {
            capacity.wake_all();
        }
        first
    }

    /// `stop`: closes the gate, then cancels every queued task but the
    /// tasks of running scopes (they go to the scope inbox, for their
    /// waiters) and gives back every queued frame; returns how many tasks
    /// this call cancelled (`SHUTDOWN.md`, "`stop`").
    ///
    /// The count is exact because only this drain cancels a task queued
    /// before the call: a worker cancels a task it takes only if it saw
    /// the drain finished before it took it (`is_drained`, read before each
    /// take), so any task it takes while the drain runs, it runs; and the
    /// drain reaches every task still queued, batches on their way into a
    /// worker's deque included (`GlobalQueues::drain`).
    pub(crate) fn stop(&self) -> usize {
        let _one_at_a_time = unpoison(self.stopping.lock());
        self.begin_shutdown();
        let cancelled = self.cancel_queued();
        // Release pairs with the workers' Acquire in `is_drained`: a worker
        // that sees the flag took nothing this drain could have taken.
        self.drained.store(true, Ordering::Release);
        cancelled
    }

    /// Whether `stop` has drained the queues: a task taken after this
    /// returned true is cancelled instead of run.
    #[inline]
    pub(crate) fn is_drained(&self) -> bool {
        rt_queue::path_step!();
        self.drained.load(Ordering::Acquire)
    }

    /// Cancels every task still queued, but the tasks of running scopes,
    /// which go to the scope inbox for their waiting workers; returns how
    /// many it cancelled.
    fn cancel_queued(&self) -> usize {
        let mut cancelled = 0;
        let mut counted = 0;
        self.queues.drain(|found| {
            self.left_queue(found.source);
            match found.task {
                // A task of a scope not yet finished: its scope still runs
                // and waits for it.
                Entry::Task(job, span)
                    if JobControl::scope(&job).is_some() && !job.is_finished() =>
                {
                    self.scope_inbox.push(InboxTask {
                        priority: found.priority,
                        job,
                        span,
                    });
                }
                Entry::Task(job, _) => match job.discard() {
                    Discarded::Cancelled => cancelled += 1,
                    // Cancelled through its handle before: counted in the
                    // metrics as this entry's end, but not by this call.
                    Discarded::AlreadyCancelled => counted += 1,
                    // A stale entry: a joiner ran the task and counted it.
                    Discarded::Stale => {}
                },
                // A `join` half or an installed closure: its owner, blocked
                // waiting for it, runs it itself.
                Entry::Frame(frame) => frame.execute(FrameAction::GiveBack),
                // Its task stays in the scope inbox.
                Entry::ScopeTicket => {}
            }
        });
        // Workers waiting at the end of a scope look at the inbox again.
        for slot in &self.slots[..self.idle.workers_started()] {
            slot.unpark();
        }
        self.off_workers
            .count(RunOutcome::Cancelled, (cancelled + counted) as u64);
        cancelled
    }

    /// Tasks waiting in the queues at `priority`: the queue length, less
    /// the stale entries of tasks cancelled while queued that no worker
    /// took yet (a racy gauge, never below 0).
    pub(crate) fn queued(&self, priority: Priority) -> usize {
        self.queues
            .len(priority)
            .saturating_sub(self.off_workers.stale_entries(priority))
    }

    pub(crate) fn metrics(&self) -> Metrics {
        snapshot(self.counters.iter(), &self.off_workers, || {
            self.gate.accepted()
        })
    }
}

impl Drop for Shared {
    fn drop(&mut self) {
        // Before the state's memory can go back to the allocator, and so
        // before its address (the `PoolId`) can be another's.
        listeners::deregister(PoolId::of_state(self));
    }
}

pub(crate) mod gate {
    //! The gate external submissions pass through; closing it starts shutdown.
    //! Protocol and proof: `SHUTDOWN.md`.

    use crate::idle::IdleSignal;
    use crate::sync::{AtomicU64, AtomicUsize, Ordering};

    const CLOSED: usize = 1;
    const ONE_SUBMITTER: usize = 2;

    /// One word: a `CLOSED` bit and the number of external submitters that are
    /// between their check of the bit and the end of their push.
    ///
    /// Workers may exit only when the word reads exactly `CLOSED` (closed, with
    /// no push still in flight), so a submission that passed the gate before it
    /// closed is always seen by the workers' final scan.
    ///
    /// Every external submission writes the gate twice: on lines of its own, so
    /// that those writes never evict the read-mostly state (hooks, flags) that
    /// workers read at every task.
    #[repr(align(128))]
    pub(crate) struct SubmitGate {
        state: AtomicUsize,
        /// External submissions let through: the `submitted` metric's share that
        /// no worker counts. Lives beside `state`: both are written only by
        /// submitters, so they share one cache line that workers rarely read.
        accepted: AtomicU64,
    }

    /// What a submitter must do after leaving the gate.
    #[derive(Debug, Clone, Copy, PartialEq, Eq)]
    pub(crate) enum AfterLeave {
        /// Nothing beyond the usual doorbell ring.
        Nothing,
        /// The gate is closed and this was the last submitter in flight: wake
        /// every idle worker so that they re-check whether they may exit.
        WakeAll,
    }

    impl SubmitGate {
        pub(crate) fn new() -> Self {
            Self {
                state: AtomicUsize::new(0),
                accepted: AtomicU64::new(0),
            }
        }

        /// Enters the gate. `Err` means it is closed: the submission must be
        /// refused (and the caller must act on the [`AfterLeave`]).
        #[inline]
        pub(crate) fn enter(&self) -> Result<(), AfterLeave> {
            rt_queue::path_step!();
            // An RMW, so it is ordered against `close`'s `fetch_or` on the same
            // word: either it sees CLOSED and is refused, or its increment is
            // in the word before CLOSED is, and workers read the gate as busy
            // until the matching `exit`. Relaxed would do for that; SeqCst costs
            // nothing more on an RMW and keeps the gate's accesses in the single
            // order that the doorbell's proof reasons about.
            let prev = self.state.fetch_add(ONE_SUBMITTER, Ordering::SeqCst);
            if prev & CLOSED == 0 {
                Ok(())
            } else {
                Err(self.exit())
            }
        }

        /// Counts an admitted submission as accepted. Called *before* its task
        /// becomes visible, so that no worker can finish the task before it is
        /// counted: a metrics snapshot reads completions first and submissions
        /// after, and the push, the worker's pop and its completion count order
        /// this increment before any snapshot that sees that completion.
        #[inline]
        pub(crate) fn count_accepted(&self) {
            rt_queue::path_step!();
            self.accepted.fetch_add(1, Ordering::Relaxed);
        }

        /// Leaves the gate after the task was pushed.
        #[inline]
        pub(crate) fn leave(&self) -> AfterLeave {
            rt_queue::path_step!();
            self.exit()
        }

        /// Leaves the gate without pushing (a bounded queue was full).
        #[inline]
        pub(crate) fn leave_refused(&self) -> AfterLeave {
            self.exit()
        }

        #[inline]
        fn exit(&self) -> AfterLeave {
            rt_queue::path_step!();
            // A release (SeqCst is at least that): the push happens-before any
            // acquire load that reads this decrement or a later value, which is
            // what `is_closed_and_quiet` relies on.
            let prev = self.state.fetch_sub(ONE_SUBMITTER, Ordering::SeqCst);
            if prev == CLOSED | ONE_SUBMITTER {
                AfterLeave::WakeAll
            } else {
                AfterLeave::Nothing
            }
        }

        /// Closes the gate; true if this call closed it.
        pub(crate) fn close(&self) -> bool {
            // Ordered against `enter` by being an RMW of the same word (see
            // there). The doorbell mutex that `begin_shutdown` takes next orders
            // it before any later registration's read of the gate.
            self.state.fetch_or(CLOSED, Ordering::SeqCst) & CLOSED == 0
        }

        pub(crate) fn is_closed(&self) -> bool {
            // Pairs with `close` only through the word itself: a read that
            // misses a concurrent close is as good as one made just before it.
            self.state.load(Ordering::SeqCst) & CLOSED != 0
        }

        /// Closed, and no submitter is between its check and its push.
        pub(crate) fn is_closed_and_quiet(&self) -> bool {
            // An acquire (SeqCst is at least that) pairing with the release of
            // `exit`: having read "closed and quiet", the caller's next scan
            // sees every task pushed by a submitter that was let in.
            self.state.load(Ordering::SeqCst) == CLOSED
        }

        pub(crate) fn accepted(&self) -> u64 {
            // Acquire pairs with nothing in particular: the count is exact by
            // the ordering argument of `count_accepted`, which needs only that
            // this load comes after the completion counts' acquire loads.
            self.accepted.load(Ordering::Acquire)
        }
    }

    /// Passes the gate for one submission: true if admitted. A refused
    /// submitter still acts on the gate's [`AfterLeave`].
    pub(crate) fn admit(gate: &SubmitGate, idle: &IdleSignal) -> bool {
        rt_queue::path_step!();
        match gate.enter() {
            Ok(()) => true,
            Err(after) => {
                after_leave(idle, after);
                false
            }
        }
    }

    /// What a submission is: a task, counted in the metrics, or a frame
    /// installed from outside (`install`), which is not.
    #[derive(Debug, Clone, Copy, PartialEq, Eq)]
    pub(crate) enum Submission {
        Task,
        Frame,
    }

    /// What an admitted submitter does: count the task (if it is one), make it
    /// visible with `push`, leave the gate, ring the doorbell (`queued`: the
    /// length of the queue it pushed to, asked only when a ring may wait for a
    /// worker on its way). The one sequence the runtime and the loom models both
    /// run.
    #[inline]
    pub(crate) fn publish(
        gate: &SubmitGate,
        idle: &IdleSignal,
        kind: Submission,
        push: impl FnOnce(),
        queued: impl FnOnce() -> usize,
    ) {
        rt_queue::path_step!();
        if kind == Submission::Task {
            gate.count_accepted();
        }
        push();
        let after = gate.leave();
        idle.notify_one(queued);
        after_leave(idle, after);
    }

    /// Acts on what leaving the gate requires.
    #[inline]
    pub(crate) fn after_leave(idle: &IdleSignal, after: AfterLeave) {
        rt_queue::path_step!();
        if after == AfterLeave::WakeAll {
            idle.notify_all();
        }
    }
}
