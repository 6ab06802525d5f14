//! Where the handlers of one system write their wake-up latencies.

use std::sync::atomic::{AtomicU32, AtomicU64, AtomicUsize, Ordering};
use std::time::{Duration, Instant};

static NEXT_TAG: AtomicU32 = AtomicU32::new(0);

thread_local! {
    /// A small number naming the handler's thread, to count how many
    /// different threads handled the items of one burst.
    static TAG: u32 = NEXT_TAG.fetch_add(1, Ordering::Relaxed);
}

/// One slot per handler call of a burst. Every system records through the
/// same two atomic increments and one store, so recording costs the same
/// everywhere.
pub struct Recorder {
    claimed: AtomicUsize,
    done: AtomicUsize,
    slots: Box<[AtomicU64]>,
    threads: Box<[AtomicU32]>,
}

impl Recorder {
    /// A recorder for bursts of up to `k` handler calls, leaked so that the
    /// `'static` closures of the pools can use it without an `Arc` (whose
    /// shared reference count would be one more contended line per call).
    pub fn leak(k: usize) -> &'static Self {
        Box::leak(Box::new(Self {
            claimed: AtomicUsize::new(0),
            done: AtomicUsize::new(0),
            slots: (0..k).map(|_| AtomicU64::new(0)).collect(),
            threads: (0..k).map(|_| AtomicU32::new(0)).collect(),
        }))
    }

    /// Called by a handler: the latency is this clock reading minus `sent`,
    /// the producer's clock reading right before its send call.
    #[inline]
    pub fn record(&self, sent: Instant) {
        let ns = sent.elapsed().as_nanos() as u64;
        let i = self.claimed.fetch_add(1, Ordering::Relaxed);
        if let Some(slot) = self.slots.get(i) {
            slot.store(ns, Ordering::Relaxed);
            self.threads[i].store(TAG.with(|t| *t), Ordering::Relaxed);
        }
        self.done.fetch_add(1, Ordering::Release);
    }

    /// Waits until `expected` handler calls recorded (normally they have, as
    /// the producer slept since the burst), appends their latencies to
    /// `into`, resets for the next burst, and returns how many different
    /// threads ran the handlers.
    pub fn take(&self, expected: usize, into: &mut Vec<u64>, system: &str) -> usize {
        let deadline = Instant::now() + Duration::from_secs(10);
        while self.done.load(Ordering::Acquire) < expected {
            assert!(
                Instant::now() < deadline,
                "{system}: only {} of {expected} handlers ran within 10 s",
                self.done.load(Ordering::Acquire)
            );
            std::thread::sleep(Duration::from_micros(200));
        }
        assert_eq!(
            self.done.load(Ordering::Acquire),
            expected,
            "{system}: more handler calls than items sent"
        );
        into.extend(
            self.slots[..expected]
                .iter()
                .map(|s| s.load(Ordering::Relaxed)),
        );
        let mut tags: Vec<u32> = self.threads[..expected]
            .iter()
            .map(|t| t.load(Ordering::Relaxed))
            .collect();
        tags.sort_unstable();
        tags.dedup();
        self.claimed.store(0, Ordering::Relaxed);
        self.done.store(0, Ordering::Relaxed);
        tags.len()
    }
}
