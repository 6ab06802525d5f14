//! Turning samples into the two markdown tables, the summary section and
//! the ratio chart.

use std::path::Path;
use std::time::Duration;

use rt_bench_report::format::{self, Unit};
use rt_bench_report::summary::{self, Line, Measured, Section};

use super::chart;
use super::strategies::REFERENCE;
use super::workloads::Workload;

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
    /// Median and fastest round per strategy, in the row's unit; `None`
    /// where the strategy does not apply.
    measured: Vec<Option<Measured>>,
    /// Spread per strategy: (max - min) / median of the samples.
    spread: Vec<Option<f64>>,
}

impl Row {
    pub fn new(w: &Workload, samples: Vec<Option<Vec<Duration>>>) -> Self {
        let to_unit = |d: &Duration| match w.unit {
            Unit::NanosPerTask => d.as_secs_f64() * 1e9 / w.tasks as f64,
            Unit::Micros => d.as_secs_f64() * 1e6,
            Unit::Millis => d.as_secs_f64() * 1e3,
        };
        let mut measured = Vec::new();
        let mut spread = Vec::new();
        for s in samples {
            let values: Vec<f64> = s.iter().flatten().map(to_unit).collect();
            let m = Measured::of_rounds(&values);
            let max = values.iter().copied().fold(f64::NAN, f64::max);
            let min = values.iter().copied().fold(f64::NAN, f64::min);
            spread.push(m.map(|m| (max - min) / m.median));
            measured.push(m);
        }
        Self {
            name: w.name,
            unit: w.unit,
            measured,
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

    /// rt's line against one strategy (`peers` of one name) or against the
    /// best of several.
    fn line<'a>(&self, row: &Row, peers: impl IntoIterator<Item = &'a str>) -> Line {
        let rt = self.index(REFERENCE).and_then(|i| row.measured[i]);
        Line::new(
            row.name,
            row.unit,
            rt,
            peers
                .into_iter()
                .map(|p| (p, self.index(p).and_then(|i| row.measured[i]))),
        )
    }

    /// A ratio cell: rt's median ÷ the other's, marked when the fastest
    /// rounds give the other verdict.
    fn ratio_cell(line: &Line) -> String {
        match line.ratio() {
            Some(r) if line.noisy() => format!("{} {}", format::ratio(r), summary::NOISY),
            Some(r) => format::ratio(r),
            None => "—".to_owned(),
        }
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
            for (m, s) in row.measured.iter().zip(&row.spread) {
                match (m, s) {
                    (Some(m), Some(s)) => out.push_str(&format!(
                        " {} <sub>{:.0}%</sub> |",
                        format::number(m.median),
                        s * 100.0
                    )),
                    _ => out.push_str(" — |"),
                }
            }
            out.push('\n');
        }
        out.push_str(
            "\n<sub>Small figure: the spread of the rounds, (max − min) ÷ median.</sub>\n\n",
        );
        let others: Vec<&str> = self
            .names
            .iter()
            .copied()
            .filter(|n| *n != REFERENCE)
            .collect();
        out.push_str(&format!(
            "### `{REFERENCE}`'s time ÷ each system's time (below 1: `{REFERENCE}` is faster)\n\n\
             Best peer: the fastest of {} on that workload. {}: the fastest rounds of the two \
             systems give the other verdict, so the noise of this machine could reverse it.\n\n\
             | workload |",
            PEERS.join(", "),
            summary::NOISY
        ));
        for n in &others {
            out.push_str(&format!(" ÷ {n} |"));
        }
        out.push_str(" **÷ best peer** |\n|---|");
        out.push_str(&"---:|".repeat(others.len() + 1));
        out.push('\n');
        for row in &self.rows {
            out.push_str(&format!("| {} |", row.name));
            for other in &others {
                out.push_str(&format!(
                    " {} |",
                    Self::ratio_cell(&self.line(row, [*other]))
                ));
            }
            let best = self.line(row, PEERS);
            out.push_str(&format!(" **{}** |\n", Self::ratio_cell(&best)));
        }
        out
    }

    /// The summary's section: rt against the best peer on each workload.
    pub fn summary(&self) -> Section {
        let mut section = Section::new(
            "compare",
            format!("tasks on a pool: rt vs {}", PEERS.join(", ")),
        );
        for row in &self.rows {
            let mut line = self.line(row, PEERS);
            line.rename(format::short_name(row.name, 32));
            section.push(line);
        }
        section
    }

    /// Bars of every other strategy's ratio, drawn to `path`.
    pub fn chart(&self, path: &Path) -> Result<(), Box<dyn std::error::Error>> {
        let series: Vec<chart::Series> = self
            .names
            .iter()
            .filter(|n| **n != REFERENCE)
            .map(|&name| chart::Series {
                name,
                ratios: self
                    .rows
                    .iter()
                    .map(|row| self.line(row, [name]).ratio())
                    .collect(),
            })
            .collect();
        let workloads: Vec<&str> = self.rows.iter().map(|r| r.name).collect();
        chart::draw(path, &workloads, &series)
    }
}
