//! The one way a thread waits until work that others run is done: the
//! second half of a `join` taken by a thief, a closure installed on the
//! runtime from outside it, the tasks of a scope. (A join on a task's
//! handle waits on the task's own state word instead: that protocol is
//! rt-handle's, shared by every executor, `JOIN_STATE.md`.)
//!
//! A latch counts pieces of work still out. Whoever brings the count to
//! zero wakes the waiter if it may be parked, through the waiter's
//! `Thread`, which the latch points at. The waiter's latch may be freed the
//! moment the count reads zero (it lives in the waiter's stack frame), so
//! the last setter copies what it needs to wake the waiter *before* its
//! decrement, and every field is an atomic: a setter that still holds
//! `&Latch` while the waiter frees it then holds a reference to
//! interior-mutable bytes only, which Rust allows.

use std::ptr;

use rt_handle::raw::SpinThenPark;

use crate::sync::thread::{self, Thread};
use crate::sync::{AtomicPtr, AtomicUsize, Ordering};

/// In `state`: the waiter announced that it may park, so the setter that
/// brings the count to zero must unpark it.
const SLEEPING: usize = 1;
/// In `state`: one piece of work still out (the count is above the flag).
const ONE: usize = 2;
/// In `state`: the waiter's `Thread` lives in the waiter's frame, so the
/// last setter clones it before its decrement (else the handle outlives
/// every setter: a worker's, kept by its runtime).
const IN_FRAME: usize = 1 << (usize::BITS - 1);

/// A count of pieces of work still out, and who waits for it to reach zero.
pub(crate) struct Latch {
    /// The count times `ONE`, plus `SLEEPING`, plus `IN_FRAME`.
    state: AtomicUsize,
    /// The waiter's thread, set before any setter exists (null: nobody
    /// waits).
    waiter: AtomicPtr<Thread>,
}

// No padding: two words, every byte inside an atomic.
const _: () = assert!(std::mem::size_of::<Latch>() == 2 * std::mem::size_of::<usize>());

impl Latch {
    /// A latch with `count` pieces out and no waiter yet.
    pub(crate) fn new(count: usize) -> Self {
        Self {
            state: AtomicUsize::new(count * ONE),
            waiter: AtomicPtr::new(ptr::null_mut()),
        }
    }

    /// Names the waiter, a worker of a runtime: its `Thread` lives as long
    /// as the runtime, longer than any setter needs it. Called before the
    /// work goes out: the hand-off of the work to its setters publishes it
    /// (so Relaxed).
    pub(crate) fn set_waiter_worker(&self, thread: &Thread) {
        self.waiter
            .store(ptr::from_ref(thread).cast_mut(), Ordering::Relaxed);
    }

    /// Names the waiter, any thread (outside the pool, or a worker of
    /// another runtime) whose `Thread` lives in the waiter's frame: the
    /// last setter clones it before its decrement. Published as
    /// [`set_waiter_worker`](Self::set_waiter_worker)'s is (so Relaxed).
    pub(crate) fn set_waiter_in_frame(&self, thread: &Thread) {
        self.state.fetch_or(IN_FRAME, Ordering::Relaxed);
        self.waiter
            .store(ptr::from_ref(thread).cast_mut(), Ordering::Relaxed);
    }

    /// One more piece of work out (a scope's new task). Only while the
    /// count is above zero: the caller is a piece itself, or the waiter.
    pub(crate) fn add_one(&self) {
        // Relaxed: ordered before the new piece's count-down by the hand-off
        // of the piece itself.
        self.state.fetch_add(ONE, Ordering::Relaxed);
    }

    /// One piece of work is done; the last one wakes the waiter if it may
    /// be parked. Nothing touches the latch after the decrement.
    pub(crate) fn count_down(&self) {
        let wake = self.wake();
        // Release publishes the piece's effects to the waiter; Acquire
        // makes the decrement that reaches zero see every earlier one, and
        // pairs with the waiter's registration of SLEEPING.
        let before = self.state.fetch_sub(ONE, Ordering::AcqRel);
        if before & !(SLEEPING | IN_FRAME) == ONE && before & SLEEPING != 0 {
            match wake {
                Wake::Lasting(thread) => {
                    // A worker's `Thread` lives as long as its runtime, and
                    // every setter runs while the runtime is alive: it is
                    // one of its workers, a thread inside `Runtime::stop`,
                    // or a thread inside the extent of the scope whose
                    // waiter the worker is (the scope's body holds the
                    // runtime until the latch is set).
                    // SAFETY: so the `Thread` behind `thread` is alive.
                    unsafe { (*thread).unpark() }
                }
                Wake::Cloned(thread) => thread.unpark(),
                Wake::Nobody => {}
            }
        }
    }

    /// What waking the waiter takes, read while the latch surely lives.
    fn wake(&self) -> Wake {
        // Relaxed: set before any setter existed (`set_waiter`).
        let thread = self.waiter.load(Ordering::Relaxed);
        if thread.is_null() {
            return Wake::Nobody;
        }
        if self.state.load(Ordering::Relaxed) & IN_FRAME == 0 {
            return Wake::Lasting(thread);
        }
        // SAFETY: the waiter's `Thread` lives in its frame, which does not
        // return before the count reaches zero, after this call.
        Wake::Cloned(unsafe { (*thread).clone() })
    }

    /// Whether the count reached zero. Acquire pairs with the setters'
    /// Release: their work's effects are visible after a `true`.
    #[inline]
    pub(crate) fn is_set(&self) -> bool {
        self.state.load(Ordering::Acquire) & !(SLEEPING | IN_FRAME) == 0
    }

    /// The waiter waits until the latch is set: polls it
    /// ([`SpinThenPark`]), then parks until the last setter unparks it.
    pub(crate) fn wait(&self) {
        if SpinThenPark::poll(|| self.is_set()) {
            return;
        }
        while !self.is_set() {
            self.park_once();
        }
    }

    /// The waiter parks once unless the latch is set; the last setter
    /// unparks it (an unpark before the park leaves a token, so none is
    /// lost). It may return early; the caller loops.
    pub(crate) fn park_once(&self) {
        // An RMW, ordered against the setters' decrements: either it sees
        // the count at zero (and does not park), or the last decrement sees
        // SLEEPING (and unparks). Acquire makes the work visible in the
        // first case.
        if self.state.fetch_or(SLEEPING, Ordering::AcqRel) & !(SLEEPING | IN_FRAME) != 0 {
            thread::park();
        }
    }
}

/// How the last setter wakes the waiter, copied before its decrement.
enum Wake {
    /// Through a `Thread` that outlives the count-down.
    Lasting(*const Thread),
    /// Through a clone of a `Thread` that lives in the waiter's frame.
    Cloned(Thread),
    Nobody,
}
