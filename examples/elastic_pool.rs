//! An elastic pool absorbing a burst of blocking work: it starts workers
//! lazily, queues once its core is busy, grows toward its maximum when the
//! bounded queue overflows, pushes back when saturated, and shrinks back to
//! its core after the keep-alive.
//!
//! Run with `cargo run --release --example elastic_pool`.

use std::thread;
use std::time::{Duration, Instant};

use rt::elastic::{ElasticPool, Priority, SubmitError};

/// Stands in for a blocking call: a file read, a database query, a
/// subprocess. It holds a thread without using a CPU.
fn blocking_call(id: u64) -> u64 {
    thread::sleep(Duration::from_millis(20));
    id * 2
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let pool = ElasticPool::builder()
        .core_threads(2)
        .max_threads(8)
        .queue_capacity(4)
        .keep_alive(Duration::from_millis(100))
        .thread_name("blocking")
        .before_worker_start(|w| println!("  worker {w} started"))
        .after_worker_stop(|w| println!("  worker {w} stopped"))
        .build()?;
    println!(
        "built: {} live workers (they start lazily)",
        pool.stats().live_workers
    );

    // A burst of 40 blocking calls. `spawn` grows the pool when the queue
    // is full, and blocks the caller only when the pool is at its maximum.
    let start = Instant::now();
    let replies: Vec<_> = (0..40)
        .map(|id| pool.spawn(move || blocking_call(id)))
        .collect();
    let stats = pool.stats();
    println!(
        "burst submitted: {} live, {} queued, {} running",
        stats.live_workers, stats.queued, stats.running
    );
    let total: u64 = replies.into_iter().map(|r| r.join().unwrap()).sum();
    println!(
        "40 calls of 20 ms in {:?} (sum {total}); largest pool: {} workers",
        start.elapsed(),
        pool.stats().largest_pool_size
    );

    // Saturated: the queue is full and all eight workers are busy. `try_spawn`
    // hands the closure back instead of blocking.
    let hold: Vec<_> = (0..12)
        .map(|_| pool.spawn(|| thread::sleep(Duration::from_millis(50))))
        .collect();
    match pool.try_spawn(|| "extra") {
        Err(SubmitError::Saturated(f)) => println!("saturated; ran the refused task here: {}", f()),
        Ok(handle) => println!("accepted after all: {:?}", handle.join()),
        Err(SubmitError::Shutdown(_)) => unreachable!("still running"),
    }
    hold.into_iter().for_each(|h| h.join().unwrap());

    // Latency-sensitive work jumps the queue.
    let health = pool.spawn_with_priority(Priority::High, || "ok");
    println!("health check: {}", health.join()?);

    // Idle extra workers retire after the keep-alive; the core stays.
    thread::sleep(Duration::from_millis(300));
    println!(
        "after the keep-alive: {} live workers",
        pool.stats().live_workers
    );

    pool.shutdown();
    let m = pool.metrics();
    println!(
        "shut down: {} submitted = {} completed + {} panicked + {} cancelled",
        m.submitted, m.completed, m.panicked, m.cancelled
    );
    Ok(())
}
