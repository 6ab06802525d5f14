//! The state every worker and every `Runtime` handle share, and the one
//! submission path of the runtime.

use std::sync::{Arc, Mutex};
use std::thread::{self, JoinHandle as ThreadHandle};
use std::time::Instant;

use rt_handle::membership::PoolKind;
use rt_handle::support::unpoison;
use rt_handle::{Job, Metrics, RunOutcome, SubmitError, Wait};
use rt_queue::{GlobalQueues, Priority, PriorityPolicy, TaskSource};

use crate::entry::Entry;
use crate::hooks::Hooks;
use crate::idle_signal::{Compensation, IdleSignal};
use crate::latency::WorkerLatency;
use crate::metrics::{snapshot, OffWorkerCounts, WorkerCounters};
use crate::queue_capacity::QueueCapacity;
use crate::scope_inbox::{InboxTask, ScopeInbox};
use crate::submit_gate::{self, after_leave, SubmitGate};
use crate::sync::{AtomicBool, AtomicUsize, Ordering};
use crate::task_span::TaskSpan;
use crate::trace::TraceState;
use crate::wait_for_work::Counted;
use crate::worker;
use crate::worker_exits::WorkerExits;
use crate::worker_slot::WorkerSlot;

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
    /// The threads of compensating workers, for `shutdown` to join.
    pub(crate) spare_threads: Mutex<Vec<ThreadHandle<()>>>,
    pub(crate) capacity: Option<QueueCapacity>,
    pub(crate) hooks: Hooks,
    /// Set by `stop`: workers cancel what they take instead of running it.
    pub(crate) stopping: AtomicBool,
    /// Tasks that ended off the workers: cancelled by `stop`, or run by the
    /// thread that opened a scope outside the pool (`scope.rs`).
    pub(crate) off_workers: OffWorkerCounts,
    pub(crate) exits: WorkerExits,
    /// What each worker publishes for the others (`worker_slot.rs`).
    pub(crate) slots: Box<[WorkerSlot]>,
    /// Workers that want work (not started yet, looking for it in the main
    /// loop, or asleep): while any does, `join`s make their pending halves
    /// stealable.
    pub(crate) demand: Demand,
    /// How workers choose between priority classes.
    pub(crate) policy: PriorityPolicy,
    /// Whether workers measure the CPU time of each task (always under a
    /// weighted policy, which charges it).
    pub(crate) measure_cpu_time: bool,
    /// When the runtime started: the origin of stamps and traces.
    pub(crate) epoch: Instant,
    /// Per-worker latency histograms, if recorded (`Builder::record_latency`).
    pub(crate) latency: Option<Box<[WorkerLatency]>>,
    /// The execution trace (`Runtime::start_trace`).
    pub(crate) trace: TraceState,
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
            spare_threads: Mutex::new(Vec::new()),
            capacity: capacity.map(QueueCapacity::new),
            hooks,
            stopping: AtomicBool::new(false),
            off_workers: OffWorkerCounts::default(),
            exits: WorkerExits::new(threads),
            slots: (0..max_workers).map(|_| WorkerSlot::new()).collect(),
            // Every core worker wants work until it first finds some: a
            // `join` on a runtime whose other workers have not started yet
            // still makes its second half stealable.
            demand: Demand(AtomicUsize::new(threads)),
            measure_cpu_time: measure_cpu_time || policy != PriorityPolicy::Strict,
            policy,
            epoch: Instant::now(),
            latency: record_latency
                .then(|| (0..max_workers).map(|_| WorkerLatency::default()).collect()),
            trace: TraceState::new(max_workers),
            scope_inbox: ScopeInbox::new(),
        }
    }

    /// Whether tasks get their submission time stamped (for the latency
    /// histograms or a running trace).
    #[inline]
    pub(crate) fn stamps(&self) -> bool {
        self.latency.is_some() || self.trace.is_active()
    }

    /// Now, in ns since the runtime started, never 0 (0 means "no stamp").
    pub(crate) fn now_ns(&self) -> u64 {
        u64::try_from(self.epoch.elapsed().as_nanos()).unwrap_or(u64::MAX) | 1
    }

    /// This runtime's identity in the workers' membership frames.
    pub(crate) fn pool_id(self: &Arc<Self>) -> usize {
        Arc::as_ptr(self).addr()
    }

    /// The runtime's one submission path for tasks. From a thread of this
    /// runtime the job goes to the worker's own deque and is always accepted
    /// (it belongs to work accepted earlier); from any other thread it
    /// passes the gate, and a bounded queue, onto the injector of its
    /// priority. `payload` becomes a job only once accepted, so a refusal
    /// hands it back. The job is stamped with this runtime's id, so that a
    /// worker of this runtime joining it may run it inline or help.
    #[inline]
    pub(crate) fn offer<P>(
        self: &Arc<Self>,
        priority: Priority,
        payload: P,
        into_job: impl FnOnce(P) -> Job,
        wait: Wait,
    ) -> Result<(), SubmitError<P>> {
        let into_entry = |payload| Entry::Task(self.accept(into_job(payload)), TaskSpan::here());
        self.offer_entry(priority, payload, into_entry, wait, true)
    }

    /// Stamps a job this runtime accepts with its id, so that a worker of
    /// this runtime joining it may run it inline or help, and with the
    /// time, if submissions are timed.
    #[inline]
    fn accept(self: &Arc<Self>, job: Job) -> Job {
        job.set_owner(self.pool_id());
        if self.stamps() {
            job.set_stamp(self.now_ns());
        }
        job
    }

    /// Submits a task of a scope on this runtime. From a worker of this
    /// runtime it goes to that worker's deque, as any spawn from inside.
    /// From any other thread it passes the gate, as an external
    /// submission: if the scope's waiter is a worker, into the scope inbox
    /// with a ticket on the injector, so that any worker may run it and
    /// the waiter finds it (`scope_inbox.rs`; `wake_waiter` unparks the
    /// waiter); if the waiter is the thread that opened the scope outside
    /// the pool, onto the injector as a task. A shut-down runtime hands
    /// the job back, for the spawner to run at once.
    pub(crate) fn offer_scoped(
        self: &Arc<Self>,
        priority: Priority,
        job: Job,
        waiter: ScopeWaiter,
        wake_waiter: impl FnOnce(),
    ) -> Result<(), Job> {
        let job = self.accept(job);
        let job = match worker::with_local(self, |local| match local {
            Some(worker) => {
                worker.push(priority, Entry::Task(job, TaskSpan::here()));
                None
            }
            None => Some(job),
        }) {
            None => return Ok(()),
            Some(job) => job,
        };
        let offered = match waiter {
            ScopeWaiter::Worker => {
                let offered = self.offer_external(job, Wait::Block, true, |job| {
                    let span = TaskSpan::here();
                    self.scope_inbox.push(InboxTask {
                        priority,
                        job,
                        span,
                    });
                    self.queues.push(priority, Entry::ScopeTicket);
                });
                wake_waiter();
                offered
            }
            ScopeWaiter::Thread => self.offer_external(job, Wait::Block, true, |job| {
                self.queues
                    .push(priority, Entry::Task(job, TaskSpan::here()))
            }),
        };
        offered.map_err(SubmitError::into_inner)
    }

    /// The same path for any entry; `task` says whether it is a task (counted
    /// in the metrics) or a frame handed in from outside (`install`).
    #[inline]
    pub(crate) fn offer_entry<P>(
        self: &Arc<Self>,
        priority: Priority,
        payload: P,
        into_entry: impl FnOnce(P) -> Entry,
        wait: Wait,
        task: bool,
    ) -> Result<(), SubmitError<P>> {
        worker::with_local(self, |local| match local {
            Some(worker) => {
                worker.push(priority, into_entry(payload));
                Ok(())
            }
            None => self.offer_external(payload, wait, task, |payload| {
                self.queues.push(priority, into_entry(payload))
            }),
        })
    }

    /// An external submission: passes the gate (and a bounded queue, per
    /// `wait`), then `push`es the payload; `task` says whether it counts as
    /// a task.
    fn offer_external<P>(
        &self,
        payload: P,
        wait: Wait,
        task: bool,
        push: impl FnOnce(P),
    ) -> Result<(), SubmitError<P>> {
        loop {
            if !submit_gate::admit(&self.gate, &self.idle) {
                return Err(SubmitError::Shutdown(payload));
            }
            let Some(capacity) = &self.capacity else {
                break;
            };
            if capacity.try_reserve() {
                break;
            }
            after_leave(&self.idle, self.gate.leave_refused());
            if wait == Wait::Never {
                return Err(SubmitError::Saturated(payload));
            }
            capacity.wait_for_space(|| self.gate.is_closed());
        }
        submit_gate::publish(&self.gate, &self.idle, task, || push(payload));
        Ok(())
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
        let shared = Arc::clone(self);
        let spawned = thread::Builder::new()
            .name(format!("{}-{index}", self.thread_name))
            .stack_size(self.stack_size)
            .spawn(move || worker::run_worker(shared, queues, Counted::AsSearching));
        match spawned {
            Ok(handle) => unpoison(self.spare_threads.lock()).push(handle),
            Err(_) => {
                self.exits.remove_worker();
                self.idle.not_started(index);
            }
        }
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

    /// `stop`: nothing more starts, every queued task is cancelled. Returns
    /// how many this call cancelled.
    pub(crate) fn stop(&self) -> usize {
        // Relaxed, and read Relaxed by the workers: the flag only narrows a
        // race whose both outcomes are allowed (a task a worker takes just
        // as `stop` is called may run or be cancelled); every task still
        // queued is cancelled below either way.
        self.stopping.store(true, Ordering::Relaxed);
        self.begin_shutdown();
        self.cancel_queued()
    }

    /// Cancels every task still queued, but the tasks of running scopes,
    /// which go to the scope inbox for their waiting workers; returns how
    /// many it cancelled.
    fn cancel_queued(&self) -> usize {
        let mut cancelled = 0;
        while let Some(found) = self.queues.steal_any() {
            self.left_queue(found.source);
            match found.task {
                // A task of a scope not yet finished: its scope still runs
                // and waits for it.
                Entry::Task(job, span) if job.scope().is_some() && !job.is_finished() => {
                    self.scope_inbox.push(InboxTask {
                        priority: found.priority,
                        job,
                        span,
                    });
                }
                Entry::Task(job, _) => {
                    // A stale entry (its task was run inline by a joiner,
                    // who counted it) is not a cancellation.
                    if job.discard() == RunOutcome::Cancelled {
                        cancelled += 1;
                    }
                }
                // A `join` half or an installed closure: its owner, blocked
                // waiting for it, runs it itself.
                Entry::Frame(frame) => frame.give_back(&self.slots),
                // Its task stays in the scope inbox.
                Entry::ScopeTicket => {}
            }
        }
        // Workers waiting at the end of a scope look at the inbox again.
        for slot in &self.slots[..self.idle.workers_started()] {
            slot.unpark();
        }
        self.off_workers
            .count(RunOutcome::Cancelled, cancelled as u64);
        cancelled
    }

    pub(crate) fn metrics(&self) -> Metrics {
        snapshot(self.counters.iter(), &self.off_workers, || {
            self.gate.accepted()
        })
    }
}
