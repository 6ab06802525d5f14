//! A worker that joins a task running on another worker helps it: it takes
//! work that task spawned ("leapfrogging", `JOIN_HELPING.md` rule 3), and
//! nothing else.

mod support;

use std::sync::{mpsc, Arc, Barrier};
use std::thread;
use std::time::Duration;

use rt_core::{current_thread_index, Runtime};
use support::{without_hanging, Latch};

#[test]
fn a_joiner_runs_children_of_the_task_it_waits_for_while_that_task_runs_elsewhere() {
    without_hanging(|| {
        let rt = Arc::new(Runtime::new(2).unwrap());
        let (awaited_started, both_running) = (Latch::new(1), Arc::new(Barrier::new(2)));
        let (ran_on_tx, ran_on_rx) = mpsc::channel::<Option<usize>>();
        let awaited = {
            let (rt, started, both) = (rt.clone(), awaited_started.clone(), both_running.clone());
            rt.clone().spawn(move || {
                started.count_down();
                // The joiner is running on the other worker from here on.
                both.wait();
                let children: Vec<_> = (0..4)
                    .map(|_| {
                        let ran_on = ran_on_tx.clone();
                        rt.spawn(move || {
                            ran_on.send(current_thread_index()).unwrap();
                            // Long enough for the joiner to take a queued one.
                            thread::sleep(Duration::from_millis(30));
                        })
                    })
                    .collect();
                for child in children {
                    child.join().unwrap();
                }
                current_thread_index()
            })
        };
        // The awaited task began alone on its worker (its deques empty), and
        // occupies it: the joiner goes to the other worker.
        awaited_started.wait();
        let joiner = rt.spawn(move || {
            both_running.wait();
            let here = current_thread_index();
            (here, awaited.join().unwrap())
        });
        let (joiner_worker, awaited_worker) = joiner.join().unwrap();
        assert_ne!(joiner_worker, awaited_worker);
        let ran_on: Vec<_> = ran_on_rx.try_iter().collect();
        assert_eq!(ran_on.len(), 4, "every child ran once");
        assert!(
            ran_on.contains(&joiner_worker),
            "the joiner helped with the awaited task's children: {ran_on:?}, joiner on {joiner_worker:?}"
        );
    });
}
