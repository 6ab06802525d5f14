//! `JoinHandle::abort` drops the task's future promptly, wherever the task
//! is, and leaves nothing behind.

mod support;

use std::cell::Cell;
use std::cell::OnceCell;
use std::rc::Rc;

use rt_fair::{yield_now, FairExecutorBuilder, JoinError, JoinHandle};
use rt_testkit::without_hanging;
use support::DropFlag;
use tokio::sync::oneshot;

#[test]
fn aborting_a_queued_task_drops_it_at_once_without_polling_it() {
    without_hanging(|| {
        let executor = FairExecutorBuilder::new().with_queue(0, 1).build().unwrap();
        let (guard, dropped) = DropFlag::new();
        let polled = Rc::new(Cell::new(false));
        let was_polled = Rc::clone(&polled);
        let task = executor.queue(0).unwrap().spawn(async move {
            let _guard = guard;
            was_polled.set(true);
        });
        task.abort();
        assert!(dropped.get(), "the future must be dropped inside abort()");
        assert_eq!(executor.block_on(task), Err(JoinError::Cancelled));
        assert!(!polled.get());
        let stats = executor.stats();
        assert_eq!((stats.queues[0].aborted, stats.queues[0].polls), (1, 0));
    })
}

#[test]
fn aborting_a_task_that_waits_on_a_waker_drops_its_future_at_once() {
    without_hanging(|| {
        let executor = FairExecutorBuilder::new().with_queue(0, 1).build().unwrap();
        let queue = executor.queue(0).unwrap();
        let (guard, dropped) = DropFlag::new();
        let (started_tx, started_rx) = oneshot::channel::<()>();
        let (never_tx, never_rx) = oneshot::channel::<()>();
        let task = queue.spawn(async move {
            let _guard = guard;
            started_tx.send(()).unwrap();
            never_rx.await.ok();
        });
        let result = executor.block_on(async {
            started_rx.await.unwrap();
            assert!(!dropped.get());
            task.abort();
            assert!(
                dropped.get(),
                "the waiting future must be dropped inside abort()"
            );
            task.await
        });
        assert_eq!(result, Err(JoinError::Cancelled));
        // Its receiver went with it, and waking it now schedules nothing.
        assert!(never_tx.send(()).is_err());
        assert_eq!(executor.stats().queues[0].live(), 0);
    })
}

#[test]
fn a_task_aborted_by_another_task_is_dropped_at_once() {
    without_hanging(|| {
        let executor = FairExecutorBuilder::new().with_queue(0, 1).build().unwrap();
        let queue = executor.queue(0).unwrap();
        let (guard, dropped) = DropFlag::new();
        let victim = queue.spawn(async move {
            let _guard = guard;
            std::future::pending::<()>().await;
        });
        let flag = Rc::clone(&dropped);
        let killer = queue.spawn(async move {
            yield_now().await; // let the victim start waiting
            victim.abort();
            let dropped_inside_abort = flag.get();
            (dropped_inside_abort, victim.await)
        });
        let (dropped_inside_abort, result) = executor.block_on(killer).unwrap();
        assert!(dropped_inside_abort);
        assert_eq!(result, Err(JoinError::Cancelled));
    })
}

#[test]
fn a_task_that_aborts_itself_is_dropped_as_soon_as_its_poll_returns() {
    without_hanging(|| {
        let executor = FairExecutorBuilder::new().with_queue(0, 1).build().unwrap();
        let queue = executor.queue(0).unwrap();
        let own: Rc<OnceCell<JoinHandle<()>>> = Rc::new(OnceCell::new());
        let (guard, dropped) = DropFlag::new();
        let kept_running = Rc::new(Cell::new(false));
        let (me, after) = (Rc::clone(&own), Rc::clone(&kept_running));
        let handle = queue.spawn(async move {
            let _guard = guard;
            yield_now().await; // the handle is stored by now
            me.get().unwrap().abort();
            // Still inside the poll: the future is not dropped under our feet.
            after.set(true);
            yield_now().await;
            unreachable!("an aborted task is never polled again");
        });
        assert!(own.set(handle).is_ok());
        let result = executor.block_on(async {
            while !dropped.get() {
                yield_now().await;
            }
            // The task dropped its clone of `own`: take the handle back.
            let handle = Rc::try_unwrap(own).ok().unwrap().into_inner().unwrap();
            handle.await
        });
        assert!(kept_running.get());
        assert_eq!(result, Err(JoinError::Cancelled));
        assert_eq!(executor.stats().queues[0].polls, 2);
    })
}

#[test]
fn aborting_a_finished_task_changes_nothing() {
    without_hanging(|| {
        let executor = FairExecutorBuilder::new().with_queue(0, 1).build().unwrap();
        let task = executor.queue(0).unwrap().spawn(async { 7 });
        let result = executor.block_on(async {
            while !task.is_finished() {
                yield_now().await;
            }
            task.abort();
            task.await
        });
        assert_eq!(result, Ok(7));
    })
}

#[test]
fn aborted_tasks_leave_nothing_behind_in_the_executor() {
    without_hanging(|| {
        let executor = FairExecutorBuilder::new()
            .with_queue('a', 1)
            .with_queue('b', 2)
            .build()
            .unwrap();
        let mut senders = Vec::new();
        let mut handles = Vec::new();
        for i in 0..1_000 {
            let (tx, rx) = oneshot::channel::<()>();
            senders.push(tx);
            let queue = executor.queue(if i % 2 == 0 { 'a' } else { 'b' }).unwrap();
            handles.push(queue.spawn(async move { rx.await.ok() }));
        }
        // Half have started waiting, half are still queued.
        executor.block_on(async {
            for _ in 0..500 {
                yield_now().await;
            }
        });
        let polls_before: u64 = executor.stats().queues.iter().map(|q| q.polls).sum();
        for h in &handles {
            h.abort();
        }
        // Waking the aborted tasks schedules nothing.
        for tx in senders {
            let _ = tx.send(());
        }
        let results = executor.block_on(async {
            let mut results = Vec::new();
            for h in handles {
                results.push(h.await);
            }
            results
        });
        assert!(results.iter().all(|r| *r == Err(JoinError::Cancelled)));
        let stats = executor.stats();
        let polls_after: u64 = stats.queues.iter().map(|q| q.polls).sum();
        assert_eq!(polls_after, polls_before);
        for q in &stats.queues {
            assert_eq!((q.live(), q.aborted), (0, 500), "{q:?}");
        }
    })
}

#[test]
fn dropping_the_executor_drops_its_tasks_and_their_handles_report_aborted() {
    without_hanging(|| {
        let executor = FairExecutorBuilder::new().with_queue(0, 1).build().unwrap();
        let queue = executor.queue(0).unwrap();
        let (guard, dropped) = DropFlag::new();
        // The task holds a queue handle: no reference cycle keeps it alive.
        let spawner = queue.clone();
        let task = queue.spawn(async move {
            let _guard = guard;
            let _spawner = spawner;
            std::future::pending::<()>().await;
        });
        executor.block_on(yield_now());
        drop(executor);
        assert!(dropped.get());
        assert!(task.is_finished());
        let late = queue.spawn(async { 1 });
        let rt = support::tokio_host();
        assert_eq!(rt.block_on(task), Err(JoinError::Cancelled));
        assert_eq!(rt.block_on(late), Err(JoinError::Cancelled));
    })
}

#[test]
fn aborting_a_task_whose_future_panics_on_drop_returns_and_its_handle_gets_the_payload() {
    struct PanicOnDrop;
    impl Drop for PanicOnDrop {
        fn drop(&mut self) {
            std::panic::panic_any(413_u16);
        }
    }
    without_hanging(|| {
        let executor = FairExecutorBuilder::new().with_queue(0, 1).build().unwrap();
        let task = executor.queue(0).unwrap().spawn(async {
            let _bomb = PanicOnDrop;
            std::future::pending::<()>().await;
        });
        executor.block_on(yield_now());
        let aborted = rt_testkit::quietly(|| {
            std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| task.abort()))
        });
        assert!(aborted.is_ok(), "the destructor's panic left abort()");
        let error = executor.block_on(task).unwrap_err();
        assert!(error.is_panic(), "{error:?}");
        assert_eq!(error.into_panic().downcast_ref::<u16>(), Some(&413));
    })
}
