//! A token cancelled from another thread while workers take its tasks from
//! the queues: each task either runs or is cancelled (by the token's claim,
//! or by its body's check when it starts), is counted exactly once in the
//! metrics, and the handles agree with the counts; many rounds, with the
//! workers awake and busy.

mod support;

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::thread;

use rt_core::{CancellationToken, JoinError, Priority, Runtime};
use support::{scaled, without_hanging};

#[test]
fn a_token_cancelled_while_workers_pop_its_tasks_counts_each_task_once() {
    without_hanging(|| {
        for round in 0..scaled(200) {
            let rt = Runtime::new(1 + round % 2).unwrap();
            let token = CancellationToken::new();
            let ran = Arc::new(AtomicUsize::new(0));
            let n = 200;
            let handles: Vec<_> = (0..n)
                .map(|i| {
                    let ran = ran.clone();
                    rt.spawn_cancellable(Priority::ALL[i % 3], &token, move |_| {
                        ran.fetch_add(1, Ordering::Relaxed);
                    })
                })
                .collect();
            let canceller = {
                let token = token.clone();
                thread::spawn(move || {
                    for _ in 0..round % 50 {
                        std::hint::spin_loop();
                    }
                    token.cancel();
                })
            };
            // Meanwhile, some handles are cancelled too (a second canceller).
            let by_handle = handles
                .iter()
                .skip(n / 2)
                .step_by(7)
                .filter(|h| h.cancel())
                .count();
            canceller.join().unwrap();
            let mut cancelled = 0;
            for h in handles {
                match h.join() {
                    Ok(()) => {}
                    Err(JoinError::Cancelled) => cancelled += 1,
                    Err(e) => panic!("{e}"),
                }
            }
            rt.shutdown();
            let m = rt.metrics();
            let ran = ran.load(Ordering::Relaxed);
            assert_eq!(m.submitted, n as u64, "{m:?}");
            assert_eq!(m.submitted, m.completed + m.panicked + m.cancelled, "{m:?}");
            assert_eq!(m.cancelled, cancelled as u64, "counted once each: {m:?}");
            assert_eq!(m.completed, ran as u64, "{m:?}");
            assert_eq!(ran + cancelled, n);
            assert!(cancelled >= by_handle);
            assert_eq!(rt.stats().queued_total(), 0);
            assert_eq!(token.queued_tasks(), 0);
        }
    })
}
