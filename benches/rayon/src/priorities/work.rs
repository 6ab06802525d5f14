//! The work of part B, the same in every setup and both builds: fixed
//! amounts of arithmetic (never calibrated at run time, so every process
//! does the same work), checked against sums made once on one thread.
//!
//! * An interactive job: a `par_iter` map-sum over [`JOB_ITEMS`] items of
//!   [`JOB_STEPS`] steps each, about 1 ms of work on one thread here.
//! * The batch: a loop of `par_iter` map-sums over [`CALL_ITEMS`] items of
//!   [`ITEM_STEPS`] steps each; an item, the unit of the batch's
//!   throughput, is about 20 µs of work here, a call about 20 ms.

use std::hint::black_box;
use std::time::{Duration, Instant};

use rayon::prelude::*;

/// Items of an interactive job.
pub const JOB_ITEMS: u64 = 4096;
/// Steps of an interactive job's item.
const JOB_STEPS: u32 = 160;
/// Items of one of the batch's `par_iter`s.
pub const CALL_ITEMS: u64 = 1000;
/// Steps of a batch item.
const ITEM_STEPS: u32 = 12_500;

/// `steps` rounds of xorshift64 from `seed`: a chain of dependent
/// arithmetic the compiler can neither shorten nor vectorize.
#[inline(never)]
fn spin(seed: u64, steps: u32) -> u64 {
    let mut x = seed | 1;
    for _ in 0..steps {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
    }
    x
}

/// The sum (wrapping) of `spin(i, steps)` over `0..items`, on this thread.
fn sequential(items: u64, steps: u32) -> u64 {
    (0..items)
        .map(|i| spin(i, steps))
        .fold(0, u64::wrapping_add)
}

/// The same sum with rayon: a `par_iter` that runs where the caller's
/// rayon code runs.
fn parallel(items: u64, steps: u32) -> u64 {
    (0..items)
        .into_par_iter()
        .map(|i| spin(i, steps))
        .reduce(|| 0, u64::wrapping_add)
}

/// An interactive job.
pub fn job() -> u64 {
    parallel(JOB_ITEMS, black_box(JOB_STEPS))
}

/// One of the batch's `par_iter`s.
pub fn batch_call() -> u64 {
    parallel(CALL_ITEMS, black_box(ITEM_STEPS))
}

/// The results the parallel runs must give, made on this thread.
pub struct Expected {
    pub job: u64,
    pub batch_call: u64,
}

impl Expected {
    pub fn new() -> Expected {
        Expected {
            job: sequential(JOB_ITEMS, JOB_STEPS),
            batch_call: sequential(CALL_ITEMS, ITEM_STEPS),
        }
    }
}

/// What the work costs on one thread of this process: an interactive job,
/// and a batch item (the fastest of 15 timings: the cost when nothing
/// interrupts it).
pub fn costs() -> (Duration, Duration) {
    let fastest = |items: u64, steps: u32| {
        (0..15)
            .map(|_| {
                let started = Instant::now();
                black_box(sequential(items, black_box(steps)));
                started.elapsed()
            })
            .min()
            .expect("15 timings")
    };
    let batch_items = 50;
    (
        fastest(JOB_ITEMS, JOB_STEPS),
        fastest(batch_items, ITEM_STEPS) / batch_items as u32,
    )
}
