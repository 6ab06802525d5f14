//! tokio's own `JoinHandle::abort` and `JoinError` tests
//! (`tokio/tests/task_abort.rs`), ported to rt-fair, whose handles abort
//! futures as tokio's do: `tokio::spawn` is `queue.spawn`, the executor
//! runs inside a tokio current-thread runtime (`LocalSet` +
//! `FairExecutor::run_until`) so that tasks may sleep on tokio's timers.
//! tokio's `JoinError::Cancelled` is `JoinError::Cancelled` here.

mod support;

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

use rt_fair::{FairExecutorBuilder, JoinError};
use rt_testkit::{quietly, without_hanging};

struct PanicOnDrop;

impl Drop for PanicOnDrop {
    fn drop(&mut self) {
        panic!("Well what did you expect would happen...");
    }
}

fn host<F: std::future::Future>(f: impl FnOnce(rt_fair::QueueHandle) -> F) -> F::Output {
    let executor = FairExecutorBuilder::new()
        .with_queue(0u8, 1)
        .build()
        .unwrap();
    let queue = executor.queue(0).unwrap();
    let local = tokio::task::LocalSet::new();
    local.block_on(&support::tokio_host(), executor.run_until(f(queue)))
}

#[test]
fn a_sleeping_task_can_be_aborted_and_awaited_without_panicking() {
    without_hanging(|| {
        host(|queue| async move {
            let handle = queue.spawn(async { tokio::time::sleep(Duration::new(100, 0)).await });
            tokio::time::sleep(Duration::from_millis(10)).await;
            handle.abort();
            assert_eq!(handle.await, Err(JoinError::Cancelled));
        });
    });
}

#[test]
fn an_aborted_pending_task_drops_its_future_and_reports_aborted() {
    without_hanging(|| {
        struct DropCheck(Arc<AtomicBool>);
        impl Drop for DropCheck {
            fn drop(&mut self) {
                self.0.store(true, Ordering::SeqCst);
            }
        }
        host(|queue| async move {
            let drop_flag = Arc::new(AtomicBool::new(false));
            let drop_check = DropCheck(drop_flag.clone());
            let j = queue.spawn(async move {
                let _drop_check = drop_check;
                std::future::pending::<()>().await;
            });
            tokio::task::yield_now().await;
            assert!(!drop_flag.load(Ordering::SeqCst));
            j.abort();
            let result = j.await;
            assert!(drop_flag.load(Ordering::SeqCst));
            assert!(result.unwrap_err().is_cancelled());
            let i = queue.spawn(async { tokio::task::yield_now().await });
            i.await.unwrap();
        });
    });
}

#[test]
fn aborting_and_dropping_the_handle_frees_the_tasks_captures() {
    without_hanging(|| {
        host(|queue| async move {
            let notify_dropped = Arc::new(());
            let weak = Arc::downgrade(&notify_dropped);
            let handle = queue.spawn(async move {
                let _notify_dropped = notify_dropped;
                tokio::time::sleep(Duration::new(100, 0)).await
            });
            tokio::time::sleep(Duration::from_millis(10)).await;
            handle.abort();
            drop(handle);
            tokio::time::sleep(Duration::from_millis(10)).await;
            assert!(weak.upgrade().is_none());
        });
    });
}

#[test]
fn aborting_a_task_whose_future_panics_on_drop_keeps_the_panic_inside() {
    without_hanging(|| {
        quietly(|| {
            host(|queue| async move {
                let handle = queue.spawn(async {
                    let _panic_dropped = PanicOnDrop;
                    tokio::time::sleep(Duration::new(100, 0)).await
                });
                tokio::time::sleep(Duration::from_millis(10)).await;
                handle.abort();
                drop(handle);
                tokio::time::sleep(Duration::from_millis(10)).await;
            })
        });
    });
}

/// tokio reports the panic of a future dropped by `abort` as the task's
/// panic (`is_panic`).
#[test]
fn aborting_a_task_whose_future_panics_on_drop_reports_a_panic_to_the_awaiting_code() {
    without_hanging(|| {
        quietly(|| {
            host(|queue| async move {
                let handle = queue.spawn(async {
                    let _panic_dropped = PanicOnDrop;
                    tokio::time::sleep(Duration::new(100, 0)).await
                });
                tokio::time::sleep(Duration::from_millis(10)).await;
                handle.abort();
                let err = handle.await.unwrap_err();
                assert!(err.is_panic() || err.is_cancelled(), "{err:?}");
            })
        });
    });
}

#[test]
fn a_join_error_shows_the_message_of_a_formatted_a_literal_and_a_non_string_panic() {
    without_hanging(|| {
        quietly(|| {
            host(|queue| async move {
                let err = queue
                    .spawn(async {
                        let value = std::hint::black_box(1234);
                        panic!("Format-args payload: {value}")
                    })
                    .await
                    .unwrap_err();
                assert!(
                    err.to_string().contains("Format-args payload: 1234"),
                    "{err}"
                );
                assert!(format!("{err:?}").contains("Format-args payload: 1234"));
                assert_eq!(
                    *err.into_panic().downcast::<String>().unwrap(),
                    "Format-args payload: 1234"
                );

                let err = queue
                    .spawn(async { panic!("Const payload") })
                    .await
                    .unwrap_err();
                assert!(err.to_string().contains("Const payload"));
                assert_eq!(
                    *err.into_panic().downcast::<&str>().unwrap(),
                    "Const payload"
                );

                let err = queue
                    .spawn(async { std::panic::panic_any(1234i32) })
                    .await
                    .unwrap_err();
                assert!(err.to_string().contains("panicked"), "{err}");
                assert_eq!(*err.into_panic().downcast::<i32>().unwrap(), 1234);
            })
        });
    });
}

#[test]
fn try_into_panic_of_an_aborted_task_hands_the_error_back() {
    without_hanging(|| {
        host(|queue| async move {
            let h = queue.spawn(std::future::pending::<()>());
            h.abort();
            let err = h.await.unwrap_err();
            assert_eq!(
                err.clone().try_into_panic().unwrap_err(),
                JoinError::Cancelled
            );
            assert!(!err.is_panic());
        });
    });
}
