//! `stop()` of the global runtime while a scope opened on `main` waits for
//! its tasks: the tasks still run (the waiting thread runs those `stop`
//! took out of the queues), and the counts stay exact.

mod support;

use std::sync::atomic::{AtomicUsize, Ordering};

use rt_core::Runtime;
use support::{without_hanging, Gate, Latch};

#[test]
fn every_task_of_a_scope_opened_on_main_runs_when_the_global_runtime_stops() {
    without_hanging(|| {
        let workers = rt_core::current_num_threads();
        // Hold every worker, so that the scope's tasks stay queued.
        let (started, release) = (Latch::new(workers), Gate::new());
        let holders: Vec<_> = (0..workers)
            .map(|_| {
                let (started, release) = (started.clone(), release.clone());
                rt_core::spawn(move || {
                    started.count_down();
                    release.wait();
                })
            })
            .collect();
        started.wait();
        let ran = AtomicUsize::new(0);
        rt_core::scope(|s| {
            for _ in 0..8 {
                s.spawn(|| ran.fetch_add(1, Ordering::SeqCst));
            }
            assert_eq!(
                Runtime::global().stop(),
                0,
                "no task of the scope is cancelled"
            );
            release.open();
        });
        assert_eq!(ran.load(Ordering::SeqCst), 8);
        for holder in holders {
            holder.join().unwrap();
        }
        Runtime::global().wait_termination();
        let m = Runtime::global().metrics();
        assert_eq!(m.submitted, m.completed + m.panicked + m.cancelled);
        assert_eq!(m.completed, 8 + workers as u64);
    });
}
