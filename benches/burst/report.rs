//! Latency summaries and the markdown tables.

use super::systems::{FLOOR, RT_BURST};

/// One system's wake-up latencies for one K, in µs.
pub struct Summary {
    pub name: &'static str,
    pub samples: usize,
    pub refused: usize,
    /// Different threads that ran a burst's handlers, on average.
    pub threads_per_burst: f64,
    pub mean: f64,
    pub p50: f64,
    pub p80: f64,
    pub p99: f64,
    pub max: f64,
}

impl Summary {
    pub fn new(
        name: &'static str,
        mut ns: Vec<u64>,
        refused: usize,
        threads_per_burst: f64,
    ) -> Self {
        ns.sort_unstable();
        let us = |v: u64| v as f64 / 1e3;
        let at = |q: f64| {
            // Nearest rank: the smallest sample with at least q of them at or below it.
            let rank = ((q * ns.len() as f64).ceil() as usize).clamp(1, ns.len());
            us(ns[rank - 1])
        };
        Self {
            name,
            samples: ns.len(),
            refused,
            threads_per_burst,
            mean: ns.iter().map(|&v| v as f64).sum::<f64>() / ns.len() as f64 / 1e3,
            p50: at(0.50),
            p80: at(0.80),
            p99: at(0.99),
            max: us(*ns.last().expect("samples")),
        }
    }
}

/// The targets for one K: rt-burst's mean and p99 at most 1.1× the
/// floor's, and below every peer's.
pub struct Verdict {
    pub mean_ratio: f64,
    pub p99_ratio: f64,
    pub below_peers_mean: bool,
    pub below_peers_p99: bool,
}

impl Verdict {
    pub fn met(&self) -> bool {
        self.mean_ratio <= 1.1
            && self.p99_ratio <= 1.1
            && self.below_peers_mean
            && self.below_peers_p99
    }
}

fn find<'a>(rows: &'a [Summary], name: &str) -> &'a Summary {
    rows.iter()
        .find(|r| r.name == name)
        .expect("system present")
}

pub fn verdict(rows: &[Summary]) -> Verdict {
    let floor = find(rows, FLOOR);
    let ours = find(rows, RT_BURST);
    let peers = || {
        rows.iter()
            .filter(|r| r.name != FLOOR && r.name != RT_BURST)
    };
    Verdict {
        mean_ratio: ours.mean / floor.mean,
        p99_ratio: ours.p99 / floor.p99,
        below_peers_mean: peers().all(|p| ours.mean < p.mean),
        below_peers_p99: peers().all(|p| ours.p99 < p.p99),
    }
}

fn fmt(v: f64) -> String {
    if v >= 100.0 {
        format!("{v:.0}")
    } else {
        format!("{v:.1}")
    }
}

fn check(ok: bool) -> &'static str {
    if ok {
        "met"
    } else {
        "**NOT met**"
    }
}

/// The table for one K, then the targets.
pub fn table(k: usize, bursts: usize, rows: &[Summary]) -> String {
    let floor = find(rows, FLOOR);
    let mut out = format!(
        "### K = {k}: {bursts} bursts of {k} items to {k} parked workers (µs from send to handler)\n\n\
         Ratios: the system's latency ÷ the floor's (below 1: faster than the floor).\n\n\
         | system | mean | p50 | p80 | p99 | max | mean ÷ floor | p99 ÷ floor | threads per burst |\n\
         |---|---:|---:|---:|---:|---:|---:|---:|---:|\n"
    );
    for r in rows {
        let name = if r.name == RT_BURST {
            format!("**{}**", r.name)
        } else {
            r.name.to_owned()
        };
        out.push_str(&format!(
            "| {name} | {} | {} | {} | {} | {} | {:.2} | {:.2} | {:.1} |\n",
            fmt(r.mean),
            fmt(r.p50),
            fmt(r.p80),
            fmt(r.p99),
            fmt(r.max),
            r.mean / floor.mean,
            r.p99 / floor.p99,
            r.threads_per_burst
        ));
    }
    for r in rows.iter().filter(|r| r.refused > 0) {
        out.push_str(&format!(
            "\n<sub>{}: {} of {} items were handed back (no receiver waiting) and are not in its samples.</sub>\n",
            r.name,
            r.refused,
            r.samples + r.refused
        ));
    }
    out.push_str(&format!(
        "\n<sub>threads per burst: how many different threads ran the {k} handlers of one burst, on \
         average. Below {k}, the first threads to wake took the items of threads still waking \
         (a shared queue); rt-burst and the floor give each parked worker its own item.</sub>\n"
    ));
    let below_floor: Vec<String> = rows
        .iter()
        .filter(|r| r.name != FLOOR && r.name != RT_BURST && r.mean < floor.mean)
        .map(|r| format!("{} ({:.1} threads per burst)", r.name, r.threads_per_burst))
        .collect();
    if !below_floor.is_empty() {
        out.push_str(&format!(
            "\nPeers with a mean below the floor's: {}. Fewer than {k} threads per burst means the \
             threads that woke first also ran the items of threads still waking, which a \
             dispatcher that gives each worker its own items cannot do.\n",
            below_floor.join(", ")
        ));
    }
    let v = verdict(rows);
    out.push_str(&format!(
        "\nTargets for rt-burst (K = {k}): mean {:.2}× the floor (≤ 1.10: {}), p99 {:.2}× the floor (≤ 1.10: {}); \
         mean below every peer's: {}; p99 below every peer's: {}.\n",
        v.mean_ratio,
        check(v.mean_ratio <= 1.1),
        v.p99_ratio,
        check(v.p99_ratio <= 1.1),
        check(v.below_peers_mean),
        check(v.below_peers_p99),
    ));
    if !v.met() {
        out.push_str(&format!("\nOverall: {}.\n", crate::cli::verdict(false)));
    }
    out
}
