//! Every `join` fork of work below High is a checkpoint: a queued task of a
//! more urgent class, waiting in the worker's own deques or in an injector,
//! runs first, on that worker. Work of the same or a lower class waits, a
//! High unit lets nothing in, a weighted policy lets nothing in, and
//! another runtime's queues are not looked at.

mod support;

use std::sync::{Arc, Mutex};
use std::thread;

use rt_core::{Priority, PriorityPolicy, Runtime};
use support::{occupy_all_workers, without_hanging, Gate, Latch};

/// What ran, in order.
type Order = Arc<Mutex<Vec<&'static str>>>;

fn record(order: &Order, what: &'static str) {
    order.lock().unwrap().push(what);
}

/// Queues a task on `rt` at `priority` from a thread that is no worker (so
/// onto the injector), which records `what`.
fn queue_from_outside(rt: &Arc<Runtime>, priority: Priority, order: &Order, what: &'static str) {
    let (rt, order) = (rt.clone(), order.clone());
    thread::spawn(move || {
        drop(rt.spawn_with_priority(priority, move || record(&order, what)));
    })
    .join()
    .unwrap();
}

/// Runs a join at `running` priority inside `rt` after queuing an `urgent`
/// task from outside; returns the order of the task and the two halves.
fn fork_with_queued(rt: &Arc<Runtime>, running: Priority, urgent: Priority) -> Vec<&'static str> {
    let order = Order::default();
    let (inner, o) = (rt.clone(), order.clone());
    rt.install(move || {
        rt_core::with_priority(running, || {
            queue_from_outside(&inner, urgent, &o, "queued");
            rt_core::join(|| record(&o, "a"), || record(&o, "b"));
        })
    });
    let seen = order.lock().unwrap().clone();
    seen
}

#[test]
fn on_one_worker_a_more_urgent_task_from_an_injector_runs_before_a_fork_s_halves() {
    without_hanging(|| {
        let rt = Arc::new(Runtime::new(1).unwrap());
        for (running, urgent) in [
            (Priority::Background, Priority::High),
            (Priority::Background, Priority::Normal),
            (Priority::Normal, Priority::High),
        ] {
            assert_eq!(
                fork_with_queued(&rt, running, urgent),
                ["queued", "a", "b"],
                "{urgent:?} queued at a {running:?} fork"
            );
        }
    });
}

#[test]
fn on_one_worker_work_of_the_same_or_a_lower_class_waits_for_the_fork() {
    without_hanging(|| {
        let rt = Arc::new(Runtime::new(1).unwrap());
        for (running, queued) in [
            (Priority::Background, Priority::Background),
            (Priority::Normal, Priority::Normal),
            (Priority::Normal, Priority::Background),
            (Priority::High, Priority::High),
            (Priority::High, Priority::Normal),
        ] {
            let seen = fork_with_queued(&rt, running, queued);
            assert_eq!(
                &seen[..2],
                ["a", "b"],
                "{queued:?} queued at a {running:?} fork"
            );
        }
    });
}

#[test]
fn on_two_workers_a_more_urgent_task_from_an_injector_runs_before_a_fork_s_halves() {
    without_hanging(|| {
        let rt = Arc::new(Runtime::new(2).unwrap());
        // The other worker is held, so only the forking worker can take
        // the queued task.
        let gate = Gate::new();
        let started = Latch::new(1);
        let holder = {
            let (gate, started) = (gate.clone(), started.clone());
            rt.spawn_with_priority(Priority::High, move || {
                started.count_down();
                gate.wait();
            })
        };
        started.wait();
        for (running, urgent) in [
            (Priority::Background, Priority::High),
            (Priority::Normal, Priority::High),
            (Priority::Background, Priority::Normal),
        ] {
            assert_eq!(
                fork_with_queued(&rt, running, urgent),
                ["queued", "a", "b"],
                "{urgent:?} queued at a {running:?} fork"
            );
        }
        gate.open();
        assert_eq!(holder.join(), Ok(()));
    });
}

#[test]
fn a_more_urgent_task_on_the_worker_s_own_deque_runs_before_a_fork_s_halves() {
    without_hanging(|| {
        for threads in [1, 2] {
            let rt = Runtime::new(threads).unwrap();
            let gate = Gate::new();
            // On two workers, the other one is held: it cannot steal.
            let holders = if threads == 2 {
                let started = Latch::new(1);
                let (g, s) = (gate.clone(), started.clone());
                let holder = rt.spawn_with_priority(Priority::High, move || {
                    s.count_down();
                    g.wait();
                });
                started.wait();
                vec![holder]
            } else {
                Vec::new()
            };
            let order = Order::default();
            let o = order.clone();
            rt.install(|| {
                rt_core::with_priority(Priority::Background, || {
                    let queued = o.clone();
                    // From this worker: onto its own deque.
                    let _urgent = rt_core::spawn_with_priority(Priority::High, move || {
                        record(&queued, "queued")
                    });
                    rt_core::join(|| record(&o, "a"), || record(&o, "b"));
                })
            });
            assert_eq!(
                *order.lock().unwrap(),
                ["queued", "a", "b"],
                "{threads} workers"
            );
            gate.open();
            for holder in holders {
                assert_eq!(holder.join(), Ok(()));
            }
        }
    });
}

#[test]
fn a_fork_inside_a_join_half_lets_urgent_work_in_too() {
    without_hanging(|| {
        let rt = Arc::new(Runtime::new(1).unwrap());
        let order = Order::default();
        let (inner, o) = (rt.clone(), order.clone());
        rt.install(move || {
            rt_core::with_priority(Priority::Background, || {
                rt_core::join(
                    || {
                        queue_from_outside(&inner, Priority::High, &o, "queued");
                        rt_core::join(|| record(&o, "a.a"), || record(&o, "a.b"));
                    },
                    || record(&o, "b"),
                );
            })
        });
        assert_eq!(*order.lock().unwrap(), ["queued", "a.a", "a.b", "b"]);
    });
}

#[test]
fn every_queued_urgent_task_runs_before_a_series_of_forks_ends() {
    without_hanging(|| {
        let rt = Arc::new(Runtime::new(1).unwrap());
        let order = Order::default();
        let (inner, o) = (rt.clone(), order.clone());
        rt.install(move || {
            rt_core::with_priority(Priority::Background, || {
                for _ in 0..3 {
                    queue_from_outside(&inner, Priority::High, &o, "queued");
                }
                for _ in 0..3 {
                    rt_core::join(|| (), || ());
                }
                record(&o, "forks done");
            })
        });
        assert_eq!(
            *order.lock().unwrap(),
            ["queued", "queued", "queued", "forks done"]
        );
    });
}

#[test]
fn under_a_weighted_policy_a_fork_lets_nothing_in() {
    without_hanging(|| {
        let rt = Arc::new(
            Runtime::builder()
                .threads(1)
                .priority_policy(PriorityPolicy::Weighted {
                    high: 4,
                    normal: 2,
                    background: 1,
                })
                .build()
                .unwrap(),
        );
        let seen = fork_with_queued(&rt, Priority::Background, Priority::High);
        assert_eq!(&seen[..2], ["a", "b"]);
    });
}

#[test]
fn a_fork_never_runs_a_task_queued_on_another_runtime() {
    without_hanging(|| {
        let a = Runtime::new(1).unwrap();
        let b = Arc::new(Runtime::new(1).unwrap());
        let gate = Gate::new();
        let b_holders = occupy_all_workers(&b, &gate);
        let order = Order::default();
        let o = order.clone();
        let queued_on_b = b.spawn_with_priority(Priority::High, {
            let o = order.clone();
            move || record(&o, "queued on b")
        });
        a.install(|| {
            rt_core::with_priority(Priority::Background, || {
                rt_core::join(|| record(&o, "a"), || record(&o, "b"));
            })
        });
        assert_eq!(*order.lock().unwrap(), ["a", "b"]);
        gate.open();
        assert_eq!(queued_on_b.join(), Ok(()));
        for holder in b_holders {
            assert_eq!(holder.join(), Ok(()));
        }
    });
}

#[test]
fn the_urgent_task_runs_at_its_own_priority_and_the_fork_goes_on_at_its_own() {
    without_hanging(|| {
        let rt = Arc::new(Runtime::new(1).unwrap());
        let seen = Arc::new(Mutex::new(Vec::new()));
        let (inner, s) = (rt.clone(), seen.clone());
        rt.install(move || {
            rt_core::with_priority(Priority::Background, || {
                let (rt, queued) = (inner.clone(), s.clone());
                thread::spawn(move || {
                    drop(rt.spawn_with_priority(Priority::High, move || {
                        queued.lock().unwrap().push(rt_core::current_priority())
                    }))
                })
                .join()
                .unwrap();
                rt_core::join(
                    || s.lock().unwrap().push(rt_core::current_priority()),
                    || (),
                );
            })
        });
        assert_eq!(
            *seen.lock().unwrap(),
            [Priority::High, Priority::Background]
        );
    });
}
