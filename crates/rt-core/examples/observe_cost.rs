//! What observing the runtime costs: spawn-and-join of many tiny tasks with
//! nothing recorded, with `record_latency(true)`, and with a trace being
//! recorded, in interleaved rounds; prints medians and ratios.
//!
//! Run: `cargo run --release -p rt-core --example observe_cost`

use std::time::{Duration, Instant};

use rt_core::Runtime;

const TASKS: u64 = 100_000;
const ROUNDS: usize = 9;

fn round(rt: &Runtime) -> Duration {
    let started = Instant::now();
    let handles: Vec<_> = (0..TASKS).map(|i| rt.spawn(move || i ^ 7)).collect();
    let sum: u64 = handles.into_iter().map(|h| h.join().unwrap()).sum();
    assert!(sum > 0);
    started.elapsed()
}

fn main() {
    let plain = Runtime::new(2).unwrap();
    let latency = Runtime::builder()
        .threads(2)
        .record_latency(true)
        .build()
        .unwrap();
    let traced = Runtime::new(2).unwrap();
    let mut times: [Vec<Duration>; 3] = Default::default();
    for _ in 0..ROUNDS {
        times[0].push(round(&plain));
        times[1].push(round(&latency));
        traced.start_trace(4 * TASKS as usize);
        times[2].push(round(&traced));
        assert_eq!(traced.stop_trace().tasks.len() as u64, TASKS);
    }
    let median = |v: &mut Vec<Duration>| {
        v.sort();
        v[v.len() / 2]
    };
    let base = median(&mut times[0]);
    println!("{TASKS} tiny tasks spawned and joined from outside, 2 workers, medians of {ROUNDS}:");
    for (name, v) in [
        "nothing recorded",
        "record_latency(true)",
        "trace recording",
    ]
    .iter()
    .zip(times.iter_mut())
    {
        let m = median(v);
        println!(
            "  {name:<22} {:>7.1} ns/task  ({:.2}x)",
            m.as_nanos() as f64 / TASKS as f64,
            m.as_secs_f64() / base.as_secs_f64()
        );
    }
}
