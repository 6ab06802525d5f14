//! tokio's own runtime tests that concern spawning, panics and shutdown
//! (`tokio/tests/rt_common.rs`), ported to rt-fair's single-threaded
//! executor: `tokio::spawn` is `queue.spawn`, `rt.block_on` is
//! `executor.block_on`, dropping the runtime is dropping the executor.

mod support;

use std::future::{poll_fn, Future};
use std::pin::Pin;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{mpsc, Arc};
use std::task::{Context, Poll};
use std::time::Duration;

use rt_fair::{yield_maybe, yield_now, FairExecutorBuilder, JoinError};
use rt_testkit::{quietly, without_hanging};
use tokio::sync::oneshot;

fn executor() -> rt_fair::FairExecutor<u8> {
    FairExecutorBuilder::new()
        .with_queue(0u8, 1)
        .build()
        .unwrap()
}

#[test]
fn a_task_sends_to_the_block_on_future_and_its_handle_yields_its_value() {
    without_hanging(|| {
        let ex = executor();
        let q = ex.queue(0).unwrap();
        let out = ex.block_on(async {
            let (tx, rx) = oneshot::channel();
            let handle = q.spawn(async move {
                tx.send("ZOMG").unwrap();
                "DONE"
            });
            let msg = rx.await.unwrap();
            assert_eq!(handle.await.unwrap(), "DONE");
            msg
        });
        assert_eq!(out, "ZOMG");
    });
}

#[test]
fn a_task_waits_for_a_message_from_another_task() {
    without_hanging(|| {
        let ex = executor();
        let q = ex.queue(0).unwrap();
        let out = ex.block_on(async {
            let (tx1, rx1) = oneshot::channel();
            let (tx2, rx2) = oneshot::channel();
            q.spawn(async move { tx1.send("ZOMG").unwrap() });
            q.spawn(async move { tx2.send(rx1.await.unwrap()).unwrap() });
            rx2.await.unwrap()
        });
        assert_eq!(out, "ZOMG");
    });
}

#[test]
fn a_task_awaits_a_task_it_spawned() {
    without_hanging(|| {
        let ex = executor();
        let q = ex.queue(0).unwrap();
        let q2 = q.clone();
        let out = ex.block_on(q.spawn(async move { q2.spawn(async { "hello" }).await.unwrap() }));
        assert_eq!(out, Ok("hello"));
    });
}

#[test]
fn five_hundred_tasks_released_from_another_thread_each_get_their_message() {
    without_hanging(|| {
        let ex = executor();
        let q = ex.queue(0).unwrap();
        let mut out = ex.block_on(async {
            let (done_tx, mut done_rx) = tokio::sync::mpsc::unbounded_channel();
            let txs: Vec<_> = (0..500)
                .map(|i| {
                    let (tx, rx) = oneshot::channel();
                    let done_tx = done_tx.clone();
                    q.spawn(async move {
                        let msg = rx.await.unwrap();
                        assert_eq!(i, msg);
                        done_tx.send(msg).unwrap();
                    });
                    tx
                })
                .collect();
            drop(done_tx);
            std::thread::spawn(move || {
                for (i, tx) in txs.into_iter().enumerate() {
                    tx.send(i).unwrap();
                }
            });
            let mut out = vec![];
            while let Some(i) = done_rx.recv().await {
                out.push(i);
            }
            out
        });
        out.sort_unstable();
        assert_eq!(out, (0..500).collect::<Vec<_>>());
    });
}

#[test]
fn a_future_panicking_in_poll_is_dropped_during_the_unwind_and_the_executor_carries_on() {
    without_hanging(|| {
        struct Boom(Option<mpsc::Sender<bool>>);
        impl Future for Boom {
            type Output = ();
            fn poll(self: Pin<&mut Self>, _cx: &mut Context<'_>) -> Poll<()> {
                panic!();
            }
        }
        impl Drop for Boom {
            fn drop(&mut self) {
                let _ = self.0.take().unwrap().send(std::thread::panicking());
            }
        }
        let ex = executor();
        let q = ex.queue(0).unwrap();
        let (tx, rx) = mpsc::channel();
        let h = q.spawn(Boom(Some(tx)));
        let out = quietly(|| ex.block_on(h));
        assert!(out.unwrap_err().is_panic());
        assert!(rx.recv().is_ok());
        assert_eq!(ex.block_on(q.spawn(async { 1 })), Ok(1));
    });
}

#[test]
fn dropping_the_executor_drops_the_futures_of_pending_tasks() {
    without_hanging(|| {
        struct Never {
            drop_tx: mpsc::Sender<()>,
        }
        impl Future for Never {
            type Output = ();
            fn poll(self: Pin<&mut Self>, _cx: &mut Context<'_>) -> Poll<()> {
                Poll::Pending
            }
        }
        impl Drop for Never {
            fn drop(&mut self) {
                self.drop_tx.send(()).unwrap();
            }
        }
        let ex = executor();
        let q = ex.queue(0).unwrap();
        let (drop_tx, drop_rx) = mpsc::channel();
        let (run_tx, run_rx) = oneshot::channel();
        ex.block_on(async move {
            q.spawn(async move {
                run_tx.send(()).unwrap();
                Never { drop_tx }.await
            });
            run_rx.await.unwrap();
        });
        drop(ex);
        drop_rx.recv_timeout(Duration::from_secs(10)).unwrap();
    });
}

#[test]
fn tasks_whose_destructors_wake_each_other_while_the_executor_drops_are_fine() {
    without_hanging(|| {
        struct OnDrop<F: FnMut()>(F);
        impl<F: FnMut()> Drop for OnDrop<F> {
            fn drop(&mut self) {
                (self.0)()
            }
        }
        let ex = executor();
        let q = ex.queue(0).unwrap();
        let (tx1, rx1) = oneshot::channel::<()>();
        let (tx2, rx2) = oneshot::channel::<()>();
        let (ready_tx, ready_rx) = mpsc::channel();
        let r1 = ready_tx.clone();
        q.spawn(async move {
            let mut tx2 = Some(tx2);
            let _d = OnDrop(move || {
                let _ = tx2.take().unwrap().send(());
            });
            r1.send(()).unwrap();
            let _ = rx1.await;
        });
        q.spawn(async move {
            let mut tx1 = Some(tx1);
            let _d = OnDrop(move || {
                let _ = tx1.take().unwrap().send(());
            });
            ready_tx.send(()).unwrap();
            let _ = rx2.await;
        });
        ex.block_on(async {
            while ready_rx.try_recv().is_err() {
                yield_now().await;
            }
            while ready_rx.try_recv().is_err() {
                yield_now().await;
            }
        });
        drop(ex);
    });
}

#[test]
fn a_task_completes_while_another_spins_on_yield_maybe() {
    without_hanging(|| {
        let ex = executor();
        let q = ex.queue(0).unwrap();
        let stop = Arc::new(AtomicBool::new(false));
        let s = stop.clone();
        let spinner = q.spawn(async move {
            while !s.load(Ordering::Relaxed) {
                yield_maybe().await;
            }
        });
        let (tx, rx) = oneshot::channel();
        std::thread::spawn(move || {
            std::thread::sleep(Duration::from_millis(50));
            tx.send(()).unwrap();
        });
        let done = q.spawn(async move { rx.await.unwrap() });
        ex.block_on(async {
            done.await.unwrap();
            stop.store(true, Ordering::Relaxed);
            spinner.await.unwrap();
        });
    });
}

#[test]
fn an_executor_built_inside_block_on_works_afterwards() {
    without_hanging(|| {
        let ex1 = executor();
        let ex2 = ex1.block_on(async { executor() });
        let q = ex2.queue(0).unwrap();
        assert_eq!(ex2.block_on(q.spawn(async { "ZOMG" })), Ok("ZOMG"));
    });
}

#[test]
#[should_panic]
fn block_on_the_same_executor_from_inside_its_task_panics() {
    without_hanging(|| {
        let ex = executor();
        let q = ex.queue(0).unwrap();
        quietly(|| {
            ex.block_on(async {
                let ex_ref = &ex;
                q.spawn(async {}).await.unwrap();
                ex_ref.block_on(async { "hello" })
            })
        });
    });
}

#[test]
fn a_handle_awaited_after_the_executor_was_dropped_reports_aborted() {
    without_hanging(|| {
        let ex = executor();
        let q = ex.queue(0).unwrap();
        let h = q.spawn(std::future::pending::<()>());
        drop(ex);
        let rt = support::tokio_host();
        assert_eq!(rt.block_on(h), Err(JoinError::Cancelled));
        let late = q.spawn(async { 1 });
        assert_eq!(rt.block_on(late), Err(JoinError::Cancelled));
    });
}

#[test]
fn a_waker_woken_from_another_thread_resumes_an_idle_block_on() {
    without_hanging(|| {
        let ex = executor();
        let (tx, rx) = oneshot::channel();
        std::thread::spawn(move || {
            std::thread::sleep(Duration::from_millis(50));
            tx.send(7).unwrap();
        });
        let mut rx = Some(rx);
        let out = ex.block_on(poll_fn(|cx| {
            let r = rx.as_mut().unwrap();
            Pin::new(r).poll(cx)
        }));
        assert_eq!(out, Ok(7));
    });
}
