//! Percentiles and the markdown table.

use std::fmt::Write;

use super::workload::{ForegroundStep, Span};

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

/// Where the slowest 1% of requests (by queue delay, at least one) spent
/// their wait: means in µs of the wait, of the foreground CPU steps that
/// ran during it (and of those, the steps that became due after the
/// request arrived: continuations and requests that overtook it), and of the
/// background steps.
#[derive(Clone, Copy, Default)]
pub struct Tail {
    pub delay: f64,
    pub foreground: f64,
    pub overtaking: f64,
    pub background: f64,
}

impl Tail {
    pub fn of(waits: &[Span], foreground: &[ForegroundStep], background: &[Span]) -> Self {
        let mut slowest = waits.to_vec();
        slowest.sort_by_key(|&(sent, polled)| std::cmp::Reverse(polled - sent));
        slowest.truncate(waits.len().div_ceil(100));
        let n = slowest.len().max(1) as f64;
        let us = |d: std::time::Duration| d.as_secs_f64() * 1e6;
        let overlap = |spans: &mut dyn Iterator<Item = Span>, (from, to): Span| -> f64 {
            spans
                .filter(|&(s, e)| s < to && e > from)
                .map(|(s, e)| us(e.min(to) - s.max(from)))
                .sum()
        };
        // `+ 0.0`: an empty float sum is -0.0, which prints as "-0".
        let mean = |f: &dyn Fn(Span) -> f64| slowest.iter().map(|&w| f(w)).sum::<f64>() / n + 0.0;
        Self {
            delay: mean(&|(sent, polled)| us(polled - sent)),
            foreground: mean(&|w| overlap(&mut foreground.iter().map(|s| s.span), w)),
            overtaking: mean(&|w| {
                let later = foreground.iter().filter(|s| s.due > w.0);
                overlap(&mut later.map(|s| s.span), w)
            }),
            background: mean(&|w| overlap(&mut background.iter().copied(), w)),
        }
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
    pub tail: Tail,
}

impl RoundStats {
    pub fn new(
        mut queue_delay: Vec<u64>,
        mut total: Vec<u64>,
        background_per_sec: f64,
        tail: Tail,
    ) -> Self {
        queue_delay.sort_unstable();
        total.sort_unstable();
        let p = |v: &[u64]| [0.50, 0.90, 0.99].map(|q| percentile_us(v, q));
        Self {
            requests: queue_delay.len(),
            queue_delay: p(&queue_delay),
            total: p(&total),
            background_per_sec,
            tail,
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
    pub tail: Tail,
}

impl Row {
    pub fn new(name: &'static str, rounds: &[RoundStats], has_background: bool) -> Self {
        let med = |f: &dyn Fn(&RoundStats) -> f64| median(rounds.iter().map(f).collect());
        let mean = |f: &dyn Fn(&RoundStats) -> f64| {
            rounds.iter().map(f).sum::<f64>() / rounds.len().max(1) as f64 + 0.0
        };
        Self {
            name,
            requests: rounds.iter().map(|r| r.requests).sum(),
            queue_delay: [0, 1, 2].map(|i| med(&|r| r.queue_delay[i])),
            total: [0, 1, 2].map(|i| med(&|r| r.total[i])),
            background_per_sec: has_background.then(|| med(&|r| r.background_per_sec)),
            // Means, not medians, so that the parts add up to the whole.
            tail: Tail {
                delay: mean(&|r| r.tail.delay),
                foreground: mean(&|r| r.tail.foreground),
                overtaking: mean(&|r| r.tail.overtaking),
                background: mean(&|r| r.tail.background),
            },
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

/// Where the slowest 1% of requests waited, per configuration.
pub fn tail_table(rows: &[Row]) -> String {
    let mut out = String::new();
    out.push_str(
        "| configuration | slowest 1%: queue delay | foreground steps during it | of which due after the arrival | background steps during it | the rest |\n\
         |---|---:|---:|---:|---:|---:|\n",
    );
    for r in rows {
        let t = &r.tail;
        let bg = r
            .background_per_sec
            .map_or_else(|| "–".to_string(), |_| format!("{:.0}", t.background));
        let _ = writeln!(
            out,
            "| {} | {:.0} | {:.0} | {:.0} | {bg} | {:.0} |",
            r.name,
            t.delay,
            t.foreground,
            t.overtaking,
            t.delay - t.foreground - t.background
        );
    }
    out
}
