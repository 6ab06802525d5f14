//! std's own `thread::scope` tests and documented examples
//! (`library/std/src/thread/scoped.rs`, `library/std/src/thread/tests.rs`),
//! ported: `thread::scope` is `rt.scope` (and `rt_core::scope` inside a
//! task), `ScopedJoinHandle::join`'s `Err(payload)` is
//! `JoinError::into_panic()`. std panics with "a scoped thread panicked"
//! for an unjoined panic; here the scope resumes the task's own payload.

mod support;

use std::any::Any;
use std::panic::{catch_unwind, panic_any, AssertUnwindSafe};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use rt_core::{Runtime, Scope};
use support::{quietly, without_hanging};

#[test]
fn tasks_borrow_shared_and_mutable_data_and_the_caller_gets_it_back_after_the_scope() {
    without_hanging(|| {
        let rt = Runtime::new(2).unwrap();
        let mut a = vec![1, 2, 3];
        let mut x = 0;
        rt.scope(|s| {
            s.spawn(|| {
                assert_eq!(a.len(), 3);
            });
            s.spawn(|| {
                x += a[0] + a[2];
            });
        });
        a.push(4);
        assert_eq!(x, a.len());
    });
}

#[test]
fn a_scoped_handle_joins_with_the_tasks_value_and_a_panic_with_its_payload() {
    without_hanging(|| {
        let rt = Runtime::new(2).unwrap();
        rt.scope(|s| {
            let ok = s.spawn(|| 1234);
            let t = s.spawn(|| -> () { quietly(|| panic!("oh no")) });
            assert_eq!(ok.join(), Ok(1234));
            let error = t.join().unwrap_err();
            assert!(error.is_panic());
            assert_eq!(
                *error.into_panic().downcast::<&'static str>().unwrap(),
                "oh no"
            );
        });
    });
}

#[test]
fn an_unjoined_task_panic_makes_the_scope_panic_after_every_task_ran() {
    without_hanging(|| {
        let rt = Runtime::new(2).unwrap();
        let ran = AtomicUsize::new(0);
        let result = quietly(|| {
            catch_unwind(AssertUnwindSafe(|| {
                rt.scope(|s| {
                    s.spawn(|| panic!("boom"));
                    for _ in 0..10 {
                        s.spawn(|| {
                            std::thread::sleep(Duration::from_millis(2));
                            ran.fetch_add(1, Ordering::SeqCst);
                        });
                    }
                })
            }))
        });
        assert_eq!(ran.load(Ordering::SeqCst), 10);
        let payload = result.unwrap_err();
        assert_eq!(payload.downcast_ref::<&str>(), Some(&"boom"));
    });
}

#[test]
fn a_value_returned_by_a_task_is_dropped_before_the_scope_returns_even_if_its_drop_spawns() {
    without_hanging(|| {
        let rt = Runtime::new(2).unwrap();
        let actually_finished = &AtomicBool::new(false);
        struct X<'scope, 'env>(&'scope Scope<'scope, 'env>, &'env AtomicBool);
        impl Drop for X<'_, '_> {
            fn drop(&mut self) {
                std::thread::sleep(Duration::from_millis(20));
                let actually_finished = self.1;
                self.0.spawn(move || {
                    std::thread::sleep(Duration::from_millis(20));
                    actually_finished.store(true, Ordering::Relaxed);
                });
            }
        }
        rt.scope(|s| {
            s.spawn(move || {
                std::thread::sleep(Duration::from_millis(20));
                X(s, actually_finished)
            });
        });
        assert!(actually_finished.load(Ordering::Relaxed));
    });
}

#[test]
fn a_value_returned_by_a_task_of_a_one_worker_runtime_may_spawn_from_its_drop() {
    without_hanging(|| {
        let rt = Runtime::new(1).unwrap();
        let actually_finished = &AtomicBool::new(false);
        struct X<'scope, 'env>(&'scope Scope<'scope, 'env>, &'env AtomicBool);
        impl Drop for X<'_, '_> {
            fn drop(&mut self) {
                let actually_finished = self.1;
                self.0
                    .spawn(move || actually_finished.store(true, Ordering::Relaxed));
            }
        }
        rt.scope(|s| {
            s.spawn(move || X(s, actually_finished));
        });
        assert!(actually_finished.load(Ordering::Relaxed));
    });
}

#[test]
fn a_scope_borrowing_a_reference_argument_compiles_and_runs() {
    without_hanging(|| {
        // std's `test_scoped_threads_nll`: a compilation test of this shape.
        #[allow(clippy::match_single_binding)]
        fn foo(rt: &Runtime, x: &u8) {
            rt.scope(|s| {
                s.spawn(|| match x {
                    _ => (),
                });
            });
        }
        let rt = Runtime::new(2).unwrap();
        let x = 42_u8;
        foo(&rt, &x);
    });
}

#[test]
fn many_tasks_reading_one_flag_finish_before_the_scope_returns() {
    without_hanging(|| {
        let rt = Runtime::new(2).unwrap();
        for _ in 0..100 {
            let a_bool = AtomicBool::new(false);
            rt.scope(|s| {
                for _ in 0..10 {
                    s.spawn(|| a_bool.load(Ordering::Relaxed));
                }
            });
        }
    });
}

#[test]
fn once_a_scoped_handle_says_finished_join_returns_at_once() {
    without_hanging(|| {
        let rt = Runtime::new(2).unwrap();
        let barrier = std::sync::Barrier::new(2);
        rt.scope(|s| {
            let t = s.spawn(|| {
                barrier.wait();
                1234
            });
            assert!(!t.is_finished());
            barrier.wait();
            let start = Instant::now();
            while !t.is_finished() {
                assert!(start.elapsed() < Duration::from_secs(10));
                std::thread::sleep(Duration::from_millis(1));
            }
            let join_time = Instant::now();
            assert_eq!(t.join(), Ok(1234));
            assert!(join_time.elapsed() < Duration::from_secs(2));
        });
    });
}

fn payload_of<T: Send + 'static>(
    rt: &Runtime,
    f: impl FnOnce() -> T + Send,
) -> Box<dyn Any + Send> {
    quietly(|| rt.scope(|s| s.spawn(f).join()))
        .err()
        .expect("the task panicked")
        .into_panic()
}

#[test]
fn a_scoped_tasks_panic_with_a_string_literal_comes_back_as_that_literal() {
    without_hanging(|| {
        let rt = Runtime::new(2).unwrap();
        let e = payload_of(&rt, || -> () { panic!("static string") });
        assert!(e.is::<&'static str>());
        assert_eq!(*e.downcast::<&'static str>().unwrap(), "static string");
    });
}

#[test]
fn a_scoped_tasks_panic_any_with_an_owned_string_comes_back_as_that_string() {
    without_hanging(|| {
        let rt = Runtime::new(2).unwrap();
        let e = payload_of(&rt, || panic_any("owned string".to_string()));
        assert!(e.is::<String>());
        assert_eq!(*e.downcast::<String>().unwrap(), "owned string");
    });
}

#[test]
fn a_scoped_tasks_panic_any_with_a_boxed_any_comes_back_as_that_box() {
    without_hanging(|| {
        let rt = Runtime::new(2).unwrap();
        let e = payload_of(&rt, || panic_any(Box::new(413u16) as Box<dyn Any + Send>));
        assert!(e.is::<Box<dyn Any + Send>>());
        let any = e.downcast::<Box<dyn Any + Send>>().unwrap();
        assert_eq!(*any.downcast::<u16>().unwrap(), 413);
    });
}

#[test]
fn a_scoped_tasks_panic_any_with_a_unit_struct_comes_back_as_that_struct() {
    without_hanging(|| {
        struct Juju;
        let rt = Runtime::new(2).unwrap();
        let e = payload_of(&rt, || panic_any(Juju));
        assert!(e.is::<Juju>());
    });
}

#[test]
fn a_scope_inside_a_task_borrows_the_tasks_locals() {
    without_hanging(|| {
        let rt = Runtime::new(2).unwrap();
        let total = rt
            .spawn(|| {
                let data: Vec<u64> = (1..=100).collect();
                let mut sums = [0u64; 4];
                rt_core::scope(|s| {
                    for (chunk, sum) in data.chunks(25).zip(sums.iter_mut()) {
                        s.spawn(move || *sum = chunk.iter().sum());
                    }
                });
                sums.iter().sum::<u64>()
            })
            .join()
            .unwrap();
        assert_eq!(total, 5050);
    });
}

#[test]
fn a_std_thread_started_in_the_body_may_spawn_into_the_scope_and_join_its_task() {
    without_hanging(|| {
        // Two workers: the body blocks its own worker in `thread::scope`
        // (a plain blocking wait, which rayon's `scope` would not survive on
        // one worker either), so the other worker runs the task.
        let rt = Runtime::new(2).unwrap();
        let ran = AtomicUsize::new(0);
        rt.scope(|s| {
            std::thread::scope(|ts| {
                ts.spawn(|| {
                    let h = s.spawn(|| ran.fetch_add(1, Ordering::SeqCst));
                    assert_eq!(h.join(), Ok(0));
                });
            });
        });
        assert_eq!(ran.load(Ordering::SeqCst), 1);
    });
}
