//! Un-stacking a woken worker that the kernel queued behind a busy worker on
//! the same CPU. Why, how, and what it measured: `WAKE_PLACEMENT.md`.
//!
//! Off unless [`Builder::move_stacked_wakes`](crate::Builder::move_stacked_wakes)
//! turns it on. Then the doorbell records when it rings each worker and
//! when that worker runs again. A worker that finishes a task while a peer
//! it knows was rung has not run for [`STUCK_AFTER`] asks the kernel to move
//! that peer off the CPU the checking worker is on: it reads the peer's
//! affinity mask as it is *now* and sets it to that mask without this CPU.
//! If the peer was queued there, behind the checker, it moves at once to
//! another CPU; if it was queued elsewhere, the mask changes nothing. As
//! soon as the peer runs it puts back exactly the mask it had, unless
//! someone changed it meanwhile (then the newer mask is theirs and is kept).

use std::time::{Duration, Instant};

// Plain std primitives, not the `sync` shim: the stamps are a heuristic
// outside the doorbell's protocol, and loom need not explore them.
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::{Mutex, OnceLock};

use rt_handle::raw::unpoison;

/// A rung worker that has not run for this long is presumed stuck behind a
/// busy thread: a normal wake-up here takes tens of microseconds, and a
/// stuck one waits for the kernel's periodic balancing (milliseconds).
pub(crate) const STUCK_AFTER: Duration = Duration::from_micros(200);

pub(crate) struct WakePlacement {
    /// Whether wake placement is on: read by the doorbell before it calls
    /// in here, so that with placement off a ring stays in `idle/mod.rs`.
    pub(super) enabled: bool,
    origin: Instant,
    /// Rung workers that have not run since: while zero, the check after
    /// each task is one relaxed load of a line nobody writes.
    awaited: AtomicUsize,
    slots: Box<[Slot]>,
}

#[repr(align(128))]
struct Slot {
    /// When this worker was rung, in nanoseconds since `origin` plus one;
    /// zero while it is not awaited.
    rung_at: AtomicU64,
    /// The worker's thread; unset while disabled and where affinity cannot
    /// be changed (other systems, loom, miri).
    thread: OnceLock<os::Thread>,
    /// The mask to put back, while this worker is narrowed. The lock also
    /// orders a nudge against the worker's own restore, so a narrowed mask
    /// is always widened again.
    narrowed: Mutex<Option<os::Narrowed>>,
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
                    narrowed: Mutex::new(None),
                })
                .collect(),
        }
    }

    fn now(&self) -> u64 {
        self.origin.elapsed().as_nanos() as u64 + 1
    }

    /// Called on `worker`'s own thread when it starts.
    pub(crate) fn register_thread(&self, worker: usize) {
        if !self.enabled {
            return;
        }
        if let Some(thread) = os::Thread::current() {
            let _ = self.slots[worker].thread.set(thread);
        }
    }

    /// `worker` was just rung (tests; the doorbell makes the check itself,
    /// in `idle/mod.rs`, so that a ring with placement off stays there).
    #[cfg(all(test, target_os = "linux", not(loom), not(miri)))]
    pub(crate) fn rung(&self, worker: usize) {
        if self.enabled {
            self.stamp_ring(worker);
        }
    }

    /// Stamps the ring of `worker` (called under the doorbell's lock,
    /// before the bell, so the stamp is in place before the worker can
    /// run), if placement is `enabled`: the doorbell checks that first,
    /// a load and a branch inlined into the ring.
    #[cold]
    pub(super) fn stamp_ring(&self, worker: usize) {
        if self.slots[worker]
            .rung_at
            .swap(self.now(), Ordering::Relaxed)
            == 0
        {
            self.awaited.fetch_add(1, Ordering::Relaxed);
        }
    }

    /// `worker` runs again (tests; the doorbell checks `enabled` itself,
    /// as for a ring).
    #[cfg(all(test, target_os = "linux", not(loom), not(miri)))]
    pub(crate) fn arrived(&self, worker: usize) {
        if self.enabled {
            self.clear_ring(worker);
        }
    }

    /// `worker` runs again (its wait returned or its ring was consumed):
    /// it is no longer awaited, and a narrowed mask is put back. Called by
    /// the doorbell only if placement is `enabled`.
    #[cold]
    pub(super) fn clear_ring(&self, worker: usize) {
        let slot = &self.slots[worker];
        // Only a worker with a known thread can have been narrowed; the
        // others skip the lock and just leave the awaited count.
        let thread = slot.thread.get();
        let mut narrowed = thread.map(|_| unpoison(slot.narrowed.lock()));
        if slot.rung_at.swap(0, Ordering::Relaxed) != 0 {
            self.awaited.fetch_sub(1, Ordering::Relaxed);
        }
        if let (Some(thread), Some(narrowed)) = (thread, narrowed.as_deref_mut()) {
            if let Some(state) = narrowed.take() {
                // A restore the kernel refused leaves the worker narrowed;
                // keep the saved mask and try again at its next arrival.
                if !thread.restore(&state) {
                    *narrowed = Some(state);
                }
            }
        }
    }

    /// Called by worker `me` between tasks: nudges every peer rung more
    /// than [`STUCK_AFTER`] ago that has not run since. Returns how many
    /// peers were nudged. One relaxed load while no ring is outstanding.
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
            let mut narrowed = unpoison(slot.narrowed.lock());
            // Re-check under the lock: if the worker arrived meanwhile, its
            // restore has run and must not be undone.
            if narrowed.is_some() || slot.rung_at.load(Ordering::Relaxed) == 0 {
                continue;
            }
            if let Some(state) = os::current_cpu().and_then(|cpu| thread.exclude(cpu)) {
                *narrowed = Some(state);
                nudged += 1;
            }
        }
        nudged
    }
}

#[cfg(all(target_os = "linux", not(loom), not(miri)))]
mod os {
    use std::mem;

    /// A worker thread whose affinity may be narrowed.
    pub(super) struct Thread {
        tid: libc::pid_t,
    }

    /// What a nudge changed: the mask it found, and the mask it set.
    pub(super) struct Narrowed {
        before: libc::cpu_set_t,
        after: libc::cpu_set_t,
    }

    fn get_mask(tid: libc::pid_t) -> Option<libc::cpu_set_t> {
        // `tid` is a live thread of this process: workers are joined before
        // the runtime's state is dropped.
        // SAFETY: a zeroed `cpu_set_t` is a valid empty set; the call writes
        // at most `size_of::<cpu_set_t>()` bytes into it, for a live `tid`.
        unsafe {
            let mut mask: libc::cpu_set_t = mem::zeroed();
            (libc::sched_getaffinity(tid, mem::size_of::<libc::cpu_set_t>(), &mut mask) == 0)
                .then_some(mask)
        }
    }

    fn set_mask(tid: libc::pid_t, mask: &libc::cpu_set_t) -> bool {
        // SAFETY: the call reads one `cpu_set_t`; `tid` as in `get_mask`.
        unsafe { libc::sched_setaffinity(tid, mem::size_of::<libc::cpu_set_t>(), mask) == 0 }
    }

    fn same(a: &libc::cpu_set_t, b: &libc::cpu_set_t) -> bool {
        // SAFETY: `CPU_EQUAL` reads two initialised sets.
        unsafe { libc::CPU_EQUAL(a, b) }
    }

    impl Thread {
        /// The calling thread.
        pub(super) fn current() -> Option<Self> {
            // SAFETY: `gettid` has no preconditions.
            Some(Self {
                tid: unsafe { libc::gettid() },
            })
        }

        /// Narrows the thread's current mask by `cpu`. `None` (and no
        /// change) when `cpu` is not in the mask (the thread cannot be
        /// queued there), the mask allows a single CPU (the thread is
        /// pinned: never moved), or the kernel refused.
        pub(super) fn exclude(&self, cpu: usize) -> Option<Narrowed> {
            let before = get_mask(self.tid)?;
            let mut after = before;
            // SAFETY: `CPU_ISSET`, `CPU_COUNT` and `CPU_CLR` bound-check
            // `cpu` and read or write one initialised set.
            unsafe {
                if !libc::CPU_ISSET(cpu, &before) || libc::CPU_COUNT(&before) < 2 {
                    return None;
                }
                libc::CPU_CLR(cpu, &mut after);
            }
            set_mask(self.tid, &after).then_some(Narrowed { before, after })
        }

        /// Puts back the mask a nudge found, unless the thread's mask was
        /// changed since the nudge (then the newer mask is kept). False only
        /// if the kernel refused the restore.
        pub(super) fn restore(&self, narrowed: &Narrowed) -> bool {
            match get_mask(self.tid) {
                Some(now) if same(&now, &narrowed.after) => set_mask(self.tid, &narrowed.before),
                Some(_) => true,
                None => false,
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
    pub(super) struct Thread;
    pub(super) struct Narrowed;

    impl Thread {
        pub(super) fn current() -> Option<Self> {
            None
        }
        pub(super) fn exclude(&self, _cpu: usize) -> Option<Narrowed> {
            None
        }
        pub(super) fn restore(&self, _narrowed: &Narrowed) -> bool {
            true
        }
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

    /// The calling thread's affinity mask.
    fn own_mask() -> libc::cpu_set_t {
        // SAFETY: a zeroed `cpu_set_t` is a valid empty set, and
        // `sched_getaffinity` writes at most one `cpu_set_t` into it.
        unsafe {
            let mut mask: libc::cpu_set_t = std::mem::zeroed();
            assert_eq!(
                libc::sched_getaffinity(0, std::mem::size_of::<libc::cpu_set_t>(), &mut mask),
                0
            );
            mask
        }
    }

    fn count(mask: &libc::cpu_set_t) -> i32 {
        // SAFETY: reads one initialised set.
        unsafe { libc::CPU_COUNT(mask) }
    }

    /// Pins the calling thread to one CPU of `start`: one its current mask
    /// excludes, if any (so the pin differs from a narrowed mask), else the
    /// first it may run on.
    fn pin_to_one_cpu(start: &libc::cpu_set_t) {
        let current = own_mask();
        // SAFETY: `CPU_ISSET` bound-checks `cpu` and reads one set.
        let isset = |cpu: usize, mask: &libc::cpu_set_t| unsafe { libc::CPU_ISSET(cpu, mask) };
        let cpus = 0..libc::CPU_SETSIZE as usize;
        let cpu = cpus
            .clone()
            .find(|&cpu| isset(cpu, start) && !isset(cpu, &current))
            .or_else(|| cpus.clone().find(|&cpu| isset(cpu, &current)))
            .expect("a thread may run on some CPU");
        // SAFETY: as in `own_mask`; `CPU_SET` bound-checks `cpu`.
        unsafe {
            let mut one: libc::cpu_set_t = std::mem::zeroed();
            libc::CPU_SET(cpu, &mut one);
            assert_eq!(
                libc::sched_setaffinity(0, std::mem::size_of::<libc::cpu_set_t>(), &one),
                0
            );
        }
    }

    enum Command {
        /// Report the mask, run `arrived(0)`, report again.
        Arrive,
        /// Pin the thread to one CPU, as a user's code might, then report.
        Pin,
    }

    /// Runs worker 0 on its own thread: it registers and reports its mask
    /// size, then obeys each command, reporting mask sizes.
    fn worker_thread(
        placement: Arc<WakePlacement>,
    ) -> (
        mpsc::Sender<Command>,
        mpsc::Receiver<i32>,
        thread::JoinHandle<()>,
    ) {
        let (command_tx, command_rx) = mpsc::channel();
        let (mask_tx, mask_rx) = mpsc::channel();
        let handle = thread::spawn(move || {
            placement.register_thread(0);
            let start = own_mask();
            mask_tx.send(count(&start)).unwrap();
            for command in command_rx {
                match command {
                    Command::Arrive => {
                        mask_tx.send(count(&own_mask())).unwrap();
                        placement.arrived(0);
                    }
                    Command::Pin => pin_to_one_cpu(&start),
                }
                mask_tx.send(count(&own_mask())).unwrap();
            }
        });
        (command_tx, mask_rx, handle)
    }

    #[test]
    fn a_worker_rung_long_ago_is_moved_off_the_checkers_cpu_until_it_runs() {
        rt_testkit::without_hanging(|| {
            if count(&own_mask()) < 2 {
                return; // nothing to move between
            }
            let placement = Arc::new(WakePlacement::new(2, true));
            let (worker, masks, handle) = worker_thread(placement.clone());
            let full = masks.recv().unwrap();

            placement.rung(0);
            thread::sleep(STUCK_AFTER * 2);
            assert_eq!(placement.check(1), 1, "the overdue worker is nudged");
            assert_eq!(placement.check(1), 0, "and only once per ring");

            worker.send(Command::Arrive).unwrap();
            assert_eq!(
                masks.recv().unwrap(),
                full - 1,
                "narrowed by the checker's CPU"
            );
            assert_eq!(masks.recv().unwrap(), full, "widened again once it runs");
            assert_eq!(placement.check(1), 0, "no longer awaited");
            drop(worker);
            handle.join().unwrap();
        })
    }

    #[test]
    fn a_mask_the_user_sets_while_the_worker_is_narrowed_is_kept() {
        rt_testkit::without_hanging(|| {
            if count(&own_mask()) < 2 {
                return;
            }
            let placement = Arc::new(WakePlacement::new(2, true));
            let (worker, masks, handle) = worker_thread(placement.clone());
            let full = masks.recv().unwrap();
            placement.rung(0);
            thread::sleep(STUCK_AFTER * 2);
            assert_eq!(placement.check(1), 1);
            worker.send(Command::Pin).unwrap();
            assert_eq!(masks.recv().unwrap(), 1, "the user's pin");
            worker.send(Command::Arrive).unwrap();
            assert_eq!(masks.recv().unwrap(), 1);
            assert_eq!(
                masks.recv().unwrap(),
                1,
                "not overwritten by the saved mask"
            );
            assert!(full >= 2);
            drop(worker);
            handle.join().unwrap();
        })
    }

    #[test]
    fn a_worker_pinned_after_it_started_is_never_moved() {
        rt_testkit::without_hanging(|| {
            let placement = Arc::new(WakePlacement::new(2, true));
            let (worker, masks, handle) = worker_thread(placement.clone());
            masks.recv().unwrap();
            worker.send(Command::Pin).unwrap();
            assert_eq!(masks.recv().unwrap(), 1);
            placement.rung(0);
            thread::sleep(STUCK_AFTER * 2);
            assert_eq!(placement.check(1), 0, "a single allowed CPU is left alone");
            worker.send(Command::Arrive).unwrap();
            assert_eq!(masks.recv().unwrap(), 1);
            assert_eq!(masks.recv().unwrap(), 1);
            drop(worker);
            handle.join().unwrap();
        })
    }

    #[test]
    fn a_worker_is_not_nudged_before_it_is_overdue_or_after_it_ran() {
        let placement = Arc::new(WakePlacement::new(2, true));
        let (worker, masks, handle) = worker_thread(placement.clone());
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
        worker.send(Command::Arrive).unwrap();
        assert_eq!(masks.recv().unwrap(), full);
        assert_eq!(masks.recv().unwrap(), full);
        thread::sleep(STUCK_AFTER * 2);
        assert_eq!(placement.check(1), 0, "the worker ran: nothing to repair");
        drop(worker);
        handle.join().unwrap();
    }

    #[test]
    fn a_disabled_placement_never_nudges_and_never_counts() {
        let placement = Arc::new(WakePlacement::new(2, false));
        let (worker, masks, handle) = worker_thread(placement.clone());
        let full = masks.recv().unwrap();
        placement.rung(0);
        assert_eq!(placement.awaited.load(Ordering::Relaxed), 0);
        thread::sleep(STUCK_AFTER * 2);
        assert_eq!(placement.check(1), 0);
        worker.send(Command::Arrive).unwrap();
        assert_eq!(masks.recv().unwrap(), full);
        assert_eq!(masks.recv().unwrap(), full);
        drop(worker);
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
