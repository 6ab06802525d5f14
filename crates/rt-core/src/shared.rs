//! The state every worker and every `Runtime` handle share.

use rt_handle::Job;
use rt_queue::{GlobalQueues, Priority};

use crate::idle_signal::IdleSignal;
use crate::metrics::{snapshot, Metrics, WorkerCounters};
use crate::submit_gate::{AfterLeave, SubmitGate};

pub(crate) struct Shared {
    pub(crate) queues: GlobalQueues<Job>,
    pub(crate) idle: IdleSignal,
    pub(crate) gate: SubmitGate,
    pub(crate) counters: Box<[WorkerCounters]>,
    pub(crate) thread_name: String,
}

impl Shared {
    pub(crate) fn new(queues: GlobalQueues<Job>, thread_name: String) -> Self {
        let workers = queues.workers();
        Self {
            idle: IdleSignal::new(workers),
            gate: SubmitGate::new(),
            counters: (0..workers).map(|_| WorkerCounters::default()).collect(),
            queues,
            thread_name,
        }
    }

    /// A submission from a thread that is not one of this runtime's workers:
    /// through the gate onto the injector of its priority.
    pub(crate) fn submit_external(&self, priority: Priority, job: Job) -> Result<(), Job> {
        if let Err(after) = self.gate.enter() {
            self.after_leave(after);
            return Err(job);
        }
        self.queues.push(priority, job);
        let after = self.gate.leave_accepted();
        self.idle.notify_one();
        self.after_leave(after);
        Ok(())
    }

    #[inline]
    fn after_leave(&self, after: AfterLeave) {
        if after == AfterLeave::WakeAll {
            self.idle.notify_all();
        }
    }

    /// Closes the gate and wakes every idle worker so it re-checks whether
    /// it may exit. True if this call started the shutdown.
    pub(crate) fn begin_shutdown(&self) -> bool {
        let first = self.gate.close();
        self.idle.notify_all();
        first
    }

    pub(crate) fn metrics(&self) -> Metrics {
        snapshot(self.counters.iter(), || self.gate.accepted())
    }
}
