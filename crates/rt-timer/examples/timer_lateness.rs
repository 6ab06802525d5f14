//! How late do callbacks fire? Schedules 10,000 callbacks with deadlines
//! spread uniformly over one second, records for each how long after its
//! deadline it started, and prints p50, p99 and max. Also checks that none
//! started early.
//!
//! ```sh
//! cargo run --release -p rt-timer --example timer_lateness
//! ```
//!
//! Two modes: callbacks run on the timer thread (`schedule_at`), and
//! callbacks handed to a 2-worker `Runtime` (`schedule_at_on`), where the
//! figure includes the hand-off and a worker's wake-up.

use std::time::{Duration, Instant};

use rt_core::Runtime;
use rt_timer::{DelayedTaskScheduler, ScheduledHandle};

const CALLBACKS: usize = 10_000;
const SPREAD: Duration = Duration::from_secs(1);
/// Time to schedule everything before the first deadline.
const LEAD: Duration = Duration::from_millis(100);
const ROUNDS: usize = 3;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let rt = Runtime::new(2)?;
    let timer = DelayedTaskScheduler::new()?;
    println!("{CALLBACKS} callbacks, deadlines uniform over {SPREAD:?}, {ROUNDS} rounds per mode");
    println!(
        "{:<28} {:>5} {:>10} {:>10} {:>10} {:>6}",
        "mode", "round", "p50", "p99", "max", "early"
    );
    for round in 1..=ROUNDS {
        let lateness = measure(round as u64, |deadline| {
            timer
                .schedule_at(deadline, Instant::now)
                .map_err(|_| "shut down")
        })?;
        report("timer thread (schedule_at)", round, &lateness);
    }
    for round in 1..=ROUNDS {
        let lateness = measure(round as u64 + 100, |deadline| {
            timer
                .schedule_at_on(&rt, deadline, Instant::now)
                .map_err(|_| "shut down")
        })?;
        report("Runtime(2) (schedule_at_on)", round, &lateness);
    }
    Ok(())
}

/// Schedules the callbacks with `schedule` and returns, for each, its start
/// minus its deadline in nanoseconds (negative would be early).
fn measure(
    seed: u64,
    schedule: impl Fn(Instant) -> Result<ScheduledHandle<Instant>, &'static str>,
) -> Result<Vec<i128>, Box<dyn std::error::Error>> {
    let start = Instant::now() + LEAD;
    let mut x = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
    let handles = (0..CALLBACKS)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let offset = Duration::from_nanos(x % SPREAD.as_nanos() as u64);
            schedule(start + offset)
        })
        .collect::<Result<Vec<_>, _>>()?;
    assert!(
        Instant::now() < start,
        "scheduling took longer than {LEAD:?}"
    );
    let mut lateness = Vec::with_capacity(CALLBACKS);
    for handle in handles {
        let deadline = handle.deadline();
        let started = handle.join()?;
        lateness.push(if started >= deadline {
            (started - deadline).as_nanos() as i128
        } else {
            -((deadline - started).as_nanos() as i128)
        });
    }
    lateness.sort_unstable();
    Ok(lateness)
}

fn report(mode: &str, round: usize, sorted: &[i128]) {
    let at = |q: f64| sorted[((sorted.len() - 1) as f64 * q).round() as usize];
    let early = sorted.iter().filter(|&&ns| ns < 0).count();
    println!(
        "{mode:<28} {round:>5} {:>10} {:>10} {:>10} {early:>6}",
        micros(at(0.50)),
        micros(at(0.99)),
        micros(*sorted.last().unwrap()),
    );
}

fn micros(ns: i128) -> String {
    format!("{:.0} µs", ns as f64 / 1_000.0)
}
