//! Offloading CPU work from async code: a tokio server hands each request's
//! ~1 ms of CPU work to the runtime and awaits the `JoinHandle`, so tokio's
//! thread stays free to serve other requests. Each request has a deadline:
//! `tokio::time::timeout` around `cancel_on_drop()` cancels work that is
//! still queued when the request gives up, so the pool never spends CPU on
//! answers nobody will read.
//!
//! Run: `cargo run --release -p rt-core --example async_offload`

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use rt_core::Runtime;

/// Requests arriving in one burst: more work (in ms) than the deadline
/// leaves room for on two workers, so the last ones time out.
const REQUESTS: u64 = 200;
/// How long a request waits for its answer.
const DEADLINE: Duration = Duration::from_millis(60);

/// About 1 ms of CPU work: hash a counter until the time is up, and return
/// the hash (the "response").
fn handle_request(id: u64) -> u64 {
    let started = Instant::now();
    let mut hash = id;
    while started.elapsed() < Duration::from_millis(1) {
        for _ in 0..1_000 {
            hash = hash.rotate_left(5) ^ hash.wrapping_mul(0x9E37_79B9_7F4A_7C15);
        }
    }
    hash
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let pool = Arc::new(Runtime::new(2)?);
    let ran = Arc::new(AtomicU64::new(0));
    let server = tokio::runtime::Builder::new_current_thread()
        .enable_time()
        .build()?;

    let started = Instant::now();
    let (served, timed_out, ticks) = server.block_on(async {
        // A heartbeat on the same async thread: it keeps ticking while the
        // requests wait, because awaiting a handle never blocks the thread.
        let heartbeat = tokio::spawn(async {
            let mut ticks = 0u32;
            let mut interval = tokio::time::interval(Duration::from_millis(5));
            loop {
                interval.tick().await;
                ticks += 1;
                if ticks == 20 {
                    return ticks;
                }
            }
        });
        let requests: Vec<_> = (0..REQUESTS)
            .map(|id| {
                let (pool, ran) = (pool.clone(), ran.clone());
                tokio::spawn(async move {
                    let work = pool
                        .spawn(move || {
                            ran.fetch_add(1, Ordering::Relaxed);
                            handle_request(id)
                        })
                        .cancel_on_drop();
                    tokio::time::timeout(DEADLINE, work).await
                })
            })
            .collect();
        let (mut served, mut timed_out) = (0, 0);
        for request in requests {
            match request.await.expect("a request task panicked") {
                Ok(Ok(_response)) => served += 1,
                Ok(Err(error)) => panic!("the work failed: {error}"),
                Err(_elapsed) => timed_out += 1,
            }
        }
        let ticks = heartbeat.await.expect("the heartbeat ran");
        (served, timed_out, ticks)
    });
    let took = started.elapsed();

    // Dropping the last `Runtime` blocks until the workers exit: done here,
    // outside the async runtime, as the docs ask.
    let pool = Arc::try_unwrap(pool).expect("every request finished");
    pool.shutdown();
    let metrics = pool.metrics();
    println!(
        "{REQUESTS} requests with a {} ms deadline, ~1 ms of CPU each, 2 workers, in {:.0?}:",
        DEADLINE.as_millis(),
        took
    );
    println!("  served in time:            {served}");
    println!("  timed out:                 {timed_out}");
    println!(
        "  work started:              {} (every timed-out request whose work was \
         still queued was cancelled: {} cancelled)",
        ran.load(Ordering::Relaxed),
        metrics.cancelled
    );
    println!("  heartbeat ticks meanwhile: {ticks} (the async thread was never blocked)");
    assert_eq!(served + timed_out, REQUESTS);
    assert_eq!(metrics.submitted, metrics.completed + metrics.cancelled);
    Ok(())
}
