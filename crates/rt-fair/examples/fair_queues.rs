//! A single-threaded shard with two weighted queues: requests on a
//! foreground queue (weight 8) stay fast while a background "compaction"
//! soaks up the spare CPU on a queue of weight 1.
//!
//! rt-fair runs inside a tokio current-thread runtime (`LocalSet`); tasks
//! use tokio's timers, and nothing needs to be `Send`.
//!
//! Run with `cargo run --release -p rt-fair --example fair_queues`.

use std::cell::{Cell, RefCell};
use std::rc::Rc;
use std::time::{Duration, Instant};

use rt_fair::{yield_maybe, FairExecutorBuilder};

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
enum Class {
    Foreground,
    Background,
}

/// Burns the CPU for `d`: a stand-in for parsing, merging, encoding.
fn work(d: Duration) {
    let start = Instant::now();
    while start.elapsed() < d {
        std::hint::spin_loop();
    }
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let executor = FairExecutorBuilder::new()
        .with_queue(Class::Foreground, 8)
        .with_queue(Class::Background, 1)
        .build()?;
    let fg = executor.queue(Class::Foreground).expect("declared above");
    let bg = executor.queue(Class::Background).expect("declared above");

    let host = tokio::runtime::Builder::new_current_thread()
        .enable_time()
        .build()?;
    let local = tokio::task::LocalSet::new();
    let stop = Rc::new(Cell::new(false));
    let merged = Rc::new(Cell::new(0u64)); // !Send state, shared by tasks
    let latencies = Rc::new(RefCell::new(Vec::new()));

    local.block_on(
        &host,
        executor.run_until(async {
            // Background: two compactions that would take the whole core.
            let compactions: Vec<_> = (0..2)
                .map(|_| {
                    let (stop, merged) = (Rc::clone(&stop), Rc::clone(&merged));
                    bg.spawn(async move {
                        while !stop.get() {
                            work(Duration::from_micros(300));
                            merged.set(merged.get() + 1);
                            yield_maybe().await; // yields only when it must
                        }
                    })
                })
                .collect();

            // Foreground: 200 requests, one every 2 ms, each 2 x 200 µs of
            // CPU with a short wait in between.
            let mut requests = Vec::new();
            for _ in 0..200 {
                let arrived = Instant::now();
                let latencies = Rc::clone(&latencies);
                requests.push(fg.spawn(async move {
                    let queued = arrived.elapsed();
                    work(Duration::from_micros(200));
                    tokio::time::sleep(Duration::from_micros(300)).await;
                    work(Duration::from_micros(200));
                    latencies.borrow_mut().push(queued);
                }));
                tokio::time::sleep(Duration::from_millis(2)).await;
            }
            for r in requests {
                r.await.expect("requests do not panic");
            }
            stop.set(true);
            for c in compactions {
                c.await.expect("compactions do not panic");
            }
        }),
    );

    let mut queued = latencies.take();
    queued.sort();
    let pct = |q: f64| queued[((q * queued.len() as f64) as usize).min(queued.len() - 1)];
    println!(
        "{} requests: queue delay p50 {:?}, p99 {:?}; {} background steps alongside",
        queued.len(),
        pct(0.50),
        pct(0.99),
        merged.get()
    );
    for q in executor.stats().queues {
        println!(
            "{:?} (weight {}): {} polls, {} tasks finished, {:.0?} of CPU, queue delay p99 {:?}",
            q.key, q.weight, q.polls, q.finished, q.cpu_time, q.queue_delay.p99
        );
    }
    Ok(())
}
