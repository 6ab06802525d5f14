//! Loom model of the waker protocol (`JOIN_STATE.md`, "Awaiting a handle"):
//! a worker completing a task races the handle polled as a future.
//!
//! Interleavings covered: the completion before, during and after a first
//! poll's registration; a second poll with a different waker, which takes
//! the slot back and writes the new waker while the completion may land at
//! any point; and the future dropped after it registered, while the task
//! completes. Each model checks the property that makes `.await` work: a
//! poll that returns `Pending` is followed by a wake of the waker of the
//! *latest* poll, and the next poll is `Ready` with the value, delivered
//! once and dropped once. loom's `UnsafeCell` tracking checks the waiter
//! slot (read by the completer while the handle may compare wakers) is
//! never written while another thread reads it.
//!
//! Run: `RUSTFLAGS="--cfg loom" cargo test -p rt-handle --lib --profile loom loom_`.

use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll, Wake, Waker};

use loom::sync::atomic::{AtomicUsize, Ordering};
use loom::thread;

use crate::loom_support::Tracked;
use crate::{Job, JoinHandle, RunOutcome};

/// A waker that counts its wakes.
struct CountingWaker {
    wakes: AtomicUsize,
}

impl Wake for CountingWaker {
    fn wake(self: Arc<Self>) {
        self.wake_by_ref();
    }
    fn wake_by_ref(self: &Arc<Self>) {
        // Relaxed: the models read the count after joining the worker.
        self.wakes.fetch_add(1, Ordering::Relaxed);
    }
}

fn counting_waker() -> (Arc<CountingWaker>, Waker) {
    let counter = Arc::new(CountingWaker {
        wakes: AtomicUsize::new(0),
    });
    (counter.clone(), Waker::from(counter))
}

fn poll<T>(handle: &mut JoinHandle<T>, waker: &Waker) -> Poll<Result<T, crate::JoinError>> {
    Pin::new(handle).poll(&mut Context::from_waker(waker))
}

#[test]
fn completion_racing_a_first_poll_is_seen_by_the_poll_or_wakes_its_waker() {
    loom::model(|| {
        let (result, drops) = Tracked::new(7);
        let (job, mut handle) = Job::new(move || result);
        let worker = thread::spawn(move || job.run());

        let (counter, waker) = counting_waker();
        let first = poll(&mut handle, &waker);
        assert_eq!(worker.join().unwrap(), RunOutcome::Completed);
        let value = match first {
            Poll::Ready(value) => value,
            Poll::Pending => {
                assert_eq!(
                    counter.wakes.load(Ordering::Relaxed),
                    1,
                    "a pending poll is woken"
                );
                match poll(&mut handle, &waker) {
                    Poll::Ready(value) => value,
                    Poll::Pending => panic!("woken, yet still pending"),
                }
            }
        };
        assert_eq!(value.expect("the task ran").value, 7);
        assert_eq!(
            drops.get(),
            1,
            "the value is delivered once and dropped once"
        );
    });
}

#[test]
fn completion_racing_a_poll_that_swaps_the_waker_wakes_the_latest_waker() {
    loom::model(|| {
        let (result, drops) = Tracked::new(7);
        let (job, mut handle) = Job::new(move || result);
        let worker = thread::spawn(move || job.run());

        let (first_counter, first_waker) = counting_waker();
        let (second_counter, second_waker) = counting_waker();
        let mut value = None;
        if let Poll::Ready(v) = poll(&mut handle, &first_waker) {
            value = Some(v);
        }
        let mut last_pending = false;
        if value.is_none() {
            match poll(&mut handle, &second_waker) {
                Poll::Ready(v) => value = Some(v),
                Poll::Pending => last_pending = true,
            }
        }
        assert_eq!(worker.join().unwrap(), RunOutcome::Completed);
        if last_pending {
            assert_eq!(
                second_counter.wakes.load(Ordering::Relaxed),
                1,
                "the waker of the latest poll is woken"
            );
            match poll(&mut handle, &second_waker) {
                Poll::Ready(v) => value = Some(v),
                Poll::Pending => panic!("woken, yet still pending"),
            }
        }
        // The first waker may or may not have been woken (the completion may
        // have read it before the swap): a spurious wake is allowed, a
        // double one is not.
        assert!(first_counter.wakes.load(Ordering::Relaxed) <= 1);
        let value = value.expect("some poll is ready").expect("the task ran");
        assert_eq!(value.value, 7);
        drop(value);
        assert_eq!(drops.get(), 1);
    });
}

#[test]
fn completion_racing_the_drop_of_a_polled_future_frees_the_result_once() {
    loom::model(|| {
        let (result, drops) = Tracked::new(7);
        let (job, mut handle) = Job::new(move || result);
        let worker = thread::spawn(move || job.run());

        let (_counter, waker) = counting_waker();
        let first = poll(&mut handle, &waker);
        drop(handle);
        drop(first);
        assert_eq!(worker.join().unwrap(), RunOutcome::Completed);
        assert_eq!(drops.get(), 1, "the result is dropped exactly once");
    });
}

#[test]
fn dropping_cancel_on_drop_racing_the_start_runs_the_body_or_cancels_it() {
    loom::model(|| {
        let (capture, drops) = Tracked::new(1);
        let (job, handle) = Job::new(move || {
            let capture = capture;
            capture.value
        });
        let future = handle.cancel_on_drop();
        let worker = thread::spawn(move || job.run());

        drop(future);
        let outcome = worker.join().unwrap();
        assert!(
            outcome == RunOutcome::Completed || outcome == RunOutcome::Cancelled,
            "{outcome:?}"
        );
        assert_eq!(drops.get(), 1, "the capture is dropped exactly once");
    });
}
