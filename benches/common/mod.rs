//! Code shared by the benchmark targets: workloads, the strategies they run
//! on, and the small tools they need (a busy loop, a completion latch).
#![allow(dead_code)] // each bench target uses a different part of this module

pub mod chart;
pub mod graph;
pub mod latch;
pub mod report;
pub mod strategies;
pub mod workloads;

/// A busy CPU loop of `ops` dependent multiply-adds, seeded per task. The
/// `black_box` on every step keeps the optimiser from unrolling the
/// recurrence, so one op costs about 2 ns on the benchmark machine and
/// 2,000 ops about 4 µs, the task size the peer figures were measured with.
#[inline(never)]
pub fn busy(ops: u32, seed: usize) -> u64 {
    let mut x = std::hint::black_box(seed as u64) | 1;
    for i in 0..ops {
        x = std::hint::black_box(x.wrapping_mul(6364136223846793005).wrapping_add(i as u64));
    }
    x
}
