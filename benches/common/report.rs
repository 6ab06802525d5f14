//! Turning samples into the two markdown tables and the ratio chart.

use std::path::Path;
use std::time::Duration;

use plotters::prelude::*;

use super::strategies::REFERENCE;
use super::workloads::{Unit, Workload};

/// The peers the runtime must match or beat (the "best peer" column).
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

    /// A strategy's median divided by the runtime's, for one row.
    fn ratio(&self, row: &Row, strategy: usize) -> Option<f64> {
        let reference = row.medians[self.index(REFERENCE)?]?;
        Some(row.medians[strategy]? / reference)
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
        out.push_str("### Median time (ms, or ns per task where marked)\n\n| workload |");
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
                        " {} <sub>±{:.0}%</sub> |",
                        fmt_value(*m),
                        s * 50.0
                    )),
                    _ => out.push_str(" — |"),
                }
            }
            out.push('\n');
        }
        out.push_str(
            "\n<sub>±: half the range (max − min) of the samples, as a share of the median.</sub>\n\n",
        );
        out.push_str(&format!(
            "### Time relative to `{REFERENCE}` (above 1: `{REFERENCE}` is faster)\n\n| workload |"
        ));
        for n in &self.names {
            out.push_str(&format!(" {n} |"));
        }
        out.push_str(&format!(" **{REFERENCE} ÷ best peer** |\n|---|"));
        out.push_str(&"---:|".repeat(self.names.len() + 1));
        out.push('\n');
        for row in &self.rows {
            out.push_str(&format!("| {} |", row.name));
            for i in 0..self.names.len() {
                match self.ratio(row, i) {
                    Some(r) => out.push_str(&format!(" {r:.2} |")),
                    None => out.push_str(" — |"),
                }
            }
            let best_peer = PEERS
                .iter()
                .filter_map(|p| self.index(p).and_then(|i| self.ratio(row, i)))
                .fold(f64::INFINITY, f64::min);
            if best_peer.is_finite() {
                out.push_str(&format!(" **{:.2}** |\n", 1.0 / best_peer));
            } else {
                out.push_str(" — |\n");
            }
        }
        out
    }

    /// Grouped bars: for each workload, every other strategy's time relative
    /// to the runtime, capped at `CAP` so that thread-per-task stays legible.
    pub fn chart(&self, path: &Path) -> Result<(), Box<dyn std::error::Error>> {
        const CAP: f64 = 4.0;
        let others: Vec<usize> = (0..self.names.len())
            .filter(|&i| self.names[i] != REFERENCE)
            .collect();
        let n = self.rows.len() as f64;
        let root = SVGBackend::new(path, (1400, 620)).into_drawing_area();
        root.fill(&WHITE)?;
        let mut chart = ChartBuilder::on(&root)
            .caption(
                format!("time relative to {REFERENCE} (1 = same; above 1, {REFERENCE} is faster; capped at {CAP})"),
                ("sans-serif", 20),
            )
            .margin(12)
            .x_label_area_size(170)
            .y_label_area_size(50)
            .build_cartesian_2d(-0.5f64..n - 0.5, 0f64..CAP)?;
        let names: Vec<&str> = self.rows.iter().map(|r| r.name).collect();
        chart
            .configure_mesh()
            .disable_x_mesh()
            .x_labels(self.rows.len())
            .x_label_formatter(&|x| {
                let k = x.round();
                if (x - k).abs() < 1e-6 && k >= 0.0 && (k as usize) < names.len() {
                    names[k as usize].to_string()
                } else {
                    String::new()
                }
            })
            .x_label_style(
                ("sans-serif", 12)
                    .into_font()
                    .transform(FontTransform::Rotate90),
            )
            .y_desc("ratio")
            .draw()?;
        let width = 0.8 / others.len() as f64;
        for (j, &s) in others.iter().enumerate() {
            let color = Palette99::pick(j).to_rgba();
            let bars: Vec<_> = self
                .rows
                .iter()
                .enumerate()
                .filter_map(|(k, row)| {
                    let r = self.ratio(row, s)?.min(CAP);
                    let x0 = k as f64 - 0.4 + j as f64 * width;
                    Some(Rectangle::new(
                        [(x0, 0.0), (x0 + width * 0.9, r)],
                        color.filled(),
                    ))
                })
                .collect();
            chart
                .draw_series(bars)?
                .label(self.names[s])
                .legend(move |(x, y)| {
                    Rectangle::new([(x, y - 5), (x + 12, y + 5)], color.filled())
                });
        }
        chart.draw_series(LineSeries::new(
            vec![(-0.5, 1.0), (n - 0.5, 1.0)],
            BLACK.stroke_width(2),
        ))?;
        chart
            .configure_series_labels()
            .position(SeriesLabelPosition::UpperRight)
            .background_style(WHITE.mix(0.9))
            .border_style(BLACK)
            .draw()?;
        root.present()?;
        Ok(())
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
