//! A global queue pool takes queued work most urgent first, oldest first
//! within a class.

mod common;

use std::sync::{Arc, Mutex};

use common::{blocked_pool, Gate};
use rt_handle::{CancellationToken, Priority};
use rt_testkit::without_hanging;

type Log = Arc<Mutex<Vec<String>>>;

fn record(log: &Log, entry: String) {
    log.lock().unwrap().push(entry);
}

#[test]
fn queued_high_tasks_run_before_normal_before_background_once_released() {
    without_hanging(|| {
        let gate = Arc::new(Gate::default());
        let pool = blocked_pool(&gate);
        let log = Log::default();
        let token = CancellationToken::new();
        let mut handles = Vec::new();
        for round in 0..3 {
            for priority in [Priority::Background, Priority::Normal, Priority::High] {
                let log = Arc::clone(&log);
                let entry = format!("{priority}-{round}");
                // Mix the two spawn paths: both must honour the priority.
                handles.push(if round == 1 {
                    pool.spawn_cancellable(priority, &token, move |_| record(&log, entry))
                } else {
                    pool.spawn_with_priority(priority, move || record(&log, entry))
                });
            }
        }
        gate.open();
        for handle in handles {
            handle.join().unwrap();
        }
        let expected: Vec<String> = ["high", "normal", "background"]
            .iter()
            .flat_map(|class| (0..3).map(move |round| format!("{class}-{round}")))
            .collect();
        assert_eq!(*log.lock().unwrap(), expected);
    })
}

#[test]
fn a_high_task_spawned_by_a_running_task_overtakes_queued_background_work() {
    without_hanging(|| {
        let gate = Arc::new(Gate::default());
        let pool = Arc::new(blocked_pool(&gate));
        let log = Log::default();
        let mut handles = Vec::new();
        for i in 0..2 {
            let log = Arc::clone(&log);
            handles.push(pool.spawn_with_priority(Priority::Background, move || {
                record(&log, format!("background-{i}"));
            }));
        }
        let (inner, parent_log) = (Arc::clone(&pool), Arc::clone(&log));
        let parent = pool.spawn(move || {
            record(&parent_log, "normal parent".into());
            let log = Arc::clone(&parent_log);
            inner.spawn_with_priority(Priority::High, move || record(&log, "high child".into()))
        });
        gate.open();
        parent.join().unwrap().join().unwrap();
        for handle in handles {
            handle.join().unwrap();
        }
        assert_eq!(
            *log.lock().unwrap(),
            [
                "normal parent",
                "high child",
                "background-0",
                "background-1"
            ]
        );
    })
}
