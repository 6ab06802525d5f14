//! A task that joins its own handle gets a clear panic, never a hang (as a
//! thread joining itself gets an error from std).

mod support;

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::mpsc;

use rt_core::{JoinHandle, Runtime};
use rt_handle::executor_support::payload_message;
use support::{quietly, without_hanging};

/// Spawns a task on `rt` that receives its own handle and joins it; returns
/// the text of the panic that join raised.
fn self_join_panic(rt: &Runtime) -> String {
    let (handle_tx, handle_rx) = mpsc::channel::<JoinHandle<()>>();
    let (panic_tx, panic_rx) = mpsc::channel();
    let task = rt.spawn(move || {
        let me = handle_rx.recv().unwrap();
        let joined = quietly(|| catch_unwind(AssertUnwindSafe(|| me.join())));
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
