//! What a worker publishes for the others: its thread (to be unparked),
//! which work its deques hold, and who waits on it (protocol:
//! `JOIN_HELPING.md`); and its mailbox, for work addressed to it alone
//! (`broadcast/BROADCAST.md`).

use std::sync::OnceLock;

use rt_handle::raw::ScopeId;

use crate::broadcast::mailbox::Mailbox;
use crate::sync::thread::{self, Thread};
use crate::sync::{fence, AtomicU64, AtomicUsize, Ordering};
use crate::worker::entry::WorkId;

/// One worker's published state: what it reads at every fork on a cache
/// line of its own, apart from what others write while it works.
#[repr(align(128))]
pub(crate) struct WorkerSlot {
    /// The worker's thread, set when it starts: a joiner parked on it is
    /// woken through it.
    thread: OnceLock<Thread>,
    /// The innermost clean unit this worker runs (`WorkId::get`, 0: none):
    /// it began with all its own deques empty, so while it runs everything
    /// in those deques was pushed by it, and a thread waiting for the unit
    /// may take it (leapfrogging).
    clean_unit: AtomicUsize,
    /// The scope that unit is a task of (`ScopeId::get`, 0: none).
    clean_scope: AtomicUsize,
    /// Work for this worker alone (its share of a broadcast): its count is
    /// read at every scan for work and written only by broadcasts.
    mailbox: Mailbox,
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

/// A clean unit, as a worker publishes it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct CleanUnit {
    pub(crate) unit: WorkId,
    /// The scope the unit is a task of, if any.
    pub(crate) scope: Option<ScopeId>,
}

/// What a slot published before a clean unit replaced it: restored when
/// the unit ends.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Published {
    unit: usize,
    scope: usize,
}

/// The work a leapfrogger waits for, as it asks a worker's slot.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum LeaseFor {
    /// That unit (a task or a shared `join` half, by its id).
    Unit(WorkId),
    /// Any task of that scope.
    TaskOf(ScopeId),
}

impl WorkerSlot {
    pub(crate) fn new() -> Self {
        Self {
            thread: OnceLock::new(),
            clean_unit: AtomicUsize::new(0),
            clean_scope: AtomicUsize::new(0),
            mailbox: Mailbox::new(),
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

    /// The worker's thread, once it started: what a latch it waits on
    /// unparks (it lives as long as the runtime).
    pub(crate) fn thread(&self) -> &Thread {
        self.thread
            .get()
            .expect("a worker registers its thread before it runs work")
    }

    /// Work addressed to this worker alone.
    #[inline(always)]
    pub(crate) fn mailbox(&self) -> &Mailbox {
        rt_queue::path_step!();
        &self.mailbox
    }

    /// Wakes the worker if it is parked (or makes its next park return).
    pub(crate) fn unpark(&self) {
        if let Some(thread) = self.thread.get() {
            thread.unpark();
        }
    }

    /// The worker publishes a clean unit (at its first push). Returns what
    /// to restore when the unit ends.
    pub(crate) fn enter_clean(&self, unit: CleanUnit) -> Published {
        // Only this worker writes them, so a load and a store suffice.
        // Relaxed: a leapfrogger reads these only under its lease, and a
        // value it reads early or late is another unit of the same stack
        // that began clean, whose work the deques hold too.
        let outer = Published {
            unit: self.clean_unit.load(Ordering::Relaxed),
            scope: self.clean_scope.load(Ordering::Relaxed),
        };
        self.clean_unit.store(unit.unit.get(), Ordering::Relaxed);
        self.clean_scope
            .store(unit.scope.map_or(0, ScopeId::get), Ordering::Relaxed);
        outer
    }

    /// The worker ends a clean unit: restores `outer`, then waits until no
    /// leapfrogger can still be stealing on behalf of the unit that ended.
    /// Only after this may the worker push work that is not that unit's.
    pub(crate) fn leave_clean(&self, outer: Published) {
        self.clean_unit.store(outer.unit, Ordering::Relaxed);
        self.clean_scope.store(outer.scope, Ordering::Relaxed);
        // Pairs with the lessee's fence in `lease`: of two `SeqCst` fences
        // one comes first. If this one does, the lessee's load of
        // `clean_unit` (after its fence) sees the restored value; if the
        // lessee's does, this load of `lessees` (after this fence) sees its
        // increment (before its fence), and waits for the lease to end.
        fence(Ordering::SeqCst);
        // Acquire pairs with the Release of the lease's end: the lessee's
        // steal happened before anything this worker pushes next.
        while self.written_by_others.lessees.load(Ordering::Acquire) != 0 {
            std::hint::spin_loop();
            crate::sync::yield_now();
        }
    }

    /// Takes a lease to steal from this worker on behalf of `wanted`, and
    /// runs `steal` if the worker still runs it as a clean unit. The worker
    /// cannot end that unit while the lease lasts, so what `steal` takes
    /// was pushed by it.
    pub(crate) fn lease<R>(
        &self,
        wanted: LeaseFor,
        steal: impl FnOnce() -> Option<R>,
    ) -> Option<R> {
        self.written_by_others
            .lessees
            .fetch_add(1, Ordering::Relaxed);
        // Pairs with the fence in `leave_clean` (see there).
        fence(Ordering::SeqCst);
        let unit = self.clean_unit.load(Ordering::Relaxed);
        let scope = self.clean_scope.load(Ordering::Relaxed);
        let runs_it = unit != 0
            && match wanted {
                LeaseFor::Unit(wanted) => unit == wanted.get(),
                LeaseFor::TaskOf(wanted) => scope == wanted.get(),
            };
        let stolen = if runs_it { steal() } else { None };
        // Release pairs with the Acquire in `leave_clean`.
        self.written_by_others
            .lessees
            .fetch_sub(1, Ordering::Release);
        stolen
    }

    /// Worker `me` is about to park waiting to leapfrog here
    /// (`Parking::Start`), or is done waiting (`Parking::End`).
    pub(crate) fn park_leapfrogger(&self, me: usize, parking: Parking) {
        let bit = 1u64 << (me % 64);
        if parking == Parking::Start {
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
        rt_queue::path_step!();
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

/// A leapfrogger's park, as its slot records it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Parking {
    Start,
    End,
}

#[cold]
fn wake_bits(parked: u64, slots: &[WorkerSlot]) {
    for (index, slot) in slots.iter().enumerate() {
        if parked & (1 << (index % 64)) != 0 {
            slot.unpark();
        }
    }
}
