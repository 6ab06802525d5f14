//! Cooperative cancellation: tasks not yet started are skipped, a running
//! task sees the token and stops early, unrelated tasks are unaffected.
//!
//! Run with `cargo run --release --example cancellation`.

use std::sync::mpsc;
use std::time::Duration;

use rt::{CancellationToken, JoinError, Priority, Runtime};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let rt = Runtime::new(2)?;
    let search = CancellationToken::new();

    // A long-running search that checks its token between steps.
    let (started_tx, started) = mpsc::channel();
    let long = rt.spawn_cancellable(Priority::Normal, &search, move |ctx| {
        started_tx.send(()).unwrap();
        let mut steps = 0u64;
        while !ctx.is_cancelled() {
            steps += 1;
            std::hint::spin_loop();
        }
        steps
    });
    started.recv()?;

    // An unrelated task with its own token.
    let other = CancellationToken::new();
    let unaffected = rt.spawn_cancellable(Priority::Normal, &other, |_| "still runs");

    // Let the search make some progress, then call it off.
    std::thread::sleep(Duration::from_millis(10));
    search.cancel();
    println!("long task stopped after {} steps", long.join()?);
    println!("unrelated task: {}", unaffected.join()?);

    // A task whose token is already cancelled never runs its body.
    let skipped = rt.spawn_cancellable(Priority::Normal, &search, |_| unreachable!());
    assert_eq!(skipped.join(), Err(JoinError::Cancelled));
    println!(
        "task spawned with a cancelled token: {}",
        JoinError::Cancelled
    );
    Ok(())
}
