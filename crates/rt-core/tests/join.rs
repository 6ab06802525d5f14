//! `join(a, b)`: both halves run, may borrow, recurse deep, and panics come
//! back to the caller after the other half finished.

mod support;

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Arc;

use rt_core::{current_thread_index, Runtime};
use support::{quietly, scaled, without_hanging};

fn fib(n: u64) -> u64 {
    if n < 2 {
        return n;
    }
    let (a, b) = rt_core::join(|| fib(n - 1), || fib(n - 2));
    a + b
}

fn fib_seq(n: u64) -> u64 {
    (0..n).fold((0, 1), |(a, b), _| (b, a + b)).0
}

#[test]
fn join_from_outside_the_pool_runs_both_halves_on_its_workers() {
    without_hanging(|| {
        let rt = Runtime::new(2).unwrap();
        let (a, b) = rt.join(current_thread_index, current_thread_index);
        assert!(a.is_some() && b.is_some());
    });
}

#[test]
fn the_halves_may_borrow_and_mutate_the_callers_data() {
    without_hanging(|| {
        let rt = Runtime::new(2).unwrap();
        let mut left = vec![1, 2, 3];
        let mut right = vec![4, 5, 6];
        rt.join(
            || left.iter_mut().for_each(|x| *x *= 10),
            || right.iter_mut().for_each(|x| *x += 1),
        );
        assert_eq!((left, right), (vec![10, 20, 30], vec![5, 6, 7]));
    });
}

#[test]
fn recursive_join_computes_fib_on_two_workers() {
    without_hanging(|| {
        let rt = Runtime::new(2).unwrap();
        let n = if cfg!(miri) { 8 } else { 22 };
        assert_eq!(rt.install(|| fib(n)), fib_seq(n));
    });
}

#[test]
fn recursive_join_computes_fib_on_one_worker() {
    without_hanging(|| {
        let rt = Runtime::new(1).unwrap();
        let n = if cfg!(miri) { 8 } else { 22 };
        assert_eq!(rt.install(|| fib(n)), fib_seq(n));
    });
}

#[test]
fn join_recursion_ten_thousand_levels_deep_completes_on_the_workers_default_stack() {
    fn depth(n: usize) -> usize {
        if n == 0 {
            return 0;
        }
        let (below, ()) = rt_core::join(|| depth(n - 1), || ());
        below + 1
    }
    without_hanging(|| {
        let rt = Runtime::new(2).unwrap();
        // ThreadSanitizer's instrumented frames are several times larger
        // than a debug build's, so a sanitized run goes a tenth as deep.
        let levels = if cfg!(miri) { 50 } else { scaled(10_000) };
        assert_eq!(rt.install(|| depth(levels)), levels);
    });
}

#[test]
fn outside_any_runtime_join_runs_both_halves_on_the_global_runtime() {
    without_hanging(|| {
        let (a, b) = rt_core::join(current_thread_index, current_thread_index);
        assert!(a.is_some() && b.is_some(), "both ran on workers");
        assert!(
            Runtime::global().metrics().submitted == 0,
            "halves are not tasks"
        );
    });
}

#[test]
fn a_panic_in_the_first_half_resumes_in_the_caller_after_the_second_finished() {
    without_hanging(|| {
        let rt = Runtime::new(2).unwrap();
        let b_ran = AtomicBool::new(false);
        let outcome = quietly(|| {
            std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                rt.join(
                    || panic!("first half failed"),
                    || b_ran.store(true, Ordering::SeqCst),
                )
            }))
        });
        let payload = outcome.unwrap_err();
        assert_eq!(payload.downcast_ref::<&str>(), Some(&"first half failed"));
        assert!(b_ran.load(Ordering::SeqCst));
        assert_eq!(rt.spawn(|| 1).join(), Ok(1), "the pool keeps working");
    });
}

#[test]
fn a_panic_in_the_second_half_resumes_in_the_caller_after_the_first_finished() {
    without_hanging(|| {
        let rt = Runtime::new(2).unwrap();
        let a_ran = AtomicBool::new(false);
        let outcome = quietly(|| {
            std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                rt.install(|| {
                    rt_core::join(
                        || a_ran.store(true, Ordering::SeqCst),
                        || panic!("second half failed"),
                    )
                })
            }))
        });
        assert!(outcome.is_err());
        assert!(a_ran.load(Ordering::SeqCst));
    });
}

#[test]
fn join_inside_a_task_uses_that_tasks_runtime() {
    without_hanging(|| {
        let rt = Runtime::builder()
            .threads(2)
            .thread_name("jt")
            .build()
            .unwrap();
        let names = rt
            .spawn(|| {
                let name = || std::thread::current().name().map(str::to_owned);
                rt_core::join(name, name)
            })
            .join()
            .unwrap();
        assert!(names.0.unwrap().starts_with("jt-"));
        assert!(names.1.unwrap().starts_with("jt-"));
    });
}

#[test]
fn join_halves_are_not_counted_as_tasks() {
    without_hanging(|| {
        let rt = Runtime::new(2).unwrap();
        let n = if cfg!(miri) { 6 } else { 15 };
        assert_eq!(rt.install(|| fib(n)), fib_seq(n));
        rt.shutdown();
        let m = rt.metrics();
        assert_eq!((m.submitted, m.completed), (0, 0), "{m:?}");
    });
}

#[test]
fn join_after_shutdown_runs_on_the_caller_instead_of_hanging() {
    without_hanging(|| {
        let rt = Runtime::new(2).unwrap();
        rt.shutdown();
        let calls = AtomicUsize::new(0);
        let (a, b) = rt.join(
            || calls.fetch_add(1, Ordering::SeqCst),
            || calls.fetch_add(1, Ordering::SeqCst),
        );
        assert_eq!(a + b, 1);
        assert_eq!(calls.load(Ordering::SeqCst), 2);
        assert_eq!(
            rt.install(current_thread_index),
            None,
            "ran outside the pool"
        );
    });
}

#[test]
fn install_runs_the_closure_on_a_worker_and_returns_its_result() {
    without_hanging(|| {
        let rt = Arc::new(Runtime::new(2).unwrap());
        assert!(rt.install(current_thread_index).is_some());
        let inner = rt.clone();
        // From a task of the same runtime it runs inline.
        let same = rt
            .spawn(move || (current_thread_index(), inner.install(current_thread_index)))
            .join()
            .unwrap();
        assert_eq!(same.0, same.1);
    });
}

#[test]
fn an_idle_worker_takes_the_second_half_while_the_first_runs() {
    without_hanging(|| {
        let rt = Runtime::new(2).unwrap();
        let b_started = AtomicBool::new(false);
        let (a_worker, b_worker) = rt.install(|| {
            rt_core::join(
                || {
                    // Finishes only if `b` runs meanwhile, on the other worker.
                    while !b_started.load(Ordering::SeqCst) {
                        std::thread::yield_now();
                    }
                    current_thread_index()
                },
                || {
                    b_started.store(true, Ordering::SeqCst);
                    current_thread_index()
                },
            )
        });
        assert_ne!(a_worker, b_worker);
    });
}

#[test]
fn when_both_halves_panic_the_first_halfs_panic_resumes_on_the_pool() {
    without_hanging(|| {
        let rt = Runtime::new(2).unwrap();
        let caught = quietly(|| {
            std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                rt.install(|| rt_core::join(|| panic!("from a"), || panic!("from b")))
            }))
        });
        let payload = caught.expect_err("join resumes a panic");
        assert_eq!(payload.downcast_ref::<&str>(), Some(&"from a"));
    });
}

#[test]
fn when_both_halves_panic_off_the_pool_the_first_halfs_panic_resumes() {
    without_hanging(|| {
        let caught = quietly(|| {
            std::panic::catch_unwind(|| rt_core::join(|| panic!("from a"), || panic!("from b")))
        });
        let payload = caught.expect_err("join resumes a panic");
        assert_eq!(payload.downcast_ref::<&str>(), Some(&"from a"));
    });
}

#[test]
fn when_both_halves_panic_and_the_second_was_stolen_the_first_halfs_panic_resumes() {
    without_hanging(|| {
        let rt = Runtime::new(2).unwrap();
        for _ in 0..scaled(20) {
            let caught = quietly(|| {
                std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                    rt.install(|| {
                        rt_core::join(
                            || {
                                // Long enough for the idle worker to steal `b`.
                                std::thread::sleep(std::time::Duration::from_millis(2));
                                panic!("from a")
                            },
                            || panic!("from b"),
                        )
                    })
                }))
            });
            let payload = caught.expect_err("join resumes a panic");
            assert_eq!(payload.downcast_ref::<&str>(), Some(&"from a"));
        }
    });
}
