//! The gate external submissions pass through; closing it starts shutdown.
//! Protocol and proof: `SHUTDOWN.md`.

use crate::idle::IdleSignal;
use crate::sync::{AtomicU64, AtomicUsize, Ordering};

const CLOSED: usize = 1;
const ONE_SUBMITTER: usize = 2;

/// One word: a `CLOSED` bit and the number of external submitters that are
/// between their check of the bit and the end of their push.
///
/// Workers may exit only when the word reads exactly `CLOSED` (closed, with
/// no push still in flight), so a submission that passed the gate before it
/// closed is always seen by the workers' final scan.
///
/// Every external submission writes the gate twice: on lines of its own, so
/// that those writes never evict the read-mostly state (hooks, flags) that
/// workers read at every task.
#[repr(align(128))]
pub(crate) struct SubmitGate {
    state: AtomicUsize,
    /// External submissions let through: the `submitted` metric's share that
    /// no worker counts. Lives beside `state`: both are written only by
    /// submitters, so they share one cache line that workers rarely read.
    accepted: AtomicU64,
}

/// What a submitter must do after leaving the gate.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum AfterLeave {
    /// Nothing beyond the usual doorbell ring.
    Nothing,
    /// The gate is closed and this was the last submitter in flight: wake
    /// every idle worker so that they re-check whether they may exit.
    WakeAll,
}

impl SubmitGate {
    pub(crate) fn new() -> Self {
        Self {
            state: AtomicUsize::new(0),
            accepted: AtomicU64::new(0),
        }
    }

    /// Enters the gate. `Err` means it is closed: the submission must be
    /// refused (and the caller must act on the [`AfterLeave`]).
    #[inline]
    pub(crate) fn enter(&self) -> Result<(), AfterLeave> {
        // An RMW, so it is ordered against `close`'s `fetch_or` on the same
        // word: either it sees CLOSED and is refused, or its increment is
        // in the word before CLOSED is, and workers read the gate as busy
        // until the matching `exit`. Relaxed would do for that; SeqCst costs
        // nothing more on an RMW and keeps the gate's accesses in the single
        // order that the doorbell's proof reasons about.
        let prev = self.state.fetch_add(ONE_SUBMITTER, Ordering::SeqCst);
        if prev & CLOSED == 0 {
            Ok(())
        } else {
            Err(self.exit())
        }
    }

    /// Counts an admitted submission as accepted. Called *before* its task
    /// becomes visible, so that no worker can finish the task before it is
    /// counted: a metrics snapshot reads completions first and submissions
    /// after, and the push, the worker's pop and its completion count order
    /// this increment before any snapshot that sees that completion.
    #[inline]
    pub(crate) fn count_accepted(&self) {
        self.accepted.fetch_add(1, Ordering::Relaxed);
    }

    /// Leaves the gate after the task was pushed.
    #[inline]
    pub(crate) fn leave(&self) -> AfterLeave {
        self.exit()
    }

    /// Leaves the gate without pushing (a bounded queue was full).
    #[inline]
    pub(crate) fn leave_refused(&self) -> AfterLeave {
        self.exit()
    }

    #[inline]
    fn exit(&self) -> AfterLeave {
        // A release (SeqCst is at least that): the push happens-before any
        // acquire load that reads this decrement or a later value, which is
        // what `is_closed_and_quiet` relies on.
        let prev = self.state.fetch_sub(ONE_SUBMITTER, Ordering::SeqCst);
        if prev == CLOSED | ONE_SUBMITTER {
            AfterLeave::WakeAll
        } else {
            AfterLeave::Nothing
        }
    }

    /// Closes the gate; true if this call closed it.
    pub(crate) fn close(&self) -> bool {
        // Ordered against `enter` by being an RMW of the same word (see
        // there). The doorbell mutex that `begin_shutdown` takes next orders
        // it before any later registration's read of the gate.
        self.state.fetch_or(CLOSED, Ordering::SeqCst) & CLOSED == 0
    }

    pub(crate) fn is_closed(&self) -> bool {
        // Pairs with `close` only through the word itself: a read that
        // misses a concurrent close is as good as one made just before it.
        self.state.load(Ordering::SeqCst) & CLOSED != 0
    }

    /// Closed, and no submitter is between its check and its push.
    pub(crate) fn is_closed_and_quiet(&self) -> bool {
        // An acquire (SeqCst is at least that) pairing with the release of
        // `exit`: having read "closed and quiet", the caller's next scan
        // sees every task pushed by a submitter that was let in.
        self.state.load(Ordering::SeqCst) == CLOSED
    }

    pub(crate) fn accepted(&self) -> u64 {
        // Acquire pairs with nothing in particular: the count is exact by
        // the ordering argument of `count_accepted`, which needs only that
        // this load comes after the completion counts' acquire loads.
        self.accepted.load(Ordering::Acquire)
    }
}

/// Passes the gate for one submission: true if admitted. A refused
/// submitter still acts on the gate's [`AfterLeave`].
pub(crate) fn admit(gate: &SubmitGate, idle: &IdleSignal) -> bool {
    match gate.enter() {
        Ok(()) => true,
        Err(after) => {
            after_leave(idle, after);
            false
        }
    }
}

/// What a submission is: a task, counted in the metrics, or a frame
/// installed from outside (`install`), which is not.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Submission {
    Task,
    Frame,
}

/// What an admitted submitter does: count the task (if it is one), make it
/// visible with `push`, leave the gate, ring the doorbell (`queued`: the
/// length of the queue it pushed to, asked only when a ring may wait for a
/// worker on its way). The one sequence the runtime and the loom models both
/// run.
#[inline]
pub(crate) fn publish(
    gate: &SubmitGate,
    idle: &IdleSignal,
    kind: Submission,
    push: impl FnOnce(),
    queued: impl FnOnce() -> usize,
) {
    if kind == Submission::Task {
        gate.count_accepted();
    }
    push();
    let after = gate.leave();
    idle.notify_one(queued);
    after_leave(idle, after);
}

/// Acts on what leaving the gate requires.
#[inline]
pub(crate) fn after_leave(idle: &IdleSignal, after: AfterLeave) {
    if after == AfterLeave::WakeAll {
        idle.notify_all();
    }
}
