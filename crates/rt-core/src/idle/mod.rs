//! The doorbell idle workers sleep on, and the loop a worker runs when it
//! has no task (`next_task`: scan, search, sleep on the doorbell). Protocol
//! and proof: `IDLE_SIGNAL.md`.

pub(crate) mod wake_placement;

#[cfg(all(test, loom))]
mod loom_compensation;
#[cfg(all(test, loom))]
pub(crate) mod loom_idle_signal;
#[cfg(all(test, not(loom)))]
mod tests;

use std::sync::{LockResult, PoisonError};

use crate::idle::wake_placement::WakePlacement;
use crate::sync::{fence, AtomicUsize, Condvar, Mutex, MutexGuard, Ordering};

/// The guard of a `lock` or a `wait`, poisoned or not: what
/// `rt_handle::raw::unpoison` does (see there why poisoning is ignored),
/// written here so that a ring and a wake-up run no other file's code.
#[inline(always)]
fn unpoison<G>(result: LockResult<G>) -> G {
    result.unwrap_or_else(PoisonError::into_inner)
}

/// What [`IdleSignal::begin_wait`] did to keep a worker free.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[must_use]
pub(crate) enum Compensation {
    /// Nothing was needed (another worker is free), or nothing was
    /// possible (every compensating slot is in use).
    None,
    /// A dormant compensating worker was rung.
    Rung,
    /// Compensating worker `index` is counted live and searching: the
    /// caller starts its thread (or, failing that, calls
    /// [`IdleSignal::not_started`]).
    Start(usize),
}

/// Why [`IdleSignal::sleep`] returned.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Wake {
    /// A pusher (or shutdown) rang for this worker: look for work again.
    Notified,
    /// Every worker is idle with the runtime shut down and drained: exit.
    Terminated,
}

/// While a rung worker is on its way back, a push rings another sleeper
/// only once more than this many tasks per such worker wait in the queue
/// it pushed to (the injector of its priority, or the pushing worker's own
/// deque: a read of two indexes, whatever the number of workers). A burst
/// of a few tasks is served sooner by the first woken worker, which rings
/// the next when it finds work, than by waking one worker per push (each
/// ring costs the pusher a system call, and on 2 CPUs puts a woken worker
/// on the pusher's CPU); a long stream of
/// submissions is served sooner by workers woken side by side than one
/// after another, tens of microseconds apart. 32 is what a woken worker
/// takes from an injector in one batch (crossbeam-deque's limit). Measured
/// in docs/BENCHMARKS.md ("The doorbell"). Under loom, 1: the models'
/// one or two tasks then take both ways.
#[cfg(not(loom))]
pub(crate) const TASKS_PER_WAKING: usize = 32;
#[cfg(loom)]
pub(crate) const TASKS_PER_WAKING: usize = 1;

/// A doorbell for idle workers: they register, re-check for work, and park;
/// a push rings only when no worker is searching, some worker sleeps, and
/// the queue is longer than the workers already woken can be left; and then
/// it wakes exactly one.
///
/// ```text
///  worker                              pusher
///  ──────                              ──────
///  searching -= 1                      push task
///  register (sleepers += 1)            fence(SeqCst)
///  fence(SeqCst)                       searching > 0? ──► done: a searcher will see it
///  re-check queues ──► work? withdraw  sleepers == 0? ──► done: nobody to wake
///  park until notified;                waking > 0 and queue short? ──► done: left to it
///    searching += 1, waking -= 1       else pop one sleeper (waking += 1), wake it
///  fence(SeqCst)
/// ```
///
/// Every access to `searching`, `waking` and `sleepers` and every fence are
/// `SeqCst`:
/// the proof in `IDLE_SIGNAL.md` places them in the single total order of
/// `SeqCst` operations, and each comment below names the access it pairs
/// with there.
///
/// On lines of its own: workers write it as they go idle and wake, and
/// every push reads it; neither should share a line with what workers read
/// at every task.
#[repr(align(128))]
pub(crate) struct IdleSignal {
    /// Workers that have no task and are scanning for one (spinning before
    /// they register). While one searches, a push needs to wake nobody: the
    /// searcher sees the task before it can go to sleep. A rung worker
    /// counts itself once it is back from its wait, not from the ring: until
    /// then it is not looking, and a wake-up can take a long while.
    searching: AtomicUsize,
    /// Workers rung and not back from their wait yet: mirrors the number of
    /// `notified` flags set (changed under the mutex with them), so a push
    /// reads it without the lock. A push leaves a short queue to them
    /// ([`TASKS_PER_WAKING`]) and rings one more sleeper for a longer one.
    waking: AtomicUsize,
    /// Mirrors `state.sleeping.len()`, so a push can see "nobody sleeps"
    /// with one load and no lock.
    sleepers: AtomicUsize,
    /// The core workers: indexes `0..threads`; compensating workers have
    /// the indexes after them, up to `bells.len()`.
    threads: usize,
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
    /// Compensating workers that retired (not live): parked until a wait
    /// rings one again, or the runtime ends.
    dormant: Vec<usize>,
    /// Workers parked in a wait (`begin_wait` .. `end_wait`): live, but
    /// taking no work until what they wait for completes.
    waiting: usize,
    /// Compensating workers made live so far; their indexes follow the core
    /// workers'.
    spares: usize,
    /// Of those, the ones whose thread could not be started: never live
    /// again (their index is not reused).
    failed: usize,
    /// Set by a waker when it takes a worker off `sleeping`; consumed by
    /// that worker. Guarded by the mutex, so a ring is never lost even if
    /// the worker has not started waiting yet.
    notified: Box<[bool]>,
    /// Workers that are running and can still register: the core workers
    /// and the compensating workers that are not dormant. All of them idle
    /// at once, after shutdown, is the exit condition.
    live: usize,
    terminated: bool,
}

impl IdleState {
    /// Live workers not parked in a wait: they take queued work sooner or
    /// later (searching, asleep until rung, or running a unit).
    fn free(&self) -> usize {
        self.live - self.waiting
    }
}

impl IdleSignal {
    /// A doorbell for `threads` core workers and up to `max_workers` in
    /// all (the rest compensating ones, `COMPENSATION.md`);
    /// `move_stacked_wakes` enables the [`WakePlacement`] repair.
    pub(crate) fn new(threads: usize, max_workers: usize, move_stacked_wakes: bool) -> Self {
        debug_assert!(max_workers >= threads);
        Self {
            searching: AtomicUsize::new(0),
            waking: AtomicUsize::new(0),
            sleepers: AtomicUsize::new(0),
            threads,
            state: Mutex::new(IdleState {
                sleeping: Vec::with_capacity(threads),
                dormant: Vec::new(),
                waiting: 0,
                spares: 0,
                failed: 0,
                notified: vec![false; max_workers].into_boxed_slice(),
                live: threads,
                terminated: false,
            }),
            bells: (0..max_workers).map(|_| Condvar::new()).collect(),
            placement: WakePlacement::new(max_workers, move_stacked_wakes),
        }
    }

    /// The calling worker found no task and starts scanning for one.
    #[inline]
    pub(crate) fn start_searching(&self) {
        rt_queue::path_step!();
        // Pairs with the pusher's load of `searching` in `notify_one`: a
        // pusher that reads this increment skips the ring, and the proof
        // then follows this searcher to its matching decrement.
        self.searching.fetch_add(1, Ordering::SeqCst);
    }

    /// The calling worker, searching, found a task. If it was the last
    /// searcher, more work may be queued with nobody looking for it: ring for
    /// one more worker. Waking thus spreads from worker to worker as long as
    /// each finds work, instead of costing every push a wake-up.
    #[inline]
    pub(crate) fn found_work(&self) {
        rt_queue::path_step!();
        // Pairs with the pusher's load of `searching`: a pusher that read a
        // count including this searcher is covered by the ring below when
        // this was the last searcher (its fence comes after that load).
        if self.searching.fetch_sub(1, Ordering::SeqCst) == 1 {
            // No task of its own to count: leaves it to a worker on its way.
            self.notify_one(|| 0);
        }
    }

    /// The calling worker, searching, found nothing and will register.
    #[inline]
    pub(crate) fn stop_searching(&self) {
        rt_queue::path_step!();
        // Pairs with the pusher's load of `searching`: a pusher that read a
        // count including this searcher has its fence before this decrement,
        // hence before the fence in `register` that follows, so this
        // worker's re-check sees the pusher's task.
        self.searching.fetch_sub(1, Ordering::SeqCst);
    }

    /// Announces that `worker` is about to sleep. The caller must then
    /// re-check every queue (and the shutdown gate) before [`sleep`]: a
    /// task pushed before the re-check is seen by it, and one pushed after
    /// rings this worker or another registered one.
    ///
    /// [`sleep`]: IdleSignal::sleep
    ///
    /// A compensating worker retires instead (goes dormant, no longer
    /// live) when another live worker is free: it is no longer needed to
    /// keep one free (`COMPENSATION.md`).
    pub(crate) fn register(&self, worker: usize) {
        rt_queue::path_step!();
        let mut state = unpoison(self.state.lock());
        debug_assert!(!state.sleeping.contains(&worker));
        if worker >= self.threads && state.free() > 1 {
            state.live -= 1;
            state.dormant.push(worker);
        } else {
            state.sleeping.push(worker);
            // Read by the pusher's load of `sleepers` after its fence (the
            // fence below makes even a relaxed store visible to it; SeqCst
            // keeps every access to the counter in the one order the proof
            // uses).
            self.sleepers.fetch_add(1, Ordering::SeqCst);
        }
        drop(state);
        // Pairs with the fence in `notify_one`: either the pusher sees this
        // registration, or the re-check after this fence sees its task.
        fence(Ordering::SeqCst);
    }

    /// Withdraws a registration after the re-check found work; the worker
    /// is searching again afterwards. If a waker already took this worker off
    /// the stack, its ring is consumed here instead.
    pub(crate) fn unregister(&self, worker: usize) {
        rt_queue::path_step!();
        let mut state = unpoison(self.state.lock());
        if let Some(pos) = state.sleeping.iter().rposition(|&w| w == worker) {
            state.sleeping.remove(pos);
            // Under the mutex, like the waker's updates: `sleepers` mirrors
            // `sleeping`.
            self.sleepers.fetch_sub(1, Ordering::SeqCst);
        } else if let Some(pos) = state.dormant.iter().rposition(|&w| w == worker) {
            // A retiring worker that found work after all: live again.
            state.dormant.remove(pos);
            state.live += 1;
        }
        // Under the mutex, as a rung worker counts itself in `sleep`: it
        // searches again at once.
        self.searching.fetch_add(1, Ordering::SeqCst);
        if state.notified[worker] {
            // A waker took it off the stack: its ring is consumed here.
            state.notified[worker] = false;
            self.waking.fetch_sub(1, Ordering::SeqCst);
        }
        drop(state);
        if self.placement.enabled {
            self.placement.clear_ring(worker);
        }
    }

    /// Ends the runtime if every live worker is registered; the caller must
    /// have found all queues empty after registering and the submission gate
    /// closed and quiet before that. Returns true when it terminated.
    pub(crate) fn try_terminate(&self) -> bool {
        let mut state = unpoison(self.state.lock());
        if state.terminated {
            return true;
        }
        if state.sleeping.len() < state.live {
            return false;
        }
        state.terminated = true;
        state.sleeping.clear();
        // Under the mutex, mirroring `sleeping`; nobody pushes any more.
        self.sleepers.store(0, Ordering::SeqCst);
        drop(state);
        self.bells.iter().for_each(Condvar::notify_one);
        true
    }

    /// Parks a registered `worker` until it is rung or the runtime ends. A
    /// rung worker returns counted as searching.
    pub(crate) fn sleep(&self, worker: usize) -> Wake {
        rt_queue::path_step!();
        let mut state = unpoison(self.state.lock());
        let wake = loop {
            if state.terminated {
                if state.notified[worker] {
                    state.notified[worker] = false;
                    self.waking.fetch_sub(1, Ordering::SeqCst);
                }
                break Wake::Terminated;
            }
            if state.notified[worker] {
                state.notified[worker] = false;
                // Back from the wait, looking for work: counted as
                // searching before it stops counting as waking, so that a
                // pusher that saw it in either count is covered (the
                // searching path of IDLE_SIGNAL.md).
                self.searching.fetch_add(1, Ordering::SeqCst);
                self.waking.fetch_sub(1, Ordering::SeqCst);
                break Wake::Notified;
            }
            state = unpoison(self.bells[worker].wait(state));
        };
        drop(state);
        // Pairs with the fence of the `notify_one` that rang us (ordered
        // before this one by the mutex): the scan that follows sees every
        // task pushed before that ring's fence, including the tasks of
        // pushers that skipped their own ring because a searcher was about
        // (see "the searching path" in IDLE_SIGNAL.md).
        fence(Ordering::SeqCst);
        if self.placement.enabled {
            self.placement.clear_ring(worker);
        }
        wake
    }

    /// Rings for one sleeping worker, if no worker is searching, one sleeps,
    /// and the tasks waiting in the queue pushed to (`queued`, called only
    /// then) are more than the workers on their way back can be left
    /// ([`TASKS_PER_WAKING`] each).
    /// Call after making a task visible in a queue. Costs a fence and one or
    /// two loads when nobody needs waking.
    #[inline]
    pub(crate) fn notify_one(&self, queued: impl FnOnce() -> usize) {
        rt_queue::path_step!();
        // Pairs with the fence in `register` (and the one after waking in
        // `sleep`): the task pushed before this fence is seen by a worker
        // whose fence comes later, and a registration made before an
        // earlier fence is seen by the loads below.
        fence(Ordering::SeqCst);
        // Pair with the searchers' RMWs (`start_searching`, `found_work`,
        // `stop_searching`, a woken worker's count) and the registration's
        // increment.
        if self.searching.load(Ordering::SeqCst) > 0 || self.sleepers.load(Ordering::SeqCst) == 0 {
            return;
        }
        // Pairs with a woken worker's decrement in `sleep` (or `unregister`),
        // which comes after its increment of `searching`.
        let waking = self.waking.load(Ordering::SeqCst);
        if waking > 0 && queued() <= waking.saturating_mul(TASKS_PER_WAKING) {
            return;
        }
        self.notify_one_slow();
    }

    #[cold]
    fn notify_one_slow(&self) {
        rt_queue::path_step!();
        let mut state = unpoison(self.state.lock());
        // Re-check under the lock: a worker may have come back from its
        // wait since our first look (its increment was made under this
        // mutex), and it will see our task.
        if self.searching.load(Ordering::SeqCst) > 0 {
            return;
        }
        if let Some(worker) = state.sleeping.pop() {
            self.wake_taken(state, worker);
        }
    }

    /// Rings `worker`, just taken off `sleeping` under the mutex (`state`,
    /// released here before the bell rings).
    fn wake_taken(&self, mut state: MutexGuard<'_, IdleState>, worker: usize) {
        rt_queue::path_step!();
        // Under the mutex: `sleepers` mirrors `sleeping`. The woken worker
        // counts itself as searching once it is back (`sleep`): until then
        // a push rings another sleeper, so that a burst into a sleeping
        // pool does not wait for one wake-up after another.
        self.sleepers.fetch_sub(1, Ordering::SeqCst);
        self.waking.fetch_add(1, Ordering::SeqCst);
        state.notified[worker] = true;
        if self.placement.enabled {
            self.placement.stamp_ring(worker);
        }
        drop(state);
        self.bells[worker].notify_one();
    }

    /// Rings for every sleeping worker: used at shutdown, so each re-checks
    /// whether it may exit.
    pub(crate) fn notify_all(&self) {
        let mut state = unpoison(self.state.lock());
        let woken: Vec<usize> = state.sleeping.drain(..).collect();
        // Under the mutex, as in `notify_one_slow`.
        self.sleepers.store(0, Ordering::SeqCst);
        self.waking.fetch_add(woken.len(), Ordering::SeqCst);
        for &worker in &woken {
            state.notified[worker] = true;
        }
        drop(state);
        for worker in woken {
            self.bells[worker].notify_one();
        }
    }

    /// Worker `me` is about to park in a wait (for a task, a `join` half or
    /// a scope of its own runtime that it cannot help along, or for work of
    /// another runtime). If every live worker is now waiting, nobody would
    /// take queued work, which what they wait for may need: a compensating
    /// worker is made live, a dormant one rung or a new one (counted as
    /// searching) to be started (`COMPENSATION.md`). Pair with
    /// [`end_wait`](Self::end_wait).
    pub(crate) fn begin_wait(&self) -> Compensation {
        let mut state = unpoison(self.state.lock());
        state.waiting += 1;
        if state.free() > 0 || state.terminated {
            return Compensation::None;
        }
        if let Some(spare) = state.dormant.pop() {
            state.live += 1;
            // As in `notify_one_slow`: the rung worker counts itself as
            // searching when it is back.
            self.waking.fetch_add(1, Ordering::SeqCst);
            state.notified[spare] = true;
            drop(state);
            self.bells[spare].notify_one();
            return Compensation::Rung;
        }
        let index = self.threads + state.spares;
        if index >= self.bells.len() {
            return Compensation::None;
        }
        state.spares += 1;
        state.live += 1;
        // As for a rung worker: the new one starts out searching.
        self.searching.fetch_add(1, Ordering::SeqCst);
        Compensation::Start(index)
    }

    /// The worker is back from the wait [`begin_wait`](Self::begin_wait)
    /// announced.
    pub(crate) fn end_wait(&self) {
        unpoison(self.state.lock()).waiting -= 1;
    }

    /// Compensating worker `index`, counted by `begin_wait`, could not be
    /// started (the OS refused a thread): it is not live after all, nor
    /// searching. As a searcher that leaves, it rings for another worker in
    /// case a push skipped its ring because of it.
    pub(crate) fn not_started(&self, index: usize) {
        let mut state = unpoison(self.state.lock());
        debug_assert!(index >= self.threads && index < self.threads + state.spares);
        state.live -= 1;
        state.failed += 1;
        drop(state);
        self.found_work();
    }

    /// Compensating workers live right now (started and not dormant).
    pub(crate) fn compensating(&self) -> usize {
        let state = unpoison(self.state.lock());
        state.spares - state.failed - state.dormant.len()
    }

    /// One more than the highest index a worker was given so far.
    pub(crate) fn workers_started(&self) -> usize {
        self.threads + unpoison(self.state.lock()).spares
    }

    /// Sets the number of workers that take part: fewer than `threads`
    /// when the building thread is adopted as a worker
    /// (`worker/adopted.rs`), which never sleeps here.
    pub(crate) fn set_live(&self, live: usize) {
        unpoison(self.state.lock()).live = live;
    }

    /// A core worker will never run (its thread was never started): it
    /// leaves the live workers, and every sleeper is rung to re-check
    /// whether the runtime may end without it.
    pub(crate) fn never_ran(&self) {
        unpoison(self.state.lock()).live -= 1;
        self.notify_all();
    }

    /// Rings worker `worker` if it sleeps here, for work only it may take
    /// (a letter in its mailbox, `BROADCAST.md`): as `notify_one_slow`
    /// rings a sleeper, but this one, whatever `searching` says. A worker
    /// not asleep here looks at its mailbox before it registers (the
    /// letter was posted before this call took the mutex) or, registered,
    /// in its re-check after the fence.
    pub(crate) fn ring(&self, worker: usize) {
        let mut state = unpoison(self.state.lock());
        let Some(pos) = state.sleeping.iter().rposition(|&w| w == worker) else {
            return;
        };
        state.sleeping.remove(pos);
        self.wake_taken(state, worker);
    }

    /// Number of workers registered as idle right now (racy snapshot).
    pub(crate) fn sleepers(&self) -> usize {
        self.sleepers.load(Ordering::Relaxed)
    }
}

// How a worker gets its next task: scan, search for a while, then sleep on
// the doorbell until rung. Written once, over a [`WorkSource`], so that the
// runtime's workers and the loom models run the very same loop (the models
// replace the queues, which loom cannot run, by counts).

/// Rounds of busy-waiting (with growing pauses) after a scan finds nothing,
/// before yielding: work that arrives within a few microseconds is picked up
/// without the cost of parking and being woken. Under loom each extra round
/// is only more interleavings of the same scan, so there is none.
#[cfg(not(loom))]
const SPIN_ROUNDS: u32 = 8;
#[cfg(loom)]
const SPIN_ROUNDS: u32 = 0;
/// Rounds of `yield_now` after spinning and before parking. Yielding lets a
/// submitting thread that shares our core run and push more work.
#[cfg(not(loom))]
const YIELD_ROUNDS: u32 = 4;
#[cfg(loom)]
const YIELD_ROUNDS: u32 = 1;

/// What the loop needs from its surroundings.
pub(crate) trait WorkSource {
    /// A task taken from a queue.
    type Task;

    /// Takes the next task, if any queue has one.
    fn find(&self) -> Option<Self::Task>;

    /// Whether some queue holds a task right now (takes nothing): the
    /// re-check after registering as idle.
    fn sees_work(&self) -> bool;

    /// Whether the runtime is shut down with no submission in flight, so
    /// that an idle worker may exit once every worker is idle.
    fn may_exit(&self) -> bool;

    /// The worker stopped searching and is about to sleep: time to give
    /// back what it keeps only while busy (recycled task cells).
    fn going_idle(&self) {}
}

/// Whether the worker asking for its next task is already counted in the
/// doorbell's `searching`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Counted {
    /// Not yet: it scans once before it counts itself.
    No,
    /// Yes: a compensating worker just started, counted as searching by
    /// the wait that made it live (`IdleSignal::begin_wait`).
    AsSearching,
}

/// Returns worker `me`'s next task from `source`, searching and then
/// sleeping while there is none; `None` once the runtime has terminated
/// (shut down, drained, every worker idle). Protocol: `IDLE_SIGNAL.md`.
pub(crate) fn next_task<S: WorkSource>(
    idle: &IdleSignal,
    me: usize,
    source: &S,
    counted: Counted,
) -> Option<S::Task> {
    rt_queue::path_step!();
    if counted == Counted::No {
        if let Some(task) = source.find() {
            return Some(task);
        }
        idle.start_searching();
    }
    // Searching: spin, yield, then sleep until rung; every way out of this
    // loop with a task goes through `found_work`.
    loop {
        if let Some(task) = search(source) {
            idle.found_work();
            return Some(task);
        }
        idle.stop_searching();
        source.going_idle();
        // Register, then re-check the gate and the queues, and only then
        // park.
        idle.register(me);
        let may_exit = source.may_exit();
        if source.sees_work() {
            idle.unregister(me);
            continue;
        }
        if may_exit && idle.try_terminate() {
            return None;
        }
        if idle.sleep(me) == Wake::Terminated {
            return None;
        }
    }
}

/// Scans, spinning and then yielding for a short while before giving up.
#[inline]
#[cfg_attr(loom, allow(clippy::absurd_extreme_comparisons))] // no spin rounds under loom
fn search<S: WorkSource>(source: &S) -> Option<S::Task> {
    rt_queue::path_step!();
    for round in 0..SPIN_ROUNDS + YIELD_ROUNDS {
        if let Some(found) = source.find() {
            return Some(found);
        }
        if round < SPIN_ROUNDS {
            for _ in 0..(1u32 << round) {
                std::hint::spin_loop();
            }
        } else {
            crate::sync::yield_now();
        }
    }
    None
}
