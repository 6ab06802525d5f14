//! The state every worker and every `Runtime` handle share.

use rt_handle::Job;
use rt_queue::{GlobalQueues, Priority, TaskSource};

use crate::hooks::Hooks;
use crate::idle_signal::IdleSignal;
use crate::metrics::{snapshot, Metrics, WorkerCounters};
use crate::queue_capacity::QueueCapacity;
use crate::submit_gate::{AfterLeave, SubmitGate};
use crate::sync::{AtomicBool, AtomicU64, Ordering};
use crate::worker_exits::WorkerExits;

/// Why an external submission was refused.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Refusal {
    Saturated,
    Shutdown,
}

pub(crate) struct Shared {
    pub(crate) queues: GlobalQueues<Job>,
    pub(crate) idle: IdleSignal,
    pub(crate) gate: SubmitGate,
    pub(crate) counters: Box<[WorkerCounters]>,
    pub(crate) thread_name: String,
    pub(crate) capacity: Option<QueueCapacity>,
    pub(crate) hooks: Hooks,
    /// Set by `stop`: workers cancel what they take instead of running it.
    pub(crate) stopping: AtomicBool,
    /// Tasks `stop` cancelled itself (not on a worker).
    pub(crate) stop_cancelled: AtomicU64,
    pub(crate) exits: WorkerExits,
}

impl Shared {
    pub(crate) fn new(
        queues: GlobalQueues<Job>,
        thread_name: String,
        capacity: Option<usize>,
        move_stacked_wakes: bool,
        hooks: Hooks,
    ) -> Self {
        let workers = queues.workers();
        let queues = if capacity.is_some() {
            queues.without_injector_batches()
        } else {
            queues
        };
        Self {
            idle: IdleSignal::new(workers, move_stacked_wakes),
            gate: SubmitGate::new(),
            counters: (0..workers).map(|_| WorkerCounters::default()).collect(),
            queues,
            thread_name,
            capacity: capacity.map(QueueCapacity::new),
            hooks,
            stopping: AtomicBool::new(false),
            stop_cancelled: AtomicU64::new(0),
            exits: WorkerExits::new(workers),
        }
    }

    /// Passes the gate and, in bounded mode, reserves a queue place. On
    /// success the caller must push with [`push_admitted`](Self::push_admitted).
    #[inline]
    pub(crate) fn admit(&self) -> Result<(), Refusal> {
        if let Err(after) = self.gate.enter() {
            self.after_leave(after);
            return Err(Refusal::Shutdown);
        }
        if let Some(capacity) = &self.capacity {
            if !capacity.try_reserve() {
                let after = self.gate.leave_refused();
                self.after_leave(after);
                return Err(Refusal::Saturated);
            }
        }
        Ok(())
    }

    /// Pushes an admitted job onto the injector of its priority.
    #[inline]
    pub(crate) fn push_admitted(&self, priority: Priority, job: Job) {
        self.queues.push(priority, job);
        let after = self.gate.leave_accepted();
        self.idle.notify_one();
        self.after_leave(after);
    }

    /// A submission from a thread that is not one of this runtime's workers.
    /// Waits while a bounded queue is full; hands the job back after shutdown.
    pub(crate) fn submit_external(&self, priority: Priority, job: Job) -> Result<(), Job> {
        loop {
            match self.admit() {
                Ok(()) => {
                    self.push_admitted(priority, job);
                    return Ok(());
                }
                Err(Refusal::Shutdown) => return Err(job),
                Err(Refusal::Saturated) => self.wait_for_space(),
            }
        }
    }

    /// Blocks until the bounded queue may have room or the gate closed.
    pub(crate) fn wait_for_space(&self) {
        if let Some(capacity) = &self.capacity {
            capacity.wait_for_space(|| self.gate.is_closed());
        }
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

    #[inline]
    fn after_leave(&self, after: AfterLeave) {
        if after == AfterLeave::WakeAll {
            self.idle.notify_all();
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

    /// Cancels every task still queued; returns how many.
    pub(crate) fn cancel_queued(&self) -> usize {
        let mut cancelled = 0;
        while let Some((job, source)) = self.queues.steal_any() {
            self.left_queue(source);
            job.cancel();
            cancelled += 1;
        }
        self.stop_cancelled
            .fetch_add(cancelled as u64, Ordering::Release);
        cancelled
    }

    pub(crate) fn metrics(&self) -> Metrics {
        snapshot(
            self.counters.iter(),
            self.stop_cancelled.load(Ordering::Acquire),
            || self.gate.accepted(),
        )
    }
}
