//! Panics a user does not plan for: non-string payloads through every
//! path (handles, `install`, `join`, `scope`, `execute`), destructors that
//! panic (of outputs, captures and payloads), and handles joined long
//! after their task panicked.

mod support;

use std::panic::{catch_unwind, panic_any, AssertUnwindSafe};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{mpsc, Arc, Mutex};
use std::time::Duration;

use rt_core::{JoinError, Runtime};
use rt_handle::NON_STRING_PAYLOAD as NON_STRING_PAYLOAD_TEXT;
use support::{quietly, without_hanging};

#[derive(Debug, PartialEq)]
struct Fault {
    code: u32,
}

struct PanicOnDrop(&'static str);

impl Drop for PanicOnDrop {
    fn drop(&mut self) {
        if !std::thread::panicking() {
            panic!("{}", self.0);
        }
    }
}

fn assert_healthy(rt: &Runtime) {
    let handles: Vec<_> = (0..rt.threads() * 4).map(|i| rt.spawn(move || i)).collect();
    for (i, h) in handles.into_iter().enumerate() {
        assert_eq!(h.join(), Ok(i));
    }
}

#[test]
fn a_struct_payload_comes_back_from_a_handle_an_install_a_join_and_a_scope() {
    without_hanging(|| {
        let rt = Runtime::new(2).unwrap();
        quietly(|| {
            let p = rt
                .spawn(|| panic_any(Fault { code: 1 }))
                .join()
                .unwrap_err()
                .into_panic();
            assert_eq!(p.downcast_ref::<Fault>(), Some(&Fault { code: 1 }));

            let p = catch_unwind(AssertUnwindSafe(|| {
                rt.install(|| panic_any(Fault { code: 2 }))
            }))
            .unwrap_err();
            assert_eq!(p.downcast_ref::<Fault>(), Some(&Fault { code: 2 }));

            let p = catch_unwind(AssertUnwindSafe(|| {
                rt.join(|| (), || panic_any(Fault { code: 3 }))
            }))
            .unwrap_err();
            assert_eq!(p.downcast_ref::<Fault>(), Some(&Fault { code: 3 }));

            let p = catch_unwind(AssertUnwindSafe(|| {
                rt.install(|| {
                    rt_core::join(
                        || panic_any(Fault { code: 4 }),
                        || panic_any(Fault { code: 5 }),
                    )
                })
            }))
            .unwrap_err();
            assert_eq!(p.downcast_ref::<Fault>(), Some(&Fault { code: 4 }));

            let p = catch_unwind(AssertUnwindSafe(|| {
                rt.scope(|s| {
                    s.spawn(|| panic_any(Fault { code: 6 }));
                })
            }))
            .unwrap_err();
            assert_eq!(p.downcast_ref::<Fault>(), Some(&Fault { code: 6 }));
        });
        assert_healthy(&rt);
    });
}

#[test]
fn the_panic_handler_gets_a_clear_message_for_a_non_string_payload() {
    without_hanging(|| {
        let (tx, rx) = mpsc::channel();
        let tx = Mutex::new(tx);
        let rt = Runtime::builder()
            .threads(1)
            .panic_handler(move |_, msg| tx.lock().unwrap().send(msg.to_owned()).unwrap())
            .build()
            .unwrap();
        quietly(|| {
            rt.execute(|| panic_any(7u64)).unwrap();
            assert_eq!(rx.recv().unwrap(), NON_STRING_PAYLOAD_TEXT);
        });
        rt.shutdown();
        assert_eq!(rt.metrics().panicked, 1);
    });
}

#[test]
fn a_handle_joined_long_after_its_task_panicked_still_reports_the_panic_and_its_payload() {
    without_hanging(|| {
        let rt = Runtime::new(2).unwrap();
        let h = quietly(|| {
            let h = rt.spawn(|| panic_any(Fault { code: 9 }));
            while !h.is_finished() {
                std::thread::sleep(Duration::from_millis(1));
            }
            h
        });
        assert_healthy(&rt);
        std::thread::sleep(Duration::from_millis(20));
        let err = std::thread::spawn(move || h.join())
            .join()
            .unwrap()
            .unwrap_err();
        assert!(err.is_panic());
        assert_eq!(
            err.into_panic().downcast_ref::<Fault>(),
            Some(&Fault { code: 9 })
        );
    });
}

#[test]
fn a_joined_output_whose_drop_panics_panics_only_where_the_caller_drops_it() {
    without_hanging(|| {
        let rt = Runtime::new(2).unwrap();
        let out = rt.spawn(|| PanicOnDrop("output drop")).join().unwrap();
        let dropped = quietly(|| catch_unwind(AssertUnwindSafe(|| drop(out))));
        assert!(dropped.is_err());
        assert_healthy(&rt);
    });
}

#[test]
fn a_detached_output_whose_drop_panics_is_contained_and_the_task_counts_as_completed() {
    without_hanging(|| {
        let rt = Runtime::new(1).unwrap();
        quietly(|| {
            let (tx, rx) = mpsc::channel::<()>();
            let h = rt.spawn(move || {
                rx.recv().unwrap();
                PanicOnDrop("detached output drop")
            });
            drop(h);
            tx.send(()).unwrap();
            assert_healthy(&rt);
        });
        rt.shutdown();
        let m = rt.metrics();
        assert_eq!(m.submitted, m.finished());
        assert_eq!(m.panicked, 0);
    });
}

#[test]
fn an_output_dropped_with_its_handle_after_completion_does_not_panic_in_the_dropper() {
    without_hanging(|| {
        let rt = Runtime::new(1).unwrap();
        let h = rt.spawn(|| PanicOnDrop("handle drop"));
        while !h.is_finished() {
            std::thread::yield_now();
        }
        quietly(|| drop(h));
        assert_healthy(&rt);
    });
}

#[test]
fn captures_whose_drop_panics_after_a_normal_body_turn_the_task_into_a_panic() {
    without_hanging(|| {
        let rt = Runtime::new(1).unwrap();
        let bomb = PanicOnDrop("capture drop");
        let result = quietly(|| {
            rt.spawn(move || {
                let _keep = &bomb;
                5
            })
            .join()
        });
        assert_eq!(result, Err(JoinError::Panicked("capture drop".into())));
        assert_healthy(&rt);
    });
}

#[test]
fn an_unjoined_scope_output_whose_drop_panics_does_not_hang_the_scope() {
    without_hanging(|| {
        for threads in [1, 2] {
            let rt = Runtime::new(threads).unwrap();
            let result = quietly(|| {
                catch_unwind(AssertUnwindSafe(|| {
                    rt.scope(|s| {
                        s.spawn(|| PanicOnDrop("scoped output drop"));
                    })
                }))
            });
            // std's scope would panic here (the thread panicked dropping
            // its result); either is acceptable, hanging or aborting is not.
            let _ = result;
            assert_healthy(&rt);
        }
    });
}

#[test]
fn a_payload_whose_drop_panics_can_be_dropped_inside_its_join_error() {
    without_hanging(|| {
        let rt = Runtime::new(1).unwrap();
        let err = quietly(|| {
            rt.spawn(|| panic_any(PanicOnDrop("payload drop")))
                .join()
                .unwrap_err()
        });
        assert!(err.is_panic());
        quietly(|| drop(err));
        assert_healthy(&rt);
    });
}

#[test]
fn a_detached_task_panicking_with_a_payload_whose_drop_panics_is_contained() {
    without_hanging(|| {
        let rt = Runtime::new(1).unwrap();
        quietly(|| {
            drop(rt.spawn(|| panic_any(PanicOnDrop("payload drop"))));
            rt.execute(|| panic_any(PanicOnDrop("executed payload drop")))
                .unwrap();
            assert_healthy(&rt);
        });
        rt.shutdown();
        assert_eq!(rt.metrics().panicked, 2);
    });
}

#[test]
fn a_task_panicking_while_holding_a_lock_poisons_it_and_the_worker_survives() {
    without_hanging(|| {
        let rt = Runtime::new(1).unwrap();
        let lock = Arc::new(Mutex::new(0));
        let l = lock.clone();
        let r = quietly(|| {
            rt.spawn(move || {
                let _g = l.lock().unwrap();
                panic!("poison");
            })
            .join()
        });
        assert!(r.unwrap_err().is_panic());
        assert!(lock.lock().is_err());
        assert_healthy(&rt);
    });
}

#[test]
fn a_panicking_before_task_hook_neither_skips_the_task_nor_kills_the_worker() {
    without_hanging(|| {
        let ran = Arc::new(AtomicUsize::new(0));
        let r = ran.clone();
        let rt = Runtime::builder()
            .threads(1)
            .before_task(|_| panic!("hook"))
            .after_task(|_| panic_any(3u8))
            .build()
            .unwrap();
        quietly(|| {
            for _ in 0..5 {
                let r = r.clone();
                rt.spawn(move || r.fetch_add(1, Ordering::SeqCst))
                    .join()
                    .unwrap();
            }
        });
        assert_eq!(ran.load(Ordering::SeqCst), 5);
        rt.shutdown();
        assert!(rt.metrics().hook_panics >= 10);
    });
}

#[test]
fn a_panic_inside_a_nested_join_inside_a_scope_task_reaches_the_scopes_caller() {
    without_hanging(|| {
        let rt = Runtime::new(2).unwrap();
        let other_ran = AtomicBool::new(false);
        let p = quietly(|| {
            catch_unwind(AssertUnwindSafe(|| {
                rt.scope(|s| {
                    s.spawn(|| {
                        rt_core::join(
                            || panic_any(Fault { code: 11 }),
                            || other_ran.store(true, Ordering::SeqCst),
                        )
                    });
                })
            }))
        })
        .unwrap_err();
        assert!(other_ran.load(Ordering::SeqCst));
        assert_eq!(p.downcast_ref::<Fault>(), Some(&Fault { code: 11 }));
    });
}
