//! Helpers shared by the integration tests.
#![allow(dead_code)]

use std::sync::mpsc;
use std::time::{Duration, Instant};

/// `n` deadlines spread pseudo-randomly (but reproducibly) over `span` from
/// `start`.
pub fn spread_deadlines(start: Instant, n: usize, span: Duration, seed: u64) -> Vec<Instant> {
    let mut x = seed | 1;
    (0..n)
        .map(|_| {
            // xorshift64: good enough to scatter deadlines.
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let nanos = x % span.as_nanos().max(1) as u64;
            start + Duration::from_nanos(nanos)
        })
        .collect()
}

/// A one-shot gate: a callback blocks in `wait` until the test calls `open`.
pub fn gate() -> (Opener, Waiter) {
    let (tx, rx) = mpsc::channel();
    (Opener(tx), Waiter(rx))
}

/// The test's side of a [`gate`].
pub struct Opener(mpsc::Sender<()>);
/// The callback's side of a [`gate`].
pub struct Waiter(mpsc::Receiver<()>);

impl Opener {
    pub fn open(&self) {
        let _ = self.0.send(());
    }
}

impl Waiter {
    pub fn wait(&self) {
        let _ = self.0.recv();
    }
}

/// Silences panic messages printed by threads whose name starts with
/// `prefix` (the tests' expected panics), keeping every other thread's.
/// The first call in a test binary decides the prefix.
pub fn silence_panics_on(prefix: &'static str) {
    static ONCE: std::sync::Once = std::sync::Once::new();
    ONCE.call_once(|| {
        let default = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            let quiet = std::thread::current()
                .name()
                .is_some_and(|name| name.starts_with(prefix));
            if !quiet {
                default(info);
            }
        }));
    });
}

/// Occupies `timer`'s thread with a callback that waits for the returned
/// opener: until it is opened, no other callback of `timer` can start, so a
/// test can act "before the deadline" without racing the clock.
pub fn hold_timer(timer: &rt_timer::DelayedTaskScheduler) -> Opener {
    let (opener, waiter) = gate();
    let (started_tx, started_rx) = mpsc::channel();
    timer
        .schedule(Duration::ZERO, move || {
            let _ = started_tx.send(());
            waiter.wait();
        })
        .unwrap();
    started_rx.recv().unwrap();
    opener
}
