//! Join handles outside the happy path: awaited from outside the executor,
//! dropped before the task ends, and wakers that outlive the executor.

mod support;

use std::cell::Cell;
use std::rc::Rc;
use std::sync::{Arc, Mutex};
use std::task::Waker;
use std::time::Duration;

use rt_fair::{yield_now, FairExecutorBuilder, JoinError};
use rt_testkit::without_hanging;
use support::tokio_host;
use tokio::task::LocalSet;

#[test]
fn a_handle_awaited_by_a_host_task_outside_the_executor_gets_the_result() {
    without_hanging(|| {
        let executor = FairExecutorBuilder::new().with_queue(0, 1).build().unwrap();
        let task = executor.queue(0).unwrap().spawn(async {
            for _ in 0..3 {
                yield_now().await;
            }
            7
        });
        let local = LocalSet::new();
        let got = local.block_on(&tokio_host(), async {
            // A tokio task, not an rt-fair one, waits for the handle while the
            // executor runs beside it on the same thread.
            let waiter = tokio::task::spawn_local(task);
            let bounded = tokio::time::timeout(Duration::from_secs(30), executor.run_until(waiter));
            bounded
                .await
                .expect("the waiting host task was never woken")
                .unwrap()
        });
        assert_eq!(got, Ok(7));
    })
}

#[test]
fn dropping_a_handle_detaches_the_task_and_it_still_runs_to_the_end() {
    without_hanging(|| {
        let executor = FairExecutorBuilder::new().with_queue(0, 1).build().unwrap();
        let queue = executor.queue(0).unwrap();
        let done = Rc::new(Cell::new(false));
        let flag = Rc::clone(&done);
        drop(queue.spawn(async move {
            yield_now().await;
            flag.set(true);
        }));
        let last = queue.spawn(async {
            yield_now().await;
            yield_now().await;
        });
        assert_eq!(executor.block_on(last), Ok(()));
        assert!(done.get());
        let stats = executor.stats();
        assert_eq!((stats.queues[0].finished, stats.queues[0].live()), (2, 0));
    })
}

#[test]
fn a_waker_called_from_another_thread_after_the_executor_is_gone_does_nothing() {
    without_hanging(|| {
        let stash: Arc<Mutex<Option<Waker>>> = Arc::default();
        {
            let executor = FairExecutorBuilder::new().with_queue(0, 1).build().unwrap();
            let keep = Arc::clone(&stash);
            let task = executor
                .queue(0)
                .unwrap()
                .spawn(std::future::poll_fn(move |cx| {
                    *keep.lock().unwrap() = Some(cx.waker().clone());
                    std::task::Poll::<()>::Pending
                }));
            let (first, task) = executor.block_on(async move {
                yield_now().await; // let the task run once and stash its waker
                yield_now().await;
                (task.is_finished(), task)
            });
            assert!(!first);
            drop(executor);
            assert_eq!(
                tokio_host().block_on(task),
                Err(JoinError::Cancelled),
                "dropping the executor ends its tasks"
            );
        }
        let waker = stash
            .lock()
            .unwrap()
            .take()
            .expect("the task stashed its waker");
        std::thread::spawn(move || {
            waker.wake_by_ref();
            waker.wake();
        })
        .join()
        .expect("waking a task of a dropped executor must not panic");
    })
}
