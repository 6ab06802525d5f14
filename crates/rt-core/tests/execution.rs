//! Tasks run, return their values, surface panics, and are counted.

mod support;

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

use rt_core::{BuildError, JoinError, Priority, Runtime};
use support::{quietly, without_hanging, Latch};

#[test]
fn every_task_returns_its_own_value() {
    without_hanging(|| {
        let rt = Runtime::new(2).unwrap();
        let handles: Vec<_> = (0..10_000u64).map(|i| rt.spawn(move || i * 3)).collect();
        for (i, h) in handles.into_iter().enumerate() {
            assert_eq!(h.join(), Ok(i as u64 * 3));
        }
    })
}

#[test]
fn tasks_spawned_from_inside_a_task_complete() {
    without_hanging(|| {
        let rt = Arc::new(Runtime::new(2).unwrap());
        let inner = rt.clone();
        let total = rt
            .spawn(move || {
                let children: Vec<_> = (0..100u64).map(|i| inner.spawn(move || i)).collect();
                children.into_iter().map(|h| h.join().unwrap()).sum::<u64>()
            })
            .join();
        assert_eq!(total, Ok(4950));
    })
}

#[test]
fn a_panicking_task_surfaces_as_a_join_error_and_the_pool_keeps_working() {
    without_hanging(|| {
        let rt = Runtime::new(2).unwrap();
        quietly(|| {
            let panics: Vec<_> = (0..50)
                .map(|i| rt.spawn(move || -> u8 { panic!("task {i} failed") }))
                .collect();
            for (i, h) in panics.into_iter().enumerate() {
                assert_eq!(
                    h.join(),
                    Err(JoinError::Panicked(format!("task {i} failed").into()))
                );
            }
        });
        let after: Vec<_> = (0..100).map(|i| rt.spawn(move || i)).collect();
        assert_eq!(
            after.into_iter().map(|h| h.join().unwrap()).sum::<i32>(),
            4950
        );
    })
}

#[test]
fn a_panic_with_a_non_string_payload_is_reported_clearly() {
    without_hanging(|| {
        let rt = Runtime::new(1).unwrap();
        let err = quietly(|| rt.spawn(|| std::panic::panic_any(42u32)).join());
        assert_eq!(
            err,
            Err(JoinError::Panicked(rt_handle::NON_STRING_PAYLOAD.into()))
        );
    })
}

#[test]
fn a_task_that_panics_with_a_u16_gives_its_joiner_that_u16() {
    without_hanging(|| {
        let rt = Runtime::new(1).unwrap();
        let error = quietly(|| rt.spawn(|| std::panic::panic_any(413_u16)).join()).unwrap_err();
        assert!(error.is_panic());
        assert_eq!(error.into_panic().downcast_ref::<u16>(), Some(&413));
    })
}

#[test]
fn a_task_that_panics_with_a_struct_gives_its_joiner_that_struct() {
    #[derive(Debug, PartialEq)]
    struct Refused {
        code: u16,
        reason: &'static str,
    }
    without_hanging(|| {
        let rt = Runtime::new(1).unwrap();
        let outcome = quietly(|| {
            rt.spawn(|| -> u8 {
                std::panic::panic_any(Refused {
                    code: 413,
                    reason: "too large",
                })
            })
            .join()
        });
        let payload = outcome.unwrap_err().try_into_panic().expect("a panic");
        assert_eq!(
            payload.downcast_ref::<Refused>(),
            Some(&Refused {
                code: 413,
                reason: "too large"
            })
        );
    })
}

#[test]
fn a_panic_message_is_matched_by_its_text_as_before() {
    without_hanging(|| {
        let rt = Runtime::new(1).unwrap();
        let outcome = quietly(|| rt.spawn(|| -> u8 { panic!("disk quota exceeded") }).join());
        assert!(matches!(&outcome, Err(JoinError::Panicked(m)) if m.contains("quota")));
        let error = outcome.unwrap_err();
        assert_eq!(error.to_string(), "task panicked: disk quota exceeded");
        assert_eq!(error, JoinError::Panicked("disk quota exceeded".into()));
    })
}

#[test]
fn a_join_error_goes_into_a_boxed_send_sync_error_with_the_question_mark() {
    fn joined(rt: &Runtime) -> Result<u8, Box<dyn std::error::Error + Send + Sync>> {
        Ok(rt.spawn(|| -> u8 { panic!("bad input") }).join()?)
    }
    without_hanging(|| {
        let rt = Runtime::new(1).unwrap();
        let error = quietly(|| joined(&rt)).unwrap_err();
        assert_eq!(error.to_string(), "task panicked: bad input");
        assert!(error
            .downcast_ref::<JoinError>()
            .is_some_and(JoinError::is_panic));
    })
}

#[test]
fn metrics_add_up_after_shutdown() {
    without_hanging(|| {
        let rt = Arc::new(Runtime::new(2).unwrap());
        let token = rt_core::CancellationToken::new();
        token.cancel();
        for i in 0..300 {
            match i % 3 {
                0 => drop(rt.spawn(|| ())),
                1 => drop(rt.spawn_cancellable(Priority::Normal, &token, |_| ())),
                _ => {
                    let inner = rt.clone();
                    drop(rt.spawn(move || drop(inner.spawn(|| ()))));
                }
            }
        }
        quietly(|| {
            for _ in 0..10 {
                drop(rt.spawn(|| panic!("counted")));
            }
            rt.shutdown();
        });
        let m = rt.metrics();
        assert_eq!(m.submitted, 300 + 100 + 10, "{m:?}");
        assert_eq!(m.cancelled, 100, "{m:?}");
        assert_eq!(m.panicked, 10, "{m:?}");
        assert_eq!(m.submitted, m.completed + m.panicked + m.cancelled, "{m:?}");
        assert_eq!(m.pending(), 0);
    })
}

#[test]
fn current_thread_index_names_the_worker_inside_and_is_none_outside() {
    without_hanging(|| {
        let rt = Runtime::new(3).unwrap();
        assert_eq!(rt_core::current_thread_index(), None);
        let seen: Vec<_> = (0..30)
            .map(|_| rt.spawn(rt_core::current_thread_index))
            .map(|h| h.join().unwrap())
            .collect();
        assert!(
            seen.iter().all(|w| matches!(w, Some(i) if *i < 3)),
            "{seen:?}"
        );
    })
}

#[test]
fn workers_are_named_with_the_configured_prefix() {
    without_hanging(|| {
        let rt = Runtime::builder()
            .threads(2)
            .thread_name("calc")
            .build()
            .unwrap();
        let names = Arc::new(std::sync::Mutex::new(Vec::new()));
        let latch = Latch::new(2);
        // Both workers must take one of these, since each blocks until both ran.
        let handles: Vec<_> = (0..2)
            .map(|_| {
                let (names, latch) = (names.clone(), latch.clone());
                rt.spawn(move || {
                    names
                        .lock()
                        .unwrap()
                        .push(std::thread::current().name().unwrap().to_owned());
                    latch.count_down();
                    latch.wait();
                })
            })
            .collect();
        handles.into_iter().for_each(|h| h.join().unwrap());
        let mut names = names.lock().unwrap().clone();
        names.sort();
        assert_eq!(names, ["calc-0", "calc-1"]);
    })
}

#[test]
fn zero_threads_is_a_build_error() {
    without_hanging(|| {
        assert!(matches!(Runtime::new(0), Err(BuildError::ZeroThreads)));
        assert!(matches!(
            Runtime::builder().threads(0).build(),
            Err(BuildError::ZeroThreads)
        ));
    })
}

#[test]
fn a_thread_the_os_refuses_is_a_spawn_error_not_a_panic() {
    without_hanging(|| {
        // No OS gives a thread a stack of a quarter of the address space.
        let result = Runtime::builder().threads(2).stack_size(1 << 62).build();
        match result {
            Err(BuildError::Spawn { index: 0, .. }) => {}
            other => panic!("expected a spawn error for worker 0, got {other:?}"),
        }
    })
}

#[test]
fn the_default_runtime_has_one_worker_per_cpu_and_runs_tasks() {
    without_hanging(|| {
        let rt = Runtime::default();
        let cpus = std::thread::available_parallelism().unwrap().get();
        assert_eq!(rt.threads(), cpus);
        let count = Arc::new(AtomicUsize::new(0));
        let handles: Vec<_> = (0..100)
            .map(|_| {
                let c = count.clone();
                rt.spawn(move || c.fetch_add(1, Ordering::Relaxed))
            })
            .collect();
        handles.into_iter().for_each(|h| drop(h.join()));
        assert_eq!(count.load(Ordering::Relaxed), 100);
    })
}

#[test]
fn a_runtime_works_through_the_executor_trait_as_a_trait_object() {
    without_hanging(|| {
        let rt = Runtime::new(2).unwrap();
        let exec: &dyn rt_core::Executor = &rt;
        assert_eq!(rt_core::Executor::spawn(&exec, || 5).join(), Ok(5));
    })
}
