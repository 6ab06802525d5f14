//! Huge, zero and odd arguments to the builder and the trace, as a new
//! user types them: each is either refused with a `BuildError` or gives a
//! runtime that works.

mod support;

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

use rt_core::{BuildError, Priority, PriorityPolicy, Runtime, MAX_THREADS};
use support::{quietly, without_hanging};

fn assert_works(rt: &Runtime) {
    assert_eq!(rt.spawn(|| 1 + 1).join(), Ok(2));
    assert_eq!(rt.install(|| rt_core::join(|| 1, || 2)), (1, 2));
    let mut v = [0u8; 8];
    rt.scope(|s| {
        for x in v.iter_mut() {
            s.spawn(move || *x = 1);
        }
    });
    assert_eq!(v, [1; 8]);
}

#[test]
fn zero_threads_is_refused_by_new_and_by_the_builder() {
    without_hanging(|| {
        assert!(matches!(Runtime::new(0), Err(BuildError::ZeroThreads)));
        assert!(matches!(
            Runtime::builder().threads(0).build(),
            Err(BuildError::ZeroThreads)
        ));
    });
}

#[test]
fn more_threads_than_the_maximum_is_refused_at_once() {
    without_hanging(|| {
        for n in [MAX_THREADS + 1, usize::MAX] {
            match Runtime::builder().threads(n).build() {
                Err(BuildError::TooManyThreads { requested, max }) => {
                    assert_eq!((requested, max), (n, MAX_THREADS));
                }
                other => panic!("threads({n}): {other:?}"),
            }
        }
    });
}

#[test]
fn a_zero_queue_capacity_is_refused_and_a_huge_one_works() {
    without_hanging(|| {
        assert!(matches!(
            Runtime::builder().queue_capacity(0).build(),
            Err(BuildError::ZeroCapacity)
        ));
        let rt = Runtime::builder()
            .threads(2)
            .queue_capacity(usize::MAX)
            .build()
            .unwrap();
        assert_eq!(rt.stats().queue_capacity, Some(usize::MAX));
        assert_works(&rt);
        for _ in 0..100 {
            assert!(rt.try_spawn(|| ()).is_ok());
        }
    });
}

#[test]
fn a_queue_capacity_of_one_still_runs_a_fan_out_and_a_scope() {
    without_hanging(|| {
        let rt = Runtime::builder()
            .threads(2)
            .queue_capacity(1)
            .build()
            .unwrap();
        let handles: Vec<_> = (0..200).map(|i| rt.spawn(move || i)).collect();
        let sum: i32 = handles.into_iter().map(|h| h.join().unwrap()).sum();
        assert_eq!(sum, (0..200).sum::<i32>());
        assert_works(&rt);
    });
}

/// Runs `assert_works` on a runtime with `stack_size(bytes)` in a child
/// process (a stack overflow aborts the process); true if it exited cleanly.
fn works_with_stack_in_a_child(bytes: usize) -> bool {
    std::process::Command::new(std::env::current_exe().unwrap())
        .args([
            "--exact",
            "child_runs_a_runtime_with_the_stack_size_given",
            "--include-ignored",
            "--nocapture",
        ])
        .env("RT_STACK_CHILD", bytes.to_string())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .status()
        .unwrap()
        .success()
}

#[test]
fn child_runs_a_runtime_with_the_stack_size_given() {
    let Some(bytes) = std::env::var_os("RT_STACK_CHILD") else {
        return; // only the scenario of the tests below, in their own process
    };
    let bytes: usize = bytes.to_str().unwrap().parse().unwrap();
    for _ in 0..20 {
        let rt = Runtime::builder()
            .threads(2)
            .stack_size(bytes)
            .build()
            .unwrap();
        assert_works(&rt);
    }
}

#[test]
fn a_zero_stack_size_gives_workers_that_work() {
    without_hanging(|| assert!(works_with_stack_in_a_child(0)));
}

#[test]
fn a_one_byte_stack_size_gives_workers_that_work() {
    without_hanging(|| assert!(works_with_stack_in_a_child(1)));
}

#[test]
fn a_one_mebibyte_stack_size_gives_workers_that_work() {
    without_hanging(|| assert!(works_with_stack_in_a_child(1 << 20)));
}

#[test]
fn an_empty_thread_name_prefix_is_accepted() {
    without_hanging(|| {
        let rt = Runtime::builder()
            .threads(1)
            .thread_name("")
            .build()
            .unwrap();
        let name = rt
            .spawn(|| std::thread::current().name().map(str::to_owned))
            .join()
            .unwrap();
        assert_eq!(name.as_deref(), Some("-0"));
    });
}

#[test]
fn a_thread_name_with_a_nul_byte_is_a_build_error_not_a_panic() {
    without_hanging(|| {
        let built = quietly(|| {
            std::panic::catch_unwind(|| {
                Runtime::builder()
                    .threads(2)
                    .thread_name("bad\0name")
                    .build()
            })
        });
        match built {
            Ok(Err(_)) => {}
            Ok(Ok(rt)) => assert_works(&rt),
            Err(_) => panic!("Builder::build panicked on a thread name with a NUL byte"),
        }
    });
}

#[test]
fn a_very_long_thread_name_prefix_is_kept_whole() {
    without_hanging(|| {
        let long = "x".repeat(1_000);
        let rt = Runtime::builder()
            .threads(1)
            .thread_name(long.clone())
            .build()
            .unwrap();
        let name = rt
            .spawn(|| std::thread::current().name().map(str::to_owned))
            .join()
            .unwrap();
        assert_eq!(name, Some(format!("{long}-0")));
    });
}

#[test]
fn a_zero_weight_for_any_class_is_refused_naming_that_class() {
    without_hanging(|| {
        for (weights, class) in [
            ((0, 1, 1), Priority::High),
            ((1, 0, 1), Priority::Normal),
            ((1, 1, 0), Priority::Background),
        ] {
            let built = Runtime::builder()
                .priority_policy(PriorityPolicy::Weighted {
                    high: weights.0,
                    normal: weights.1,
                    background: weights.2,
                })
                .build();
            match built {
                Err(BuildError::ZeroWeight { class: c }) => assert_eq!(c, class),
                other => panic!("{weights:?}: {other:?}"),
            }
        }
    });
}

fn run_every_class(policy: PriorityPolicy) {
    let rt = Runtime::builder()
        .threads(2)
        .priority_policy(policy)
        .build()
        .unwrap();
    let done = Arc::new(AtomicUsize::new(0));
    let handles: Vec<_> = (0..300)
        .map(|i| {
            let done = done.clone();
            let p = Priority::ALL[i % 3];
            rt.spawn_with_priority(p, move || {
                let mut x = 0u64;
                for k in 0..2_000 {
                    x = x.wrapping_add(std::hint::black_box(k));
                }
                done.fetch_add(1, Ordering::Relaxed);
                x
            })
        })
        .collect();
    for h in handles {
        h.join().unwrap();
    }
    assert_eq!(done.load(Ordering::Relaxed), 300);
    assert_works(&rt);
    let cpu = rt.stats().cpu_time.unwrap();
    assert!(cpu.iter().all(|d| !d.is_zero()), "{cpu:?}");
}

#[test]
fn weights_of_u32_max_for_every_class_run_every_task() {
    without_hanging(|| {
        run_every_class(PriorityPolicy::Weighted {
            high: u32::MAX,
            normal: u32::MAX,
            background: u32::MAX,
        });
    });
}

#[test]
fn a_u32_max_weight_against_weights_of_one_runs_every_task() {
    without_hanging(|| {
        run_every_class(PriorityPolicy::Weighted {
            high: u32::MAX,
            normal: 1,
            background: 1,
        });
        run_every_class(PriorityPolicy::Weighted {
            high: 1,
            normal: 1,
            background: u32::MAX,
        });
    });
}

#[test]
fn weights_of_one_for_every_class_run_every_task() {
    without_hanging(|| {
        run_every_class(PriorityPolicy::Weighted {
            high: 1,
            normal: 1,
            background: 1,
        });
    });
}

#[test]
fn a_trace_of_zero_events_per_worker_records_nothing_and_counts_the_drops() {
    without_hanging(|| {
        let rt = Runtime::new(2).unwrap();
        assert!(rt.start_trace(0));
        for h in (0..10).map(|i| rt.spawn(move || i)).collect::<Vec<_>>() {
            h.join().unwrap();
        }
        let trace = rt.stop_trace();
        assert!(trace.tasks.is_empty());
        assert!(trace.dropped >= 10, "dropped {}", trace.dropped);
        assert_works(&rt);
    });
}

#[test]
fn stop_trace_without_start_and_twice_in_a_row_gives_empty_traces() {
    without_hanging(|| {
        let rt = Runtime::new(2).unwrap();
        let t = rt.stop_trace();
        assert!(t.tasks.is_empty() && t.idle.is_empty() && t.dropped == 0);
        assert!(rt.start_trace(100));
        assert!(!rt.start_trace(100));
        rt.spawn(|| ()).join().unwrap();
        assert_eq!(rt.stop_trace().tasks.len(), 1);
        let again = rt.stop_trace();
        assert!(again.tasks.is_empty());
        assert!(rt.start_trace(100));
        rt.spawn(|| ()).join().unwrap();
        assert_eq!(rt.stop_trace().tasks.len(), 1);
    });
}

#[test]
fn a_trace_started_after_shutdown_stops_cleanly() {
    without_hanging(|| {
        let rt = Runtime::new(2).unwrap();
        rt.spawn(|| ()).join().unwrap();
        rt.shutdown();
        let _ = rt.start_trace(1_000);
        let trace = rt.stop_trace();
        assert!(trace.tasks.is_empty());
        let _ = rt.stats();
    });
}

#[test]
fn latency_stats_of_a_runtime_that_ran_nothing_are_zero_and_readable() {
    without_hanging(|| {
        let rt = Runtime::builder()
            .threads(2)
            .record_latency(true)
            .build()
            .unwrap();
        let latency = rt.stats().latency.unwrap();
        for class in latency {
            assert_eq!(class.queue_delay.count, 0);
            assert_eq!(class.run_time.count, 0);
        }
        rt.shutdown();
        assert!(rt.stats().latency.is_some());
    });
}

#[test]
fn a_scope_opened_inside_a_worker_hook_runs_its_tasks() {
    without_hanging(|| {
        let ran = Arc::new(AtomicUsize::new(0));
        let r = ran.clone();
        let rt = Runtime::builder()
            .threads(2)
            .before_worker_start(move |_| {
                let r = &r;
                rt_core::scope(|s| {
                    s.spawn(move || r.fetch_add(1, Ordering::SeqCst));
                    s.spawn(move || r.fetch_add(1, Ordering::SeqCst));
                });
                let (a, b) = rt_core::join(|| 1, || 2);
                assert_eq!((a, b), (1, 2));
            })
            .build()
            .unwrap();
        assert_works(&rt);
        rt.shutdown();
        assert_eq!(ran.load(Ordering::SeqCst), 4);
        assert_eq!(rt.metrics().hook_panics, 0);
    });
}

#[test]
fn a_scope_opened_in_a_before_task_hook_runs_its_tasks() {
    without_hanging(|| {
        let ran = Arc::new(AtomicUsize::new(0));
        let r = ran.clone();
        let rt = Runtime::builder()
            .threads(1)
            .before_task(move |_| {
                let r = &r;
                rt_core::scope(|s| {
                    s.spawn(move || r.fetch_add(1, Ordering::SeqCst));
                });
            })
            .build()
            .unwrap();
        for _ in 0..10 {
            rt.spawn(|| ()).join().unwrap();
        }
        rt.shutdown();
        assert!(ran.load(Ordering::SeqCst) >= 10);
        assert_eq!(rt.metrics().hook_panics, 0);
    });
}
