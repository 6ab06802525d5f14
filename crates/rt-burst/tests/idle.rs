//! An idle pool parks its workers: no timed polling, no CPU.

#![cfg(target_os = "linux")]

mod support;

use std::time::{Duration, Instant};

use rt_burst::BurstPool;
use rt_testkit::{cpu_ns_of_threads, without_hanging};

#[test]
fn an_idle_pool_uses_under_a_tenth_of_a_millisecond_of_cpu_per_second() {
    without_hanging(|| {
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
    })
}
