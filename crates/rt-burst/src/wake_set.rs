//! The workers a burst must wake, each once, after all its items are queued.

use crate::pool::Worker;

/// A set of worker indices whose wake-up this producer claimed
/// (`Mailbox::claim_wake` returned true). Dropping it unparks each of them
/// once, in index order, so the wake-ups happen even if the burst's iterator
/// panics half way: a claimed worker is never left parked with work queued.
///
/// The first 64 workers live in one word; more spill to a vector that is only
/// allocated when a worker past 63 is claimed.
pub(crate) struct WakeSet<'a, T> {
    workers: &'a [Worker<T>],
    low: u64,
    high: Vec<u64>,
}

impl<'a, T> WakeSet<'a, T> {
    pub(crate) fn new(workers: &'a [Worker<T>]) -> Self {
        Self {
            workers,
            low: 0,
            high: Vec::new(),
        }
    }

    pub(crate) fn insert(&mut self, worker: usize) {
        if worker < 64 {
            self.low |= 1 << worker;
        } else {
            let (word, bit) = ((worker - 64) / 64, (worker - 64) % 64);
            if self.high.len() <= word {
                self.high.resize(word + 1, 0);
            }
            self.high[word] |= 1 << bit;
        }
    }
}

impl<T> Drop for WakeSet<'_, T> {
    fn drop(&mut self) {
        let words = std::iter::once(self.low).chain(self.high.iter().copied());
        for (k, mut word) in words.enumerate() {
            while word != 0 {
                let bit = word.trailing_zeros() as usize;
                word &= word - 1;
                let worker = &self.workers[k * 64 + bit];
                worker.mailbox.unpark(&worker.thread);
            }
        }
    }
}
