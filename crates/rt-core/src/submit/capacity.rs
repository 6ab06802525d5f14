//! The bound on externally submitted tasks waiting in the queues.

use std::task::Waker;

use rt_handle::raw::{drop_quietly, unpoison};

use crate::sync::{AtomicUsize, Condvar, Mutex, Ordering};

/// Counts external tasks that are queued and not yet taken by a worker.
///
/// A submitter reserves a place before it pushes; a worker gives the place
/// back when it takes the task from an injector (in bounded mode injectors
/// hand out tasks one at a time, so every external task passes that point
/// exactly once); `stop` gives places back for the tasks it drains. Tasks
/// spawned by tasks go to local deques and never take a place, so a full
/// queue cannot stop the pool from finishing the work it has.
///
/// Two kinds of submitters wait for a place: threads blocked in
/// `wait_for_space`, and async tasks whose wakers `wake_when_space`
/// registered (they never block; their waker is woken instead).
pub(crate) struct QueueCapacity {
    limit: usize,
    queued: AtomicUsize,
    /// Submitters blocked in `wait_for_space` plus registered wakers;
    /// releases look at it so that they take the lock only when someone
    /// waits.
    waiters: AtomicUsize,
    /// The registered wakers; the condition variable's mutex.
    wakers: Mutex<Vec<Waker>>,
    space: Condvar,
}

impl QueueCapacity {
    pub(crate) fn new(limit: usize) -> Self {
        Self {
            limit,
            queued: AtomicUsize::new(0),
            waiters: AtomicUsize::new(0),
            wakers: Mutex::new(Vec::new()),
            space: Condvar::new(),
        }
    }

    pub(crate) fn limit(&self) -> usize {
        self.limit
    }

    /// Takes a place if one is free.
    #[inline]
    pub(crate) fn try_reserve(&self) -> bool {
        let mut current = self.queued.load(Ordering::Relaxed);
        while current < self.limit {
            // SeqCst: in the one order with `release`'s decrement and the
            // waiter's load in `wait_for_space` (the store-load pattern
            // described there).
            match self.queued.compare_exchange_weak(
                current,
                current + 1,
                Ordering::SeqCst,
                Ordering::Relaxed,
            ) {
                Ok(_) => return true,
                Err(actual) => current = actual,
            }
        }
        false
    }

    /// Takes a place even if none is free: for a task that was accepted
    /// already and goes back to an injector, whose place is given back
    /// when a worker takes it.
    pub(crate) fn force_reserve(&self) {
        // Relaxed: no waiter waits for places to be taken.
        self.queued.fetch_add(1, Ordering::Relaxed);
    }

    /// Gives a place back and wakes blocked submitters, if any.
    #[inline]
    pub(crate) fn release(&self) {
        // Store-load against `wait_for_space` (which increments `waiters`,
        // then loads `queued`): with both sides SeqCst, either the waiter
        // sees the freed place, or this load sees the waiter.
        self.queued.fetch_sub(1, Ordering::SeqCst);
        if self.waiters.load(Ordering::SeqCst) > 0 {
            self.wake_all();
        }
    }

    /// Blocks until a place may be free or `give_up` says to stop waiting.
    /// The caller then tries to reserve again.
    pub(crate) fn wait_for_space(&self, give_up: impl Fn() -> bool) {
        let mut guard = unpoison(self.wakers.lock());
        // The other half of `release`'s store-load pair (see there).
        self.waiters.fetch_add(1, Ordering::SeqCst);
        while self.queued.load(Ordering::SeqCst) >= self.limit && !give_up() {
            guard = unpoison(self.space.wait(guard));
        }
        self.waiters.fetch_sub(1, Ordering::SeqCst);
    }

    /// Has `waker` woken once a place may be free (or at shutdown, through
    /// `wake_all`), without blocking. Woken at once if a place is free
    /// already, so a submitter that was refused, registers, then tries
    /// again never misses a place freed in between.
    pub(crate) fn wake_when_space(&self, waker: &Waker) {
        let mut wakers = unpoison(self.wakers.lock());
        if !wakers.iter().any(|w| w.will_wake(waker)) {
            wakers.push(waker.clone());
            // The other half of `release`'s store-load pair (see there):
            // counted as a waiter until `wake_all` takes the waker.
            self.waiters.fetch_add(1, Ordering::SeqCst);
        }
        drop(wakers);
        // Store-load with `release`, as in `wait_for_space`: either this
        // sees the freed place, or that release sees the waiter.
        if self.queued.load(Ordering::SeqCst) < self.limit {
            self.wake_all();
        }
    }

    /// Wakes every blocked submitter and every registered waker (a place
    /// was freed, or the runtime is shutting down and they must give up).
    /// All of them, because a woken submitter that gives up would otherwise
    /// strand a freed place. The wakers are woken after the lock is
    /// released, each inside `catch_unwind` (they are the async runtime's
    /// code, and this runs on a worker).
    pub(crate) fn wake_all(&self) {
        let wakers = {
            let mut wakers = unpoison(self.wakers.lock());
            self.space.notify_all();
            std::mem::take(&mut *wakers)
        };
        if wakers.is_empty() {
            return;
        }
        // Relaxed: these wakers stop counting as waiters; a release that
        // still sees them counted only takes the lock for nothing.
        self.waiters.fetch_sub(wakers.len(), Ordering::Relaxed);
        for waker in wakers {
            drop_quietly(std::panic::catch_unwind(std::panic::AssertUnwindSafe(
                || waker.wake(),
            )));
        }
    }
}
