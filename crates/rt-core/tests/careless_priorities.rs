//! Priorities and weighted policies pushed to their extremes: weights of
//! one against `u32::MAX`, floods of one class, joins across classes.

mod support;

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use rt_core::{CancellationToken, Priority, PriorityPolicy, Runtime};
use support::{occupy_all_workers, without_hanging, Gate};

fn weighted(high: u32, normal: u32, background: u32) -> Runtime {
    Runtime::builder()
        .threads(2)
        .priority_policy(PriorityPolicy::Weighted {
            high,
            normal,
            background,
        })
        .record_latency(true)
        .build()
        .unwrap()
}

fn spin(d: Duration) {
    let start = std::time::Instant::now();
    while start.elapsed() < d {
        std::hint::spin_loop();
    }
}

#[test]
fn under_extreme_weights_a_finite_flood_of_every_class_completes() {
    without_hanging(|| {
        for (h, n, b) in [
            (u32::MAX, 1, 1),
            (1, u32::MAX, 1),
            (1, 1, u32::MAX),
            (u32::MAX, u32::MAX, 1),
        ] {
            let rt = weighted(h, n, b);
            let done = Arc::new(AtomicUsize::new(0));
            let handles: Vec<_> = (0..600)
                .map(|i| {
                    let done = done.clone();
                    rt.spawn_with_priority(Priority::ALL[i % 3], move || {
                        spin(Duration::from_micros(20));
                        done.fetch_add(1, Ordering::Relaxed);
                    })
                })
                .collect();
            handles.into_iter().for_each(|x| x.join().unwrap());
            assert_eq!(done.load(Ordering::Relaxed), 600, "weights {h}:{n}:{b}");
            rt.shutdown();
            let latency = rt.stats().latency.unwrap();
            assert!(latency.iter().all(|c| c.run_time.count == 200));
        }
    });
}

#[test]
fn under_u32_max_to_one_the_heavy_class_goes_first_once_both_are_queued() {
    without_hanging(|| {
        let rt = Runtime::builder()
            .threads(1)
            .priority_policy(PriorityPolicy::Weighted {
                high: 1,
                normal: 1,
                background: u32::MAX,
            })
            .build()
            .unwrap();
        let gate = Gate::new();
        let blockers = occupy_all_workers(&rt, &gate);
        let order = Arc::new(Mutex::new(vec![]));
        let mut handles = vec![];
        for i in 0..20 {
            let order = order.clone();
            let p = if i % 2 == 0 {
                Priority::High
            } else {
                Priority::Background
            };
            handles.push(rt.spawn_with_priority(p, move || {
                spin(Duration::from_micros(200));
                order.lock().unwrap().push(p);
            }));
        }
        gate.open();
        blockers.into_iter().for_each(|b| b.join().unwrap());
        handles.into_iter().for_each(|h| h.join().unwrap());
        let order = order.lock().unwrap();
        let first_ten = &order[..10];
        let background_first = first_ten
            .iter()
            .filter(|&&p| p == Priority::Background)
            .count();
        assert!(background_first >= 8, "{order:?}");
    });
}

#[test]
fn a_background_task_joining_a_high_task_and_the_reverse_both_complete() {
    without_hanging(|| {
        for policy in [
            PriorityPolicy::Strict,
            PriorityPolicy::Weighted {
                high: u32::MAX,
                normal: 1,
                background: 1,
            },
        ] {
            let rt = Arc::new(
                Runtime::builder()
                    .threads(1)
                    .priority_policy(policy)
                    .build()
                    .unwrap(),
            );
            let inner = rt.clone();
            let v = rt
                .spawn_with_priority(Priority::Background, move || {
                    let inner2 = inner.clone();
                    inner
                        .spawn_with_priority(Priority::High, move || {
                            inner2
                                .spawn_with_priority(Priority::Background, || 40)
                                .join()
                                .unwrap()
                                + 1
                        })
                        .join()
                        .unwrap()
                        + 1
                })
                .join();
            assert_eq!(v, Ok(42));
        }
    });
}

#[test]
fn cancellable_tasks_of_every_class_under_a_weighted_policy_are_cancelled_or_run_exactly_once() {
    without_hanging(|| {
        let rt = weighted(16, 4, 1);
        let token = CancellationToken::new();
        let ran = Arc::new(AtomicUsize::new(0));
        let handles: Vec<_> = (0..300)
            .map(|i| {
                let ran = ran.clone();
                rt.spawn_cancellable(Priority::ALL[i % 3], &token, move |ctx| {
                    if !ctx.is_cancelled() {
                        spin(Duration::from_micros(10));
                    }
                    ran.fetch_add(1, Ordering::Relaxed);
                })
            })
            .collect();
        token.cancel();
        let ok = handles
            .into_iter()
            .map(|h| h.join())
            .filter(Result::is_ok)
            .count();
        assert_eq!(ok, ran.load(Ordering::Relaxed));
        rt.shutdown();
        let m = rt.metrics();
        assert_eq!(m.submitted, 300);
        assert_eq!(m.completed as usize, ok);
        assert_eq!(m.submitted, m.finished());
    });
}

#[test]
fn a_runtime_with_weights_of_one_each_behaves_like_round_robin_and_finishes() {
    without_hanging(|| {
        let rt = weighted(1, 1, 1);
        let hs: Vec<_> = (0..90)
            .map(|i| rt.spawn_with_priority(Priority::ALL[i % 3], move || i))
            .collect();
        let sum: usize = hs.into_iter().map(|h| h.join().unwrap()).sum();
        assert_eq!(sum, (0..90).sum::<usize>());
        assert_eq!(rt.install(|| rt_core::join(|| 1, || 2)), (1, 2));
    });
}
