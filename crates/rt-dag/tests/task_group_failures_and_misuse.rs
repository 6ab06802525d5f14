//! What a task group does when a task fails, and when it is misused: a
//! failed prerequisite skips its dependents; a prerequisite of another
//! group, waiting for the group from one of its tasks, a task joining
//! itself are errors; a panic nobody joins is reported.

mod common;

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

use common::{quiet_expected_panics, Pool, EXPECTED};
use rt_core::Runtime;
use rt_dag::{task_group, TaskError, TaskGroupError, TaskHandle};
use rt_testkit::{quietly, without_hanging, Gate};

#[test]
fn a_dependent_of_a_panicked_task_is_skipped_and_so_are_its_own_dependents() {
    without_hanging(|| {
        quiet_expected_panics();
        let rt = Runtime::new(2).unwrap();
        let ran = AtomicUsize::new(0);
        task_group(&rt, |group| {
            let bad = group.spawn(|_| -> u8 { panic!("{EXPECTED}: prerequisite") });
            let fine = group.spawn(|_| 1_u8);
            let skipped = group
                .spawn_after(&[fine.task(), bad.task()], |_| {
                    ran.fetch_add(1, Ordering::SeqCst)
                })
                .unwrap();
            let further = group
                .spawn_after(&[skipped.task()], |_| ran.fetch_add(1, Ordering::SeqCst))
                .unwrap();
            let (bad_id, skipped_id) = (bad.id(), skipped.id());
            match bad.join() {
                Err(TaskError::Panicked { task, message }) => {
                    assert_eq!(task, bad_id);
                    assert_eq!(message, format!("{EXPECTED}: prerequisite"));
                }
                other => panic!("expected a panic, got {other:?}"),
            }
            assert_eq!(
                skipped.join(),
                Err(TaskError::Skipped {
                    task: skipped_id,
                    prerequisite: bad_id
                })
            );
            assert!(matches!(
                further.join(),
                Err(TaskError::Skipped { prerequisite, .. }) if prerequisite == skipped_id
            ));
            assert_eq!(fine.join(), Ok(1));
        });
        assert_eq!(ran.load(Ordering::SeqCst), 0);
    })
}

#[test]
fn a_prerequisite_from_another_group_is_refused_and_nothing_is_spawned() {
    without_hanging(|| {
        let rt = Runtime::new(2).unwrap();
        let ran = AtomicUsize::new(0);
        task_group(&rt, |first| {
            let outsider = first.spawn(|_| ());
            task_group(&rt, |second| {
                let error = second
                    .spawn_after(&[outsider.task()], |_| ran.fetch_add(1, Ordering::SeqCst))
                    .unwrap_err();
                assert_eq!(
                    error,
                    TaskGroupError::ForeignTask {
                        task: outsider.id(),
                        group: second.id()
                    }
                );
                assert!(
                    error.to_string().contains("is not a task of task group"),
                    "{error}"
                );
            });
        });
        assert_eq!(ran.load(Ordering::SeqCst), 0);
    })
}

#[test]
fn waiting_for_the_whole_group_from_one_of_its_tasks_is_an_error_not_a_hang() {
    without_hanging(|| {
        let rt = Runtime::new(2).unwrap();
        task_group(&rt, |group| {
            let waiter = group.spawn(|group| group.wait_for_all());
            let id = waiter.id();
            assert_eq!(
                waiter.join().unwrap(),
                Err(TaskGroupError::WaitInsideTask { task: id })
            );
        });
    })
}

#[test]
fn a_task_joining_itself_is_an_error_not_a_hang() {
    without_hanging(|| {
        let rt = Runtime::new(2).unwrap();
        let refused = AtomicBool::new(false);
        task_group(&rt, |group| {
            let gate = Gate::new();
            let own: Arc<Mutex<Option<TaskHandle<'_, ()>>>> = Arc::default();
            let me = {
                let (gate, own, refused) = (gate.clone(), own.clone(), &refused);
                group.spawn(move |_| {
                    gate.wait();
                    let handle = own.lock().unwrap().take().unwrap();
                    let joined = handle.join();
                    refused.store(
                        matches!(joined, Err(TaskError::JoinedItself { .. })),
                        Ordering::SeqCst,
                    );
                })
            };
            *own.lock().unwrap() = Some(me);
            gate.open();
            group.wait_for_all().unwrap();
        });
        assert!(refused.load(Ordering::SeqCst));
    })
}

#[test]
fn a_panic_whose_handle_was_dropped_is_reported_by_wait_for_all() {
    without_hanging(|| {
        quiet_expected_panics();
        let rt = Runtime::new(2).unwrap();
        task_group(&rt, |group| {
            let id = group.spawn(|_| panic!("{EXPECTED}: nobody joins me")).id();
            match group.wait_for_all() {
                Err(TaskGroupError::Panicked { task, message }) => {
                    assert_eq!(task, id);
                    assert_eq!(message, format!("{EXPECTED}: nobody joins me"));
                    let payload = message.into_payload();
                    assert!(payload
                        .downcast_ref::<String>()
                        .unwrap()
                        .contains("nobody joins me"));
                }
                other => panic!("expected the panic, got {other:?}"),
            }
            // Reported once.
            assert_eq!(group.wait_for_all(), Ok(()));
        });
    })
}

#[test]
fn the_scope_resumes_a_panic_nobody_joined_after_every_task_finished() {
    without_hanging(|| {
        let rt = Runtime::new(2).unwrap();
        let finished = AtomicUsize::new(0);
        let caught = quietly(|| {
            catch_unwind(AssertUnwindSafe(|| {
                task_group(&rt, |group| {
                    group.spawn(|_| std::panic::panic_any(413_u16));
                    for _ in 0..20 {
                        group.spawn(|_| finished.fetch_add(1, Ordering::SeqCst));
                    }
                })
            }))
        });
        assert_eq!(caught.unwrap_err().downcast_ref::<u16>(), Some(&413));
        assert_eq!(finished.load(Ordering::SeqCst), 20);
    })
}

#[test]
fn a_panicking_body_waits_for_its_tasks_before_the_panic_goes_on() {
    without_hanging(|| {
        let rt = Runtime::new(2).unwrap();
        let finished = AtomicUsize::new(0);
        let caught = quietly(|| {
            catch_unwind(AssertUnwindSafe(|| {
                task_group(&rt, |group| {
                    for _ in 0..20 {
                        group.spawn(|_| finished.fetch_add(1, Ordering::SeqCst));
                    }
                    panic!("{EXPECTED}: body");
                })
            }))
        });
        assert!(caught.is_err());
        assert_eq!(finished.load(Ordering::SeqCst), 20);
    })
}

#[test]
fn a_shut_down_executor_rejects_the_tasks_and_skips_a_long_chain_after_them() {
    without_hanging(|| {
        let pool = Pool::new(1);
        pool.shutdown();
        let ran = AtomicUsize::new(0);
        task_group(&pool, |group| {
            let first = group.spawn(|_| ran.fetch_add(1, Ordering::SeqCst));
            let first_id = first.id();
            let mut last = first.task();
            let mut handles = Vec::new();
            for _ in 0..100_000 {
                let handle = group
                    .spawn_after(&[last], |_| ran.fetch_add(1, Ordering::SeqCst))
                    .unwrap();
                last = handle.task();
                handles.push(handle);
            }
            assert_eq!(first.join(), Err(TaskError::Rejected { task: first_id }));
            assert!(matches!(
                handles.remove(0).join(),
                Err(TaskError::Skipped { prerequisite, .. }) if prerequisite == first_id
            ));
            assert!(matches!(
                handles.pop().unwrap().join(),
                Err(TaskError::Skipped { .. })
            ));
        });
        assert_eq!(ran.load(Ordering::SeqCst), 0);
    })
}
