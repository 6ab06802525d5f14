//! A misuse panic names the user's line, not the library's: a task joining
//! its own handle, and `wait_termination` on a worker of its own runtime,
//! report the file and line of the call in the user's code.

mod support;

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::{mpsc, Arc, Mutex};

use rt_core::{JoinHandle, Runtime};
use support::without_hanging;

/// Runs `f` with a panic hook that records where each panic was raised;
/// returns `f`'s result and the locations (file, line).
fn locations_of_panics<R>(f: impl FnOnce() -> R) -> (R, Vec<(String, u32)>) {
    // The hook is the process's: one test at a time sets it.
    static ONE_AT_A_TIME: Mutex<()> = Mutex::new(());
    let _turn = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    let seen: Arc<Mutex<Vec<(String, u32)>>> = Arc::default();
    let record = seen.clone();
    let previous = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        if let Some(location) = info.location() {
            let at = (location.file().to_owned(), location.line());
            record.lock().unwrap().push(at);
        }
    }));
    let result = f();
    std::panic::set_hook(previous);
    let seen = seen.lock().unwrap().clone();
    (result, seen)
}

#[test]
fn a_self_join_panic_reports_the_line_of_the_join() {
    without_hanging(|| {
        let rt = Runtime::new(1).unwrap();
        let (handle_tx, handle_rx) = mpsc::channel::<JoinHandle<()>>();
        let (done_tx, done_rx) = mpsc::channel();
        let (outcome, locations) = locations_of_panics(|| {
            let task = rt.spawn(move || {
                let me = handle_rx.recv().unwrap();
                let line = line!() + 1;
                let joined = catch_unwind(AssertUnwindSafe(|| me.join()));
                done_tx.send((line, joined.is_err())).unwrap();
            });
            handle_tx.send(task).unwrap();
            done_rx.recv().unwrap()
        });
        let (line, panicked) = outcome;
        assert!(panicked, "the self-join panics");
        assert!(
            locations
                .iter()
                .any(|(file, l)| file.ends_with("panic_location.rs") && *l == line),
            "the panic should point at this file's line {line}: {locations:?}"
        );
    });
}

#[test]
fn wait_termination_on_a_worker_reports_the_line_of_the_call() {
    without_hanging(|| {
        let rt = Arc::new(Runtime::new(1).unwrap());
        let inner = rt.clone();
        let (outcome, locations) = locations_of_panics(|| {
            rt.spawn(move || {
                let line = line!() + 1;
                let waited = catch_unwind(AssertUnwindSafe(|| inner.wait_termination()));
                (line, waited.is_err())
            })
            .join()
        });
        let (line, panicked) = outcome.unwrap();
        assert!(panicked, "wait_termination on its own worker panics");
        assert!(
            locations
                .iter()
                .any(|(file, l)| file.ends_with("panic_location.rs") && *l == line),
            "the panic should point at this file's line {line}: {locations:?}"
        );
    });
}
