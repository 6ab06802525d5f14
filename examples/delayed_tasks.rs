//! Callbacks at deadlines with `rt::timer::DelayedTaskScheduler`: light
//! callbacks on the timer thread, heavy ones handed to a `Runtime`, a
//! timeout cancelled because the work finished first, and the difference
//! between `shutdown` (accepted callbacks still fire) and `stop` (they are
//! cancelled and counted).
//!
//! Run with `cargo run --release --example delayed_tasks`.

use std::sync::mpsc;
use std::time::{Duration, Instant};

use rt::timer::DelayedTaskScheduler;
use rt::{JoinError, Runtime};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let rt = Runtime::builder()
        .threads(2)
        .thread_name("compute")
        .build()?;
    let timer = DelayedTaskScheduler::builder()
        .thread_name("timer")
        .build()?;
    let start = Instant::now();
    let ms = |d: Duration| d.as_secs_f64() * 1e3;

    // Light callbacks run on the timer thread, in deadline order.
    let (tx, rx) = mpsc::channel();
    for delay in [30u64, 10, 20] {
        let tx = tx.clone();
        timer.schedule(Duration::from_millis(delay), move || {
            tx.send((delay, start.elapsed())).unwrap()
        })?;
    }
    drop(tx);
    for (delay, at) in rx {
        println!("tick after {delay:>2} ms fired at {:>5.1} ms", ms(at));
    }

    // Heavy work goes to the runtime at its deadline; the timer thread
    // only hands it over.
    let report = timer.schedule_on(&rt, Duration::from_millis(15), move || {
        let primes = (2..50_000u32)
            .filter(|n| (2..).take_while(|d| d * d <= *n).all(|d| n % d != 0))
            .count();
        let worker = std::thread::current().name().unwrap_or("?").to_owned();
        (primes, worker)
    })?;
    let (primes, worker) = report.join()?;
    println!("{primes} primes below 50000, counted on {worker}");

    // A timeout that is cancelled because the work finished in time.
    let work = rt.spawn(|| {
        std::thread::sleep(Duration::from_millis(5));
        "response"
    });
    let timeout = timer.schedule(Duration::from_secs(2), || eprintln!("request timed out"))?;
    println!("work returned {:?}", work.join()?);
    println!("timeout cancelled: {}", timeout.cancel());
    assert_eq!(timeout.join(), Err(JoinError::Cancelled));

    // At the deadline, an executor that is gone makes the handle say so.
    let short_lived = Runtime::new(1)?;
    let orphan = timer.schedule_on(&short_lived, Duration::from_millis(5), || "never")?;
    drop(short_lived);
    println!("callback for a dropped runtime: {:?}", orphan.join());

    // shutdown: no new callbacks, accepted ones still fire at their deadlines.
    let accepted = timer.schedule(Duration::from_millis(10), || "fired after shutdown")?;
    timer.shutdown();
    println!(
        "after shutdown, schedule is refused: {}",
        timer.schedule(Duration::ZERO, || ()).is_err()
    );
    timer.wait_termination();
    println!("{}", accepted.join()?);

    // stop: pending callbacks are cancelled, and counted.
    let second = DelayedTaskScheduler::new()?;
    let pending: Vec<_> = (1..=3u64)
        .map(|s| second.schedule(Duration::from_secs(s), move || s))
        .collect::<Result<_, _>>()?;
    println!("stop cancelled {} pending callbacks", second.stop());
    for handle in pending {
        assert_eq!(handle.join(), Err(JoinError::Cancelled));
    }
    Ok(())
}
