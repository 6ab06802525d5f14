//! What a `JoinHandle` gives you: the value, a caught panic, a status, a
//! cancellation, and detaching by dropping it.
//!
//! Run with `cargo run --release --example task_handle`.

use std::sync::mpsc;
use std::time::Duration;

use rt::{JoinError, Runtime, TaskStatus};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let rt = Runtime::new(1)?;

    let value = rt.spawn(|| "hello from a worker".to_string());
    println!("value: {}", value.join()?);

    // A panic inside a task is caught; the worker survives.
    std::panic::set_hook(Box::new(|_| {})); // keep the example's output tidy
    let panicked = rt.spawn(|| -> u32 { panic!("something went wrong") });
    match panicked.join() {
        Err(JoinError::Panicked(message)) => println!("task panicked: {message}"),
        other => unreachable!("{other:?}"),
    }
    let _ = std::panic::take_hook();

    // Occupy the only worker so the next task stays queued, then cancel it.
    let (release, wait) = mpsc::channel::<()>();
    let busy = rt.spawn(move || wait.recv_timeout(Duration::from_secs(5)).ok());
    let queued = rt.spawn(|| unreachable!("cancelled before it started"));
    println!("queued task status: {:?}", queued.status());
    assert!(queued.cancel());
    release.send(())?;
    busy.join()?;
    assert_eq!(queued.join(), Err(JoinError::Cancelled));
    println!("cancelled task reports: {}", JoinError::Cancelled);

    // Dropping a handle detaches the task: it still runs.
    let (tx, rx) = mpsc::channel();
    drop(rt.spawn(move || tx.send("detached task ran").unwrap()));
    println!("{}", rx.recv()?);

    let last = rt.spawn(|| 1);
    let _ = last.join();
    rt.shutdown();
    let late = rt.spawn(|| 2);
    assert_eq!(late.status(), TaskStatus::Rejected);
    println!("after shutdown: {}", late.join().unwrap_err());
    Ok(())
}
