//! `stop()` returns exactly the number of queued tasks that will never run
//! because of it: the figure `metrics().cancelled` shows, whichever thread
//! takes the task out of its queue and with the workers awake and busy
//! (one that moved a batch of tasks into its own deque included).

mod support;

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use rt_core::{JoinError, Runtime};
use support::{scaled, without_hanging};

/// About `micros` of work.
fn busy(micros: u64) {
    let until = Instant::now() + Duration::from_micros(micros);
    while Instant::now() < until {
        std::hint::spin_loop();
    }
}

/// Queues `n` tasks of about 20 µs on a runtime with `workers` awake
/// workers, calls `stop` at once, and checks its count against the tasks'
/// handles and the metrics.
fn stop_right_after_queueing(workers: usize, n: usize) {
    let rt = Runtime::new(workers).unwrap();
    let ran = Arc::new(AtomicUsize::new(0));
    let handles: Vec<_> = (0..n)
        .map(|_| {
            let ran = ran.clone();
            rt.spawn(move || {
                busy(20);
                ran.fetch_add(1, Ordering::Relaxed);
            })
        })
        .collect();
    let stopped = rt.stop();
    rt.wait_termination();
    let mut cancelled = 0;
    for h in handles {
        match h.join() {
            Ok(()) => {}
            Err(JoinError::Cancelled) => cancelled += 1,
            Err(e) => panic!("unexpected {e}"),
        }
    }
    let m = rt.metrics();
    let ran = ran.load(Ordering::Relaxed);
    assert_eq!(
        stopped, cancelled,
        "stop() said {stopped}, {cancelled} handles say cancelled ({ran} ran)"
    );
    assert_eq!(m.cancelled, cancelled as u64, "{m:?}");
    assert_eq!(ran + cancelled, n, "{m:?}");
    assert_eq!(m.submitted, m.completed + m.panicked + m.cancelled, "{m:?}");
}

#[test]
fn stop_counts_every_queued_task_it_cancels_on_two_busy_workers() {
    without_hanging(|| {
        for _ in 0..scaled(200) {
            stop_right_after_queueing(2, 50);
        }
    })
}

#[test]
fn stop_counts_every_queued_task_it_cancels_on_one_busy_worker() {
    without_hanging(|| {
        for _ in 0..scaled(100) {
            stop_right_after_queueing(1, 50);
        }
    })
}

#[test]
fn stop_counts_the_tasks_of_batches_workers_took_from_the_injector() {
    // Many tiny tasks: workers take them from the injector in batches,
    // into their own deques, while `stop` drains.
    without_hanging(|| {
        for _ in 0..scaled(100) {
            let rt = Runtime::new(2).unwrap();
            let n = 2_000;
            let handles: Vec<_> = (0..n).map(|i| rt.spawn(move || i)).collect();
            let stopped = rt.stop();
            rt.wait_termination();
            let (mut ran, mut cancelled) = (0, 0);
            for h in handles {
                match h.join() {
                    Ok(_) => ran += 1,
                    Err(JoinError::Cancelled) => cancelled += 1,
                    Err(e) => panic!("unexpected {e}"),
                }
            }
            assert_eq!(stopped, cancelled, "{ran} ran");
            assert_eq!(rt.metrics().cancelled, cancelled as u64);
        }
    })
}

#[test]
fn stop_does_not_count_tasks_their_handles_cancelled_before() {
    without_hanging(|| {
        let rt = Runtime::new(1).unwrap();
        let gate = support::Gate::new();
        let blockers = support::occupy_all_workers(&rt, &gate);
        let handles: Vec<_> = (0..10).map(|i| rt.spawn(move || i)).collect();
        for h in &handles[..4] {
            assert!(h.cancel());
        }
        assert_eq!(
            rt.stop(),
            6,
            "the four cancelled through their handles were not its doing"
        );
        gate.open();
        rt.wait_termination();
        drop(blockers);
        assert_eq!(rt.metrics().cancelled, 10);
        for h in handles {
            assert_eq!(h.join(), Err(JoinError::Cancelled));
        }
    })
}

#[test]
fn a_second_stop_finds_nothing_left_to_cancel() {
    without_hanging(|| {
        for _ in 0..scaled(50) {
            let rt = Arc::new(Runtime::new(2).unwrap());
            let handles: Vec<_> = (0..200).map(|i| rt.spawn(move || busy(i % 5))).collect();
            let other = {
                let rt = rt.clone();
                std::thread::spawn(move || rt.stop())
            };
            let mine = rt.stop();
            let theirs = other.join().unwrap();
            rt.wait_termination();
            let cancelled = handles
                .into_iter()
                .filter(|h| h.status() == rt_core::TaskStatus::Cancelled)
                .count();
            assert_eq!(mine + theirs, cancelled);
            assert_eq!(rt.metrics().cancelled, cancelled as u64);
        }
    })
}
