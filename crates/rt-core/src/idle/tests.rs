//! Unit tests of the doorbell on its own, without a runtime: the state
//! changes each call makes, and a two-thread ring. They also run under
//! miri (`cargo xtask miri`); the loom models in `loom_*.rs` cover the
//! interleavings.

use std::sync::Arc;
use std::thread;

use super::{IdleSignal, Wake};

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
    idle.notify_one();
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
                idle.notify_one();
            })
        };
        assert_eq!(idle.sleep(0), Wake::Notified);
        waker.join().unwrap();
    })
}

#[test]
fn notify_all_wakes_every_registered_worker() {
    let idle = IdleSignal::new(3, 3, false);
    idle.register(0);
    idle.register(2);
    idle.notify_all();
    assert_eq!(idle.sleepers(), 0);
    assert_eq!(idle.sleep(0), Wake::Notified);
    assert_eq!(idle.sleep(2), Wake::Notified);
}
