//! The counters of the release protocol (`run/RUN.md`), each one word:
//! when a node becomes ready, who runs a node that is activated again, when
//! a run has no work left, how its waiter hears of it, and who gives back a
//! permit one node took for another. Graph runs and
//! pipelines use them; the loom model (`loom_release.rs`) checks these very
//! types.

use std::task::Waker;

use rt_handle::raw::{drop_quietly, Waiter, Wanted};

use crate::sync::{thread, AtomicBool, AtomicU32, AtomicU64, AtomicUsize, Mutex, Ordering};

/// Completions a node still waits for before it is ready: its strong
/// prerequisites (`add_task_after`), counted down once per completion.
///
/// The completion that brings it to zero *releases* the node: its caller
/// starts the node (runs it next, or submits it). The decrement is `AcqRel`:
/// its Release half publishes what the completing prerequisite wrote (its
/// output) and its Acquire half, through the release sequence the other
/// decrements continue, makes every prerequisite's writes visible to the
/// releaser, which starts the node after it.
#[derive(Debug)]
pub(crate) struct JoinCounter(AtomicU32);

impl JoinCounter {
    /// Armed for `in_degree` completions.
    pub(crate) fn new(in_degree: u32) -> Self {
        Self(AtomicU32::new(in_degree))
    }

    /// One prerequisite completed; true if that released the node.
    #[inline]
    pub(crate) fn count_down(&self) -> bool {
        self.0.fetch_sub(1, Ordering::AcqRel) == 1
    }

    /// Arms the counter again after it released its node, in a run where
    /// no other completion can reach it before the run ends (a graph without
    /// condition nodes runs each node at most once). Relaxed: the next run
    /// starts after this one ended, which orders the store before it.
    #[inline]
    pub(crate) fn rearm_alone(&self, in_degree: u32) {
        self.0.store(in_degree, Ordering::Relaxed);
    }

    /// Arms the counter again after it released its node, in a run where
    /// completions of the node's next round may already be counting down
    /// (a loop): they took the count below zero (it wraps), so the arming
    /// adds instead of storing. If every completion of the next round came
    /// in meanwhile, the count is back at zero and nobody saw it reach
    /// zero: true, and the caller releases the node again.
    #[inline]
    pub(crate) fn rearm_shared(&self, in_degree: u32) -> bool {
        self.0
            .fetch_add(in_degree, Ordering::AcqRel)
            .wrapping_add(in_degree)
            == 0
    }

    /// Arms the counter for a new run (nothing else touches it then).
    pub(crate) fn reset(&self, in_degree: u32) {
        self.0.store(in_degree, Ordering::Relaxed);
    }
}

/// Activations of one node not yet finished, in a graph with condition
/// nodes, where a node may be activated again (a branch taken, a loop)
/// while it runs. A node's closure never runs twice at once: the activation
/// that finds the count at zero runs it; later ones only count, and the
/// runner runs the node once more for each of them, one after another.
#[derive(Debug)]
pub(crate) struct ActivationCount(AtomicU32);

impl ActivationCount {
    pub(crate) fn new() -> Self {
        Self(AtomicU32::new(0))
    }

    /// The node was activated; true if the caller is to run it (nobody
    /// runs it now). AcqRel: the Acquire half orders the caller's run after
    /// the previous runner's `finish`, whose Release published its writes.
    #[inline]
    pub(crate) fn activate(&self) -> bool {
        self.0.fetch_add(1, Ordering::AcqRel) == 0
    }

    /// The runner finished one activation; true if another one came in
    /// meanwhile, which the runner then runs too.
    #[inline]
    pub(crate) fn finish(&self) -> bool {
        self.0.fetch_sub(1, Ordering::AcqRel) > 1
    }

    /// Whether the node has no activation left (a run's end checks it).
    pub(crate) fn is_idle(&self) -> bool {
        self.0.load(Ordering::Acquire) == 0
    }
}

/// Units of work a run still has out: each node activation that is queued,
/// running, or waiting for a permit holds one; so does a subgraph still
/// running, and the caller while it starts the run. The run ends when the
/// count reaches zero, and only then: so whoever holds a unit may use the
/// run, its graph and its executor.
///
/// Every job of the run writes it, from every worker: it sits alone on its
/// cache lines (two, for the adjacent-line prefetcher), so that the fields
/// each node reads next to it are not invalidated by each write.
#[derive(Debug)]
#[repr(align(128))]
pub(crate) struct Pending(AtomicUsize);

impl Pending {
    /// One unit: the caller's, while it starts the run.
    pub(crate) fn new() -> Self {
        Self(AtomicUsize::new(1))
    }

    /// Takes `units` more, for work about to be handed out. The caller
    /// holds a unit, so the count cannot reach zero meanwhile: Relaxed
    /// suffices (as for `Arc::clone`).
    #[inline]
    pub(crate) fn add(&self, units: usize) {
        if units > 0 {
            self.0.fetch_add(units, Ordering::Relaxed);
        }
    }

    /// Gives one unit back; true for the last one: the run has ended, and
    /// the caller does its end. AcqRel: each unit's Release publishes what
    /// its work wrote; the last one's Acquire sees all of it.
    #[inline]
    pub(crate) fn done(&self) -> bool {
        self.0.fetch_sub(1, Ordering::AcqRel) == 1
    }
}

/// The permits of one hold that one run keeps (`run/permits.rs`): taken by
/// the node that takes them, kept once it ran, until the node that gives
/// them back ran. A count, and a flag set once that node is known not to
/// run in this run (*stranded*): then every kept permit is given back at
/// once, and the taking node gives its own back when it ran instead of
/// keeping it. Every permit counted in is taken out exactly once: by the
/// node giving it back, by the stranding, or by the end of the run.
#[derive(Debug)]
pub(crate) struct HoldCount(AtomicU64);

/// The flag: the node giving the permits back will not run.
const STRANDED: u64 = 1 << 63;

impl HoldCount {
    pub(crate) fn new() -> Self {
        Self(AtomicU64::new(0))
    }

    /// The taking node ran: keeps its permit in the hold. False if the hold
    /// is stranded: the caller gives the permit back itself.
    pub(crate) fn keep(&self) -> bool {
        let mut current = self.0.load(Ordering::Acquire);
        loop {
            if current & STRANDED != 0 {
                return false;
            }
            match self.0.compare_exchange_weak(
                current,
                current + 1,
                Ordering::AcqRel,
                Ordering::Acquire,
            ) {
                Ok(_) => return true,
                Err(now) => current = now,
            }
        }
    }

    /// The giving node ran: takes one kept permit out, if there is one (the
    /// caller gives it back).
    pub(crate) fn take_one(&self) -> bool {
        let mut current = self.0.load(Ordering::Acquire);
        loop {
            if current & !STRANDED == 0 {
                return false;
            }
            match self.0.compare_exchange_weak(
                current,
                current - 1,
                Ordering::AcqRel,
                Ordering::Acquire,
            ) {
                Ok(_) => return true,
                Err(now) => current = now,
            }
        }
    }

    /// The giving node will not run: takes every kept permit out (the
    /// caller gives them back), and turns later `keep`s away.
    pub(crate) fn strand(&self) -> u64 {
        self.0.swap(STRANDED, Ordering::AcqRel) & !STRANDED
    }

    /// The run ended: takes every permit still kept out.
    pub(crate) fn take_all(&self) -> u64 {
        self.0.swap(0, Ordering::AcqRel) & !STRANDED
    }
}

/// The end of a run, told to whoever waits for it: a blocked thread or an
/// awaiting task (rt-handle's [`Waiter`], the workspace's one waiter type).
///
/// The setter stores the flag, then takes the registered waiter under the
/// mutex and wakes it; the waiter registers under the mutex, then reads the
/// flag. If the setter's lock comes first, the flag was stored before it,
/// so the waiter's read after its own lock sees it; otherwise the setter
/// finds the waiter and wakes it (an `unpark` before the `park` leaves a
/// token; a waker woken before the task returns `Pending` polls it again).
#[derive(Debug)]
pub(crate) struct EndSignal {
    done: AtomicBool,
    waiter: Mutex<Option<Waiter>>,
}

impl EndSignal {
    pub(crate) fn new() -> Self {
        Self {
            done: AtomicBool::new(false),
            waiter: Mutex::new(None),
        }
    }

    /// True once the run has ended. Acquire: pairs with `set`'s Release,
    /// so everything the run did is visible after it.
    pub(crate) fn is_set(&self) -> bool {
        self.done.load(Ordering::Acquire)
    }

    /// Tells the waiter that the run has ended.
    pub(crate) fn set(&self) {
        self.done.store(true, Ordering::Release);
        let waiter = self.waiter.lock().unwrap_or_else(|e| e.into_inner()).take();
        if let Some(waiter) = waiter {
            // A waker is the async runtime's code, maybe on a worker: its
            // panic is caught by `wake`, and one in its drop here.
            waiter.wake();
            drop_quietly(waiter);
        }
    }

    /// Blocks the calling thread until `set`.
    pub(crate) fn wait(&self) {
        if self.is_set() {
            return;
        }
        *self.waiter.lock().unwrap_or_else(|e| e.into_inner()) =
            Some(Waiter::new(&Wanted::CurrentThread));
        while !self.is_set() {
            thread::park();
        }
    }

    /// Blocks the calling thread until `set`, or until `more` says there
    /// is something else to do (checked after each wake-up; whoever makes
    /// it true unparks this thread, or `at_most` later it looks anyway).
    pub(crate) fn wait_unless(&self, more: impl Fn() -> bool, at_most: std::time::Duration) {
        if self.is_set() {
            return;
        }
        *self.waiter.lock().unwrap_or_else(|e| e.into_inner()) =
            Some(Waiter::new(&Wanted::CurrentThread));
        if !self.is_set() && !more() {
            #[cfg(not(loom))]
            thread::park_timeout(at_most);
            #[cfg(loom)]
            {
                let _ = at_most;
                thread::park();
            }
        }
    }

    /// Registers `waker` to be woken by `set`; false if the run has ended
    /// already (then nothing is registered).
    pub(crate) fn register(&self, waker: &Waker) -> bool {
        {
            let mut slot = self.waiter.lock().unwrap_or_else(|e| e.into_inner());
            let wanted = Wanted::Waker(waker);
            if !slot.as_ref().is_some_and(|old| old.is(&wanted)) {
                *slot = Some(Waiter::new(&wanted));
            }
        }
        !self.is_set()
    }
}
