//! A worker's mailbox: work addressed to that one worker (a broadcast's
//! share), which only it may run. Protocol: `BROADCAST.md`.

use std::collections::VecDeque;

use rt_handle::raw::unpoison;
use rt_queue::Priority;

use crate::sync::{AtomicUsize, Mutex, Ordering};
use crate::worker::entry::FrameRef;

/// One piece of work for one worker: a frame (a broadcast's, which finds
/// the worker's index through the worker thread-local when it runs) and
/// the priority its unit runs at.
pub(crate) struct Letter {
    pub(crate) frame: FrameRef,
    pub(crate) priority: Priority,
}

/// Letters for one worker, oldest first, and their count: the worker reads
/// the count at every scan for work (one load of a word nobody writes
/// while no broadcast is on its way), and takes the lock only when it is
/// not zero. A worker that will never run (its thread was never started)
/// has its mailbox closed: a post there hands the letter back.
pub(crate) struct Mailbox {
    count: AtomicUsize,
    letters: Mutex<Letters>,
}

struct Letters {
    queue: VecDeque<Letter>,
    closed: bool,
}

impl Mailbox {
    pub(crate) fn new() -> Self {
        Self {
            count: AtomicUsize::new(0),
            letters: Mutex::new(Letters {
                queue: VecDeque::new(),
                closed: false,
            }),
        }
    }

    /// Leaves `letter` for the worker, or hands it back if the worker will
    /// never run. The caller then rings the worker (`IdleSignal::ring`) and
    /// unparks its thread, in that order, so that whichever way the worker
    /// waits, it looks again (`BROADCAST.md`).
    pub(crate) fn post(&self, letter: Letter) -> Result<(), Letter> {
        let mut letters = unpoison(self.letters.lock());
        if letters.closed {
            return Err(letter);
        }
        letters.queue.push_back(letter);
        // SeqCst: in the single order of the doorbell's proof, before the
        // ring that follows; a worker that registered as asleep after that
        // ring re-checks with a fence and sees this count (`sees_work`).
        self.count.fetch_add(1, Ordering::SeqCst);
        Ok(())
    }

    /// The count of letters `has_mail` reads, for the worker that owns this
    /// mailbox to read it itself at every scan (`WorkerContext::has_mail`),
    /// as `has_mail` does.
    pub(crate) fn count_word(&self) -> &AtomicUsize {
        &self.count
    }

    /// Whether a letter waits. A stale `false` only delays the worker to
    /// its next look; the ring and the unpark that follow a post make sure
    /// there is one (`BROADCAST.md`).
    #[inline(always)]
    pub(crate) fn has_mail(&self) -> bool {
        rt_queue::path_step!();
        // Relaxed for the scan's hint; the letter itself is read under the
        // lock. The re-check before sleeping comes after a SeqCst fence.
        self.count.load(Ordering::Relaxed) != 0
    }

    /// The oldest letter, if any.
    pub(crate) fn take(&self) -> Option<Letter> {
        if !self.has_mail() {
            return None;
        }
        let mut letters = unpoison(self.letters.lock());
        let letter = letters.queue.pop_front()?;
        self.count.fetch_sub(1, Ordering::Relaxed);
        Some(letter)
    }

    /// Closes the mailbox of a worker that will never run, and returns the
    /// letters left in it, for their senders to be told.
    pub(crate) fn close(&self) -> VecDeque<Letter> {
        let mut letters = unpoison(self.letters.lock());
        letters.closed = true;
        self.count.store(0, Ordering::Relaxed);
        std::mem::take(&mut letters.queue)
    }
}
