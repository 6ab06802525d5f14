//! Start a runtime, fan out work, collect results, shut down, read metrics.
//!
//! Run with `cargo run --release --example basic_pool`.

use rt::Runtime;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let rt = Runtime::builder()
        .threads(4)
        .thread_name("example")
        .build()?;

    // Sum of squares of 0..1000, one task per number.
    let handles: Vec<_> = (0..1_000u64).map(|i| rt.spawn(move || i * i)).collect();
    let mut total = 0;
    for handle in handles {
        total += handle.join()?;
    }
    println!("sum of squares = {total}");
    assert_eq!(total, 332_833_500);

    rt.shutdown();
    let m = rt.metrics();
    println!(
        "submitted {} completed {} panicked {} cancelled {} stolen {}",
        m.submitted, m.completed, m.panicked, m.cancelled, m.stolen
    );
    assert_eq!(m.submitted, m.completed + m.panicked + m.cancelled);
    Ok(())
}
