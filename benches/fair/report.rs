//! Percentiles and the markdown table.

use std::fmt::Write;

/// Nearest-rank percentile of sorted nanosecond samples, in µs.
pub fn percentile_us(sorted: &[u64], q: f64) -> f64 {
    if sorted.is_empty() {
        return f64::NAN;
    }
    let rank = ((q * sorted.len() as f64).ceil() as usize).clamp(1, sorted.len());
    sorted[rank - 1] as f64 / 1e3
}

pub fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    let n = v.len();
    if n == 0 {
        f64::NAN
    } else if n % 2 == 1 {
        v[n / 2]
    } else {
        (v[n / 2 - 1] + v[n / 2]) / 2.0
    }
}

/// What one round of one configuration measured.
#[derive(Clone, Copy)]
pub struct RoundStats {
    pub requests: usize,
    /// p50, p90, p99 queue delay (µs).
    pub queue_delay: [f64; 3],
    /// p50, p90, p99 total latency (µs).
    pub total: [f64; 3],
    /// Background steps per second of arrivals.
    pub background_per_sec: f64,
}

impl RoundStats {
    pub fn new(mut queue_delay: Vec<u64>, mut total: Vec<u64>, background_per_sec: f64) -> Self {
        queue_delay.sort_unstable();
        total.sort_unstable();
        let p = |v: &[u64]| [0.50, 0.90, 0.99].map(|q| percentile_us(v, q));
        Self {
            requests: queue_delay.len(),
            queue_delay: p(&queue_delay),
            total: p(&total),
            background_per_sec,
        }
    }
}

/// One configuration's line of the table: the median over rounds of each
/// figure.
pub struct Row {
    pub name: &'static str,
    pub requests: usize,
    pub queue_delay: [f64; 3],
    pub total: [f64; 3],
    /// `None` for the configurations without background work.
    pub background_per_sec: Option<f64>,
}

impl Row {
    pub fn new(name: &'static str, rounds: &[RoundStats], has_background: bool) -> Self {
        let med = |f: &dyn Fn(&RoundStats) -> f64| median(rounds.iter().map(f).collect());
        Self {
            name,
            requests: rounds.iter().map(|r| r.requests).sum(),
            queue_delay: [0, 1, 2].map(|i| med(&|r| r.queue_delay[i])),
            total: [0, 1, 2].map(|i| med(&|r| r.total[i])),
            background_per_sec: has_background.then(|| med(&|r| r.background_per_sec)),
        }
    }
}

pub fn table(rows: &[Row]) -> String {
    let mut out = String::new();
    out.push_str(
        "| configuration | requests | queue delay p50 | p90 | p99 | total latency p50 | p90 | p99 | background steps/s |\n\
         |---|---:|---:|---:|---:|---:|---:|---:|---:|\n",
    );
    for r in rows {
        let bg = r
            .background_per_sec
            .map_or_else(|| "–".to_string(), |v| format!("{v:.0}"));
        let _ = writeln!(
            out,
            "| {} | {} | {:.0} | {:.0} | {:.0} | {:.0} | {:.0} | {:.0} | {} |",
            r.name,
            r.requests,
            r.queue_delay[0],
            r.queue_delay[1],
            r.queue_delay[2],
            r.total[0],
            r.total[1],
            r.total[2],
            bg
        );
    }
    out
}
