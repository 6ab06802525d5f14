//! The part of the executor that other threads may touch: the list of tasks
//! woken since the executor last looked, the host waker to call when the
//! executor sleeps, and the preemption time read by `yield_maybe`.
//!
//! Only task headers (an index, a queue number and atomics) pass through
//! here; futures never leave the executor's thread. The headers are defined
//! here too: a header's waker schedules it through [`Shared`], which queues
//! headers.

use std::collections::VecDeque;
use std::task::{Wake, Waker};
use std::time::Instant;

use crate::sync::{unpoison, Arc, AtomicBool, AtomicU64, AtomicU8, Mutex, Ordering};

/// The task is in a ready queue (or about to be): wakes are no-ops.
const SCHEDULED: u8 = 1;
/// The task finished or was aborted: wakes are no-ops, queue entries stale.
const DONE: u8 = 2;

/// What a waker holds: enough to put the task back in its queue, nothing
/// that is tied to the executor's thread.
#[derive(Debug)]
pub(crate) struct Header {
    /// Slot in the arena; valid while the task is not done.
    pub(crate) index: usize,
    /// Index of the task's queue.
    pub(crate) queue: usize,
    state: AtomicU8,
    /// When the task last became runnable, in ns since the executor's epoch.
    ready_at: AtomicU64,
    shared: Arc<Shared>,
}

impl Header {
    /// A header for a task about to be scheduled for its first poll.
    pub(crate) fn new(index: usize, queue: usize, shared: Arc<Shared>) -> Arc<Self> {
        Arc::new(Self {
            index,
            queue,
            state: AtomicU8::new(SCHEDULED),
            ready_at: AtomicU64::new(0),
            shared,
        })
    }

    pub(crate) fn is_done(&self) -> bool {
        self.state.load(Ordering::Acquire) & DONE != 0
    }

    pub(crate) fn set_done(&self) {
        self.state.fetch_or(DONE, Ordering::AcqRel);
    }

    /// Called just before a poll: a wake from now on schedules the task
    /// again (the poll may miss the event that caused it).
    pub(crate) fn start_poll(&self) {
        self.state.fetch_and(!SCHEDULED, Ordering::AcqRel);
    }

    pub(crate) fn set_ready_at(&self, ns: u64) {
        self.ready_at.store(ns, Ordering::Relaxed);
    }

    pub(crate) fn ready_at(&self) -> u64 {
        self.ready_at.load(Ordering::Relaxed)
    }
}

impl Wake for Header {
    fn wake(self: Arc<Self>) {
        self.wake_by_ref();
    }

    fn wake_by_ref(self: &Arc<Self>) {
        // Only the wake that sets SCHEDULED queues the task; a done task is
        // never queued again.
        if self.state.fetch_or(SCHEDULED, Ordering::AcqRel) & (SCHEDULED | DONE) == 0 {
            self.shared.schedule(Arc::clone(self));
        }
    }
}

#[derive(Debug)]
struct Window {
    from: AtomicU64,
    until: AtomicU64,
}

#[derive(Debug)]
struct Incoming {
    tasks: VecDeque<Arc<Header>>,
    /// Set when the executor is dropped: later wakes are ignored (and so
    /// cannot keep a header, which points back here, alive in a cycle).
    closed: bool,
}

/// The thread-safe half of an executor.
#[derive(Debug)]
pub(crate) struct Shared {
    incoming: Mutex<Incoming>,
    /// The executor returned `Pending` to its host and waits for a wake.
    sleeping: AtomicBool,
    /// The host's waker, stored before sleeping.
    host: Mutex<Option<Waker>>,
    /// When (ns since the epoch) a queue that became runnable takes the CPU
    /// from the running one; `u64::MAX` for never.
    preempt_at: AtomicU64,
    /// Per queue: the interval (ns since the epoch) in which becoming
    /// runnable would preempt the running queue; empty when `from >= until`.
    windows: Box<[Window]>,
    /// Origin of the `ready_at` timestamps.
    epoch: Instant,
}

impl Shared {
    pub(crate) fn new(queues: usize) -> Self {
        Self {
            incoming: Mutex::new(Incoming {
                tasks: VecDeque::new(),
                closed: false,
            }),
            sleeping: AtomicBool::new(false),
            host: Mutex::new(None),
            preempt_at: AtomicU64::new(u64::MAX),
            windows: (0..queues)
                .map(|_| Window {
                    from: AtomicU64::new(u64::MAX),
                    until: AtomicU64::new(0),
                })
                .collect(),
            epoch: Instant::now(),
        }
    }

    /// Nanoseconds from the executor's epoch to `t`.
    pub(crate) fn ns_since_epoch(&self, t: Instant) -> u64 {
        u64::try_from(t.saturating_duration_since(self.epoch).as_nanos()).unwrap_or(u64::MAX)
    }

    /// Makes a task runnable (from any thread): queue its header, note when
    /// its queue would preempt the running one, and wake the executor if it
    /// sleeps.
    pub(crate) fn schedule(&self, header: Arc<Header>) {
        let now = self.ns_since_epoch(Instant::now());
        header.set_ready_at(now);
        let queue = header.queue;
        {
            let mut incoming = unpoison(self.incoming.lock());
            if incoming.closed {
                return;
            }
            incoming.tasks.push_back(header);
        }
        let window = &self.windows[queue];
        let until = window.until.load(Ordering::Relaxed);
        if now < until {
            let from = window.from.load(Ordering::Relaxed);
            if from < until {
                self.preempt_at.fetch_min(from.max(now), Ordering::Relaxed);
            }
        }
        self.notify();
    }

    /// Wakes the executor's host if the executor sleeps.
    ///
    /// The executor stores `sleeping = true` and then checks for work (under
    /// the `incoming` lock, or the `until` flag with `SeqCst`); a waker
    /// publishes its work and then swaps `sleeping` with `SeqCst`. Whichever
    /// comes second sees the other: no wake-up is lost.
    pub(crate) fn notify(&self) {
        if self.sleeping.swap(false, Ordering::SeqCst) {
            let waker = unpoison(self.host.lock()).take();
            if let Some(waker) = waker {
                waker.wake();
            }
        }
    }

    /// The executor is about to return `Pending` because it has nothing to
    /// run: remember the host's waker, then announce the sleep. The caller
    /// must check for work afterwards ([`Shared::has_incoming`]).
    pub(crate) fn prepare_sleep(&self, waker: &Waker) {
        {
            let mut host = unpoison(self.host.lock());
            match host.as_ref() {
                Some(w) if w.will_wake(waker) => {}
                _ => *host = Some(waker.clone()),
            }
        }
        self.sleeping.store(true, Ordering::SeqCst);
    }

    /// Work arrived between `prepare_sleep` and the check: stay awake.
    pub(crate) fn cancel_sleep(&self) {
        self.sleeping.store(false, Ordering::SeqCst);
    }

    pub(crate) fn has_incoming(&self) -> bool {
        !unpoison(self.incoming.lock()).tasks.is_empty()
    }

    /// Moves every woken header into `into` (which must be empty), keeping
    /// the order of the wakes.
    pub(crate) fn drain(&self, into: &mut VecDeque<Arc<Header>>) {
        debug_assert!(into.is_empty());
        let mut incoming = unpoison(self.incoming.lock());
        if !incoming.tasks.is_empty() {
            std::mem::swap(&mut incoming.tasks, into);
        }
    }

    /// Forgets a header woken but not yet drained (an aborted task's).
    pub(crate) fn forget(&self, header: &Arc<Header>) {
        unpoison(self.incoming.lock())
            .tasks
            .retain(|h| !Arc::ptr_eq(h, header));
    }

    /// Refuses every later wake and returns the headers still queued.
    pub(crate) fn close(&self) -> VecDeque<Arc<Header>> {
        let mut incoming = unpoison(self.incoming.lock());
        incoming.closed = true;
        std::mem::take(&mut incoming.tasks)
    }

    /// When (ns since the epoch) the running task should yield because a
    /// queue that became runnable takes over; `u64::MAX` for never.
    pub(crate) fn preempt_at(&self) -> u64 {
        self.preempt_at.load(Ordering::Relaxed)
    }

    /// Called by the executor before it looks for the next task: any wake
    /// from now on is seen by that look, or sets the time again.
    pub(crate) fn clear_preempt(&self) {
        self.preempt_at.store(u64::MAX, Ordering::Relaxed);
    }

    /// Publishes the preemption window of a queue for the poll about to
    /// start (see rt-queue's `Eevdf::preempt_windows`), in ns since the epoch.
    pub(crate) fn set_window(&self, queue: usize, window: Option<(u64, u64)>) {
        let (from, until) = window.unwrap_or((u64::MAX, 0));
        let w = &self.windows[queue];
        if w.from.load(Ordering::Relaxed) != from {
            w.from.store(from, Ordering::Relaxed);
        }
        if w.until.load(Ordering::Relaxed) != until {
            w.until.store(until, Ordering::Relaxed);
        }
    }
}
