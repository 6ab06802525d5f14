//! Join handles used the way async and sync code uses them without
//! thinking: awaited in `select!` loops, polled by two executors, cancelled
//! too late or twice, wrapped in `cancel_on_drop` and dropped by a timeout
//! or a losing `select!` branch, moved and joined on other threads.

mod support;

use std::future::Future;
use std::pin::Pin;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{mpsc, Arc};
use std::task::{Context, Poll};
use std::time::Duration;

use rt_core::{JoinError, Runtime, TaskStatus};
use support::{
    counting_waker, current_thread_tokio, occupy_all_workers, quietly, without_hanging, Gate,
};

#[test]
fn a_handle_awaited_by_reference_in_a_select_loop_completes_once() {
    without_hanging(|| {
        let rt = Runtime::new(2).unwrap();
        let (tx, rx) = mpsc::channel::<()>();
        let mut handle = rt.spawn(move || {
            rx.recv().unwrap();
            "done"
        });
        let out = current_thread_tokio().block_on(async {
            let mut ticks = 0;
            loop {
                tokio::select! {
                    r = &mut handle => break r,
                    _ = tokio::time::sleep(Duration::from_millis(5)) => {
                        ticks += 1;
                        if ticks == 3 {
                            tx.send(()).unwrap();
                        }
                    }
                }
            }
        });
        assert_eq!(out, Ok("done"));
        assert!(handle.is_finished());
    });
}

#[test]
fn awaiting_a_handle_again_after_it_completed_in_a_select_panics_clearly() {
    without_hanging(|| {
        let rt = Runtime::new(2).unwrap();
        let mut handle = rt.spawn(|| 1);
        let tokio = current_thread_tokio();
        assert_eq!(tokio.block_on(&mut handle), Ok(1));
        let again = quietly(|| {
            std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| tokio.block_on(&mut handle)))
        });
        let payload = again.unwrap_err();
        let text = payload
            .downcast_ref::<&str>()
            .map(|s| s.to_string())
            .or_else(|| payload.downcast_ref::<String>().cloned())
            .unwrap_or_default();
        assert!(text.contains("Ready"), "{text}");
    });
}

#[test]
fn cancel_after_completion_fails_and_the_value_is_still_there() {
    without_hanging(|| {
        let rt = Runtime::new(2).unwrap();
        let h = rt.spawn(|| 5);
        while !h.is_finished() {
            std::thread::yield_now();
        }
        assert!(!h.cancel());
        assert!(!h.cancel());
        assert_eq!(h.status(), TaskStatus::Finished);
        assert_eq!(h.join(), Ok(5));
        rt.shutdown();
        assert_eq!(rt.metrics().cancelled, 0);
    });
}

#[test]
fn cancel_twice_succeeds_once_and_is_counted_once() {
    without_hanging(|| {
        let rt = Runtime::new(1).unwrap();
        let gate = Gate::new();
        let blockers = occupy_all_workers(&rt, &gate);
        let h = rt.spawn(|| 5);
        assert!(h.cancel());
        assert!(!h.cancel());
        assert_eq!(h.status(), TaskStatus::Cancelled);
        gate.open();
        blockers.into_iter().for_each(|b| b.join().unwrap());
        assert_eq!(h.join(), Err(JoinError::Cancelled));
        rt.shutdown();
        let m = rt.metrics();
        assert_eq!(m.cancelled, 1);
        assert_eq!(m.submitted, m.finished());
    });
}

#[test]
fn a_handle_polled_by_one_executor_and_finished_by_another_completes() {
    without_hanging(|| {
        let rt = Runtime::new(1).unwrap();
        let gate = Gate::new();
        let blockers = occupy_all_workers(&rt, &gate);
        let mut handle = rt.spawn(|| 7);
        let (wakes, waker) = counting_waker();
        let mut cx = Context::from_waker(&waker);
        assert!(Pin::new(&mut handle).poll(&mut cx).is_pending());
        let pending_again = futures::executor::block_on(futures::future::poll_fn(|cx| {
            Poll::Ready(Pin::new(&mut handle).poll(cx).is_pending())
        }));
        assert!(pending_again);
        gate.open();
        let out = current_thread_tokio().block_on(&mut handle);
        assert_eq!(out, Ok(7));
        let _ = wakes;
        blockers.into_iter().for_each(|b| b.join().unwrap());
    });
}

#[test]
fn a_handle_polled_once_then_joined_on_another_thread_gives_the_value() {
    without_hanging(|| {
        let rt = Runtime::new(1).unwrap();
        let gate = Gate::new();
        let blockers = occupy_all_workers(&rt, &gate);
        let mut handle = rt.spawn(|| 8);
        let (_, waker) = counting_waker();
        assert!(Pin::new(&mut handle)
            .poll(&mut Context::from_waker(&waker))
            .is_pending());
        let joiner = std::thread::spawn(move || handle.join());
        gate.open();
        assert_eq!(joiner.join().unwrap(), Ok(8));
        blockers.into_iter().for_each(|b| b.join().unwrap());
    });
}

#[test]
fn a_cancel_on_drop_future_losing_a_select_cancels_its_queued_task() {
    without_hanging(|| {
        let rt = Runtime::new(1).unwrap();
        let gate = Gate::new();
        let blockers = occupy_all_workers(&rt, &gate);
        let ran = Arc::new(AtomicBool::new(false));
        let r = ran.clone();
        let work = rt
            .spawn(move || r.store(true, Ordering::SeqCst))
            .cancel_on_drop();
        let winner = current_thread_tokio().block_on(async {
            tokio::select! {
                _ = work => "work",
                _ = tokio::time::sleep(Duration::from_millis(10)) => "timer",
            }
        });
        assert_eq!(winner, "timer");
        gate.open();
        blockers.into_iter().for_each(|b| b.join().unwrap());
        rt.shutdown();
        assert!(!ran.load(Ordering::SeqCst));
        assert_eq!(rt.metrics().cancelled, 1);
    });
}

#[test]
fn a_timeout_around_cancel_on_drop_yields_the_value_when_in_time() {
    without_hanging(|| {
        let rt = Runtime::new(2).unwrap();
        let out = current_thread_tokio().block_on(async {
            tokio::time::timeout(Duration::from_secs(30), rt.spawn(|| 3).cancel_on_drop()).await
        });
        assert_eq!(out.unwrap(), Ok(3));
    });
}

#[test]
fn a_cancel_on_drop_turned_back_into_a_handle_and_dropped_lets_the_task_run() {
    without_hanging(|| {
        let rt = Runtime::new(1).unwrap();
        let gate = Gate::new();
        let blockers = occupy_all_workers(&rt, &gate);
        let (tx, rx) = mpsc::channel();
        let guarded = rt.spawn(move || tx.send(()).unwrap()).cancel_on_drop();
        assert_eq!(guarded.status(), TaskStatus::Queued);
        drop(guarded.into_handle());
        gate.open();
        rx.recv().unwrap();
        blockers.into_iter().for_each(|b| b.join().unwrap());
    });
}

#[test]
fn a_cancel_on_drop_dropped_after_its_result_was_taken_cancels_nothing() {
    without_hanging(|| {
        let rt = Runtime::new(1).unwrap();
        let mut guarded = rt.spawn(|| 4).cancel_on_drop();
        assert_eq!(current_thread_tokio().block_on(&mut guarded), Ok(4));
        drop(guarded);
        rt.shutdown();
        assert_eq!(rt.metrics().cancelled, 0);
    });
}

#[test]
fn a_handle_moved_into_another_task_is_joined_there() {
    without_hanging(|| {
        for threads in [1, 2] {
            let rt = Runtime::new(threads).unwrap();
            let first = rt.spawn(|| 20);
            let second = rt.spawn(move || first.join().unwrap() + 22);
            assert_eq!(second.join(), Ok(42));
        }
    });
}

#[test]
fn a_handle_dropped_inside_another_task_detaches_without_cancelling() {
    without_hanging(|| {
        let rt = Runtime::new(1).unwrap();
        let (tx, rx) = mpsc::channel();
        let first = rt.spawn(move || tx.send(1).unwrap());
        rt.spawn(move || drop(first)).join().unwrap();
        assert_eq!(rx.recv().unwrap(), 1);
    });
}

#[test]
fn a_handle_awaited_with_block_on_inside_a_task_of_a_two_worker_runtime_completes() {
    without_hanging(|| {
        let rt = Arc::new(Runtime::new(2).unwrap());
        let inner = rt.clone();
        let v = rt
            .spawn(move || futures::executor::block_on(inner.spawn(|| 6)).unwrap())
            .join();
        assert_eq!(v, Ok(6));
    });
}

#[test]
fn a_handle_returned_by_a_task_is_joined_by_the_caller() {
    without_hanging(|| {
        let rt = Arc::new(Runtime::new(2).unwrap());
        let inner = rt.clone();
        let nested = rt.spawn(move || inner.spawn(|| "inner")).join().unwrap();
        assert_eq!(nested.join(), Ok("inner"));
    });
}

#[test]
fn is_finished_and_status_agree_through_a_tasks_life() {
    without_hanging(|| {
        let rt = Runtime::new(1).unwrap();
        let gate = Gate::new();
        let blockers = occupy_all_workers(&rt, &gate);
        let h = rt.spawn(|| quietly(|| -> u8 { panic!("late") }));
        assert!(!h.is_finished());
        assert_eq!(h.status(), TaskStatus::Queued);
        gate.open();
        blockers.into_iter().for_each(|b| b.join().unwrap());
        while !h.is_finished() {
            std::thread::yield_now();
        }
        assert_eq!(h.status(), TaskStatus::Panicked);
        assert!(format!("{h:?}").contains("Panicked"));
        assert!(h.join().unwrap_err().is_panic());
    });
}

#[test]
fn many_handles_awaited_in_a_join_all_and_a_select_all_complete() {
    without_hanging(|| {
        let rt = Runtime::new(2).unwrap();
        let tokio = current_thread_tokio();
        let all = tokio.block_on(futures::future::join_all(
            (0..100).map(|i| rt.spawn(move || i)),
        ));
        assert_eq!(all.into_iter().map(Result::unwrap).sum::<i32>(), 4950);
        let (first, _, rest) = tokio.block_on(futures::future::select_all(
            (0..10).map(|i| rt.spawn(move || i)),
        ));
        assert!(first.is_ok());
        let rest = tokio.block_on(futures::future::join_all(rest));
        assert_eq!(rest.len(), 9);
    });
}
