//! `Runtime::shutdown_background`: stops accepting new tasks and returns at
//! once, without waiting for anything; the tasks already accepted (and the
//! tasks they spawn) still run, and the workers exit on their own.

mod support;

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{mpsc, Arc, Mutex};
use std::thread;

use rt_core::{Priority, ProvidesSubmitter, Runtime, Submitter};
use rt_handle::Job;
use support::{occupy_all_workers, wait_until, without_hanging, Gate, Latch};

/// A runtime of `threads` workers that counts the workers that stopped.
fn counting_stops(threads: usize) -> (Runtime, Arc<AtomicUsize>) {
    let stopped = Arc::new(AtomicUsize::new(0));
    let s = stopped.clone();
    let rt = Runtime::builder()
        .threads(threads)
        .after_worker_stop(move |_| {
            s.fetch_add(1, Ordering::SeqCst);
        })
        .build()
        .unwrap();
    (rt, stopped)
}

#[test]
fn it_returns_while_a_task_is_still_running() {
    without_hanging(|| {
        let rt = Runtime::new(1).unwrap();
        let (gate, started) = (Gate::new(), Latch::new(1));
        let running = {
            let (gate, started) = (gate.clone(), started.clone());
            rt.spawn(move || {
                started.count_down();
                gate.wait();
                "finished"
            })
        };
        started.wait();
        // Opening the gate only afterwards: a call that waited would hang.
        rt.shutdown_background();
        gate.open();
        assert_eq!(running.join(), Ok("finished"));
    });
}

#[test]
fn every_task_accepted_before_still_runs() {
    without_hanging(|| {
        for threads in [1, 2] {
            let rt = Runtime::new(threads).unwrap();
            let gate = Gate::new();
            let blockers = occupy_all_workers(&rt, &gate);
            let queued: Vec<_> = (0..20)
                .map(|i| rt.spawn_with_priority(Priority::ALL[i % 3], move || i))
                .collect();
            rt.shutdown_background();
            gate.open();
            for (i, handle) in queued.into_iter().enumerate() {
                assert_eq!(handle.join(), Ok(i), "{threads} workers");
            }
            for blocker in blockers {
                assert_eq!(blocker.join(), Ok(()));
            }
        }
    });
}

#[test]
fn tasks_spawned_by_accepted_tasks_after_it_still_run() {
    without_hanging(|| {
        let rt = Runtime::new(2).unwrap();
        let (gate, started) = (Gate::new(), Latch::new(1));
        let (tx, rx) = mpsc::channel();
        let parent = {
            let (gate, started) = (gate.clone(), started.clone());
            rt.spawn(move || {
                started.count_down();
                gate.wait(); // until the runtime is shutting down
                let children: Vec<_> = (0..5).map(|i| rt_core::spawn(move || i * 2)).collect();
                tx.send(children).unwrap();
                rt_core::scope(|s| s.spawn(|| 7).join().unwrap())
            })
        };
        started.wait();
        rt.shutdown_background();
        gate.open();
        assert_eq!(parent.join(), Ok(7));
        let children = rx.recv().unwrap();
        for (i, child) in children.into_iter().enumerate() {
            assert_eq!(child.join(), Ok(i * 2));
        }
    });
}

#[test]
fn the_workers_exit_on_their_own() {
    without_hanging(|| {
        let (rt, stopped) = counting_stops(2);
        assert_eq!(rt.spawn(|| 1).join(), Ok(1));
        rt.shutdown_background();
        wait_until("every worker stopped", || {
            stopped.load(Ordering::SeqCst) == 2
        });
    });
}

#[test]
fn the_workers_exit_once_the_last_accepted_task_finished() {
    without_hanging(|| {
        let (rt, stopped) = counting_stops(2);
        let (gate, started) = (Gate::new(), Latch::new(1));
        let task = {
            let (gate, started) = (gate.clone(), started.clone());
            rt.spawn(move || {
                started.count_down();
                gate.wait();
            })
        };
        started.wait();
        rt.shutdown_background();
        // No worker may exit while a task runs: it could still spawn.
        assert_eq!(stopped.load(Ordering::SeqCst), 0);
        gate.open();
        assert_eq!(task.join(), Ok(()));
        wait_until("every worker stopped", || {
            stopped.load(Ordering::SeqCst) == 2
        });
    });
}

#[test]
fn threads_a_spawn_handler_started_return_from_run() {
    without_hanging(|| {
        let mut threads = Vec::new();
        let rt = Runtime::builder()
            .threads(2)
            .build_with(|worker| {
                threads.push(thread::spawn(move || worker.run()));
                Ok(())
            })
            .unwrap();
        let handle = rt.spawn(|| 3);
        rt.shutdown_background();
        assert_eq!(handle.join(), Ok(3));
        for thread in threads {
            thread.join().unwrap();
        }
    });
}

#[test]
fn new_submissions_are_refused_afterwards() {
    without_hanging(|| {
        let rt = Runtime::new(2).unwrap();
        let submitter = rt.submitter();
        rt.shutdown_background();
        let (job, handle) = Job::new(|| 5);
        assert!(submitter.try_submit(Priority::Normal, job).is_err());
        drop(handle);
    });
}

#[test]
fn a_spawned_broadcast_posted_before_still_runs_on_every_worker() {
    without_hanging(|| {
        let rt = Runtime::new(2).unwrap();
        let gate = Gate::new();
        let blockers = occupy_all_workers(&rt, &gate);
        let seen = Arc::new(Mutex::new(Vec::new()));
        let s = seen.clone();
        rt.spawn_broadcast(move |ctx| s.lock().unwrap().push(ctx.index()));
        rt.shutdown_background();
        gate.open();
        for blocker in blockers {
            assert_eq!(blocker.join(), Ok(()));
        }
        wait_until("both workers ran their share", || {
            seen.lock().unwrap().len() == 2
        });
        let mut seen = seen.lock().unwrap().clone();
        seen.sort();
        assert_eq!(seen, [0, 1]);
    });
}

#[test]
fn a_task_of_the_runtime_itself_may_call_it() {
    without_hanging(|| {
        let (rt, stopped) = counting_stops(2);
        let gate = Gate::new();
        let late = {
            let gate = gate.clone();
            rt.spawn(move || {
                gate.wait();
                "accepted before"
            })
        };
        let slot = Arc::new(Mutex::new(None::<Runtime>));
        let owner = slot.clone();
        let (tx, rx) = mpsc::channel();
        let stopper = rt.spawn(move || {
            let rt = owner.lock().unwrap().take().expect("the runtime");
            rt.shutdown_background();
            tx.send(()).unwrap();
        });
        *slot.lock().unwrap() = Some(rt);
        rx.recv().unwrap();
        assert_eq!(stopper.join(), Ok(()));
        gate.open();
        assert_eq!(late.join(), Ok("accepted before"));
        wait_until("every worker stopped", || {
            stopped.load(Ordering::SeqCst) == 2
        });
    });
}

#[test]
fn shutting_down_one_runtime_in_the_background_leaves_another_working() {
    without_hanging(|| {
        let a = Runtime::new(1).unwrap();
        let b = Runtime::new(1).unwrap();
        let from_b = b.spawn(|| 1);
        a.shutdown_background();
        assert_eq!(from_b.join(), Ok(1));
        assert_eq!(b.install(|| rt_core::join(|| 2, || 3)), (2, 3));
    });
}
