//! What a worker publishes for the others: its thread (to be unparked),
//! which work its deques hold, and who waits on it. Protocol:
//! `JOIN_HELPING.md`.

use std::sync::OnceLock;

use crate::sync::thread::{self, Thread};
use crate::sync::{fence, AtomicU64, AtomicUsize, Ordering};

/// One worker's published state: what it reads at every fork on a cache
/// line of its own, apart from what others write while it works.
#[repr(align(128))]
pub(crate) struct WorkerSlot {
    /// Joiners waiting for work this worker runs: while any is, its joins
    /// make their oldest pending half stealable. Read at every fork, written
    /// only when a joiner starts or stops waiting.
    requests: AtomicUsize,
    /// The worker's thread, set when it starts: a joiner parked on it is
    /// woken through it.
    thread: OnceLock<Thread>,
    /// The identity of the innermost unit of work this worker runs that
    /// began with all its own deques empty (0: none). While that unit runs,
    /// everything in those deques was pushed by it, so it is that unit's
    /// work: a thread waiting for the unit may take it (leapfrogging).
    clean_unit: AtomicUsize,
    /// The scope that unit is a task of (0: none).
    clean_scope: AtomicUsize,
    /// What other workers write while this one works.
    written_by_others: WrittenByOthers,
}

#[repr(align(128))]
struct WrittenByOthers {
    /// Leapfroggers between their check of `clean_unit` and the end of
    /// their steal; the worker does not end a clean unit while any is.
    lessees: AtomicUsize,
    /// Workers parked while waiting to leapfrog here, one bit per worker
    /// index modulo 64: a push wakes them.
    parked_leapfroggers: AtomicU64,
}

/// The clean unit a worker published, as a leapfrogger saw it under its
/// lease.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct CleanUnit {
    pub(crate) unit: usize,
    pub(crate) scope: usize,
}

impl WorkerSlot {
    pub(crate) fn new() -> Self {
        Self {
            thread: OnceLock::new(),
            clean_unit: AtomicUsize::new(0),
            clean_scope: AtomicUsize::new(0),
            requests: AtomicUsize::new(0),
            written_by_others: WrittenByOthers {
                lessees: AtomicUsize::new(0),
                parked_leapfroggers: AtomicU64::new(0),
            },
        }
    }

    /// Called on the worker's own thread when it starts.
    pub(crate) fn register_thread(&self) {
        let _ = self.thread.set(thread::current());
    }

    /// Wakes the worker if it is parked (or makes its next park return).
    pub(crate) fn unpark(&self) {
        if let Some(thread) = self.thread.get() {
            thread.unpark();
        }
    }

    /// The worker starts a unit of work with its deques empty: publishes it.
    /// Returns what to restore when the unit ends.
    pub(crate) fn enter_clean(&self, unit: CleanUnit) -> CleanUnit {
        // Only this worker writes them, so a load and a store suffice.
        // Relaxed: a leapfrogger reads these only under its lease, and a
        // value it reads early or late is another unit of the same stack
        // that began clean, whose work the deques hold too.
        let outer = CleanUnit {
            unit: self.clean_unit.load(Ordering::Relaxed),
            scope: self.clean_scope.load(Ordering::Relaxed),
        };
        self.clean_unit.store(unit.unit, Ordering::Relaxed);
        self.clean_scope.store(unit.scope, Ordering::Relaxed);
        outer
    }

    /// The worker ends a clean unit: restores `outer`, then waits until no
    /// leapfrogger can still be stealing on behalf of the unit that ended.
    /// Only after this may the worker push work that is not that unit's.
    pub(crate) fn leave_clean(&self, outer: CleanUnit) {
        self.clean_unit.store(outer.unit, Ordering::Relaxed);
        self.clean_scope.store(outer.scope, Ordering::Relaxed);
        // Pairs with the lessee's fence in `lease`: of two `SeqCst` fences
        // one comes first. If this one does, the lessee's load of
        // `clean_unit` (after its fence) sees the restored value; if the
        // lessee's does, this load of `lessees` (after this fence) sees its
        // increment (before its fence), and waits for the lease to end.
        fence(Ordering::SeqCst);
        // Acquire pairs with the Release of `release`: the lessee's steal
        // happened before anything this worker pushes next.
        while self.written_by_others.lessees.load(Ordering::Acquire) != 0 {
            std::hint::spin_loop();
            crate::sync::yield_now();
        }
    }

    /// Takes a lease to steal from this worker on behalf of unit `want`
    /// (matched against `clean_unit`, or `clean_scope` for a scope), and
    /// runs `steal` if the worker still runs it. The worker cannot end that
    /// unit while the lease lasts, so what `steal` takes was pushed by it.
    pub(crate) fn lease<R>(
        &self,
        matches: impl FnOnce(CleanUnit) -> bool,
        steal: impl FnOnce() -> Option<R>,
    ) -> Option<R> {
        self.written_by_others
            .lessees
            .fetch_add(1, Ordering::Relaxed);
        // Pairs with the fence in `leave_clean` (see there).
        fence(Ordering::SeqCst);
        let published = CleanUnit {
            unit: self.clean_unit.load(Ordering::Relaxed),
            scope: self.clean_scope.load(Ordering::Relaxed),
        };
        let stolen = if published.unit != 0 && matches(published) {
            steal()
        } else {
            None
        };
        // Release pairs with the Acquire in `leave_clean`.
        self.written_by_others
            .lessees
            .fetch_sub(1, Ordering::Release);
        stolen
    }

    /// A joiner starts (true) or stops (false) waiting for work this worker
    /// runs.
    pub(crate) fn request_promotions(&self, on: bool) {
        if on {
            self.requests.fetch_add(1, Ordering::Relaxed);
        } else {
            self.requests.fetch_sub(1, Ordering::Relaxed);
        }
    }

    /// Whether a joiner waits for work this worker runs.
    #[inline]
    pub(crate) fn has_requests(&self) -> bool {
        // Relaxed: a hint; a promotion made a little late only delays help.
        self.requests.load(Ordering::Relaxed) != 0
    }

    /// Worker `me` is about to park waiting to leapfrog here (true), or is
    /// done waiting (false).
    pub(crate) fn park_leapfrogger(&self, me: usize, parked: bool) {
        let bit = 1u64 << (me % 64);
        if parked {
            // SeqCst, followed by the caller's re-check of this worker's
            // deques after a fence: pairs with the pusher's fence before
            // `parked_leapfroggers` in `wake_leapfroggers`.
            self.written_by_others
                .parked_leapfroggers
                .fetch_or(bit, Ordering::SeqCst);
            fence(Ordering::SeqCst);
        } else {
            self.written_by_others
                .parked_leapfroggers
                .fetch_and(!bit, Ordering::Relaxed);
        }
    }

    /// After this worker pushed work (and fenced, in the doorbell's
    /// `notify_one`): wakes the workers parked waiting to leapfrog here.
    #[inline]
    pub(crate) fn wake_leapfroggers(&self, slots: &[WorkerSlot]) {
        // Relaxed after the pusher's fence: either the parked worker's
        // re-check sees the push, or this load sees its bit.
        let parked = self
            .written_by_others
            .parked_leapfroggers
            .load(Ordering::Relaxed);
        if parked != 0 {
            wake_bits(parked, slots);
        }
    }
}

#[cold]
fn wake_bits(parked: u64, slots: &[WorkerSlot]) {
    for (index, slot) in slots.iter().enumerate() {
        if parked & (1 << (index % 64)) != 0 {
            slot.unpark();
        }
    }
}
