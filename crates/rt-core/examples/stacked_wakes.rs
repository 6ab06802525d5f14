//! Bursts after idle, with and without moving stacked wake-ups
//! (`Builder::move_stacked_wakes`), in one process, round by round.
//!
//! Each round keeps the calling thread busy for a few milliseconds (so the
//! workers park), then submits 2,000 tasks of about 2 µs to a 2-worker
//! runtime and waits for them. On a 2-CPU Linux VM the kernel often queues
//! the second woken worker behind the first on one CPU; the round then takes
//! about as long as running the tasks inline.
//!
//! ```text
//! cargo run --release -p rt-core --example stacked_wakes -- [rounds]
//! ```

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::thread;
use std::time::{Duration, Instant};

use rt_core::Runtime;

const TASKS: usize = 2_000;
const OPS: u64 = 1_500;

fn busy(ops: u64, seed: u64) -> u64 {
    let mut x = std::hint::black_box(seed) | 1;
    for i in 0..ops {
        x = std::hint::black_box(x.wrapping_mul(6364136223846793005).wrapping_add(i));
    }
    x
}

/// One burst: submit every task, then wait until the last one has run.
fn burst(rt: &Runtime) -> Duration {
    let remaining = Arc::new(AtomicUsize::new(TASKS));
    let waiter = thread::current();
    let start = Instant::now();
    for i in 0..TASKS {
        let remaining = remaining.clone();
        let waiter = waiter.clone();
        rt.execute(move || {
            busy(OPS, i as u64);
            if remaining.fetch_sub(1, Ordering::AcqRel) == 1 {
                waiter.unpark();
            }
        })
        .expect("the runtime is running");
    }
    while remaining.load(Ordering::Acquire) != 0 {
        thread::park();
    }
    start.elapsed()
}

fn main() {
    let rounds: usize = std::env::args()
        .nth(1)
        .map_or(100, |r| r.parse().expect("rounds: a number"));
    let build = |moved: bool| {
        Runtime::builder()
            .threads(2)
            .move_stacked_wakes(moved)
            .build()
            .expect("start the runtime")
    };
    let runtimes = [("moved", build(true)), ("left alone", build(false))];
    let mut times: [Vec<Duration>; 2] = Default::default();
    let inline_start = Instant::now();
    for i in 0..TASKS {
        busy(OPS, i as u64);
    }
    let inline = inline_start.elapsed();
    for round in 0..rounds {
        for k in [round % 2, 1 - round % 2] {
            // Keep this thread busy long enough for both workers to park.
            for i in 0..TASKS {
                busy(OPS, i as u64);
            }
            times[k].push(burst(&runtimes[k].1));
        }
    }
    println!("{rounds} rounds of {TASKS} tasks of ~{OPS} ops on 2 workers; inline {inline:.2?}");
    println!(
        "| workers moved when stacked | median | p90 | rounds slower than 0.8 × inline | moves |"
    );
    println!("|---|---:|---:|---:|---:|");
    for ((name, rt), t) in runtimes.iter().zip(&mut times) {
        t.sort();
        let slow = t
            .iter()
            .filter(|d| d.as_secs_f64() > 0.8 * inline.as_secs_f64())
            .count();
        println!(
            "| {name} | {:.2?} | {:.2?} | {slow} of {} | {} |",
            t[t.len() / 2],
            t[t.len() * 9 / 10],
            t.len(),
            rt.metrics().nudged_wakes
        );
    }
}
