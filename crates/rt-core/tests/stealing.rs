//! Idle workers take work from busy ones.

mod support;

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

use rt_core::Runtime;
use support::{without_hanging, Gate, Latch};

#[test]
fn a_blocked_worker_does_not_stop_the_others() {
    without_hanging(|| {
        let rt = Runtime::new(2).unwrap();
        let gate = Gate::new();
        let g = gate.clone();
        let blocked = rt.spawn(move || g.wait());
        let results: Vec<_> = (0..1_000).map(|i| rt.spawn(move || i)).collect();
        // Every one of these completes while one worker is still stuck.
        let sum: i32 = results.into_iter().map(|h| h.join().unwrap()).sum();
        assert_eq!(sum, 499_500);
        assert!(!blocked.is_finished());
        gate.open();
        blocked.join().unwrap();
    })
}

#[test]
fn a_fan_out_of_twenty_thousand_tasks_completes() {
    without_hanging(|| {
        let rt = Runtime::new(4).unwrap();
        let done = Arc::new(AtomicUsize::new(0));
        let handles: Vec<_> = (0..20_000)
            .map(|_| {
                let done = done.clone();
                rt.spawn(move || done.fetch_add(1, Ordering::Relaxed))
            })
            .collect();
        for h in handles {
            h.join().unwrap();
        }
        assert_eq!(done.load(Ordering::Relaxed), 20_000);
    })
}

#[test]
fn children_of_a_task_that_blocks_are_stolen_and_run_by_peers() {
    without_hanging(|| {
        let rt = Arc::new(Runtime::new(2).unwrap());
        let inner = rt.clone();
        let children_done = Latch::new(1_000);
        let latch = children_done.clone();
        // The parent's children land on its own deque; it then blocks until all
        // have run, so only a peer stealing them can make progress.
        rt.spawn(move || {
            for _ in 0..1_000 {
                let latch = latch.clone();
                drop(inner.spawn(move || latch.count_down()));
            }
            latch.wait();
        })
        .join()
        .unwrap();
        children_done.wait();
        rt.shutdown();
        let m = rt.metrics();
        assert_eq!(m.stolen, 1_000, "{m:?}");
    })
}

#[test]
fn nested_fan_out_from_inside_a_task_is_spread_over_the_workers() {
    without_hanging(|| {
        let rt = Arc::new(Runtime::new(2).unwrap());
        let inner = rt.clone();
        let per_worker = Arc::new([AtomicUsize::new(0), AtomicUsize::new(0)]);
        let seen = per_worker.clone();
        let all_done = Latch::new(10_000);
        let latch = all_done.clone();
        // One task spawns 1,000 children, each of which spawns 10 grandchildren;
        // nobody inside the pool blocks, so both workers should share the work.
        drop(rt.spawn(move || {
            for _ in 0..1_000 {
                let (seen, latch, rt2) = (seen.clone(), latch.clone(), inner.clone());
                drop(inner.spawn(move || {
                    for _ in 0..10 {
                        let (seen, latch) = (seen.clone(), latch.clone());
                        drop(rt2.spawn(move || {
                            let w = rt_core::current_thread_index().unwrap();
                            seen[w].fetch_add(1, Ordering::Relaxed);
                            busy(5_000);
                            latch.count_down();
                        }));
                    }
                }));
            }
        }));
        all_done.wait();
        rt.shutdown();
        let counts = [0, 1].map(|w| per_worker[w].load(Ordering::Relaxed));
        assert_eq!(counts[0] + counts[1], 10_000);
        assert!(rt.metrics().stolen > 0, "{:?}", rt.metrics());
        assert!(
            counts[0] > 0 && counts[1] > 0,
            "both workers ran grandchildren: {counts:?}"
        );
    })
}

fn busy(iterations: u64) -> u64 {
    let mut x = iterations;
    for i in 0..iterations {
        x = std::hint::black_box(x.wrapping_mul(6364136223846793005).wrapping_add(i));
    }
    x
}
