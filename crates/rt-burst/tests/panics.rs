//! A panicking handler is caught and counted; its worker keeps serving.

mod support;

use std::sync::Once;

use rt_burst::BurstPool;
use rt_testkit::without_hanging;
use support::Log;

/// Keeps the expected panics of threads named `panicky-*` off the test
/// output; every other panic is reported as usual.
fn quiet_panics() {
    static HOOK: Once = Once::new();
    HOOK.call_once(|| {
        let default = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            let name = std::thread::current().name().unwrap_or("").to_owned();
            if !name.starts_with("panicky") {
                default(info);
            }
        }));
    });
}

#[test]
fn a_panicking_handler_is_counted_and_its_worker_handles_the_next_items() {
    without_hanging(|| {
        quiet_panics();
        let log = Log::new();
        let mut pool = BurstPool::builder().thread_name("panicky").build().unwrap();
        let l = log.clone();
        pool.spawn_worker(move |n: u32| {
            if n % 2 == 1 {
                panic!("odd item {n}");
            }
            l.record(0, n);
        });
        for n in 0..10 {
            pool.send(n).unwrap();
        }
        pool.shutdown();
        assert_eq!(log.of(0), [0, 2, 4, 6, 8]);
        let stats = pool.stats();
        assert_eq!(stats.handled(), 10);
        assert_eq!(stats.panics(), 5);
        assert_eq!(stats.workers[0].panics, 5);
    })
}

#[test]
fn a_handler_keeps_its_own_state_across_its_panics() {
    without_hanging(|| {
        quiet_panics();
        let log = Log::new();
        let mut pool = BurstPool::builder().thread_name("panicky").build().unwrap();
        let l = log.clone();
        let mut calls = 0u32;
        pool.spawn_worker(move |item: &'static str| {
            calls += 1;
            if item == "boom" {
                panic!("boom");
            }
            l.record(0, calls);
        });
        pool.send_burst(["a", "boom", "b", "boom", "c"]).unwrap();
        pool.shutdown();
        assert_eq!(log.of(0), [1, 3, 5]);
    })
}

#[test]
fn a_panic_in_one_worker_leaves_the_other_workers_untouched() {
    without_hanging(|| {
        quiet_panics();
        let log = Log::new();
        let mut pool = BurstPool::builder().thread_name("panicky").build().unwrap();
        for w in 0..2 {
            let l = log.clone();
            pool.spawn_worker(move |n: u32| {
                if w == 0 {
                    panic!("worker 0 always fails");
                }
                l.record(w, n);
            });
        }
        support::wait_all_parked(&pool);
        pool.send_burst(0..6).unwrap();
        pool.shutdown();
        let stats = pool.stats();
        assert_eq!(stats.workers[0].panics, 3);
        assert_eq!(stats.workers[1].panics, 0);
        assert_eq!(log.of(1), [1, 3, 5]);
    })
}
