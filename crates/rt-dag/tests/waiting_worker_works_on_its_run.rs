//! A run started on a worker (inside `install`, or a task) works on the
//! run while it waits: it takes the run's work wherever it was released,
//! not only what it queued itself, so that the run gets every worker, as
//! from `main`.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Barrier, Mutex};
use std::thread::{self, ThreadId};

use rt_core::Runtime;
use rt_dag::TaskGraph;
use rt_testkit::{without_hanging, Gate};

/// Two entries meet (so one runs on each worker); each makes two children
/// ready at once, runs one itself and submits the other. A child running
/// on the other worker (not the one waiting for the run) holds that worker
/// until its sibling has run, which only the waiting worker is left to
/// do: the sibling is work the other worker released, in its own queue.
#[test]
fn the_waiting_worker_runs_work_another_worker_released_while_that_worker_is_busy() {
    without_hanging(|| {
        let rt = Runtime::new(2).unwrap();
        let waiter: Arc<Mutex<Option<ThreadId>>> = Arc::new(Mutex::new(None));
        let ran_on_the_waiter = Arc::new(AtomicBool::new(false));
        let meet = Arc::new(Barrier::new(2));
        let mut graph = TaskGraph::new();
        for _ in 0..2 {
            let m = meet.clone();
            let entry = graph.add_task(move |_| {
                m.wait();
            });
            let siblings_ran = [Arc::new(Gate::new()), Arc::new(Gate::new())];
            for me in 0..2 {
                let (mine, other) = (siblings_ran[me].clone(), siblings_ran[1 - me].clone());
                let (waiter, ran_on_the_waiter) = (waiter.clone(), ran_on_the_waiter.clone());
                graph
                    .add_task_after(&[entry], move |_| {
                        let here = thread::current().id();
                        if Some(here) == *waiter.lock().unwrap() {
                            ran_on_the_waiter.store(true, Ordering::SeqCst);
                        } else {
                            other.wait();
                        }
                        mine.open();
                    })
                    .unwrap();
            }
        }
        rt.install(|| {
            *waiter.lock().unwrap() = Some(thread::current().id());
            assert!(graph.run(&rt).all_completed());
        });
        assert!(ran_on_the_waiter.load(Ordering::SeqCst));
    })
}
