//! A `JoinHandle` is a future: async code awaits a task of the runtime
//! without blocking its thread, and gets what `join` would return.

mod support;

use std::future::Future;
use std::pin::Pin;
use std::task::{Context, Poll};

use rt_core::{JoinError, JoinHandle, Runtime};
use support::{
    counting_waker, current_thread_tokio, occupy_all_workers, quietly, without_hanging, Gate,
};

fn poll<T>(handle: &mut JoinHandle<T>, waker: &std::task::Waker) -> Poll<Result<T, JoinError>> {
    Pin::new(handle).poll(&mut Context::from_waker(waker))
}

#[test]
fn a_handle_awaited_in_a_tokio_current_thread_runtime_yields_the_tasks_value() {
    without_hanging(|| {
        let rt = Runtime::new(2).unwrap();
        let value = current_thread_tokio().block_on(async {
            let handle = rt.spawn(|| (1..=100u64).sum::<u64>());
            handle.await
        });
        assert_eq!(value, Ok(5050));
    });
}

#[test]
fn a_handle_awaited_in_futures_block_on_yields_the_tasks_value() {
    without_hanging(|| {
        let rt = Runtime::new(2).unwrap();
        let value = futures::executor::block_on(rt.spawn(|| "done".to_owned()));
        assert_eq!(value.as_deref(), Ok("done"));
    });
}

#[test]
fn many_handles_awaited_at_once_on_one_async_thread_all_complete() {
    without_hanging(|| {
        let rt = Runtime::new(2).unwrap();
        let handles: Vec<_> = (0..1_000u64).map(|i| rt.spawn(move || i * 2)).collect();
        let results = current_thread_tokio().block_on(futures::future::join_all(handles));
        let expected: Vec<_> = (0..1_000u64).map(|i| Ok(i * 2)).collect();
        assert_eq!(results, expected);
    });
}

#[test]
fn the_waker_of_the_latest_poll_is_the_one_woken() {
    without_hanging(|| {
        let rt = Runtime::new(1).unwrap();
        let gate = Gate::new();
        let blockers = occupy_all_workers(&rt, &gate);
        let mut handle = rt.spawn(|| 7);
        let (first, first_waker) = counting_waker();
        let (second, second_waker) = counting_waker();
        assert!(poll(&mut handle, &first_waker).is_pending());
        assert!(poll(&mut handle, &second_waker).is_pending());
        gate.open();
        support::wait_until("the second waker is woken", || second.get() == 1);
        assert_eq!(first.get(), 0, "a replaced waker is not woken");
        assert_eq!(poll(&mut handle, &second_waker), Poll::Ready(Ok(7)));
        for blocker in blockers {
            blocker.join().unwrap();
        }
    });
}

#[test]
fn a_handle_polled_after_its_task_finished_is_ready_at_once() {
    without_hanging(|| {
        let rt = Runtime::new(1).unwrap();
        let mut handle = rt.spawn(|| 3);
        support::wait_until("the task finishes", || handle.is_finished());
        let (wakes, waker) = counting_waker();
        assert_eq!(poll(&mut handle, &waker), Poll::Ready(Ok(3)));
        assert_eq!(wakes.get(), 0, "no wake is needed for a ready poll");
    });
}

#[test]
fn polling_a_handle_again_after_it_returned_ready_panics_clearly() {
    without_hanging(|| {
        let rt = Runtime::new(1).unwrap();
        let mut handle = rt.spawn(|| 3);
        let (_, waker) = counting_waker();
        assert_eq!(futures::executor::block_on(&mut handle), Ok(3));
        let again = quietly(move || {
            std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                let _ = poll(&mut handle, &waker);
            }))
        });
        let payload = again.expect_err("a second poll after Ready panics");
        let message = rt_handle::raw::payload_message(&*payload);
        assert!(message.contains("after it returned Ready"), "{message}");
    });
}

#[test]
fn a_panicking_task_reaches_the_awaiting_code_as_a_panicked_error() {
    without_hanging(|| {
        let rt = Runtime::new(2).unwrap();
        let outcome =
            quietly(|| futures::executor::block_on(rt.spawn(|| -> u32 { panic!("parse failed") })));
        assert_eq!(outcome, Err(JoinError::Panicked("parse failed".into())));
        // The worker survived.
        assert_eq!(futures::executor::block_on(rt.spawn(|| 1)), Ok(1));
    });
}

#[test]
fn a_task_refused_after_shutdown_resolves_at_once_as_rejected() {
    without_hanging(|| {
        let rt = Runtime::new(2).unwrap();
        rt.shutdown();
        let mut handle = rt.spawn(|| 1);
        let (wakes, waker) = counting_waker();
        assert_eq!(
            poll(&mut handle, &waker),
            Poll::Ready(Err(JoinError::Rejected))
        );
        assert_eq!(wakes.get(), 0);
    });
}

#[test]
fn join_still_waits_for_the_task_after_a_poll_registered_a_waker() {
    without_hanging(|| {
        let rt = Runtime::new(1).unwrap();
        let gate = Gate::new();
        let blockers = occupy_all_workers(&rt, &gate);
        let mut handle = rt.spawn(|| 11);
        let (_, waker) = counting_waker();
        assert!(poll(&mut handle, &waker).is_pending());
        let opener = {
            let gate = gate.clone();
            std::thread::spawn(move || {
                std::thread::sleep(std::time::Duration::from_millis(20));
                gate.open();
            })
        };
        // The blocking join replaces the waker with this thread, so the
        // completion unparks it.
        assert_eq!(handle.join(), Ok(11));
        opener.join().unwrap();
        for blocker in blockers {
            blocker.join().unwrap();
        }
    });
}
