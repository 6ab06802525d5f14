//! Helpers shared by the integration tests.
#![allow(dead_code)]

use std::time::{Duration, Instant};

pub use rt_testkit::{Gate, Latch};

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

/// Silences panic messages printed by threads whose name starts with
/// `prefix` (the tests' expected panics), keeping every other thread's.
/// The first call in a test binary decides the prefix.
pub fn silence_panics_on(prefix: &'static str) {
    rt_testkit::silence_panics_matching(move |_| {
        std::thread::current()
            .name()
            .is_some_and(|name| name.starts_with(prefix))
    });
}

/// A callback body that counts down the returned latch as it starts, then
/// waits for the returned gate before it returns `value`: a test holds a
/// thread with it, knows when it is held, and chooses when to free it.
pub fn gated<T: Send + 'static>(value: T) -> (Gate, Latch, impl FnOnce() -> T + Send + 'static) {
    let (gate, started) = (Gate::new(), Latch::new(1));
    let (waiter, s) = (gate.clone(), started.clone());
    let body = move || {
        s.count_down();
        waiter.wait();
        value
    };
    (gate, started, body)
}

/// Occupies `timer`'s thread with a callback that waits for the returned
/// opener: until it is opened, no other callback of `timer` can start, so a
/// test can act "before the deadline" without racing the clock.
pub fn hold_timer(timer: &rt_timer::DelayedTaskScheduler) -> Gate {
    let (gate, started, body) = gated(());
    timer.schedule(Duration::ZERO, body).unwrap();
    started.wait();
    gate
}
