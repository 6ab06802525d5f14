//! Loom model of the wake protocol (`WAKE.md`): the real `BurstPool`,
//! `Mailbox` and worker loop, run by loom through every interleaving of
//! producers pushing and claiming wake-ups against workers going to park.
//!
//! Each model waits for its items to be handled *before* shutting down: the
//! handler signals the test thread, which waits until the count is reached.
//! A lost wake-up therefore leaves the worker and the test thread both
//! blocked, which loom reports as a deadlock (shutdown cannot mask it, as it
//! would wake the worker itself).
//!
//! Under loom, `sync::Parker` models `std::thread::park`/`unpark` with the
//! same token semantics (a flag under a mutex and a condition variable).
//!
//! Run: `RUSTFLAGS="--cfg loom" cargo test -p rt-burst --lib --profile loom loom_`.

use loom::sync::{Arc, Condvar, Mutex};
use loom::thread;

use crate::{BurstPool, SendError};

/// Counts handled items and wakes the thread waiting for them (a condition
/// variable, not loom's `park`: see `sync::Parker`).
struct Done {
    count: Mutex<usize>,
    bell: Condvar,
}

impl Done {
    fn new() -> Arc<Self> {
        Arc::new(Self {
            count: Mutex::new(0),
            bell: Condvar::new(),
        })
    }

    fn handled(&self) {
        *self.count.lock().unwrap() += 1;
        self.bell.notify_one();
    }

    /// Blocks the test thread until `n` items were handled.
    fn wait_for(&self, n: usize) {
        let mut count = self.count.lock().unwrap();
        while *count < n {
            count = self.bell.wait(count).unwrap();
        }
    }
}

fn pool_of(workers: usize, capacity: usize, done: &Arc<Done>) -> BurstPool<u32> {
    let mut pool = BurstPool::builder()
        .queue_capacity(capacity)
        .build()
        .unwrap();
    for _ in 0..workers {
        let done = done.clone();
        pool.spawn_worker(move |_item: u32| done.handled());
    }
    pool
}

#[test]
fn loom_a_send_racing_a_worker_going_to_park_always_wakes_it() {
    loom::model(|| {
        let done = Done::new();
        let pool = pool_of(1, 2, &done);
        pool.send(1).unwrap();
        done.wait_for(1);
        pool.send(2).unwrap(); // the worker parks again, or is about to
        done.wait_for(2);
        pool.shutdown();
        assert_eq!(pool.stats().handled(), 2);
    });
}

/// Three items to two workers: two claimed parked workers woken only at the
/// end of the burst, and a third item queued behind one of them (or on a
/// worker that parked meanwhile). Bounded to 3 preemptions (seconds instead
/// of many minutes); the unbounded model of `send` above covers every
/// interleaving of a single wake-up.
#[test]
fn loom_a_burst_wakes_each_worker_it_fed_after_queuing_everything() {
    let mut model = loom::model::Builder::new();
    model.preemption_bound = Some(3);
    model.check(|| {
        let done = Done::new();
        let pool = pool_of(2, 2, &done);
        pool.send_burst([1, 2, 3]).unwrap();
        done.wait_for(3);
        pool.shutdown();
        assert_eq!(pool.stats().handled(), 3);
    });
}

/// Two producers, one worker: the loser of the wake-up claim must be able to
/// rely on the winner. Bounded to 3 preemptions.
#[test]
fn loom_two_producers_racing_for_one_workers_wake_up_lose_no_item() {
    let mut model = loom::model::Builder::new();
    model.preemption_bound = Some(3);
    model.check(|| {
        let done = Done::new();
        let pool = Arc::new(pool_of(1, 2, &done));
        let other = {
            let pool = pool.clone();
            thread::spawn(move || pool.send(1).unwrap())
        };
        pool.send(2).unwrap();
        other.join().unwrap();
        done.wait_for(2);
        pool.shutdown();
    });
}

/// A send racing `shutdown`: either refused with `Closed`, or accepted and
/// handled before `shutdown` returns. Bounded to 3 preemptions.
#[test]
fn loom_shutdown_racing_a_send_drains_what_it_accepted() {
    let mut model = loom::model::Builder::new();
    model.preemption_bound = Some(3);
    model.check(|| {
        let done = Done::new();
        let pool = Arc::new(pool_of(1, 1, &done));
        let sender = {
            let pool = pool.clone();
            thread::spawn(move || pool.send(7))
        };
        pool.shutdown();
        let accepted = match sender.join().unwrap() {
            Ok(()) => 1,
            Err(SendError::Closed(7)) => 0,
            Err(other) => panic!("unexpected {other:?}"),
        };
        // shutdown joined the worker: whatever was accepted was handled.
        assert_eq!(pool.stats().handled(), accepted);
    });
}
