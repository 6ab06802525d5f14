//! Handles used from several threads at the moment their tasks start or
//! finish: cancels, drops and polls racing the workers, shutdown and stop
//! racing awaiting code. Every task must be counted exactly once and every
//! waiter released.

mod support;

use std::future::Future;
use std::pin::Pin;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{mpsc, Arc};
use std::task::Context;
use std::thread;
use std::time::Duration;

use rt_core::{JoinError, Runtime};
use support::{
    counting_waker, current_thread_tokio, occupy_all_workers, scaled, without_hanging, Gate,
};

const RACE_ROUNDS: usize = 10;

/// One round: `n` tasks spawned from outside, each cancelled from this
/// thread while the workers dequeue them; returns how many the cancels won.
fn cancel_round(rt: &Runtime, n: usize, ran: &Arc<AtomicUsize>) -> usize {
    let handles: Vec<_> = (0..n)
        .map(|_| {
            let ran = ran.clone();
            rt.spawn(move || {
                ran.fetch_add(1, Ordering::Relaxed);
            })
        })
        .collect();
    let cancelled = handles.iter().filter(|h| h.cancel()).count();
    let mut joined_cancelled = 0;
    for h in handles {
        match h.join() {
            Ok(()) => {}
            Err(JoinError::Cancelled) => joined_cancelled += 1,
            Err(e) => panic!("{e}"),
        }
    }
    assert_eq!(cancelled, joined_cancelled);
    cancelled
}

#[test]
fn cancels_racing_the_workers_leave_every_task_run_or_cancelled_exactly_once() {
    without_hanging(|| {
        let rt = Runtime::new(2).unwrap();
        let ran = Arc::new(AtomicUsize::new(0));
        let n = scaled(5_000);
        let mut cancelled = 0;
        for _ in 0..RACE_ROUNDS {
            cancelled += cancel_round(&rt, n, &ran);
        }
        assert_eq!(ran.load(Ordering::Relaxed) + cancelled, n * RACE_ROUNDS);
        rt.shutdown();
        let m = rt.metrics();
        assert_eq!(m.cancelled as usize, cancelled);
        assert_eq!(m.submitted, m.finished());
    });
}

#[test]
fn cancelling_every_task_while_the_workers_are_blocked_counts_each_once() {
    without_hanging(|| {
        let rt = Runtime::new(2).unwrap();
        let gate = Gate::new();
        let blockers = occupy_all_workers(&rt, &gate);
        let ran = Arc::new(AtomicUsize::new(0));
        let handles: Vec<_> = (0..1_000)
            .map(|_| {
                let ran = ran.clone();
                rt.spawn(move || {
                    ran.fetch_add(1, Ordering::Relaxed);
                })
            })
            .collect();
        assert!(handles.iter().all(|h| h.cancel()));
        gate.open();
        blockers.into_iter().for_each(|b| b.join().unwrap());
        for h in handles {
            assert_eq!(h.join(), Err(JoinError::Cancelled));
        }
        rt.shutdown();
        assert_eq!(ran.load(Ordering::Relaxed), 0);
        let m = rt.metrics();
        assert_eq!(m.cancelled, 1_000);
        assert_eq!(m.submitted, m.finished());
    });
}

#[test]
fn handles_polled_once_and_dropped_on_another_thread_while_their_tasks_finish_lose_nothing() {
    without_hanging(|| {
        let rt = Runtime::new(2).unwrap();
        let n = scaled(5_000);
        let (waker_count, waker) = counting_waker();
        let mut handles: Vec<_> = (0..n).map(|i| rt.spawn(move || vec![i; 4])).collect();
        for h in &mut handles {
            let _ = Pin::new(h).poll(&mut Context::from_waker(&waker));
        }
        let dropper = thread::spawn(move || drop(handles));
        dropper.join().unwrap();
        rt.shutdown();
        let m = rt.metrics();
        assert_eq!(m.submitted, n as u64);
        assert_eq!(m.submitted, m.finished());
        let _ = waker_count;
    });
}

#[test]
fn cancel_on_drop_futures_dropped_while_their_tasks_start_count_each_task_once() {
    without_hanging(|| {
        let rt = Runtime::new(2).unwrap();
        let ran = Arc::new(AtomicUsize::new(0));
        let n = scaled(5_000) * RACE_ROUNDS;
        for _ in 0..RACE_ROUNDS {
            let guards: Vec<_> = (0..n / RACE_ROUNDS)
                .map(|_| {
                    let ran = ran.clone();
                    rt.spawn(move || {
                        ran.fetch_add(1, Ordering::Relaxed);
                    })
                    .cancel_on_drop()
                })
                .collect();
            drop(guards);
        }
        rt.shutdown();
        let m = rt.metrics();
        assert_eq!(m.submitted, n as u64);
        assert_eq!(m.completed as usize, ran.load(Ordering::Relaxed));
        assert_eq!(m.submitted, m.finished());
    });
}

#[test]
fn an_awaited_handle_of_a_queued_task_resolves_as_cancelled_when_another_thread_stops_the_runtime()
{
    without_hanging(|| {
        let rt = Arc::new(Runtime::new(1).unwrap());
        let gate = Gate::new();
        let blockers = occupy_all_workers(&rt, &gate);
        let handle = rt.spawn(|| 1);
        let stopper = {
            let rt = rt.clone();
            thread::spawn(move || {
                thread::sleep(Duration::from_millis(20));
                rt.stop()
            })
        };
        let out = current_thread_tokio().block_on(handle);
        assert_eq!(out, Err(JoinError::Cancelled));
        assert_eq!(stopper.join().unwrap(), 1);
        gate.open();
        blockers.into_iter().for_each(|b| b.join().unwrap());
    });
}

#[test]
fn an_awaited_handle_resolves_when_the_runtime_is_dropped_on_another_thread() {
    without_hanging(|| {
        let rt = Runtime::new(1).unwrap();
        let (tx, rx) = mpsc::channel::<()>();
        let handle = rt.spawn(move || {
            let _ = rx.recv_timeout(Duration::from_millis(50));
            "ran"
        });
        let dropper = thread::spawn(move || drop(rt));
        let out = current_thread_tokio().block_on(handle);
        assert_eq!(out, Ok("ran"));
        dropper.join().unwrap();
        drop(tx);
    });
}

#[test]
fn shutdown_from_another_thread_while_a_scope_body_runs_lets_the_scope_finish() {
    without_hanging(|| {
        let rt = Arc::new(Runtime::new(2).unwrap());
        let hits = AtomicUsize::new(0);
        let (started_tx, started_rx) = mpsc::channel();
        let shutter = {
            let rt = rt.clone();
            thread::spawn(move || {
                started_rx.recv().unwrap();
                rt.shutdown();
            })
        };
        rt.scope(|s| {
            started_tx.send(()).unwrap();
            for _ in 0..100 {
                s.spawn(|| {
                    thread::sleep(Duration::from_micros(100));
                    hits.fetch_add(1, Ordering::SeqCst);
                });
            }
            thread::sleep(Duration::from_millis(10));
            for _ in 0..100 {
                s.spawn(|| hits.fetch_add(1, Ordering::SeqCst));
            }
        });
        assert_eq!(hits.load(Ordering::SeqCst), 200);
        shutter.join().unwrap();
        let m = rt.metrics();
        assert_eq!(m.submitted, m.finished());
    });
}

#[test]
fn joins_from_many_threads_on_tasks_that_spawn_and_join_children_all_return() {
    without_hanging(|| {
        let rt = Arc::new(Runtime::new(2).unwrap());
        let callers: Vec<_> = (0..4)
            .map(|t| {
                let rt = rt.clone();
                thread::spawn(move || {
                    let mut sum = 0u64;
                    for i in 0..200u64 {
                        let inner = rt.clone();
                        sum += rt
                            .spawn(move || inner.spawn(move || i * t).join().unwrap() + 1)
                            .join()
                            .unwrap();
                    }
                    sum
                })
            })
            .collect();
        let total: u64 = callers.into_iter().map(|c| c.join().unwrap()).sum();
        let expected: u64 = (0..4u64)
            .map(|t| (0..200u64).map(|i| i * t + 1).sum::<u64>())
            .sum();
        assert_eq!(total, expected);
    });
}
