//! Items go to the workers in turn, starting after the last one chosen.

mod support;

use rt_burst::BurstPool;
use rt_testkit::without_hanging;
use support::{wait_all_busy, wait_all_parked, wait_until, Gate, Log};

/// A pool of `n` workers that log what they handle; items `u32::MAX` make a
/// worker wait on `gate` first.
fn logging_pool(n: usize, gate: &Gate) -> (BurstPool<u32>, Log<u32>) {
    let log = Log::new();
    let mut pool = BurstPool::builder()
        .thread_name("rr")
        .queue_capacity(8)
        .build()
        .unwrap();
    for w in 0..n {
        let (log, gate) = (log.clone(), gate.clone());
        let index = pool.spawn_worker(move |item: u32| {
            if item == u32::MAX {
                gate.wait();
            }
            log.record(w, item);
        });
        assert_eq!(index, w, "workers are numbered in spawn order");
    }
    (pool, log)
}

#[test]
fn items_sent_one_at_a_time_to_parked_workers_visit_each_worker_in_turn() {
    without_hanging(|| {
        let gate = Gate::new();
        let (pool, log) = logging_pool(3, &gate);
        for item in 0..7u32 {
            wait_all_parked(&pool);
            pool.send(item).unwrap();
            wait_until("the item is handled", || {
                pool.stats().handled() == u64::from(item) + 1
            });
        }
        pool.shutdown();
        let workers: Vec<usize> = log.entries().into_iter().map(|(w, _)| w).collect();
        assert_eq!(workers, [0, 1, 2, 0, 1, 2, 0]);
    })
}

#[test]
fn items_sent_while_every_worker_is_busy_are_queued_on_each_worker_in_turn() {
    without_hanging(|| {
        let gate = Gate::new();
        let (pool, log) = logging_pool(3, &gate);
        wait_all_parked(&pool);
        for _ in 0..3 {
            pool.send(u32::MAX).unwrap();
        }
        wait_all_busy(&pool);
        for item in 0..6 {
            pool.send(item).unwrap();
        }
        let queued: Vec<usize> = pool.stats().workers.iter().map(|w| w.queued).collect();
        assert_eq!(queued, [2, 2, 2]);
        gate.open();
        pool.shutdown();
        assert_eq!(log.of(0), [u32::MAX, 0, 3]);
        assert_eq!(log.of(1), [u32::MAX, 1, 4]);
        assert_eq!(log.of(2), [u32::MAX, 2, 5]);
    })
}

#[test]
fn a_burst_to_parked_workers_spreads_its_items_evenly_in_turn() {
    without_hanging(|| {
        let gate = Gate::new();
        let (pool, log) = logging_pool(4, &gate);
        wait_all_parked(&pool);
        pool.send_burst(0..8).unwrap();
        pool.shutdown();
        for w in 0..4u32 {
            assert_eq!(log.of(w as usize), [w, w + 4], "worker {w}");
        }
    })
}

#[test]
fn the_next_burst_continues_after_the_worker_the_last_one_ended_on() {
    without_hanging(|| {
        let gate = Gate::new();
        let (pool, log) = logging_pool(3, &gate);
        wait_all_parked(&pool);
        pool.send_burst([10, 11]).unwrap(); // workers 0 and 1
        wait_until("the burst is handled", || pool.stats().handled() == 2);
        wait_all_parked(&pool);
        pool.send_burst([12, 13]).unwrap(); // workers 2 and 0
        pool.shutdown();
        assert_eq!(log.of(0), [10, 13]);
        assert_eq!(log.of(1), [11]);
        assert_eq!(log.of(2), [12]);
    })
}
