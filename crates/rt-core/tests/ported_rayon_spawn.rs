//! rayon-core's own `spawn` tests (`rayon-core/src/spawn/test.rs`), ported:
//! `rayon::spawn` (fire and forget) is `rt.execute` (no handle) or
//! `rt.spawn` (handle dropped); the `panic_handler` receives the panics of
//! `execute`d tasks, as a message rather than the payload. A task spawns
//! onto its own runtime through an `Arc<Runtime>` it captured (there is no
//! `rt_core::spawn` yet).

mod support;

use std::sync::mpsc::channel;
use std::sync::{Arc, Mutex};

use rt_core::Runtime;
use support::{quietly, without_hanging};

#[test]
fn a_task_spawned_inside_a_scope_body_runs() {
    without_hanging(|| {
        let rt = Runtime::new(2).unwrap();
        let (tx, rx) = channel();
        rt.scope(|_| {
            rt.spawn(move || tx.send(22).unwrap());
        });
        assert_eq!(rx.recv().unwrap(), 22);
    });
}

#[test]
fn a_task_spawned_from_outside_runs() {
    without_hanging(|| {
        let rt = Runtime::new(2).unwrap();
        let (tx, rx) = channel();
        rt.execute(move || tx.send(22).unwrap()).unwrap();
        assert_eq!(rx.recv().unwrap(), 22);
    });
}

#[test]
fn the_panic_handler_receives_the_message_of_an_executed_tasks_panic() {
    without_hanging(|| {
        let (tx, rx) = channel();
        let tx = Mutex::new(tx);
        let rt = Runtime::builder()
            .panic_handler(move |_, message| {
                let code = if message == "Hello, world!" { 1 } else { 2 };
                tx.lock().unwrap().send(code).unwrap();
            })
            .build()
            .unwrap();
        quietly(|| {
            rt.execute(|| panic!("Hello, world!")).unwrap();
            assert_eq!(rx.recv().unwrap(), 1);
        });
    });
}

#[test]
fn a_task_whose_runtime_was_dropped_meanwhile_still_spawns_and_runs_its_child() {
    without_hanging(|| {
        let (tx0, rx0) = channel::<i32>();
        let (tx1, rx1) = channel();
        let rt = Arc::new(Runtime::new(2).unwrap());
        let inner = Arc::downgrade(&rt);
        rt.execute(move || {
            let data = rx0.recv().unwrap();
            // The caller's `Arc` is gone by now; the runtime is shutting
            // down but still runs what its running tasks spawn.
            if let Some(rt) = inner.upgrade() {
                rt.execute(move || tx1.send(data).unwrap()).ok();
            } else {
                tx1.send(data).unwrap();
            }
        })
        .unwrap();
        let dropper = std::thread::spawn(move || drop(rt));
        tx0.send(22).unwrap();
        assert_eq!(rx1.recv().unwrap(), 22);
        dropper.join().unwrap();
    });
}

#[test]
fn the_last_runtime_reference_dropped_inside_its_own_task_lets_that_task_finish_its_work() {
    without_hanging(|| {
        let (tx0, rx0) = channel::<i32>();
        let (tx1, rx1) = channel();
        let rt = Arc::new(Runtime::new(2).unwrap());
        let inner = rt.clone();
        rt.execute(move || {
            let data = rx0.recv().unwrap();
            let child = inner.spawn(move || tx1.send(data).unwrap());
            drop(inner); // the last reference: Drop runs on this worker
            drop(child);
        })
        .unwrap();
        drop(rt);
        tx0.send(22).unwrap();
        assert_eq!(rx1.recv().unwrap(), 22);
    });
}

#[test]
fn the_panic_handler_receives_every_panic_of_tasks_executed_by_a_task() {
    without_hanging(|| {
        const PANICS: usize = 3;
        let (tx, rx) = channel();
        let tx = Mutex::new(tx);
        let rt = Arc::new(
            Runtime::builder()
                .panic_handler(move |_, message| {
                    tx.lock().unwrap().send(message.to_owned()).unwrap();
                })
                .build()
                .unwrap(),
        );
        quietly(|| {
            let inner = rt.clone();
            rt.execute(move || {
                for _ in 0..PANICS {
                    inner.execute(|| panic!("Hello, world!")).unwrap();
                }
            })
            .unwrap();
            for _ in 0..PANICS {
                assert_eq!(rx.recv().unwrap(), "Hello, world!");
            }
        });
    });
}

#[test]
fn on_one_worker_tasks_spawned_by_tasks_run_newest_first() {
    without_hanging(|| {
        let rt = Arc::new(Runtime::new(1).unwrap());
        let (tx, rx) = channel();
        rt.install(|| {
            for i in 0..10 {
                let tx = tx.clone();
                let inner = rt.clone();
                rt.spawn(move || {
                    for j in 0..10 {
                        let tx = tx.clone();
                        inner.spawn(move || tx.send(i * 10 + j).unwrap());
                    }
                });
            }
        });
        drop(tx);
        let order: Vec<i32> = rx.iter().collect();
        assert_eq!(order, (0..100).rev().collect::<Vec<_>>());
    });
}
