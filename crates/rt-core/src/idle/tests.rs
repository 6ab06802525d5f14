//! Unit tests of the doorbell on its own, without a runtime: the state
//! changes each call makes, and a two-thread ring. They also run under
//! miri (`cargo xtask miri`); the loom models in `loom_*.rs` cover the
//! interleavings.

use std::sync::Arc;
use std::thread;

use super::{IdleSignal, Wake, TASKS_PER_WAKING};

/// A doorbell for `threads` workers, with `sleepers` registered in order.
fn with_sleepers(threads: usize, sleepers: &[usize]) -> IdleSignal {
    let idle = IdleSignal::new(threads, threads, false);
    for &worker in sleepers {
        idle.register(worker);
    }
    idle
}

#[test]
fn a_registered_worker_that_withdraws_is_no_longer_counted_as_sleeping() {
    let idle = IdleSignal::new(2, 2, false);
    idle.register(0);
    assert_eq!(idle.sleepers(), 1);
    idle.unregister(0);
    assert_eq!(idle.sleepers(), 0);
}

#[test]
fn termination_needs_every_live_worker_registered() {
    let idle = IdleSignal::new(2, 2, false);
    idle.register(0);
    assert!(
        !idle.try_terminate(),
        "worker 1 may still be running a task"
    );
    idle.register(1);
    assert!(idle.try_terminate());
    assert_eq!(idle.sleep(0), Wake::Terminated);
    assert_eq!(idle.sleep(1), Wake::Terminated);
    assert_eq!(idle.sleepers(), 0);
}

#[test]
fn a_ring_before_the_worker_parks_is_not_lost() {
    let idle = IdleSignal::new(1, 1, false);
    idle.register(0);
    idle.notify_one(|| 1);
    assert_eq!(idle.sleepers(), 0, "the ring took the worker off the stack");
    assert_eq!(idle.sleep(0), Wake::Notified, "returns at once");
}

#[test]
fn a_ring_from_another_thread_wakes_a_parked_worker() {
    rt_testkit::without_hanging(|| {
        let idle = Arc::new(IdleSignal::new(1, 1, false));
        idle.register(0);
        let waker = {
            let idle = idle.clone();
            thread::spawn(move || {
                while idle.sleepers() == 0 {
                    thread::yield_now();
                }
                idle.notify_one(|| 1);
            })
        };
        assert_eq!(idle.sleep(0), Wake::Notified);
        waker.join().unwrap();
    })
}

#[test]
fn notify_all_wakes_every_registered_worker() {
    let idle = with_sleepers(3, &[0, 2]);
    idle.notify_all();
    assert_eq!(idle.sleepers(), 0);
    assert_eq!(idle.sleep(0), Wake::Notified);
    assert_eq!(idle.sleep(2), Wake::Notified);
}

#[test]
fn a_push_leaves_a_short_queue_to_the_worker_on_its_way() {
    let idle = with_sleepers(2, &[0, 1]);
    idle.notify_one(|| 1);
    assert_eq!(idle.sleepers(), 1, "the first push rang one worker");
    idle.notify_one(|| 2);
    assert_eq!(
        idle.sleepers(),
        1,
        "two tasks wait for the worker on its way"
    );
}

#[test]
fn a_push_rings_another_sleeper_once_more_tasks_wait_than_the_rung_worker_takes() {
    let idle = with_sleepers(2, &[0, 1]);
    idle.notify_one(|| 1);
    idle.notify_one(|| TASKS_PER_WAKING + 1);
    assert_eq!(
        idle.sleepers(),
        0,
        "the rung worker is not looking yet: the long queue rings the other"
    );
    assert_eq!(idle.sleep(0), Wake::Notified);
    assert_eq!(idle.sleep(1), Wake::Notified);
}

#[test]
fn a_push_while_a_woken_worker_searches_rings_nobody() {
    let idle = with_sleepers(2, &[0, 1]);
    idle.notify_one(|| 1);
    // The most recently registered worker was rung; back from its wait, it
    // counts as searching.
    assert_eq!(idle.sleep(1), Wake::Notified);
    idle.notify_one(|| 1);
    assert_eq!(idle.sleepers(), 1, "the searcher will see the task");
    idle.found_work();
    // It was the last searcher: it rings for one more worker.
    assert_eq!(idle.sleepers(), 0);
}

#[test]
fn a_worker_that_withdraws_after_being_rung_consumes_the_ring() {
    let idle = IdleSignal::new(1, 1, false);
    idle.register(0);
    idle.notify_one(|| 1);
    idle.unregister(0);
    // Counted as searching by its withdrawal: a push rings nobody.
    idle.notify_one(|| 1);
    idle.stop_searching();
    idle.register(0);
    assert_eq!(idle.sleepers(), 1, "registered again, not rung");
}

/// Rings worker 0 of two, lets it come back by `back`, registers both
/// workers again and checks that a push rings: nobody is on the way.
fn a_push_rings_after_the_rung_worker(back: impl FnOnce(&IdleSignal)) {
    let idle = with_sleepers(2, &[0]);
    idle.notify_one(|| 1);
    back(&idle);
    idle.stop_searching();
    idle.register(0);
    idle.register(1);
    idle.notify_one(|| 1);
    assert_eq!(idle.sleepers(), 1, "nobody is on the way: the push rings");
}

#[test]
fn a_worker_back_from_its_wait_no_longer_counts_as_on_its_way() {
    a_push_rings_after_the_rung_worker(|idle| assert_eq!(idle.sleep(0), Wake::Notified));
}

#[test]
fn a_rung_worker_that_withdraws_no_longer_counts_as_on_its_way() {
    a_push_rings_after_the_rung_worker(|idle| idle.unregister(0));
}
