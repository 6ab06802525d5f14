//! `metrics()` never reports more finished tasks than submitted ones, even
//! while tasks spawn tasks, and is exact after shutdown.

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Arc;
use std::thread;
use std::time::{Duration, Instant};

use rt_core::Runtime;
use rt_testkit::{wait_until, without_hanging};

/// More workers than the test machine has cores, so that workers are often
/// preempted in the middle of a spawn, where a task counted too late shows.
const WORKERS: usize = 8;
/// Children each outer task spawns from inside the pool.
const CHILDREN: usize = 20;
/// How long the spawning goes on.
const HAMMER: Duration = Duration::from_millis(if cfg!(miri) { 1 } else { 500 });

#[test]
fn every_snapshot_taken_during_nested_spawning_has_no_more_finished_than_submitted_tasks() {
    without_hanging(|| {
        let rt = Arc::new(Runtime::new(WORKERS).unwrap());
        let done = Arc::new(AtomicBool::new(false));
        let snapshots = Arc::new(AtomicUsize::new(0));
        let watchers: Vec<_> = (0..2)
            .map(|_| {
                let (rt, done, snapshots) = (rt.clone(), done.clone(), snapshots.clone());
                thread::spawn(move || {
                    while !done.load(Ordering::Relaxed) {
                        let m = rt.metrics();
                        assert!(
                            m.submitted >= m.finished(),
                            "a snapshot saw more finished than submitted tasks: {m:?}"
                        );
                        let _ = m.pending(); // never panics
                        snapshots.fetch_add(1, Ordering::Relaxed);
                    }
                })
            })
            .collect();
        let (ran, outer) = (Arc::new(AtomicUsize::new(0)), Arc::new(AtomicUsize::new(0)));
        let start = Instant::now();
        while start.elapsed() < HAMMER {
            for _ in 0..100 {
                let (inner, ran) = (rt.clone(), ran.clone());
                outer.fetch_add(1, Ordering::Relaxed);
                rt.execute(move || {
                    for _ in 0..CHILDREN {
                        let ran = ran.clone();
                        // Detached children, so that idle workers steal and
                        // finish them while their parent is still spawning.
                        inner
                            .execute(move || {
                                ran.fetch_add(1, Ordering::Relaxed);
                            })
                            .unwrap();
                    }
                })
                .unwrap();
            }
            // Keep the queues short, so that children are stolen at once.
            let spawned = outer.load(Ordering::Relaxed) * CHILDREN;
            wait_until("the children caught up", || {
                ran.load(Ordering::Relaxed) + 50 * CHILDREN >= spawned
            });
        }
        let outer = outer.load(Ordering::Relaxed);
        wait_until("every child ran", || {
            ran.load(Ordering::Relaxed) == outer * CHILDREN
        });
        done.store(true, Ordering::Relaxed);
        for w in watchers {
            w.join().expect("no snapshot broke the promise");
        }
        assert!(snapshots.load(Ordering::Relaxed) > 0);
        rt.shutdown();
        let m = rt.metrics();
        assert_eq!(m.submitted, (outer * (CHILDREN + 1)) as u64);
        assert_eq!(m.submitted, m.completed + m.panicked + m.cancelled);
        assert_eq!(m.pending(), 0);
    })
}
