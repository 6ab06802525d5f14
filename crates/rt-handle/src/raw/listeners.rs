//! Which executors want to hear, at once, of a cancellation of a task they
//! accepted: a small registry from [`PoolId`] to a [`CancelListener`].
//!
//! A task cancelled through its handle or its token while it waits in a
//! queue ends there and then (its handle says `Cancelled`), but its queue
//! entry stays in the executor's queue until a worker takes it. An executor
//! that registers a listener hears of the cancellation from the canceller
//! itself, before `cancel` returns: it counts the task then, and can leave
//! the stale entry out of its queue gauges. The canceller says so in its
//! claim of the task (`TOLD`, `JOIN_STATE.md`, "Who counts a
//! cancellation"), so that the executor's worker that later takes the
//! entry counts nothing (it tells the listener that the entry is gone
//! instead). An executor that registers nothing counts the cancellation
//! when it takes the entry, as before.
//!
//! The registry holds a [`Weak`] reference to each listener: registering
//! keeps nothing alive, and a listener that cannot be upgraded any more
//! belongs to an executor that is gone (nothing to count). An executor
//! registers when it starts and deregisters when its shared state is
//! dropped, so that a registered [`PoolId`] (the address of that state) is
//! never the address of anything else.
//!
//! Lookups take one global lock, only on the paths of a cancellation and of
//! a stale entry taken after one, never on a task's spawn or run.
//!
//! ```
//! use std::sync::atomic::{AtomicUsize, Ordering};
//! use std::sync::{Arc, Weak};
//! use rt_handle::raw::{listeners, CancelListener, JobControl, PoolId};
//! use rt_handle::{Job, Priority, RunOutcome, TaskStatus};
//!
//! #[derive(Default)]
//! struct Counts { cancelled: AtomicUsize, queued_cancelled: AtomicUsize }
//!
//! impl CancelListener for Counts {
//!     fn cancelled_while_queued(&self, _class: Priority) {
//!         self.queued_cancelled.fetch_add(1, Ordering::Relaxed);
//!         self.cancelled.fetch_add(1, Ordering::Release);
//!     }
//!     fn cancelled_entry_taken(&self, _class: Priority) {
//!         self.queued_cancelled.fetch_sub(1, Ordering::Relaxed);
//!     }
//! }
//!
//! let pool_state = Arc::new(0_u64); // an executor's shared state
//! let pool = PoolId::of(&pool_state);
//! let counts = Arc::new(Counts::default());
//! let weak: Weak<dyn CancelListener> = Arc::downgrade(&counts) as _;
//! listeners::register(pool, weak);
//!
//! let (job, handle) = Job::new(|| 1);
//! job.set_owner(pool, Priority::Normal); // the executor accepted it
//! assert!(handle.cancel());
//! // Counted by the canceller, before `cancel` returned.
//! assert_eq!(handle.status(), TaskStatus::Cancelled);
//! assert_eq!(counts.cancelled.load(Ordering::Acquire), 1);
//! assert_eq!(counts.queued_cancelled.load(Ordering::Relaxed), 1);
//! // The stale entry: nothing to count, and it leaves the gauge.
//! assert_eq!(job.run(), RunOutcome::Stale);
//! assert_eq!(counts.queued_cancelled.load(Ordering::Relaxed), 0);
//! listeners::deregister(pool);
//! ```

use std::sync::{Arc, Weak};

use rt_queue::Priority;

use crate::ids::PoolId;
use crate::poison::unpoison;
use crate::sync::Mutex;

/// What an executor hears of the cancellations of tasks it accepted (see
/// the [module docs](self)). Both methods are called on the canceller's
/// thread, possibly while a [`CancellationToken`](crate::CancellationToken)'s
/// lock is held: they must only count (atomic operations), never block,
/// panic, or call back into tasks, handles or tokens.
pub trait CancelListener: Send + Sync {
    /// A task this executor accepted at `class` was cancelled while it
    /// waited in a queue; the caller counts it here, once, before its
    /// `cancel` returns. Its queue entry is still queued.
    ///
    /// The count must be published with Release (or stronger), and the
    /// executor's metrics read it with Acquire before they read their
    /// submission counts: the canceller read the task's owner with Acquire,
    /// which the executor wrote with Release after counting the task as
    /// submitted, so a snapshot that sees this count sees the submission.
    fn cancelled_while_queued(&self, class: Priority);

    /// The queue entry of a task that [`cancelled_while_queued`] counted
    /// was taken out of the queue (by a worker, or a drain): it is no
    /// longer queued. Called once per such task, after that call.
    ///
    /// [`cancelled_while_queued`]: Self::cancelled_while_queued
    fn cancelled_entry_taken(&self, class: Priority);
}

/// The registered listeners, by pool: few (one per running executor), so a
/// vector searched from the front.
type Registry = Vec<(PoolId, Weak<dyn CancelListener>)>;

#[cfg(not(loom))]
static REGISTRY: Mutex<Registry> = Mutex::new(Vec::new());

// Under loom, a lazy static of loom's (its mutex is loom's, checked like
// every other lock of the crate; it is made afresh for every execution of
// a model). The listeners stay `std`'s `Weak`: loom has no weak reference,
// and the registry's promise rests on the lock, not on the count's
// orderings.
#[cfg(loom)]
loom::lazy_static! {
    static ref REGISTRY: Mutex<Registry> = Mutex::new(Vec::new());
}

/// Registers `listener` for the tasks `pool` accepts: from now on a
/// cancellation of such a task tells it. A second registration of the same
/// pool replaces the first.
pub fn register(pool: PoolId, listener: Weak<dyn CancelListener>) {
    let mut registry = unpoison(REGISTRY.lock());
    // Entries of executors that are gone without deregistering (none of the
    // workspace's) go on the way.
    registry.retain(|(id, weak)| *id != pool && weak.strong_count() > 0);
    registry.push((pool, listener));
}

/// Removes the listener of `pool`, if one is registered. Called when the
/// pool's shared state is dropped, before its address can be reused.
pub fn deregister(pool: PoolId) {
    let removed = {
        let mut registry = unpoison(REGISTRY.lock());
        registry
            .iter()
            .position(|(id, _)| *id == pool)
            .map(|at| registry.swap_remove(at))
    };
    // Dropped outside the lock.
    drop(removed);
}

/// The listener of `pool`, if it registered one and is still alive.
pub(crate) fn find(pool: PoolId) -> Option<Arc<dyn CancelListener>> {
    let registry = unpoison(REGISTRY.lock());
    registry
        .iter()
        .find(|(id, _)| *id == pool)
        .and_then(|(_, weak)| weak.upgrade())
}

/// The listeners a canceller of many tasks has looked up: one lookup per
/// pool and call, not per task.
#[derive(Default)]
pub(crate) struct Found {
    seen: Vec<(PoolId, Option<Arc<dyn CancelListener>>)>,
}

impl Found {
    /// The listener of `pool`, looked up once.
    pub(crate) fn get(&mut self, pool: PoolId) -> Option<&Arc<dyn CancelListener>> {
        let at = match self.seen.iter().position(|(id, _)| *id == pool) {
            Some(at) => at,
            None => {
                self.seen.push((pool, find(pool)));
                self.seen.len() - 1
            }
        };
        self.seen[at].1.as_ref()
    }
}
