//! An idle runtime parks its workers: no timed polling, no CPU.

#![cfg(target_os = "linux")]

use std::time::{Duration, Instant};

use rt_core::Runtime;
use rt_testkit::{cpu_ns_of_threads, without_hanging};

#[test]
fn an_idle_runtime_uses_under_a_tenth_of_a_millisecond_of_cpu_per_second() {
    without_hanging(|| {
        let rt = Runtime::builder()
            .threads(4)
            .thread_name("idleprobe")
            .build()
            .unwrap();
        // Let the workers run once and settle into sleep.
        for h in (0..100).map(|i| rt.spawn(move || i)).collect::<Vec<_>>() {
            h.join().unwrap();
        }
        let deadline = Instant::now() + Duration::from_secs(5);
        while rt.idle_workers() < rt.threads() {
            assert!(Instant::now() < deadline, "workers never went idle");
            std::thread::sleep(Duration::from_millis(1));
        }
        let before = cpu_ns_of_threads("idleprobe");
        let start = Instant::now();
        std::thread::sleep(Duration::from_millis(1_000));
        let used = cpu_ns_of_threads("idleprobe") - before;
        let per_second = used as f64 / start.elapsed().as_secs_f64();
        assert!(
            per_second < 100_000.0,
            "idle workers used {per_second:.0} ns of CPU per second"
        );
    })
}
