//! The doorbell idle workers sleep on. Protocol and proof: `IDLE_SIGNAL.md`.

use crate::sync::{fence, lock, AtomicUsize, Condvar, Mutex, Ordering};
use crate::wake_placement::WakePlacement;

/// Why [`IdleSignal::sleep`] returned.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Wake {
    /// A pusher (or shutdown) rang for this worker: look for work again.
    Notified,
    /// Every worker is idle with the runtime shut down and drained: exit.
    Terminated,
}

/// A doorbell for idle workers: they register, re-check for work, and park;
/// a push rings only when no worker is searching and some worker sleeps, and
/// then wakes exactly one.
///
/// ```text
///  worker                              pusher
///  ──────                              ──────
///  searching -= 1                      push task
///  register (sleepers += 1)            fence(SeqCst)
///  fence(SeqCst)                       searching > 0? ──► done: a searcher will see it
///  re-check queues ──► work? cancel    sleepers > 0?  ──► pop one sleeper, wake it
///  park until notified                 (else: nothing to do, no lock taken)
/// ```
pub(crate) struct IdleSignal {
    /// Workers that have no task and are scanning for one (spinning before
    /// they register). While one searches, a push needs to wake nobody: the
    /// searcher sees the task before it can go to sleep. A woken worker
    /// counts as searching from the moment it is rung.
    searching: AtomicUsize,
    /// Mirrors `state.sleeping.len()`, so a push can see "nobody sleeps"
    /// with one load and no lock.
    sleepers: AtomicUsize,
    state: Mutex<IdleState>,
    /// One condition variable per worker, so a push wakes exactly the worker
    /// it took off the stack.
    bells: Box<[Condvar]>,
    /// When each worker was rung and whether it has run since, to un-stack
    /// a woken worker the kernel queued behind a busy one.
    pub(crate) placement: WakePlacement,
}

struct IdleState {
    /// Registered workers, most recently idle last: waking the last one
    /// reuses the warmest thread.
    sleeping: Vec<usize>,
    /// Set by a waker when it takes a worker off `sleeping`; consumed by
    /// that worker. Guarded by the mutex, so a ring is never lost even if
    /// the worker has not started waiting yet.
    notified: Box<[bool]>,
    /// Workers that are running and can still register. All of them idle at
    /// once, after shutdown, is the exit condition.
    live: usize,
    terminated: bool,
}

impl IdleSignal {
    /// A doorbell for `workers` workers; `move_stacked_wakes` enables the
    /// [`WakePlacement`] repair.
    pub(crate) fn new(workers: usize, move_stacked_wakes: bool) -> Self {
        Self {
            searching: AtomicUsize::new(0),
            sleepers: AtomicUsize::new(0),
            state: Mutex::new(IdleState {
                sleeping: Vec::with_capacity(workers),
                notified: vec![false; workers].into_boxed_slice(),
                live: workers,
                terminated: false,
            }),
            bells: (0..workers).map(|_| Condvar::new()).collect(),
            placement: WakePlacement::new(workers, move_stacked_wakes),
        }
    }

    /// The calling worker found no task and starts scanning for one.
    #[inline]
    pub(crate) fn start_searching(&self) {
        self.searching.fetch_add(1, Ordering::SeqCst);
    }

    /// The calling worker, searching, found a task. If it was the last
    /// searcher, more work may be queued with nobody looking for it: ring for
    /// one more worker. Waking thus spreads from worker to worker as long as
    /// each finds work, instead of costing every push a wake-up.
    #[inline]
    pub(crate) fn found_work(&self) {
        if self.searching.fetch_sub(1, Ordering::SeqCst) == 1 {
            self.notify_one();
        }
    }

    /// The calling worker, searching, found nothing and will register.
    #[inline]
    pub(crate) fn stop_searching(&self) {
        self.searching.fetch_sub(1, Ordering::SeqCst);
    }

    /// Announces that `worker` is about to sleep. The caller must then
    /// re-check every queue (and the shutdown gate) before [`sleep`]: a
    /// task pushed before the re-check is seen by it, and one pushed after
    /// rings this worker or another registered one.
    ///
    /// [`sleep`]: IdleSignal::sleep
    pub(crate) fn register(&self, worker: usize) {
        let mut state = lock(&self.state);
        debug_assert!(!state.sleeping.contains(&worker));
        state.sleeping.push(worker);
        self.sleepers.fetch_add(1, Ordering::SeqCst);
        drop(state);
        // Pairs with the fence in `notify_one`: either the pusher sees this
        // registration, or the re-check after this fence sees its task.
        fence(Ordering::SeqCst);
    }

    /// Withdraws a registration after the re-check found work; the worker
    /// is searching again afterwards. If a waker already took this worker off
    /// the stack, its ring (and the searcher count the waker added) is
    /// consumed here instead.
    pub(crate) fn unregister(&self, worker: usize) {
        let mut state = lock(&self.state);
        if let Some(pos) = state.sleeping.iter().rposition(|&w| w == worker) {
            state.sleeping.remove(pos);
            self.sleepers.fetch_sub(1, Ordering::SeqCst);
            self.searching.fetch_add(1, Ordering::SeqCst);
        } else {
            state.notified[worker] = false;
        }
        drop(state);
        self.placement.arrived(worker);
    }

    /// Ends the runtime if every live worker is registered; the caller must
    /// have found all queues empty after registering and the submission gate
    /// closed and quiet before that. Returns true when it terminated.
    pub(crate) fn try_terminate(&self) -> bool {
        let mut state = lock(&self.state);
        if state.terminated {
            return true;
        }
        if state.sleeping.len() < state.live {
            return false;
        }
        state.terminated = true;
        state.sleeping.clear();
        self.sleepers.store(0, Ordering::SeqCst);
        drop(state);
        self.bells.iter().for_each(Condvar::notify_one);
        true
    }

    /// Parks a registered `worker` until it is rung or the runtime ends. A
    /// rung worker returns counted as searching.
    pub(crate) fn sleep(&self, worker: usize) -> Wake {
        let mut state = lock(&self.state);
        let wake = loop {
            if state.terminated {
                break Wake::Terminated;
            }
            if state.notified[worker] {
                state.notified[worker] = false;
                break Wake::Notified;
            }
            state = self.bells[worker]
                .wait(state)
                .unwrap_or_else(|poisoned| poisoned.into_inner());
        };
        drop(state);
        self.placement.arrived(worker);
        wake
    }

    /// Rings for one sleeping worker, if no worker is searching and one
    /// sleeps. Call after making a task visible in a queue. Costs a fence and
    /// one or two loads when nobody needs waking.
    #[inline]
    pub(crate) fn notify_one(&self) {
        fence(Ordering::SeqCst);
        if self.searching.load(Ordering::SeqCst) > 0 || self.sleepers.load(Ordering::SeqCst) == 0 {
            return;
        }
        self.notify_one_slow();
    }

    #[cold]
    fn notify_one_slow(&self) {
        let mut state = lock(&self.state);
        // Re-check under the lock: another pusher may have woken a searcher
        // since our first look.
        if self.searching.load(Ordering::SeqCst) > 0 {
            return;
        }
        if let Some(worker) = state.sleeping.pop() {
            self.sleepers.fetch_sub(1, Ordering::SeqCst);
            self.searching.fetch_add(1, Ordering::SeqCst);
            state.notified[worker] = true;
            self.placement.rung(worker);
            drop(state);
            self.bells[worker].notify_one();
        }
    }

    /// Rings for every sleeping worker: used at shutdown, so each re-checks
    /// whether it may exit.
    pub(crate) fn notify_all(&self) {
        let mut state = lock(&self.state);
        let woken: Vec<usize> = state.sleeping.drain(..).collect();
        self.sleepers.store(0, Ordering::SeqCst);
        self.searching.fetch_add(woken.len(), Ordering::SeqCst);
        for &worker in &woken {
            state.notified[worker] = true;
        }
        drop(state);
        for worker in woken {
            self.bells[worker].notify_one();
        }
    }

    /// Lowers the number of workers that take part, when fewer threads than
    /// planned could be started; the caller then shuts down.
    pub(crate) fn set_live(&self, live: usize) {
        lock(&self.state).live = live;
    }

    /// Number of workers registered as idle right now (racy snapshot).
    pub(crate) fn sleepers(&self) -> usize {
        self.sleepers.load(Ordering::Relaxed)
    }
}
