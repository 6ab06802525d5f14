//! Priorities: with the pool busy, queued High tasks start before Normal
//! ones, which start before Background ones.
//!
//! Run with `cargo run --release --example priority_tasks`.

use std::sync::{mpsc, Arc, Mutex};

use rt::{Priority, Runtime};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let rt = Runtime::new(1)?;
    let order = Arc::new(Mutex::new(Vec::new()));

    // Keep the single worker busy while we queue work at mixed priorities.
    let (release, wait) = mpsc::channel::<()>();
    let blocker = rt.spawn(move || wait.recv().ok());

    for (i, priority) in [Priority::Background, Priority::Normal, Priority::High]
        .into_iter()
        .cycle()
        .take(9)
        .enumerate()
    {
        let order = order.clone();
        drop(rt.spawn_with_priority(priority, move || {
            order.lock().unwrap().push(format!("{priority} #{i}"));
        }));
    }
    release.send(())?;
    blocker.join()?;
    rt.shutdown();

    let order = order.lock().unwrap();
    println!("start order:");
    for entry in order.iter() {
        println!("  {entry}");
    }
    assert!(order[..3].iter().all(|e| e.starts_with("high")));
    assert!(order[6..].iter().all(|e| e.starts_with("background")));
    Ok(())
}
