//! `Scope::execute`: a scope's task without a handle (rayon's
//! `Scope::spawn`): it runs, may borrow, is waited for by the scope, and
//! its panic makes the scope panic with its payload once every task has
//! finished; on one worker, on two, from outside the pool, and on a
//! runtime already shut down.

mod support;

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicUsize, Ordering};

use rt_core::{Priority, Runtime};
use support::{quietly, without_hanging};

#[test]
fn tasks_without_handles_borrow_and_have_all_run_when_the_scope_returns() {
    without_hanging(|| {
        for threads in [1, 2] {
            let rt = Runtime::new(threads).unwrap();
            let mut values = vec![0u64; 1_000];
            rt.scope(|s| {
                for (i, chunk) in values.chunks_mut(10).enumerate() {
                    s.execute(move || chunk.iter_mut().for_each(|v| *v = i as u64));
                }
            });
            assert!(values
                .chunks(10)
                .enumerate()
                .all(|(i, c)| c.iter().all(|&v| v == i as u64)));
        }
    });
}

#[test]
fn nested_tasks_without_handles_count_every_leaf_once() {
    fn tree(depth: u32, leaves: &AtomicUsize) {
        if depth == 0 {
            leaves.fetch_add(1, Ordering::Relaxed);
            return;
        }
        rt_core::scope(|s| {
            for _ in 0..4 {
                s.execute(|| tree(depth - 1, leaves));
            }
        });
    }
    without_hanging(|| {
        let rt = Runtime::new(2).unwrap();
        let leaves = AtomicUsize::new(0);
        rt.install(|| tree(6, &leaves));
        assert_eq!(leaves.into_inner(), 4usize.pow(6));
    });
}

#[test]
fn a_panicking_task_makes_the_scope_panic_with_its_payload_after_the_others_finished() {
    without_hanging(|| {
        let rt = Runtime::new(2).unwrap();
        let finished = AtomicUsize::new(0);
        let outcome = quietly(|| {
            catch_unwind(AssertUnwindSafe(|| {
                rt.scope(|s| {
                    s.execute(|| std::panic::panic_any(42_u32));
                    for _ in 0..20 {
                        s.execute(|| {
                            std::thread::sleep(std::time::Duration::from_millis(1));
                            finished.fetch_add(1, Ordering::SeqCst);
                        });
                    }
                })
            }))
        });
        let payload = outcome.expect_err("the scope panics");
        assert_eq!(payload.downcast_ref::<u32>(), Some(&42));
        assert_eq!(
            finished.load(Ordering::SeqCst),
            20,
            "every other task ran first"
        );
        // The runtime goes on.
        assert_eq!(rt.spawn(|| 5).join(), Ok(5));
    });
}

#[test]
fn every_capture_is_dropped_exactly_once_when_tasks_panic() {
    struct Counted<'a>(&'a AtomicUsize);
    impl Drop for Counted<'_> {
        fn drop(&mut self) {
            self.0.fetch_add(1, Ordering::SeqCst);
        }
    }
    without_hanging(|| {
        let rt = Runtime::new(2).unwrap();
        let drops = AtomicUsize::new(0);
        let _ = quietly(|| {
            catch_unwind(AssertUnwindSafe(|| {
                rt.scope(|s| {
                    for i in 0..100 {
                        let counted = Counted(&drops);
                        s.execute(move || {
                            let _counted = counted;
                            if i % 7 == 0 {
                                panic!("task {i}");
                            }
                        });
                    }
                })
            }))
        });
        assert_eq!(drops.load(Ordering::SeqCst), 100);
    });
}

#[test]
fn tasks_spawned_from_outside_the_pool_run_on_it_and_are_waited_for() {
    without_hanging(|| {
        let rt = Runtime::new(2).unwrap();
        let on_workers = AtomicUsize::new(0);
        // `in_place_scope`: the body runs on this thread, outside the pool.
        rt.in_place_scope(|s| {
            for _ in 0..50 {
                s.execute(|| {
                    if rt.current_thread_index().is_some() {
                        on_workers.fetch_add(1, Ordering::SeqCst);
                    }
                });
            }
        });
        assert_eq!(on_workers.into_inner(), 50);
    });
}

#[test]
fn on_a_runtime_shut_down_the_tasks_run_on_the_spawning_thread() {
    without_hanging(|| {
        let rt = Runtime::new(1).unwrap();
        rt.shutdown();
        let ran = AtomicUsize::new(0);
        rt.scope(|s| {
            for _ in 0..5 {
                s.execute(|| {
                    ran.fetch_add(1, Ordering::SeqCst);
                });
            }
        });
        assert_eq!(ran.into_inner(), 5);
    });
}

#[test]
fn tasks_without_handles_run_at_the_priority_of_the_code_that_opened_the_scope() {
    without_hanging(|| {
        let rt = Runtime::new(1).unwrap();
        let seen = rt.install(|| {
            rt_core::with_priority(Priority::Background, || {
                let seen = std::sync::Mutex::new(Vec::new());
                rt_core::scope(|s| {
                    s.execute(|| seen.lock().unwrap().push(rt_core::current_priority()));
                });
                seen.into_inner().unwrap()
            })
        });
        assert_eq!(seen, [Priority::Background]);
    });
}
