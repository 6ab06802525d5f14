//! One round of a part-B setup: interactive jobs arriving on a fixed
//! schedule while (except when alone) the batch runs, both for the
//! round's length.
//!
//! Open loop: job `i` arrives at `start + i × PERIOD`, whatever happened
//! to the jobs before it, and its latency runs from that arrival time to
//! its completion, so a job that waits behind a late one counts its wait.
//! The jobs are dealt in turn to [`CLIENTS`] client threads (a request
//! handler's threads), each of which sleeps until its next job's arrival
//! and then runs it, blocking on it as rayon's callers do; with several
//! clients, a job can arrive while earlier ones are still running. The
//! batch runs on a thread of its own: its `par_iter`s one after another,
//! until the round's end, counting the items done.

use std::thread;
use std::time::{Duration, Instant};

use super::pools::Pools;
use super::work::{self, Expected};

/// Time between two interactive jobs' arrivals.
pub const PERIOD: Duration = Duration::from_millis(4);
/// Threads that run the interactive jobs, taking the jobs in turn.
const CLIENTS: usize = 4;
/// From the round's set-up to the first arrival (the threads start).
const LEAD: Duration = Duration::from_millis(5);

/// What a round measured.
pub struct Round {
    /// Every job's latency, sorted.
    pub latencies: Vec<Duration>,
    /// Batch items done, and the time the batch ran.
    pub units: u64,
    pub batch_time: Duration,
}

/// Runs a round of `length` on `pools`, with the batch if `with_batch`;
/// panics if a result is wrong.
pub fn run(pools: &Pools, with_batch: bool, length: Duration, expected: &Expected) -> Round {
    let start = Instant::now() + LEAD;
    let end = start + length;
    let jobs = (length.as_nanos() / PERIOD.as_nanos()) as u32;
    thread::scope(|s| {
        let batch = with_batch.then(|| {
            s.spawn(move || {
                sleep_until(start);
                let units = pools.batch(|| {
                    let mut units = 0;
                    while Instant::now() < end {
                        assert_eq!(work::batch_call(), expected.batch_call, "a batch call");
                        units += work::CALL_ITEMS;
                    }
                    units
                });
                (units, start.elapsed())
            })
        });
        let clients: Vec<_> = (0..CLIENTS as u32)
            .map(|client| {
                s.spawn(move || {
                    precise_sleeps();
                    let mine = (client..jobs).step_by(CLIENTS);
                    let mut latencies = Vec::with_capacity(mine.len());
                    for i in mine {
                        let arrival = start + PERIOD * i;
                        sleep_until(arrival);
                        assert_eq!(pools.interactive(work::job), expected.job, "a job");
                        latencies.push(arrival.elapsed());
                    }
                    latencies
                })
            })
            .collect();
        let mut latencies: Vec<Duration> = clients
            .into_iter()
            .flat_map(|c| c.join().expect("a client thread"))
            .collect();
        latencies.sort();
        let (units, batch_time) =
            batch.map_or((0, Duration::ZERO), |b| b.join().expect("the batch thread"));
        Round {
            latencies,
            units,
            batch_time,
        }
    })
}

/// Asks Linux to end this thread's sleeps on time: by default a sleep may
/// last 50 µs longer than asked (the timer slack, which lets the kernel
/// batch wake-ups), which would add to every job's latency a delay of the
/// harness, not of the pool under test.
fn precise_sleeps() {
    #[cfg(target_os = "linux")]
    // SAFETY: prctl(PR_SET_TIMERSLACK) only sets a value of this thread.
    unsafe {
        libc::prctl(libc::PR_SET_TIMERSLACK, 1);
    }
}

fn sleep_until(at: Instant) {
    let now = Instant::now();
    if at > now {
        thread::sleep(at - now);
    }
}

impl Round {
    /// The latency below which a fraction `q` of the jobs finished.
    pub fn percentile(&self, q: f64) -> Duration {
        let n = self.latencies.len();
        let rank = ((q * n as f64).ceil() as usize).clamp(1, n);
        self.latencies[rank - 1]
    }

    /// The figures the case process prints: p50, p99 and the largest
    /// latency (ns), the number of jobs, batch items done and the batch's
    /// time (ns).
    pub fn figures(&self) -> String {
        format!(
            "{} {} {} {} {} {}",
            self.percentile(0.5).as_nanos(),
            self.percentile(0.99).as_nanos(),
            self.latencies.last().map_or(0, Duration::as_nanos),
            self.latencies.len(),
            self.units,
            self.batch_time.as_nanos()
        )
    }
}

/// The indexes of [`Round::figures`]' fields.
pub mod field {
    pub const P50: usize = 0;
    pub const P99: usize = 1;
    pub const MAX: usize = 2;
    pub const JOBS: usize = 3;
    pub const UNITS: usize = 4;
    pub const BATCH_NS: usize = 5;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn percentiles_are_nearest_rank() {
        let round = Round {
            latencies: (1..=200).map(Duration::from_micros).collect(),
            units: 0,
            batch_time: Duration::ZERO,
        };
        assert_eq!(round.percentile(0.5), Duration::from_micros(100));
        assert_eq!(round.percentile(0.99), Duration::from_micros(198));
        assert_eq!(round.percentile(1.0), Duration::from_micros(200));
        let figures = round.figures();
        assert_eq!(figures.split_whitespace().count(), field::BATCH_NS + 1);
        assert_eq!(figures.split_whitespace().nth(field::JOBS), Some("200"));
    }
}
