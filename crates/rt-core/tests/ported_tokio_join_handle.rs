//! tokio's own tests of `JoinHandle::abort` and `JoinError`
//! (`tokio/tests/task_abort.rs`, `tokio/src/runtime/tests/task.rs`),
//! ported: `abort` is `JoinHandle::cancel` (which only cancels a task that
//! has not started: a closure cannot be interrupted, so tokio's "abort a
//! sleeping task" becomes "cancel a queued task"), `is_panic`,
//! `is_cancelled`, `into_panic` and `try_into_panic` keep their names.

mod support;

use std::any::Any;
use std::panic::panic_any;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

use rt_core::{JoinError, Runtime, TaskStatus};
use rt_handle::Job;
use support::{current_thread_tokio, occupy_all_workers, quietly, without_hanging, Gate};

struct PanicOnDrop;

impl Drop for PanicOnDrop {
    fn drop(&mut self) {
        panic!("Well what did you expect would happen...");
    }
}

struct DropCheck(Arc<AtomicBool>);

impl Drop for DropCheck {
    fn drop(&mut self) {
        self.0.store(true, Ordering::SeqCst);
    }
}

#[test]
fn a_cancelled_queued_task_awaited_afterwards_reports_cancelled() {
    without_hanging(|| {
        let rt = Runtime::new(1).unwrap();
        let gate = Gate::new();
        let blockers = occupy_all_workers(&rt, &gate);
        let handle = rt.spawn(|| 42);
        assert!(handle.cancel());
        let result = current_thread_tokio().block_on(handle);
        assert!(result.unwrap_err().is_cancelled());
        gate.open();
        blockers.into_iter().for_each(|h| h.join().unwrap());
    });
}

#[test]
fn cancelling_from_another_thread_drops_the_captures_and_the_awaiting_code_sees_cancelled() {
    without_hanging(|| {
        let rt = Runtime::new(1).unwrap();
        let gate = Gate::new();
        let blockers = occupy_all_workers(&rt, &gate);
        let dropped = Arc::new(AtomicBool::new(false));
        let check = DropCheck(dropped.clone());
        let handle = rt.spawn(move || {
            let _check = check;
        });
        let dropped2 = dropped.clone();
        let handle = std::thread::spawn(move || {
            assert!(!dropped2.load(Ordering::SeqCst));
            assert!(handle.cancel());
            handle
        })
        .join()
        .unwrap();
        assert!(dropped.load(Ordering::SeqCst), "cancel drops the captures");
        let result = current_thread_tokio().block_on(handle);
        assert!(result.unwrap_err().is_cancelled());
        gate.open();
        blockers.into_iter().for_each(|h| h.join().unwrap());
    });
}

#[test]
fn cancelling_a_queued_task_and_dropping_its_handle_frees_its_captures_at_once() {
    without_hanging(|| {
        let rt = Runtime::new(1).unwrap();
        let gate = Gate::new();
        let blockers = occupy_all_workers(&rt, &gate);
        let notify_dropped = Arc::new(());
        let weak = Arc::downgrade(&notify_dropped);
        let handle = rt.spawn(move || {
            let _keep = notify_dropped;
        });
        assert!(handle.cancel());
        drop(handle);
        assert!(weak.upgrade().is_none());
        gate.open();
        blockers.into_iter().for_each(|h| h.join().unwrap());
        rt.shutdown();
        assert_eq!(rt.metrics().cancelled, 1);
    });
}

#[test]
fn cancelling_a_task_whose_captures_panic_on_drop_contains_the_panic() {
    without_hanging(|| {
        let rt = Runtime::new(1).unwrap();
        let gate = Gate::new();
        let blockers = occupy_all_workers(&rt, &gate);
        let bomb = PanicOnDrop;
        let handle = rt.spawn(move || {
            let _bomb = bomb;
        });
        assert!(quietly(|| handle.cancel()));
        drop(handle);
        gate.open();
        blockers.into_iter().for_each(|h| h.join().unwrap());
        assert_eq!(rt.spawn(|| 7).join(), Ok(7));
    });
}

/// tokio reports a task whose future panicked while being dropped by
/// `abort` as a panic; here cancellation always reports `Cancelled` and the
/// destructor's panic is contained (documented).
#[test]
fn a_cancelled_task_whose_captures_panic_on_drop_is_reported_cancelled() {
    without_hanging(|| {
        let rt = Runtime::new(1).unwrap();
        let gate = Gate::new();
        let blockers = occupy_all_workers(&rt, &gate);
        let bomb = PanicOnDrop;
        let handle = rt.spawn(move || {
            let _bomb = bomb;
        });
        quietly(|| assert!(handle.cancel()));
        let result = current_thread_tokio().block_on(handle);
        assert_eq!(result, Err(JoinError::Cancelled));
        gate.open();
        blockers.into_iter().for_each(|h| h.join().unwrap());
    });
}

#[test]
fn a_join_error_displays_the_panic_message_of_a_formatted_a_literal_and_a_non_string_payload() {
    without_hanging(|| {
        let rt = Runtime::new(2).unwrap();
        let tokio = current_thread_tokio();
        quietly(|| {
            let err = tokio
                .block_on(rt.spawn(|| -> () {
                    let value = 1234;
                    panic!("Format-args payload: {value}")
                }))
                .unwrap_err();
            let text = err.to_string();
            assert!(text.contains("Format-args payload: 1234"), "{text:?}");
            assert!(format!("{err:?}").contains("Format-args payload: 1234"));

            let err = tokio
                .block_on(rt.spawn(|| -> () { panic!("Const payload") }))
                .unwrap_err();
            assert!(err.to_string().contains("Const payload"));
            assert!(format!("{err:?}").contains("Const payload"));

            let err = tokio.block_on(rt.spawn(|| panic_any(1234i32))).unwrap_err();
            assert!(err.to_string().contains("panicked"), "{err}");
        });
    });
}

#[test]
fn into_panic_gives_back_the_original_payload_of_every_kind() {
    without_hanging(|| {
        let rt = Runtime::new(2).unwrap();
        quietly(|| {
            let p = rt
                .spawn(|| -> () { panic!("formatted {}", std::hint::black_box(7)) })
                .join()
                .unwrap_err()
                .into_panic();
            assert_eq!(*p.downcast::<String>().unwrap(), "formatted 7");

            let p = rt
                .spawn(|| -> () { panic!("literal") })
                .join()
                .unwrap_err()
                .into_panic();
            assert_eq!(*p.downcast::<&'static str>().unwrap(), "literal");

            let p = rt
                .spawn(|| panic_any(1234i32))
                .join()
                .unwrap_err()
                .into_panic();
            assert_eq!(*p.downcast::<i32>().unwrap(), 1234);

            #[derive(Debug, PartialEq)]
            struct Custom(Vec<u8>);
            let p = rt
                .spawn(|| panic_any(Custom(vec![1, 2, 3])))
                .join()
                .unwrap_err()
                .into_panic();
            assert_eq!(*p.downcast::<Custom>().unwrap(), Custom(vec![1, 2, 3]));
        });
    });
}

#[test]
fn an_awaited_panic_gives_back_its_original_payload_too() {
    without_hanging(|| {
        let rt = Runtime::new(2).unwrap();
        quietly(|| {
            let err = current_thread_tokio()
                .block_on(rt.spawn(|| panic_any(413u16)))
                .unwrap_err();
            assert!(err.is_panic());
            assert_eq!(*err.into_panic().downcast::<u16>().unwrap(), 413);
        });
    });
}

#[test]
fn resuming_the_payload_of_a_joined_panic_rethrows_the_tasks_panic() {
    without_hanging(|| {
        let rt = Runtime::new(2).unwrap();
        let caught = quietly(|| {
            let err = rt.spawn(|| -> () { panic!("again") }).join().unwrap_err();
            std::panic::catch_unwind(|| std::panic::resume_unwind(err.into_panic()))
        });
        assert_eq!(caught.unwrap_err().downcast_ref::<&str>(), Some(&"again"));
    });
}

#[test]
fn try_into_panic_hands_back_errors_that_are_not_panics() {
    without_hanging(|| {
        let rt = Runtime::new(1).unwrap();
        rt.shutdown();
        let rejected = rt.spawn(|| ()).join().unwrap_err();
        assert!(rejected.is_rejected() && !rejected.is_panic() && !rejected.is_cancelled());
        assert_eq!(rejected.try_into_panic().unwrap_err(), JoinError::Rejected);
        assert_eq!(
            JoinError::Cancelled.try_into_panic().unwrap_err(),
            JoinError::Cancelled
        );
    });
}

#[test]
fn a_join_error_survives_a_clone_with_its_message_and_the_clones_payload_is_the_text() {
    without_hanging(|| {
        let rt = Runtime::new(1).unwrap();
        let err = quietly(|| rt.spawn(|| panic_any(5u8)).join().unwrap_err());
        let clone = err.clone();
        assert_eq!(clone, err);
        let text = *clone.into_panic().downcast::<String>().unwrap();
        assert_eq!(text, rt_handle::NON_STRING_PAYLOAD);
        assert_eq!(*err.into_panic().downcast::<u8>().unwrap(), 5);
    });
}

/// `create_drop1`/`create_drop2`: a task never run is freed, captures and
/// all, once both its queue side and its handle are gone, in either order.
#[test]
fn an_unrun_jobs_captures_are_dropped_once_both_job_and_handle_are_dropped() {
    without_hanging(|| {
        for job_first in [true, false] {
            let dropped = Arc::new(AtomicBool::new(false));
            let check = DropCheck(dropped.clone());
            let (job, handle) = Job::new(move || {
                let _check = check;
                unreachable!()
            });
            if job_first {
                drop(job);
                drop(handle);
            } else {
                drop(handle);
                drop(job);
            }
            assert!(dropped.load(Ordering::SeqCst), "job first: {job_first}");
        }
    });
}

#[test]
fn a_handle_whose_job_was_dropped_unrun_does_not_wait_forever() {
    without_hanging(|| {
        let (job, handle) = Job::new(|| 5);
        drop(job);
        assert!(handle.is_finished());
        assert!(handle.join().is_err());
    });
}

/// tokio's `spawn_during_shutdown`: a value dropped while the runtime stops
/// spawns onto it.
#[test]
fn a_capture_that_spawns_from_its_drop_while_stop_cancels_it_is_rejected_quietly() {
    without_hanging(|| {
        static DID_SPAWN: AtomicBool = AtomicBool::new(false);
        struct SpawnOnDrop(Arc<Runtime>);
        impl Drop for SpawnOnDrop {
            fn drop(&mut self) {
                DID_SPAWN.store(true, Ordering::SeqCst);
                let h = self.0.spawn(|| ());
                assert_eq!(h.status(), TaskStatus::Rejected);
            }
        }
        let rt = Arc::new(Runtime::new(1).unwrap());
        let gate = Gate::new();
        let blockers = occupy_all_workers(&rt, &gate);
        let spawner = SpawnOnDrop(rt.clone());
        let queued = rt.spawn(move || {
            let _spawner = spawner;
        });
        assert_eq!(rt.stop(), 1);
        assert!(DID_SPAWN.load(Ordering::SeqCst));
        assert_eq!(queued.join(), Err(JoinError::Cancelled));
        gate.open();
        blockers.into_iter().for_each(|h| h.join().unwrap());
        rt.wait_termination();
    });
}

#[test]
fn the_payload_type_of_a_panic_with_a_boxed_any_is_the_box() {
    without_hanging(|| {
        let rt = Runtime::new(1).unwrap();
        let p = quietly(|| {
            rt.spawn(|| panic_any(Box::new(413u16) as Box<dyn Any + Send>))
                .join()
                .unwrap_err()
                .into_panic()
        });
        let inner = p.downcast::<Box<dyn Any + Send>>().unwrap();
        assert_eq!(*inner.downcast::<u16>().unwrap(), 413);
    });
}
