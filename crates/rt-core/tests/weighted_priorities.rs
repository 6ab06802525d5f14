//! `PriorityPolicy::Weighted`: classes with work share the CPU by weight,
//! so Background work keeps running under a High flood, while a High task
//! still overtakes queued Background work; `Strict` keeps its documented
//! starvation. Bounds are tolerant: the tight numbers are the benchmark's.

mod support;

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use rt_core::{BuildError, Priority, PriorityPolicy, Runtime};
use support::{occupy_all_workers, without_hanging, Gate};

const WEIGHTED: PriorityPolicy = PriorityPolicy::Weighted {
    high: 16,
    normal: 4,
    background: 1,
};

fn spin(d: Duration) {
    let started = Instant::now();
    while started.elapsed() < d {
        std::hint::spin_loop();
    }
}

fn runtime(policy: PriorityPolicy) -> Runtime {
    Runtime::builder()
        .threads(2)
        .priority_policy(policy)
        .build()
        .unwrap()
}

/// Holds the workers, queues `high` High tasks and `background` Background
/// tasks (each ~200 µs), releases the workers, and returns how many High
/// tasks had finished when the first Background task started.
fn high_done_when_background_first_started(policy: PriorityPolicy, high: usize) -> usize {
    let rt = runtime(policy);
    let gate = Gate::new();
    let blockers = occupy_all_workers(&rt, &gate);
    let high_done = Arc::new(AtomicUsize::new(0));
    let seen = Arc::new(Mutex::new(None));
    let mut handles = Vec::new();
    for _ in 0..4 {
        let (high_done, seen) = (high_done.clone(), seen.clone());
        handles.push(rt.spawn_with_priority(Priority::Background, move || {
            seen.lock()
                .unwrap()
                .get_or_insert(high_done.load(Ordering::SeqCst));
            spin(Duration::from_micros(200));
        }));
    }
    for _ in 0..high {
        let high_done = high_done.clone();
        handles.push(rt.spawn_with_priority(Priority::High, move || {
            spin(Duration::from_micros(200));
            high_done.fetch_add(1, Ordering::SeqCst);
        }));
    }
    gate.open();
    for h in blockers.into_iter().chain(handles) {
        h.join().unwrap();
    }
    let seen = seen.lock().unwrap().expect("a Background task ran");
    seen
}

#[test]
fn under_a_high_flood_with_weighted_background_tasks_keep_running() {
    without_hanging(|| {
        let high = 400;
        let done = high_done_when_background_first_started(WEIGHTED, high);
        // With weights 16:1 a Background task is owed a turn after about 16
        // High tasks per worker; far fewer than all 400.
        assert!(
            done < high / 2,
            "Background waited for {done} of {high} High tasks"
        );
    });
}

#[test]
fn under_a_high_flood_with_strict_background_tasks_wait_for_every_queued_high_task() {
    without_hanging(|| {
        let high = 200;
        // The documented starvation: every High task that was queued runs
        // first (the last two may still be finishing on the other worker).
        let done = high_done_when_background_first_started(PriorityPolicy::Strict, high);
        assert!(
            done >= high - 2,
            "Background started after only {done} of {high}"
        );
    });
}

#[test]
fn a_high_task_overtakes_queued_background_work_under_weighted() {
    without_hanging(|| {
        // One worker: with two, the worker that took the High task may be
        // preempted before the task's first line while the other starts
        // Background tasks, which says nothing about the policy.
        let rt = Runtime::builder()
            .threads(1)
            .priority_policy(WEIGHTED)
            .build()
            .unwrap();
        let gate = Gate::new();
        let blockers = occupy_all_workers(&rt, &gate);
        let background_started = Arc::new(AtomicUsize::new(0));
        let mut handles = Vec::new();
        for _ in 0..100 {
            let started = background_started.clone();
            handles.push(rt.spawn_with_priority(Priority::Background, move || {
                started.fetch_add(1, Ordering::SeqCst);
                spin(Duration::from_micros(100));
                0
            }));
        }
        let started = background_started.clone();
        let high = rt.spawn_with_priority(Priority::High, move || started.load(Ordering::SeqCst));
        gate.open();
        let before_high = high.join().unwrap();
        // The blocker (a High task) ran long, so High's request is long
        // too and one Background task may go first; after it Background is
        // ahead of its share and High is eligible.
        assert!(
            before_high <= 1,
            "{before_high} Background tasks started first"
        );
        for h in blockers {
            h.join().unwrap();
        }
        for h in handles {
            h.join().unwrap();
        }
    });
}

#[test]
fn saturated_classes_share_cpu_time_roughly_by_their_weights() {
    without_hanging(|| {
        let weights = [4.0, 2.0, 1.0];
        let rt = runtime(PriorityPolicy::Weighted {
            high: 4,
            normal: 2,
            background: 1,
        });
        let gate = Gate::new();
        let blockers = occupy_all_workers(&rt, &gate);
        let stop = Arc::new(AtomicBool::new(false));
        let mut handles = Vec::new();
        // More work in every class than a second holds: all stay saturated.
        for priority in Priority::ALL {
            for _ in 0..12_000 {
                let stop = stop.clone();
                handles.push(rt.spawn_with_priority(priority, move || {
                    if !stop.load(Ordering::Relaxed) {
                        spin(Duration::from_micros(100));
                    }
                }));
            }
        }
        gate.open();
        for h in blockers {
            h.join().unwrap();
        }
        let before = rt.stats().cpu_time.unwrap();
        std::thread::sleep(Duration::from_secs(1));
        let after = rt.stats().cpu_time.unwrap();
        stop.store(true, Ordering::Relaxed);
        for h in handles {
            h.join().unwrap();
        }
        let used: Vec<f64> = Priority::ALL
            .iter()
            .map(|&p| (after[p] - before[p]).as_secs_f64())
            .collect();
        let total: f64 = used.iter().sum();
        let weight_total: f64 = weights.iter().sum();
        for i in 0..3 {
            let (got, want) = (used[i] / total, weights[i] / weight_total);
            assert!(
                (got / want - 1.0).abs() < 0.2,
                "class {i}: share {got:.3}, weight share {want:.3} (all: {used:?})"
            );
        }
    });
}

#[test]
fn a_zero_weight_is_a_build_error() {
    let result = Runtime::builder()
        .threads(1)
        .priority_policy(PriorityPolicy::Weighted {
            high: 1,
            normal: 1,
            background: 0,
        })
        .build();
    assert!(matches!(
        result,
        Err(BuildError::ZeroWeight {
            class: Priority::Background
        })
    ));
}

#[test]
fn stats_report_the_policy_and_cpu_time_per_class_when_measured() {
    without_hanging(|| {
        let strict = Runtime::new(1).unwrap();
        assert_eq!(strict.stats().policy, PriorityPolicy::Strict);
        assert_eq!(strict.stats().cpu_time, None, "not measured by default");

        let weighted = runtime(WEIGHTED);
        weighted
            .spawn_with_priority(Priority::Normal, || spin(Duration::from_millis(5)))
            .join()
            .unwrap();
        // The worker adds the time just after the task completes.
        support::wait_until("the Normal task's time is counted", || {
            weighted.stats().cpu_time_at(Priority::Normal).unwrap() >= Duration::from_millis(5)
        });
        let stats = weighted.stats();
        assert_eq!(stats.policy, WEIGHTED);
        assert_eq!(stats.cpu_time_at(Priority::High), Some(Duration::ZERO));

        let measured = Runtime::builder()
            .threads(1)
            .measure_cpu_time(true)
            .build()
            .unwrap();
        measured
            .spawn(|| spin(Duration::from_millis(2)))
            .join()
            .unwrap();
        support::wait_until("the task's time is counted", || {
            measured.stats().cpu_time_at(Priority::Normal).unwrap() >= Duration::from_millis(2)
        });
    });
}
