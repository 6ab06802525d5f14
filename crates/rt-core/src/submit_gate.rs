//! The gate external submissions pass through; closing it starts shutdown.
//! Protocol and proof: `SHUTDOWN.md`.

use crate::sync::{AtomicU64, AtomicUsize, Ordering};

const CLOSED: usize = 1;
const ONE_SUBMITTER: usize = 2;

/// One word: a `CLOSED` bit and the number of external submitters that are
/// between their check of the bit and the end of their push.
///
/// Workers may exit only when the word reads exactly `CLOSED` (closed, with
/// no push still in flight), so a submission that passed the gate before it
/// closed is always seen by the workers' final scan.
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
        let prev = self.state.fetch_add(ONE_SUBMITTER, Ordering::SeqCst);
        if prev & CLOSED == 0 {
            Ok(())
        } else {
            Err(self.exit())
        }
    }

    /// Leaves the gate after the task was pushed, counting it as accepted.
    #[inline]
    pub(crate) fn leave_accepted(&self) -> AfterLeave {
        self.accepted.fetch_add(1, Ordering::Relaxed);
        self.exit()
    }

    /// Leaves the gate without pushing (a bounded queue was full).
    #[inline]
    pub(crate) fn leave_refused(&self) -> AfterLeave {
        self.exit()
    }

    #[inline]
    fn exit(&self) -> AfterLeave {
        // SeqCst (a release at least): the push happens-before any load that
        // sees this decrement, so a worker that reads the gate as quiet then
        // sees the task in its queue scan.
        let prev = self.state.fetch_sub(ONE_SUBMITTER, Ordering::SeqCst);
        if prev == CLOSED | ONE_SUBMITTER {
            AfterLeave::WakeAll
        } else {
            AfterLeave::Nothing
        }
    }

    /// Closes the gate; true if this call closed it.
    pub(crate) fn close(&self) -> bool {
        self.state.fetch_or(CLOSED, Ordering::SeqCst) & CLOSED == 0
    }

    pub(crate) fn is_closed(&self) -> bool {
        self.state.load(Ordering::SeqCst) & CLOSED != 0
    }

    /// Closed, and no submitter is between its check and its push.
    pub(crate) fn is_closed_and_quiet(&self) -> bool {
        self.state.load(Ordering::SeqCst) == CLOSED
    }

    pub(crate) fn accepted(&self) -> u64 {
        self.accepted.load(Ordering::Acquire)
    }
}
