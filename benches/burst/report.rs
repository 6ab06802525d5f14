//! Latency summaries and the markdown tables.

use rt_bench_report::format::{self, Unit};
use rt_bench_report::summary::{Line, Measured};

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

/// The other systems that hand work to parked threads: not the floor and
/// not this workspace's own (rt-burst, the runtime's `spawn`).
pub const PEERS: [&str; 4] = ["burst-pool", "threadpool", "rayon", "crossbeam-channel"];

fn find<'a>(rows: &'a [Summary], name: &str) -> &'a Summary {
    rows.iter()
        .find(|r| r.name == name)
        .expect("system present")
}

/// The fastest peer by `figure`, with that figure.
fn best_peer(rows: &[Summary], figure: fn(&Summary) -> f64) -> Option<(&Summary, f64)> {
    rows.iter()
        .filter(|r| PEERS.contains(&r.name))
        .map(|r| (r, figure(r)))
        .min_by(|a, b| a.1.total_cmp(&b.1))
}

/// The summary's lines for one K: rt-burst's mean and p99 against the
/// best peer's.
pub fn summary_lines(k: usize, rows: &[Summary]) -> Vec<Line> {
    let ours = find(rows, RT_BURST);
    [
        ("mean", (|r: &Summary| r.mean) as fn(&Summary) -> f64),
        ("p99", |r| r.p99),
    ]
    .into_iter()
    .map(|(what, figure)| {
        Line::new(
            format!("{k} workers woken, {what}"),
            Unit::Micros,
            Some(Measured::single(figure(ours))),
            rows.iter()
                .filter(|r| PEERS.contains(&r.name))
                .map(|r| (r.name, Some(Measured::single(figure(r))))),
        )
    })
    .collect()
}

/// The table for one K, then rt-burst's figures against its aims.
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
            "| {name} | {} | {} | {} | {} | {} | {} | {} | {:.1} |\n",
            format::number(r.mean),
            format::number(r.p50),
            format::number(r.p80),
            format::number(r.p99),
            format::number(r.max),
            format::ratio(r.mean / floor.mean),
            format::ratio(r.p99 / floor.p99),
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
    // The design's aims, stated as figures: rt-burst within 10% of the
    // floor, and below every peer.
    let ours = find(rows, RT_BURST);
    let against_peers = |what: &str, figure: fn(&Summary) -> f64| match best_peer(rows, figure) {
        Some((peer, theirs)) => format!(
            "{what} {} µs, the best peer's {} µs ({})",
            format::number(figure(ours)),
            format::number(theirs),
            peer.name
        ),
        None => String::new(),
    };
    out.push_str(&format!(
        "\nrt-burst for K = {k} (aims: within 1.10× the floor, below every peer): mean {}× the \
         floor's, p99 {}× the floor's; {}; {}.\n",
        format::ratio(ours.mean / floor.mean),
        format::ratio(ours.p99 / floor.p99),
        against_peers("mean", |r| r.mean),
        against_peers("p99", |r| r.p99),
    ));
    out
}
