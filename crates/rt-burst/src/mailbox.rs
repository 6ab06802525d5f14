//! One worker's bounded queue and its wake state word. Protocol and proof:
//! `WAKE.md`.

use std::collections::VecDeque;

use crate::error::SendError;
use crate::stats::WorkerStats;
use rt_handle::raw::unpoison;

use crate::sync::{thread, AtomicU64, AtomicUsize, Mutex, Ordering, Parker};

/// The worker is running a handler, or about to look at its queue again.
const BUSY: usize = 0;
/// The worker found its queue empty (under the lock) and parks until a
/// producer swaps this back to `BUSY`.
const PARKED: usize = 1;

/// Queue slots allocated up front; beyond this the queue grows as needed
/// (the capacity is still enforced).
const PREALLOCATE_AT_MOST: usize = 1024;

/// What a worker should do next, decided under its queue's lock.
#[derive(Debug)]
pub(crate) enum Next<T> {
    /// Run the handler on this item.
    Item(T),
    /// The queue was empty: the state now reads `PARKED`; call
    /// [`Mailbox::wait`].
    Park,
    /// The queue is empty and closed: the worker exits.
    Exit,
}

struct Queue<T> {
    items: VecDeque<T>,
    capacity: usize,
    closed: bool,
}

/// Shared between the pool (producers) and one worker thread.
///
/// ```text
///  worker                                  producer
///  ──────                                  ────────
///  lock; pop ─► item? run it               lock; push (full/closed? item back)
///  empty ─► state = PARKED; unlock         unlock
///  while state == PARKED: park()           state == PARKED && swap(BUSY) == PARKED
///                                            ─► unpark the worker (once)
/// ```
pub(crate) struct Mailbox<T> {
    queue: Mutex<Queue<T>>,
    /// `BUSY` or `PARKED`. Written `PARKED` only by the worker, under the
    /// queue lock and only when the queue is empty; written `BUSY` only by
    /// claimants (`claim_wake`: a producer after a push, shutdown after
    /// closing the queue).
    state: AtomicUsize,
    /// Items taken by the worker and given to its handler (panicked or not).
    /// Written only by the worker.
    handled: AtomicU64,
    /// Of those, how many panicked. Written only by the worker.
    panics: AtomicU64,
    /// Where the worker parks (zero-sized: `std::thread::park`).
    parker: Parker,
}

impl<T> Mailbox<T> {
    pub(crate) fn new(capacity: usize, closed: bool) -> Self {
        Self {
            queue: Mutex::new(Queue {
                // Small queues are allocated once; a large capacity grows
                // on demand instead of reserving memory it may never use.
                items: VecDeque::with_capacity(capacity.min(PREALLOCATE_AT_MOST)),
                capacity,
                closed,
            }),
            state: AtomicUsize::new(BUSY),
            handled: AtomicU64::new(0),
            panics: AtomicU64::new(0),
            parker: Parker::new(),
        }
    }

    // ── producer side ──────────────────────────────────────────────────

    /// Appends `item` if there is room and the queue is open. The caller must
    /// then call [`claim_wake`](Self::claim_wake) and unpark the worker if it
    /// returns true (at once, or at the end of a burst).
    pub(crate) fn push(&self, item: T) -> Result<(), SendError<T>> {
        let mut queue = unpoison(self.queue.lock());
        if queue.closed {
            return Err(SendError::Closed(item));
        }
        if queue.items.len() >= queue.capacity {
            return Err(SendError::Full(item));
        }
        queue.items.push_back(item);
        Ok(())
    }

    /// True when the worker is parked (or about to park) with an empty
    /// queue: a hint for choosing a target, read without the lock.
    #[inline]
    pub(crate) fn is_parked(&self) -> bool {
        self.state.load(Ordering::Relaxed) == PARKED
    }

    /// After a push (or `close`): takes the worker out of `PARKED`. Returns
    /// true to exactly one caller per park, which must then unpark the
    /// worker's thread. A worker that is busy costs one load.
    #[inline]
    pub(crate) fn claim_wake(&self) -> bool {
        self.state.load(Ordering::Relaxed) == PARKED
            && self.state.swap(BUSY, Ordering::AcqRel) == PARKED
    }

    /// Unparks the worker, whose thread is `thread`; only after a
    /// `claim_wake` that returned true.
    #[inline]
    pub(crate) fn unpark(&self, thread: &thread::Thread) {
        self.parker.unpark(thread);
    }

    /// Refuses every later push; the worker drains what is queued and
    /// exits. The caller must then call `claim_wake` and unpark on true.
    pub(crate) fn close(&self) {
        unpoison(self.queue.lock()).closed = true;
    }

    /// The worker's counters, queue length and whether it is parked, read
    /// under the queue lock: a worker seen parked has its counts for every
    /// item it took already visible.
    pub(crate) fn snapshot(&self) -> WorkerStats {
        let queue = unpoison(self.queue.lock());
        WorkerStats {
            handled: self.handled.load(Ordering::Relaxed),
            panics: self.panics.load(Ordering::Relaxed),
            queued: queue.items.len(),
            parked: self.state.load(Ordering::Relaxed) == PARKED,
        }
    }

    // ── worker side ────────────────────────────────────────────────────

    /// Takes the next item, or announces that the worker parks. The
    /// announcement is made under the same lock a push takes: a push either
    /// comes before it (and is popped here) or after it (and sees `PARKED`).
    pub(crate) fn next(&self) -> Next<T> {
        let mut queue = unpoison(self.queue.lock());
        match queue.items.pop_front() {
            Some(item) => Next::Item(item),
            None if queue.closed => Next::Exit,
            None => {
                // The unlock below orders this write before any later
                // push's critical section, whose claim therefore sees it
                // (Relaxed suffices). A swap, not a store, so that every
                // write to `state` is a read-modify-write: see WAKE.md,
                // "Checked with loom".
                self.state.swap(PARKED, Ordering::Relaxed);
                Next::Park
            }
        }
    }

    /// Parks the calling worker until a producer or `close` has swapped its
    /// state back to `BUSY`. Spurious returns of `park` and tokens left by an
    /// earlier unpark just loop. No timeout: an idle worker uses no CPU.
    pub(crate) fn wait(&self) {
        while self.state.load(Ordering::Acquire) == PARKED {
            self.parker.park();
        }
    }

    /// Counts one item given to the handler, and whether it panicked.
    pub(crate) fn count(&self, panicked: bool) {
        // Single writer (this worker): a load and a store, no RMW needed.
        let handled = self.handled.load(Ordering::Relaxed);
        self.handled.store(handled + 1, Ordering::Relaxed);
        if panicked {
            let panics = self.panics.load(Ordering::Relaxed);
            self.panics.store(panics + 1, Ordering::Relaxed);
        }
    }
}
