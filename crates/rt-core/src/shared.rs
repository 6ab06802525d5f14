//! The state every worker and every `Runtime` handle share: the queues,
//! the doorbell, the gate, the per-worker slots and counters, what observes
//! the runtime; and the runtime's lifecycle (compensation, shutdown, stop).

use std::io;
use std::sync::{Arc, Mutex, OnceLock};

use rt_handle::executor_support::membership::PoolKind;
use rt_handle::executor_support::{unpoison, Discarded, JobControl, ThreadSettings};
use rt_handle::{Metrics, RunOutcome};
use rt_queue::{GlobalQueues, Priority, PriorityPolicy, TaskSource, WorkerQueues};

use crate::fork_join::scope_inbox::{InboxTask, ScopeInbox};
use crate::fork_join::worker_slot::WorkerSlot;
use crate::idle::wait_for_work::Counted;
use crate::idle::{Compensation, IdleSignal};
use crate::observe::clock::Clock;
use crate::observe::hooks::Hooks;
use crate::observe::latency::WorkerLatency;
use crate::observe::metrics::{snapshot, OffWorkerCounts, WorkerCounters};
use crate::observe::trace::TraceState;
use crate::submit::capacity::QueueCapacity;
use crate::submit::exits::WorkerExits;
use crate::submit::gate::SubmitGate;
use crate::sync::{AtomicBool, AtomicUsize, Ordering};
use crate::worker;
use crate::worker::entry::Entry;

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

/// The kind of every runtime worker's membership frame.
pub(crate) static RUNTIME: PoolKind = PoolKind::new("rt-core runtime");

pub(crate) struct Shared {
    /// The core workers: indexes `0..threads`. Compensating workers
    /// (`COMPENSATION.md`) take the indexes after them, up to
    /// `queues.max_workers()`; every per-worker array has that many slots.
    pub(crate) threads: usize,
    pub(crate) queues: GlobalQueues<Entry>,
    pub(crate) idle: IdleSignal,
    pub(crate) gate: SubmitGate,
    pub(crate) counters: Box<[WorkerCounters]>,
    pub(crate) thread_name: String,
    /// The stack size of every worker thread.
    pub(crate) stack_size: usize,
    pub(crate) capacity: Option<QueueCapacity>,
    pub(crate) hooks: Hooks,
    /// Set by `stop` once it has drained the queues: from then on every
    /// task a worker takes was queued after the drain, and is cancelled
    /// instead of run (`worker/mod.rs`, `StopSeen`).
    drained: AtomicBool,
    /// Serialises `stop` calls: a second call waits for the first's drain
    /// (and then finds nothing left to cancel).
    stopping: Mutex<()>,
    /// Tasks that ended off the workers: cancelled by `stop`, or run by the
    /// thread that opened a scope outside the pool (`scope.rs`).
    pub(crate) off_workers: OffWorkerCounts,
    pub(crate) exits: WorkerExits,
    /// What each worker publishes for the others (`fork_join/worker_slot.rs`).
    pub(crate) slots: Box<[WorkerSlot]>,
    /// Workers that want work (not started yet, looking for it in the main
    /// loop, or asleep): while any does, `join`s share their pending halves.
    pub(crate) demand: Demand,
    /// How workers choose between priority classes.
    pub(crate) policy: PriorityPolicy,
    /// Whether workers measure the CPU time of each task (always under a
    /// weighted policy, which charges it).
    pub(crate) measure_cpu_time: bool,
    /// The clock of stamps, latency and traces, made at its first use: the
    /// process's first one calibrates the CPU's counter, which a runtime
    /// that observes nothing need not wait for.
    pub(crate) clock: OnceLock<Clock>,
    /// Per-worker latency histograms, if recorded (`Builder::record_latency`).
    pub(crate) latency: Option<Box<[WorkerLatency]>>,
    /// The execution trace (`Runtime::start_trace`).
    pub(crate) trace: TraceState,
    /// Whether anything observes the tasks (`observed`): set from the
    /// configuration, and while a trace is recorded.
    observed: AtomicBool,
    /// What `observed` is without a trace.
    observed_always: bool,
    /// Tasks of scopes that their waiting workers take from here
    /// (`scope_inbox.rs`).
    pub(crate) scope_inbox: ScopeInbox,
}

/// The demand count, on a cache line of its own: busy workers read it at
/// every `join`, idle ones write it when they start and stop looking.
#[repr(align(128))]
pub(crate) struct Demand(AtomicUsize);

impl std::ops::Deref for Demand {
    type Target = AtomicUsize;
    fn deref(&self) -> &AtomicUsize {
        &self.0
    }
}

/// What a builder configured, as `Shared::new` takes it.
pub(crate) struct Config {
    pub(crate) threads: usize,
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
            idle: IdleSignal::new(threads, max_workers, move_stacked_wakes),
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
            off_workers: OffWorkerCounts::default(),
            exits: WorkerExits::new(threads),
            slots: (0..max_workers).map(|_| WorkerSlot::new()).collect(),
            // Every core worker wants work until it first finds some: a
            // `join` on a runtime whose other workers have not started yet
            // still shares its second half.
            demand: Demand(AtomicUsize::new(threads)),
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

    /// Whether task runs are recorded (latency histograms or a trace): then
    /// tasks get their submission time stamped, and a worker asks it once
    /// `observed` said yes.
    #[inline]
    pub(crate) fn records_runs(&self) -> bool {
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
        if source == TaskSource::Injector {
            if let Some(capacity) = &self.capacity {
                capacity.release();
            }
        }
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
        self.idle.notify_one();
    }

    /// Worker `me` of this runtime parks in `wait` until what it waits for
    /// is done: if that leaves no live worker free to take queued work, a
    /// compensating worker is made live (`COMPENSATION.md`).
    pub(crate) fn waiting<R>(self: &Arc<Self>, wait: impl FnOnce() -> R) -> R {
        struct EndWait<'a>(&'a IdleSignal);
        impl Drop for EndWait<'_> {
            fn drop(&mut self) {
                self.0.end_wait();
            }
        }
        if let Compensation::Start(index) = self.idle.begin_wait() {
            self.start_spare(index);
        }
        let _end = EndWait(&self.idle);
        wait()
    }

    /// Starts the thread of compensating worker `index`, which `begin_wait`
    /// counted live and searching. If the OS refuses the thread, the
    /// runtime goes on without it (`IdleSignal::not_started`).
    #[cold]
    fn start_spare(self: &Arc<Self>, index: usize) {
        let Some(queues) = self.queues.add_worker(index) else {
            unreachable!("compensating worker {index} has room and was not added before");
        };
        self.exits.add_worker();
        if self
            .start_worker(index, queues, Counted::AsSearching)
            .is_err()
        {
            self.exits.remove_worker();
            self.idle.not_started(index);
        }
    }

    /// Starts the thread of worker `index` (named `{thread_name}-{index}`)
    /// on `queues`, and hands its join handle to `exits`.
    pub(crate) fn start_worker(
        self: &Arc<Self>,
        index: usize,
        queues: WorkerQueues<Entry>,
        counted: Counted,
    ) -> io::Result<()> {
        let name = format!("{}-{index}", self.thread_name);
        let shared = Arc::clone(self);
        let handle = ThreadSettings::new(name, Some(self.stack_size))?
            .builder()
            .spawn(move || worker::run_worker(shared, queues, counted))?;
        self.exits.add_thread(handle);
        Ok(())
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
    /// this call cancelled (`SHUTDOWN.md`, "Stop").
    ///
    /// The count is exact because only this drain cancels a task queued
    /// before the call: a worker cancels a task it takes only if it saw
    /// the drain finished before it took it (`drained`, read before each
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
                    Discarded::Skipped => {}
                },
                // A `join` half or an installed closure: its owner, blocked
                // waiting for it, runs it itself.
                Entry::Frame(frame) => frame.give_back(),
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

    pub(crate) fn metrics(&self) -> Metrics {
        snapshot(self.counters.iter(), &self.off_workers, || {
            self.gate.accepted()
        })
    }
}
