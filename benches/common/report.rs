//! Turning samples into the two markdown tables and the ratio chart.

use std::path::Path;
use std::time::Duration;

use super::chart;
use super::strategies::REFERENCE;
use super::workloads::{Unit, Workload};

/// The peers the runtime must match or beat (the "best peer" column): the
/// other general-purpose pools, not the reference strategies (inline,
/// thread per task) or the runtime's own variants.
const PEERS: [&str; 5] = [
    "global queue",
    "rayon",
    "threadpool",
    "qubit fixed",
    "tokio",
];

pub struct Row {
    name: &'static str,
    unit: Unit,
    /// Median per strategy, in the row's unit; `None` where it does not apply.
    medians: Vec<Option<f64>>,
    /// Spread per strategy: (max - min) / median of the samples.
    spread: Vec<Option<f64>>,
}

fn median(sorted: &[f64]) -> f64 {
    let n = sorted.len();
    if n % 2 == 1 {
        sorted[n / 2]
    } else {
        (sorted[n / 2 - 1] + sorted[n / 2]) / 2.0
    }
}

impl Row {
    pub fn new(w: &Workload, samples: Vec<Option<Vec<Duration>>>) -> Self {
        let to_unit = |d: &Duration| match w.unit {
            Unit::Millis => d.as_secs_f64() * 1e3,
            Unit::NanosPerTask => d.as_secs_f64() * 1e9 / w.tasks as f64,
        };
        let mut medians = Vec::new();
        let mut spread = Vec::new();
        for s in samples {
            match s {
                Some(times) if !times.is_empty() => {
                    let mut v: Vec<f64> = times.iter().map(to_unit).collect();
                    v.sort_by(f64::total_cmp);
                    let m = median(&v);
                    medians.push(Some(m));
                    spread.push(Some((v[v.len() - 1] - v[0]) / m));
                }
                _ => {
                    medians.push(None);
                    spread.push(None);
                }
            }
        }
        Self {
            name: w.name,
            unit: w.unit,
            medians,
            spread,
        }
    }
}

pub struct Report {
    names: Vec<&'static str>,
    rows: Vec<Row>,
    elapsed: Duration,
    rounds: usize,
}

impl Report {
    pub fn new(names: Vec<&'static str>, rows: Vec<Row>, elapsed: Duration, rounds: usize) -> Self {
        Self {
            names,
            rows,
            elapsed,
            rounds,
        }
    }

    fn index(&self, name: &str) -> Option<usize> {
        self.names.iter().position(|n| *n == name)
    }

    /// The runtime's median divided by a strategy's, for one row: below 1,
    /// the runtime is faster. Every ratio of the report reads this way.
    fn ratio(&self, row: &Row, strategy: usize) -> Option<f64> {
        let reference = row.medians[self.index(REFERENCE)?]?;
        Some(reference / row.medians[strategy]?)
    }

    /// Whether either median of a ratio comes from rounds that spread more
    /// than [`NOISY`].
    fn ratio_is_noisy(&self, row: &Row, strategy: usize) -> bool {
        let spread = |i: usize| row.spread[i].is_some_and(|s| s > NOISY);
        spread(strategy) || self.index(REFERENCE).is_some_and(spread)
    }

    pub fn markdown(&self) -> String {
        let mut out = String::new();
        out.push_str(&format!(
            "Machine: {} ({} CPUs). {} rounds per strategy (3 for runs over 0.4 s), interleaved in a \
             shuffled order each round; medians. Total time {:.0} s.\n\n",
            crate::cli::cpu_model(),
            std::thread::available_parallelism().map_or(0, |n| n.get()),
            self.rounds,
            self.elapsed.as_secs_f64()
        ));
        out.push_str(
            "### Median time (ms, or ns per task where marked; lower is faster)\n\n| workload |",
        );
        for n in &self.names {
            out.push_str(&format!(" {n} |"));
        }
        out.push_str("\n|---|");
        out.push_str(&"---:|".repeat(self.names.len()));
        out.push('\n');
        for row in &self.rows {
            let unit = if row.unit == Unit::NanosPerTask {
                " (ns/task)"
            } else {
                ""
            };
            out.push_str(&format!("| {}{unit} |", row.name));
            for (m, s) in row.medians.iter().zip(&row.spread) {
                match (m, s) {
                    (Some(m), Some(s)) => out.push_str(&format!(
                        " {}{} <sub>{:.0}%</sub> |",
                        fmt_value(*m),
                        noisy_mark(*s > NOISY),
                        s * 100.0
                    )),
                    _ => out.push_str(" — |"),
                }
            }
            out.push('\n');
        }
        out.push_str(&format!(
            "\n<sub>Small figure: the spread of the rounds, (max − min) ÷ median. {NOISY_MARK} noisy: \
             a spread above {:.0}%, so the median is rough.</sub>\n\n",
            NOISY * 100.0
        ));
        out.push_str(&format!(
            "### `{REFERENCE}`'s time ÷ each system's time (below 1: `{REFERENCE}` is faster)\n\n\
             Peers: {}; best peer: the fastest of them on that workload. {NOISY_MARK}: either time is \
             noisy.\n\n| workload |",
            PEERS.join(", ")
        ));
        for n in &self.names {
            out.push_str(&format!(" ÷ {n} |"));
        }
        out.push_str(" **÷ best peer** |\n|---|");
        out.push_str(&"---:|".repeat(self.names.len() + 1));
        out.push('\n');
        for row in &self.rows {
            out.push_str(&format!("| {} |", row.name));
            for i in 0..self.names.len() {
                match self.ratio(row, i) {
                    Some(r) => out.push_str(&format!(
                        " {r:.2}{} |",
                        noisy_mark(self.ratio_is_noisy(row, i))
                    )),
                    None => out.push_str(" — |"),
                }
            }
            let best_peer = PEERS
                .iter()
                .filter_map(|p| self.index(p))
                .filter_map(|i| Some((self.ratio(row, i)?, i)))
                .max_by(|a, b| a.0.total_cmp(&b.0));
            match best_peer {
                Some((r, i)) => out.push_str(&format!(
                    " **{r:.2}**{} |\n",
                    noisy_mark(self.ratio_is_noisy(row, i))
                )),
                None => out.push_str(" — |\n"),
            }
        }
        out
    }

    /// Grouped bars of every other strategy's ratio, drawn to `path`.
    pub fn chart(&self, path: &Path) -> Result<(), Box<dyn std::error::Error>> {
        let others: Vec<usize> = (0..self.names.len())
            .filter(|&i| self.names[i] != REFERENCE)
            .collect();
        let series: Vec<chart::Series> = others
            .iter()
            .map(|&s| chart::Series {
                name: self.names[s],
                ratios: self.rows.iter().map(|row| self.ratio(row, s)).collect(),
            })
            .collect();
        let workloads: Vec<&str> = self.rows.iter().map(|r| r.name).collect();
        chart::draw(path, &workloads, &series)
    }
}

/// A spread of the rounds, (max − min) ÷ median, above which a median is
/// marked as noisy.
const NOISY: f64 = 0.5;
/// The mark of a noisy cell.
const NOISY_MARK: &str = "⚠";

fn noisy_mark(noisy: bool) -> &'static str {
    if noisy {
        " ⚠"
    } else {
        ""
    }
}

fn fmt_value(v: f64) -> String {
    if v >= 100.0 {
        format!("{v:.0}")
    } else if v >= 10.0 {
        format!("{v:.1}")
    } else {
        format!("{v:.2}")
    }
}
