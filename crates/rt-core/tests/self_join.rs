//! A task that joins its own handle gets a clear panic, never a hang (as a
//! thread joining itself gets an error from std).

mod support;

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::mpsc;

use rt_core::{JoinHandle, Runtime};
use rt_handle::raw::payload_message;
use support::{quietly, without_hanging};

/// How the task waits for its own handle.
#[derive(Clone, Copy)]
enum Wait {
    Join,
    /// `block_on` the handle, as a user bridging to async code might.
    BlockOn,
}

/// Spawns a task on `rt` that receives its own handle and joins it; returns
/// the text of the panic that join raised.
fn self_join_panic(rt: &Runtime) -> String {
    self_wait_panic(rt, Wait::Join)
}

/// Spawns a task on `rt` that receives its own handle and waits for it as
/// `wait` says; returns the text of the panic that the wait raised.
fn self_wait_panic(rt: &Runtime, wait: Wait) -> String {
    let (handle_tx, handle_rx) = mpsc::channel::<JoinHandle<()>>();
    let (panic_tx, panic_rx) = mpsc::channel();
    let task = rt.spawn(move || {
        let me = handle_rx.recv().unwrap();
        let joined = quietly(|| {
            catch_unwind(AssertUnwindSafe(|| match wait {
                Wait::Join => me.join(),
                Wait::BlockOn => futures::executor::block_on(me),
            }))
        });
        panic_tx
            .send(joined.err().map(|p| payload_message(&*p)))
            .unwrap();
    });
    handle_tx.send(task).unwrap();
    panic_rx.recv().unwrap().expect("the self-join panics")
}

#[test]
fn a_task_joining_its_own_handle_panics_with_a_message_naming_the_self_join() {
    without_hanging(|| {
        let rt = Runtime::new(1).unwrap();
        let message = self_join_panic(&rt);
        assert!(message.contains("inside the task it joins"), "{message}");
    });
}

#[test]
fn after_a_self_join_the_worker_keeps_working_and_the_runtime_shuts_down() {
    without_hanging(|| {
        let rt = Runtime::new(1).unwrap();
        self_join_panic(&rt);
        assert_eq!(rt.spawn(|| 7).join(), Ok(7));
        rt.shutdown();
        let m = rt.metrics();
        assert_eq!(m.submitted, m.completed + m.panicked + m.cancelled);
    });
}

#[test]
fn a_task_joining_its_own_handle_on_two_workers_panics_too() {
    without_hanging(|| {
        let rt = Runtime::new(2).unwrap();
        let message = self_join_panic(&rt);
        assert!(message.contains("inside the task it joins"), "{message}");
    });
}

#[test]
fn a_task_awaiting_its_own_handle_panics_instead_of_hanging() {
    without_hanging(|| {
        for workers in [1, 2] {
            let rt = Runtime::new(workers).unwrap();
            let message = self_wait_panic(&rt, Wait::BlockOn);
            assert!(message.contains("inside the task it joins"), "{message}");
            assert_eq!(rt.spawn(|| 7).join(), Ok(7));
        }
    });
}

#[test]
fn work_run_inside_a_task_s_join_that_joins_that_task_panics() {
    // The inner task runs on the outer task's worker while the outer waits
    // in `join`, so below it on the stack is the outer task itself: the
    // inner's join of the outer could never end.
    without_hanging(|| {
        let rt = Runtime::new(1).unwrap();
        let (handle_tx, handle_rx) = mpsc::channel::<JoinHandle<()>>();
        let (panic_tx, panic_rx) = mpsc::channel();
        let outer = rt.spawn(move || {
            let me = handle_rx.recv().unwrap();
            let inner = rt_core::spawn(move || {
                let joined = quietly(|| catch_unwind(AssertUnwindSafe(|| me.join())));
                panic_tx
                    .send(joined.err().map(|p| payload_message(&*p)))
                    .unwrap();
            });
            inner.join().unwrap();
        });
        handle_tx.send(outer).unwrap();
        let message = panic_rx.recv().unwrap().expect("the join panics");
        assert!(message.contains("inside the task it joins"), "{message}");
        rt.shutdown();
        let m = rt.metrics();
        assert_eq!(m.completed, 2, "{m:?}");
    });
}
