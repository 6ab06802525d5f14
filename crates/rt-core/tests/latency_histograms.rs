//! `Builder::record_latency`: per-priority histograms of queue delay and run
//! time whose counts equal the tasks run.

mod support;

use std::time::Duration;

use rt_core::{CancellationToken, JoinError};
use rt_core::{Priority, Runtime};
use support::{occupy_all_workers, without_hanging, Gate};

#[test]
fn histogram_counts_equal_the_tasks_run_per_priority() {
    without_hanging(|| {
        let rt = Runtime::builder()
            .threads(2)
            .record_latency(true)
            .build()
            .unwrap();
        let counts = [30u64, 200, 7];
        let mut handles = Vec::new();
        for p in Priority::ALL {
            for _ in 0..counts[p.index()] {
                handles.push(rt.spawn_with_priority(p, || std::hint::black_box(1)));
            }
        }
        for h in handles {
            h.join().unwrap();
        }
        rt.shutdown();
        let latency = rt.stats().latency.expect("recorded");
        for p in Priority::ALL {
            let class = latency[p];
            assert_eq!(class.run_time.count, counts[p.index()], "{p}");
            assert_eq!(class.queue_delay.count, counts[p.index()], "{p}");
            assert!(class.run_time.p50 <= class.run_time.p99);
            assert!(class.run_time.p99 <= class.run_time.max);
        }
    });
}

#[test]
fn a_slow_task_shows_in_the_run_time_percentiles() {
    without_hanging(|| {
        let rt = Runtime::builder()
            .threads(1)
            .record_latency(true)
            .build()
            .unwrap();
        rt.spawn(|| std::thread::sleep(Duration::from_millis(20)))
            .join()
            .unwrap();
        rt.shutdown();
        let normal = rt.stats().latency.unwrap()[Priority::Normal];
        assert!(normal.run_time.max >= Duration::from_millis(20));
    });
}

#[test]
fn latency_is_not_recorded_unless_asked() {
    let rt = Runtime::new(1).unwrap();
    assert_eq!(rt.stats().latency, None);
}

#[test]
fn tasks_cancelled_while_queued_are_not_counted_as_runs() {
    without_hanging(|| {
        let rt = Runtime::builder()
            .threads(1)
            .record_latency(true)
            .build()
            .unwrap();
        let gate = Gate::new();
        let blockers = occupy_all_workers(&rt, &gate);
        let cancelled: Vec<_> = (0..5).map(|_| rt.spawn(|| 0)).collect();
        for handle in &cancelled {
            assert!(handle.cancel());
        }
        let token = CancellationToken::new();
        let skipped: Vec<_> = (0..4)
            .map(|_| rt.spawn_cancellable(Priority::Normal, &token, |_| 0))
            .collect();
        token.cancel();
        let ran: Vec<_> = (0..3).map(|_| rt.spawn(|| 1)).collect();
        gate.open();
        for handle in blockers.into_iter() {
            handle.join().unwrap();
        }
        for handle in cancelled.into_iter().chain(skipped) {
            assert_eq!(handle.join(), Err(JoinError::Cancelled));
        }
        for handle in ran {
            assert_eq!(handle.join(), Ok(1));
        }
        rt.shutdown();
        let normal = rt.stats().latency.expect("recorded")[Priority::Normal];
        assert_eq!(normal.run_time.count, 3);
        assert_eq!(normal.queue_delay.count, 3);
    });
}
