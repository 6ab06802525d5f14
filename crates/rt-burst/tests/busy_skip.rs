//! A worker still busy with an item is passed over while another is parked.

mod support;

use rt_burst::BurstPool;
use rt_testkit::without_hanging;
use support::{wait_all_parked, wait_until, Gate, Log};

/// Three workers; worker 0 is left inside a handler that waits on `gate`,
/// workers 1 and 2 are parked, and the round-robin cursor points at worker 0.
fn pool_with_worker_0_busy(gate: &Gate) -> (BurstPool<u32>, Log<u32>) {
    let log = Log::new();
    let mut pool = BurstPool::builder().thread_name("skip").build().unwrap();
    for w in 0..3 {
        let (log, gate) = (log.clone(), gate.clone());
        pool.spawn_worker(move |item: u32| {
            if item == u32::MAX {
                gate.wait();
            }
            log.record(w, item);
        });
    }
    wait_all_parked(&pool);
    pool.send_burst([u32::MAX, 100, 101]).unwrap(); // workers 0, 1, 2; cursor back to 0
                                                    // Worker 0 has taken its item (its queue is empty) and is in the
                                                    // handler; under load it may still be waking up when 1 and 2 are done.
    wait_until("workers 1 and 2 are parked again, worker 0 busy", || {
        let s = pool.stats();
        let w = &s.workers;
        s.handled() == 2 && w[1].parked && w[2].parked && !w[0].parked && w[0].queued == 0
    });
    (pool, log)
}

#[test]
fn a_send_skips_the_busy_worker_whose_turn_it_is_for_a_parked_one() {
    without_hanging(|| {
        let gate = Gate::new();
        let (pool, log) = pool_with_worker_0_busy(&gate);
        pool.send(1).unwrap();
        assert_eq!(
            pool.stats().workers[0].queued,
            0,
            "nothing waits behind the busy worker"
        );
        wait_until("the item is handled", || pool.stats().handled() == 3);
        assert_eq!(log.of(1), [100, 1]);
        gate.open();
        pool.shutdown();
    })
}

#[test]
fn a_burst_fills_every_parked_worker_before_queuing_behind_a_busy_one() {
    without_hanging(|| {
        let gate = Gate::new();
        let (pool, log) = pool_with_worker_0_busy(&gate);
        pool.send_burst([1, 2]).unwrap();
        assert_eq!(
            pool.stats().workers[0].queued,
            0,
            "nothing waits behind the busy worker"
        );
        wait_until("the burst is handled", || pool.stats().handled() == 4);
        assert_eq!(log.of(1), [100, 1]);
        assert_eq!(log.of(2), [101, 2]);
        gate.open();
        pool.shutdown();
        assert_eq!(log.of(0), [u32::MAX]);
    })
}

#[test]
fn with_no_worker_parked_the_busy_worker_whose_turn_it_is_gets_the_item() {
    without_hanging(|| {
        let gate = Gate::new();
        let log = Log::new();
        let mut pool = BurstPool::builder().thread_name("skip").build().unwrap();
        for w in 0..2 {
            let (log, gate) = (log.clone(), gate.clone());
            pool.spawn_worker(move |item: u32| {
                gate.wait();
                log.record(w, item);
            });
        }
        wait_all_parked(&pool);
        pool.send_burst([0, 1]).unwrap();
        support::wait_all_busy(&pool);
        pool.send(2).unwrap();
        assert_eq!(pool.stats().workers[0].queued, 1);
        gate.open();
        pool.shutdown();
        assert_eq!(log.of(0), [0, 2]);
    })
}
