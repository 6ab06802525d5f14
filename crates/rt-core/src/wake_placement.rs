//! Un-stacking a woken worker that the kernel queued behind a busy worker on
//! the same CPU. Why, how, and what it measured: `WAKE_PLACEMENT.md`.
//!
//! The doorbell records when it rings each worker and when that worker runs
//! again. A worker that finishes a task while a peer it knows was rung has
//! not run for [`STUCK_AFTER`] asks the kernel to move that peer off the
//! CPU the checking worker is on (an affinity mask without that one CPU).
//! If the peer was queued there, behind the checker, it moves at once to
//! another CPU; if it was queued elsewhere, the mask changes nothing. The
//! peer widens its mask back to what it was as soon as it runs.

use std::time::{Duration, Instant};

// Plain std primitives, not the `sync` shim: the stamps are a heuristic
// outside the doorbell's protocol, and loom need not explore them.
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::{Mutex, MutexGuard, OnceLock, PoisonError};

fn lock(narrowed: &Mutex<bool>) -> MutexGuard<'_, bool> {
    narrowed.lock().unwrap_or_else(PoisonError::into_inner)
}

/// A rung worker that has not run for this long is presumed stuck behind a
/// busy thread: a normal wake-up here takes tens of microseconds, and a
/// stuck one waits for the kernel's periodic balancing (milliseconds).
pub(crate) const STUCK_AFTER: Duration = Duration::from_micros(200);

pub(crate) struct WakePlacement {
    enabled: bool,
    origin: Instant,
    /// Rung workers that have not run since: while zero, the check after
    /// each task is one relaxed load.
    awaited: AtomicUsize,
    slots: Box<[Slot]>,
}

#[repr(align(128))]
struct Slot {
    /// When this worker was rung, in nanoseconds since `origin` plus one;
    /// zero while it is not awaited.
    rung_at: AtomicU64,
    /// The worker's thread and its affinity mask at start; unset where
    /// affinity cannot be changed (other systems, a single allowed CPU).
    thread: OnceLock<os::ThreadAffinity>,
    /// True while the mask is narrowed. The lock also orders a nudge
    /// against the worker's own restore, so a narrowed mask is always
    /// widened again.
    narrowed: Mutex<bool>,
}

impl WakePlacement {
    pub(crate) fn new(workers: usize, enabled: bool) -> Self {
        Self {
            enabled,
            origin: Instant::now(),
            awaited: AtomicUsize::new(0),
            slots: (0..workers)
                .map(|_| Slot {
                    rung_at: AtomicU64::new(0),
                    thread: OnceLock::new(),
                    narrowed: Mutex::new(false),
                })
                .collect(),
        }
    }

    fn now(&self) -> u64 {
        self.origin.elapsed().as_nanos() as u64 + 1
    }

    /// Called on `worker`'s own thread when it starts (after the start
    /// hook, so a mask the user set there is the one kept).
    pub(crate) fn register_thread(&self, worker: usize) {
        if !self.enabled {
            return;
        }
        if let Some(thread) = os::ThreadAffinity::current() {
            let _ = self.slots[worker].thread.set(thread);
        }
    }

    /// `worker` was just rung (called under the doorbell's lock, before the
    /// bell, so the stamp is in place before the worker can run).
    pub(crate) fn rung(&self, worker: usize) {
        if !self.enabled {
            return;
        }
        if self.slots[worker]
            .rung_at
            .swap(self.now(), Ordering::Relaxed)
            == 0
        {
            self.awaited.fetch_add(1, Ordering::Relaxed);
        }
    }

    /// `worker` runs again (its wait returned or its ring was consumed):
    /// it is no longer awaited, and a narrowed mask is widened.
    pub(crate) fn arrived(&self, worker: usize) {
        let slot = &self.slots[worker];
        // Only a worker with a known thread can have been narrowed; the
        // others skip the lock and just leave the awaited count.
        let thread = slot.thread.get();
        let mut narrowed = thread.map(|_| lock(&slot.narrowed));
        if slot.rung_at.swap(0, Ordering::Relaxed) != 0 {
            self.awaited.fetch_sub(1, Ordering::Relaxed);
        }
        if let (Some(thread), Some(narrowed)) = (thread, narrowed.as_deref_mut()) {
            if *narrowed {
                thread.restore();
                *narrowed = false;
            }
        }
    }

    /// Called by worker `me` between tasks: nudges every peer rung more
    /// than [`STUCK_AFTER`] ago that has not run since. Returns how many
    /// peers were nudged.
    #[inline]
    pub(crate) fn check(&self, me: usize) -> u64 {
        if self.awaited.load(Ordering::Relaxed) == 0 {
            return 0;
        }
        self.check_slow(me)
    }

    #[cold]
    fn check_slow(&self, me: usize) -> u64 {
        self.nudge_overdue(me, self.now())
    }

    /// The work of [`check`](Self::check) as of `now` (the clock of
    /// `rung_at`), so that tests can pin the time.
    fn nudge_overdue(&self, me: usize, now: u64) -> u64 {
        let stuck_after = STUCK_AFTER.as_nanos() as u64;
        let mut nudged = 0;
        for (worker, slot) in self.slots.iter().enumerate() {
            let rung_at = slot.rung_at.load(Ordering::Relaxed);
            if worker == me || rung_at == 0 || now.saturating_sub(rung_at) < stuck_after {
                continue;
            }
            let Some(thread) = slot.thread.get() else {
                continue;
            };
            let mut narrowed = lock(&slot.narrowed);
            // Re-check under the lock: if the worker arrived meanwhile, its
            // restore has run and must not be undone.
            if *narrowed || slot.rung_at.load(Ordering::Relaxed) == 0 {
                continue;
            }
            if let Some(cpu) = os::current_cpu() {
                if thread.exclude(cpu) {
                    *narrowed = true;
                    nudged += 1;
                }
            }
        }
        nudged
    }
}

#[cfg(all(target_os = "linux", not(loom), not(miri)))]
mod os {
    use std::mem;

    /// A thread and the CPUs it may run on when it is not being nudged.
    pub(super) struct ThreadAffinity {
        tid: libc::pid_t,
        mask: libc::cpu_set_t,
    }

    impl ThreadAffinity {
        /// The calling thread, if it may run on at least two CPUs.
        pub(super) fn current() -> Option<Self> {
            // SAFETY: `gettid` has no preconditions. A zeroed `cpu_set_t`
            // is a valid empty set, and `sched_getaffinity` writes at most
            // `size_of::<cpu_set_t>()` bytes into it.
            let (tid, mask) = unsafe {
                let mut mask: libc::cpu_set_t = mem::zeroed();
                let tid = libc::gettid();
                if libc::sched_getaffinity(0, mem::size_of::<libc::cpu_set_t>(), &mut mask) != 0 {
                    return None;
                }
                (tid, mask)
            };
            // SAFETY: `mask` is an initialised `cpu_set_t`.
            (unsafe { libc::CPU_COUNT(&mask) } >= 2).then_some(Self { tid, mask })
        }

        /// Narrows the thread's mask to its own CPUs except `cpu`. False if
        /// `cpu` is not one of them (the thread cannot be queued there) or
        /// the kernel refused.
        pub(super) fn exclude(&self, cpu: usize) -> bool {
            let mut narrowed = self.mask;
            // SAFETY: CPU_ISSET/CPU_CLR bound-check `cpu`; the call reads one
            // `cpu_set_t`; `tid` is a worker of this process (joined before drop).
            unsafe {
                if !libc::CPU_ISSET(cpu, &narrowed) {
                    return false;
                }
                libc::CPU_CLR(cpu, &mut narrowed);
                libc::sched_setaffinity(self.tid, mem::size_of::<libc::cpu_set_t>(), &narrowed) == 0
            }
        }

        /// Gives the thread its original mask back.
        pub(super) fn restore(&self) {
            // SAFETY: as in `exclude`; a failure leaves the narrowed mask,
            // which still allows all CPUs but one.
            unsafe {
                libc::sched_setaffinity(self.tid, mem::size_of::<libc::cpu_set_t>(), &self.mask);
            }
        }
    }

    /// The CPU the calling thread runs on.
    pub(super) fn current_cpu() -> Option<usize> {
        // SAFETY: `sched_getcpu` has no preconditions (a vDSO call).
        usize::try_from(unsafe { libc::sched_getcpu() }).ok()
    }
}

/// Elsewhere (other systems, loom models, miri) nothing is ever nudged.
#[cfg(not(all(target_os = "linux", not(loom), not(miri))))]
mod os {
    pub(super) struct ThreadAffinity;

    impl ThreadAffinity {
        pub(super) fn current() -> Option<Self> {
            None
        }
        pub(super) fn exclude(&self, _cpu: usize) -> bool {
            false
        }
        pub(super) fn restore(&self) {}
    }

    pub(super) fn current_cpu() -> Option<usize> {
        None
    }
}

#[cfg(all(test, target_os = "linux", not(loom), not(miri)))]
mod tests {
    use std::sync::mpsc;
    use std::sync::Arc;
    use std::thread;

    use super::*;

    /// Number of CPUs the calling thread may run on.
    fn allowed_cpus() -> i32 {
        // SAFETY: a zeroed `cpu_set_t` is a valid empty set, and
        // `sched_getaffinity` writes at most one `cpu_set_t` into it.
        unsafe {
            let mut mask: libc::cpu_set_t = std::mem::zeroed();
            assert_eq!(
                libc::sched_getaffinity(0, std::mem::size_of::<libc::cpu_set_t>(), &mut mask),
                0
            );
            libc::CPU_COUNT(&mask)
        }
    }

    /// Runs `worker 0` on its own thread: it registers, reports its mask
    /// size, then for every message runs `arrived(0)` and reports again.
    fn worker_thread(
        placement: Arc<WakePlacement>,
    ) -> (
        mpsc::Sender<()>,
        mpsc::Receiver<i32>,
        thread::JoinHandle<()>,
    ) {
        let (arrive_tx, arrive_rx) = mpsc::channel::<()>();
        let (mask_tx, mask_rx) = mpsc::channel();
        let handle = thread::spawn(move || {
            placement.register_thread(0);
            mask_tx.send(allowed_cpus()).unwrap();
            for () in arrive_rx {
                mask_tx.send(allowed_cpus()).unwrap();
                placement.arrived(0);
                mask_tx.send(allowed_cpus()).unwrap();
            }
        });
        (arrive_tx, mask_rx, handle)
    }

    #[test]
    fn a_worker_rung_long_ago_is_moved_off_the_checkers_cpu_until_it_runs() {
        if allowed_cpus() < 2 {
            return; // nothing to move between
        }
        let placement = Arc::new(WakePlacement::new(2, true));
        let (arrive, masks, handle) = worker_thread(placement.clone());
        let full = masks.recv().unwrap();

        placement.rung(0);
        thread::sleep(STUCK_AFTER * 2);
        assert_eq!(placement.check(1), 1, "the overdue worker is nudged");
        assert_eq!(placement.check(1), 0, "and only once per ring");

        arrive.send(()).unwrap();
        assert_eq!(
            masks.recv().unwrap(),
            full - 1,
            "narrowed by the checker's CPU"
        );
        assert_eq!(masks.recv().unwrap(), full, "widened again once it runs");
        assert_eq!(placement.check(1), 0, "no longer awaited");
        drop(arrive);
        handle.join().unwrap();
    }

    #[test]
    fn a_worker_is_not_nudged_before_it_is_overdue_or_after_it_ran() {
        let placement = Arc::new(WakePlacement::new(2, true));
        let (arrive, masks, handle) = worker_thread(placement.clone());
        let full = masks.recv().unwrap();

        placement.rung(0);
        // Pinned time: a test thread preempted for 200 µs right here would
        // otherwise see a "fresh" ring as overdue.
        let rung_at = placement.slots[0].rung_at.load(Ordering::Relaxed);
        let fresh = rung_at + STUCK_AFTER.as_nanos() as u64 / 2;
        assert_eq!(
            placement.nudge_overdue(1, fresh),
            0,
            "a fresh ring is left alone"
        );
        arrive.send(()).unwrap();
        assert_eq!(masks.recv().unwrap(), full);
        assert_eq!(masks.recv().unwrap(), full);
        thread::sleep(STUCK_AFTER * 2);
        assert_eq!(placement.check(1), 0, "the worker ran: nothing to repair");
        drop(arrive);
        handle.join().unwrap();
    }

    #[test]
    fn a_disabled_placement_never_nudges() {
        let placement = Arc::new(WakePlacement::new(2, false));
        let (arrive, masks, handle) = worker_thread(placement.clone());
        let full = masks.recv().unwrap();
        placement.rung(0);
        thread::sleep(STUCK_AFTER * 2);
        assert_eq!(placement.check(1), 0);
        arrive.send(()).unwrap();
        assert_eq!(masks.recv().unwrap(), full);
        drop(arrive);
        handle.join().unwrap();
    }

    #[test]
    fn a_worker_never_nudges_itself() {
        let placement = WakePlacement::new(1, true);
        placement.register_thread(0);
        placement.rung(0);
        thread::sleep(STUCK_AFTER * 2);
        assert_eq!(placement.check(0), 0);
        placement.arrived(0);
    }
}
