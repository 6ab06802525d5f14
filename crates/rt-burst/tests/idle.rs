//! An idle pool parks its workers: no timed polling, no CPU.

#![cfg(target_os = "linux")]

mod support;

use std::time::{Duration, Instant};

use rt_burst::BurstPool;

/// Total CPU time, in nanoseconds, of this process's threads whose name
/// starts with `prefix` (from `/proc/self/task/*/schedstat`).
fn cpu_ns_of_threads(prefix: &str) -> u64 {
    let mut total = 0;
    for task in std::fs::read_dir("/proc/self/task").unwrap().flatten() {
        let comm = std::fs::read_to_string(task.path().join("comm")).unwrap_or_default();
        if comm.trim_end().starts_with(prefix) {
            let stat = std::fs::read_to_string(task.path().join("schedstat")).unwrap();
            total += stat
                .split_whitespace()
                .next()
                .unwrap()
                .parse::<u64>()
                .unwrap();
        }
    }
    total
}

#[test]
fn an_idle_pool_uses_under_a_tenth_of_a_millisecond_of_cpu_per_second() {
    let mut pool = BurstPool::builder()
        .thread_name("idleburst")
        .build()
        .unwrap();
    for _ in 0..4 {
        pool.spawn_worker(|n: u64| {
            std::hint::black_box(n);
        });
    }
    // Let the workers run a few bursts and settle into sleep.
    for _ in 0..10 {
        pool.send_burst(0..8).unwrap();
    }
    support::wait_all_parked(&pool);
    let before = cpu_ns_of_threads("idleburst");
    let start = Instant::now();
    std::thread::sleep(Duration::from_millis(1_000));
    let used = cpu_ns_of_threads("idleburst") - before;
    let per_second = used as f64 / start.elapsed().as_secs_f64();
    assert!(
        per_second < 100_000.0,
        "idle workers used {per_second:.0} ns of CPU per second"
    );
}
