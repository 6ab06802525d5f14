//! tokio's own runtime tests that concern spawning, joining and shutdown
//! (`tokio/tests/rt_common.rs`), ported: `tokio::spawn(async ..)` is
//! `rt.spawn(|| ..)`, `rt.block_on(handle)` awaits the handle on a tokio
//! current-thread runtime (or `join`s it), oneshot channels are std
//! channels, and a task that would `.await` blocks its worker instead.

mod support;

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc;
use std::sync::Arc;
use std::thread;
use std::time::Duration;

use rt_core::Runtime;
use support::{current_thread_tokio, quietly, without_hanging};

#[test]
fn one_task_sends_to_the_caller() {
    without_hanging(|| {
        let rt = Runtime::new(2).unwrap();
        let (tx, rx) = mpsc::channel();
        rt.spawn(move || tx.send("ZOMG").unwrap());
        assert_eq!(rx.recv().unwrap(), "ZOMG");
    });
}

#[test]
fn one_task_sends_and_its_awaited_handle_yields_its_value() {
    without_hanging(|| {
        let rt = Runtime::new(2).unwrap();
        let (tx, rx) = mpsc::channel();
        let handle = rt.spawn(move || {
            tx.send("ZOMG").unwrap();
            "DONE"
        });
        let out = current_thread_tokio().block_on(async {
            let msg = rx.recv().unwrap();
            assert_eq!(handle.await.unwrap(), "DONE");
            msg
        });
        assert_eq!(out, "ZOMG");
    });
}

#[test]
fn a_task_waits_for_a_message_from_another_task() {
    without_hanging(|| {
        let rt = Runtime::new(2).unwrap();
        let (tx1, rx1) = mpsc::channel();
        let (tx2, rx2) = mpsc::channel();
        rt.spawn(move || tx1.send("ZOMG").unwrap());
        rt.spawn(move || tx2.send(rx1.recv().unwrap()).unwrap());
        assert_eq!(rx2.recv().unwrap(), "ZOMG");
    });
}

fn spawn_many(rt: &Runtime, iterations: usize) -> Vec<usize> {
    let (done_tx, done_rx) = mpsc::channel();
    let txs: Vec<_> = (0..iterations)
        .map(|i| {
            let (tx, rx) = mpsc::channel();
            let done_tx = done_tx.clone();
            rt.spawn(move || {
                let msg = rx.recv().unwrap();
                assert_eq!(i, msg);
                done_tx.send(msg).unwrap();
            });
            tx
        })
        .collect();
    drop(done_tx);
    thread::spawn(move || {
        for (i, tx) in txs.into_iter().enumerate() {
            tx.send(i).unwrap();
        }
    });
    let mut out: Vec<usize> = done_rx.iter().collect();
    out.sort_unstable();
    out
}

#[test]
fn two_hundred_tasks_spawned_from_outside_each_get_their_message() {
    without_hanging(|| {
        let rt = Runtime::new(2).unwrap();
        assert_eq!(spawn_many(&rt, 200), (0..200).collect::<Vec<_>>());
    });
}

#[test]
fn five_hundred_tasks_spawned_from_a_task_each_get_their_message() {
    without_hanging(|| {
        let rt = Arc::new(Runtime::new(2).unwrap());
        let inner = rt.clone();
        let out = rt.spawn(move || spawn_many(&inner, 500)).join().unwrap();
        assert_eq!(out, (0..500).collect::<Vec<_>>());
    });
}

#[test]
fn a_task_joining_the_task_it_spawned_gets_its_value() {
    without_hanging(|| {
        let rt = Arc::new(Runtime::new(2).unwrap());
        let inner = rt.clone();
        let out = current_thread_tokio()
            .block_on(rt.spawn(move || inner.spawn(|| "hello").join().unwrap()));
        assert_eq!(out.unwrap(), "hello");
    });
}

#[test]
fn stop_drops_the_captures_of_every_task_it_cancels() {
    without_hanging(|| {
        let rt = Runtime::new(1).unwrap();
        let cnt = Arc::new(());
        let (started_tx, started_rx) = mpsc::channel();
        let (release_tx, release_rx) = mpsc::channel::<()>();
        rt.spawn(move || {
            started_tx.send(()).unwrap();
            let _ = release_rx.recv();
        });
        started_rx.recv().unwrap();
        let c = cnt.clone();
        rt.spawn(move || {
            let _c = c;
        });
        assert_eq!(Arc::strong_count(&cnt), 2);
        assert_eq!(rt.stop(), 1);
        assert_eq!(Arc::strong_count(&cnt), 1);
        drop(release_tx);
        rt.wait_termination();
    });
}

#[test]
fn a_runtime_built_inside_a_task_works_and_can_be_dropped_outside() {
    without_hanging(|| {
        let rt1 = Runtime::new(1).unwrap();
        let rt2 = rt1.spawn(|| Runtime::new(1).unwrap()).join().unwrap();
        assert_eq!(rt2.spawn(|| "ZOMG").join(), Ok("ZOMG"));
        drop(rt2);
    });
}

#[test]
fn a_runtime_built_and_dropped_inside_a_task_shuts_down() {
    without_hanging(|| {
        let rt1 = Runtime::new(1).unwrap();
        let out = rt1
            .spawn(|| {
                let rt2 = Runtime::new(1).unwrap();
                let v = rt2.spawn(|| 5).join().unwrap();
                drop(rt2);
                v
            })
            .join();
        assert_eq!(out, Ok(5));
    });
}

#[test]
fn a_task_completes_while_another_task_spins() {
    without_hanging(|| {
        let rt = Runtime::new(2).unwrap();
        let spin = Arc::new(AtomicBool::new(true));
        let s = spin.clone();
        rt.spawn(move || {
            while s.load(Ordering::Relaxed) {
                std::hint::spin_loop();
            }
        });
        let (tx1, rx1) = mpsc::channel();
        let (tx2, rx2) = mpsc::channel();
        thread::spawn(move || {
            thread::sleep(Duration::from_millis(50));
            tx1.send(()).unwrap();
        });
        rt.spawn(move || {
            rx1.recv().unwrap();
            tx2.send(()).unwrap();
        });
        rx2.recv().unwrap();
        spin.store(false, Ordering::Relaxed);
    });
}

#[test]
fn a_task_spawned_from_another_thread_into_an_idle_runtime_runs() {
    without_hanging(|| {
        let rt = Arc::new(Runtime::new(2).unwrap());
        let handle = rt.clone();
        let (tx, rx) = mpsc::channel();
        thread::spawn(move || {
            thread::sleep(Duration::from_millis(50));
            handle.spawn(move || tx.send(()).unwrap());
        });
        rx.recv().unwrap();
    });
}

#[test]
fn the_captures_of_a_panicking_task_are_dropped_while_it_unwinds() {
    without_hanging(|| {
        let rt = Runtime::new(1).unwrap();
        let (tx, rx) = mpsc::channel();
        struct Boom(Option<mpsc::Sender<bool>>);
        impl Drop for Boom {
            fn drop(&mut self) {
                let _ = self.0.take().unwrap().send(thread::panicking());
            }
        }
        let boom = Boom(Some(tx));
        let h = quietly(|| {
            let h = rt.spawn(move || {
                let _boom = &boom;
                panic!();
            });
            let panicking = rx.recv().unwrap();
            (h, panicking)
        });
        let (h, panicking) = h;
        assert!(
            panicking,
            "the closure owned `boom`: it is dropped by the unwind"
        );
        assert!(h.join().unwrap_err().is_panic());
    });
}

#[test]
fn ten_thousand_blocked_tasks_released_from_another_thread_let_drop_finish_five_times() {
    without_hanging(|| {
        for _ in 0..5 {
            let (tx, rx) = mpsc::channel();
            let rt = Runtime::new(2).unwrap();
            let mut txs = vec![];
            for _ in 0..10_000 {
                let (tx, rx) = mpsc::channel::<()>();
                txs.push(tx);
                rt.spawn(move || {
                    rx.recv().unwrap();
                });
            }
            let th = thread::spawn(move || {
                tx.send(()).unwrap();
                for tx in txs.drain(..) {
                    let _ = tx.send(());
                }
            });
            rx.recv().unwrap();
            drop(rt);
            th.join().unwrap();
        }
    });
}

#[test]
fn dropping_a_runtime_while_other_threads_spawn_onto_it_loses_nothing_accepted() {
    without_hanging(|| {
        let rt = Arc::new(Runtime::new(2).unwrap());
        let ran = Arc::new(AtomicUsize::new(0));
        let accepted = Arc::new(AtomicUsize::new(0));
        let spawners: Vec<_> = (0..2)
            .map(|_| {
                let (rt, ran, accepted) = (rt.clone(), ran.clone(), accepted.clone());
                thread::spawn(move || {
                    for _ in 0..5_000 {
                        let ran = ran.clone();
                        let h = rt.spawn(move || {
                            ran.fetch_add(1, Ordering::Relaxed);
                        });
                        if !h.status().is_terminal() || h.join().is_ok() {
                            accepted.fetch_add(1, Ordering::Relaxed);
                        }
                    }
                })
            })
            .collect();
        thread::sleep(Duration::from_millis(5));
        rt.shutdown();
        spawners.into_iter().for_each(|t| t.join().unwrap());
        assert_eq!(
            ran.load(Ordering::Relaxed),
            accepted.load(Ordering::Relaxed)
        );
        let m = rt.metrics();
        assert_eq!(m.submitted, m.finished());
    });
}

/// tokio's `send_sync_bound`: the runtime and everything it hands out can
/// be shared between threads.
#[test]
fn the_runtime_its_handles_and_its_errors_are_send_and_sync() {
    fn send_sync<T: Send + Sync>() {}
    send_sync::<Runtime>();
    send_sync::<rt_core::JoinHandle<u8>>();
    send_sync::<rt_core::CancelOnDrop<u8>>();
    send_sync::<rt_core::JoinError>();
    send_sync::<rt_core::CancellationToken>();
    send_sync::<rt_core::Builder>();
    send_sync::<rt_core::Scope<'static, 'static>>();
    send_sync::<rt_core::ScopedJoinHandle<'static, u8>>();
    send_sync::<rt_core::PoolStats>();
    send_sync::<rt_core::Trace>();
}
