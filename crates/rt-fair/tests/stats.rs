//! `FairExecutor::stats` counts polls, tasks and CPU time per queue, and keeps
//! queue-delay percentiles.

mod support;

use std::time::Duration;

use rt_fair::{yield_now, FairExecutorBuilder};
use rt_testkit::without_hanging;
use support::spin;

#[test]
fn stats_count_polls_tasks_and_cpu_time_per_queue() {
    without_hanging(|| {
        let executor = FairExecutorBuilder::new()
            .with_queue("busy", 3)
            .with_queue("idle", 1)
            .build()
            .unwrap();
        let busy = executor.queue("busy").unwrap();
        let handles: Vec<_> = (0..4)
            .map(|_| {
                busy.spawn(async {
                    for _ in 0..5 {
                        spin(Duration::from_millis(1));
                        yield_now().await;
                    }
                })
            })
            .collect();
        executor.block_on(async {
            for h in handles {
                h.await.unwrap();
            }
        });
        let stats = executor.stats();
        let busy = stats.queue("busy").unwrap();
        assert_eq!((busy.weight, busy.spawned, busy.finished), (3, 4, 4));
        assert_eq!((busy.panicked, busy.aborted, busy.live()), (0, 0, 0));
        assert_eq!(busy.polls, 4 * 6);
        assert!(
            busy.cpu_time >= Duration::from_millis(20),
            "{:?}",
            busy.cpu_time
        );
        let idle = stats.queue("idle").unwrap();
        assert_eq!(
            (idle.polls, idle.spawned, idle.cpu_time),
            (0, 0, Duration::ZERO)
        );
    })
}

#[test]
fn queue_delay_percentiles_reflect_how_long_runnable_tasks_waited() {
    without_hanging(|| {
        let executor = FairExecutorBuilder::new().with_queue(0, 1).build().unwrap();
        let queue = executor.queue(0).unwrap();
        // Ten tasks of 2 ms each, spawned together: the last waits ~18 ms.
        let handles: Vec<_> = (0..10)
            .map(|_| queue.spawn(async { spin(Duration::from_millis(2)) }))
            .collect();
        executor.block_on(async {
            for h in handles {
                h.await.unwrap();
            }
        });
        let delay = executor.stats().queues[0].queue_delay;
        assert_eq!(delay.samples, 10);
        assert!(delay.p50 <= delay.p90 && delay.p90 <= delay.p99 && delay.p99 <= delay.max);
        assert!(delay.max >= Duration::from_millis(17), "{delay:?}");
        assert!(delay.p50 >= Duration::from_millis(7), "{delay:?}");
    })
}
