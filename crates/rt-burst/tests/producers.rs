//! Several threads may send into one pool at once: every accepted item is
//! handled exactly once.

use std::sync::{Arc, Mutex};
use std::thread;

use rt_burst::{BurstPool, SendError};
use rt_testkit::without_hanging;

#[test]
fn items_sent_from_several_threads_at_once_are_each_handled_exactly_once() {
    without_hanging(|| {
        let seen = Arc::new(Mutex::new(Vec::new()));
        let mut pool = BurstPool::builder()
            .queue_capacity(4)
            .thread_name("multi")
            .build()
            .unwrap();
        for _ in 0..3 {
            let seen = seen.clone();
            pool.spawn_worker(move |n: u32| seen.lock().unwrap().push(n));
        }
        let pool = Arc::new(pool);
        let producers: Vec<_> = (0..4u32)
            .map(|p| {
                let pool = pool.clone();
                thread::spawn(move || {
                    for i in 0..2_000 {
                        let mut item = p * 10_000 + i;
                        // Small queues fill up: retry what comes back.
                        while let Err(SendError::Full(back)) = pool.send(item) {
                            item = back;
                            thread::yield_now();
                        }
                    }
                    // And in bursts, re-sending whatever did not fit.
                    let mut burst: Vec<u32> = (0..500).map(|i| p * 10_000 + 5_000 + i).collect();
                    while let Err(SendError::Full(rest)) = pool.send_burst(burst) {
                        burst = rest;
                        thread::yield_now();
                    }
                })
            })
            .collect();
        for producer in producers {
            producer.join().unwrap();
        }
        pool.shutdown();
        let mut seen = seen.lock().unwrap().clone();
        seen.sort_unstable();
        let mut expected: Vec<u32> = (0..4u32)
            .flat_map(|p| (0..2_000).chain(5_000..5_500).map(move |i| p * 10_000 + i))
            .collect();
        expected.sort_unstable();
        assert_eq!(seen, expected);
        assert_eq!(pool.stats().handled(), expected.len() as u64);
    })
}
