//! A service-style pool: a bounded queue that pushes back on overload,
//! fire-and-forget jobs, lifecycle hooks, live stats and a graceful stop.
//!
//! Run with `cargo run --release --example service`.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::thread;
use std::time::Duration;

use rt::{Priority, Runtime, SubmitError};

fn handle_request(id: u64) -> u64 {
    // Pretend to parse, compute and encode a response.
    (0..20_000u64).fold(id, |acc, x| acc.wrapping_mul(31).wrapping_add(x))
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let per_worker: Arc<[AtomicU64; 2]> = Arc::new([AtomicU64::new(0), AtomicU64::new(0)]);
    let counts = per_worker.clone();
    let rt = Runtime::builder()
        .threads(2)
        .thread_name("svc")
        .queue_capacity(32)
        .before_worker_start(|w| println!("worker {w} up"))
        .after_worker_stop(|w| println!("worker {w} down"))
        .after_task(move |w| {
            counts[w].fetch_add(1, Ordering::Relaxed);
        })
        .panic_handler(|w, msg| eprintln!("worker {w}: a job panicked: {msg}"))
        .build()?;

    // A burst of 500 requests against a queue of 32: the caller sees the
    // push-back, gets each refused job back, and retries it a bit later.
    let mut refusals = 0;
    for id in 0..500u64 {
        let mut job = move || {
            std::hint::black_box(handle_request(id));
        };
        loop {
            match rt.try_execute(job) {
                Ok(()) => break,
                Err(SubmitError::Saturated(back)) => {
                    refusals += 1;
                    job = back;
                    thread::sleep(Duration::from_micros(50));
                }
                Err(SubmitError::Shutdown(_)) => unreachable!("still running"),
            }
        }
    }
    println!("burst submitted; the queue pushed back {refusals} times");

    // A job that fails is reported to the panic handler, not lost.
    std::panic::set_hook(Box::new(|_| {}));
    rt.execute(|| panic!("malformed request"))?;

    // Latency-sensitive work jumps the queue.
    let health = rt.spawn_with_priority(Priority::High, || "ok");
    println!("health check: {}", health.join()?);

    let stats = rt.stats();
    println!(
        "stats: {} threads, capacity {:?}, {} queued, {} running, {} idle",
        stats.threads,
        stats.queue_capacity,
        stats.queued_total(),
        stats.running,
        stats.idle_workers
    );

    // Graceful stop: queued work that has not started is cancelled and
    // counted; what is running finishes; then wait for the workers.
    for id in 0..50u64 {
        rt.execute(move || {
            std::hint::black_box(handle_request(id));
        })?;
    }
    let cancelled_before = rt.metrics().cancelled;
    // `stop` returns how many queued jobs this call cancelled itself; the
    // workers, which see the stop too, cancel the queued jobs they take
    // meanwhile, and the metrics count both.
    let cancelled_by_stop = rt.stop();
    rt.wait_termination();
    let _ = std::panic::take_hook();

    let m = rt.metrics();
    let cancelled_by_workers = m.cancelled - cancelled_before - cancelled_by_stop as u64;
    println!(
        "stopped: {cancelled_by_stop} queued jobs cancelled by the stop() call, \
         {cancelled_by_workers} more by the workers as they took them from the queue"
    );
    println!(
        "since the start: submitted {} = completed {} + panicked {} + cancelled {}",
        m.submitted, m.completed, m.panicked, m.cancelled
    );
    assert_eq!(m.submitted, m.completed + m.panicked + m.cancelled);
    println!(
        "tasks per worker: {:?}",
        per_worker
            .iter()
            .map(|c| c.load(Ordering::Relaxed))
            .collect::<Vec<_>>()
    );
    Ok(())
}
