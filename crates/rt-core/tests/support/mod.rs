//! Helpers shared by the integration tests (included with `mod support;`).
#![allow(dead_code, unused_imports)] // each test file uses a subset

pub mod spans;

pub use rt_testkit::{counting_waker, quietly, scaled, wait_until, without_hanging, Gate, Latch};

/// A tokio current-thread runtime with timers: where the tests await
/// handles as an async service would.
pub fn current_thread_tokio() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_current_thread()
        .enable_time()
        .build()
        .expect("start a tokio current-thread runtime")
}

/// Blocks every worker of `rt` on `gate`; returns once all of them are
/// inside a blocking task, so later submissions queue up behind them.
pub fn occupy_all_workers(rt: &rt_core::Runtime, gate: &Gate) -> Vec<rt_core::JoinHandle<()>> {
    let started = Latch::new(rt.threads());
    let handles = (0..rt.threads())
        .map(|_| {
            let (gate, started) = (gate.clone(), started.clone());
            rt.spawn_with_priority(rt_core::Priority::High, move || {
                started.count_down();
                gate.wait();
            })
        })
        .collect();
    started.wait();
    handles
}

/// `n` pseudo-random values from `seed` (xorshift64): the ported tests'
/// stand-in for the `rand` crate their originals use.
pub fn pseudo_random(n: usize, seed: u64) -> Vec<u32> {
    let mut x = seed | 1;
    (0..n)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            (x >> 32) as u32
        })
        .collect()
}
