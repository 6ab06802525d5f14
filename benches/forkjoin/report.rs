//! Medians over rounds and the markdown tables.

use std::time::Duration;

use rt_bench_report::format::{self, Unit};
use rt_bench_report::summary::{Line, Measured, Section};

use super::child::Stop;
use super::systems::{System, Workload};

/// What one case (workload × system) gave.
pub struct Outcome {
    pub workload: Workload,
    pub system: System,
    /// The rounds it finished, in order.
    pub rounds: Vec<Duration>,
    /// Why it stopped early, if it did.
    pub stop: Option<Stop>,
}

impl Outcome {
    /// The median round in ms, if every round finished.
    pub fn median_ms(&self) -> Option<f64> {
        if self.stop.is_some() || self.rounds.is_empty() {
            return None;
        }
        let mut ms: Vec<f64> = self.rounds.iter().map(|d| d.as_secs_f64() * 1e3).collect();
        ms.sort_by(f64::total_cmp);
        let n = ms.len();
        Some(if n % 2 == 1 {
            ms[n / 2]
        } else {
            (ms[n / 2 - 1] + ms[n / 2]) / 2.0
        })
    }

    fn status(&self, limit: Duration) -> String {
        match &self.stop {
            Some(Stop::TimedOut) if self.rounds.is_empty() => {
                format!("timed out (warm-up > {:.0} s)", limit.as_secs_f64())
            }
            Some(Stop::TimedOut) => format!(
                "timed out (round {} > {:.0} s)",
                self.rounds.len() + 1,
                limit.as_secs_f64()
            ),
            Some(Stop::Failed(status)) => format!("**FAILED** ({status})"),
            Some(Stop::NotBuilt) => "not built".to_owned(),
            None => String::new(),
        }
    }
}

fn ms(v: f64) -> String {
    if v >= 100.0 {
        format!("{v:.0}")
    } else {
        format!("{v:.1}")
    }
}

/// The systems that ran at least one workload, in column order.
fn columns(outcomes: &[Outcome]) -> Vec<System> {
    System::ALL
        .into_iter()
        .filter(|s| outcomes.iter().any(|o| o.system == *s))
        .collect()
}

/// One row per workload, one column per system: the median in ms and, in
/// parentheses, its ratio to rayon join's median on the same workload.
pub fn table(outcomes: &[Outcome], limit: Duration) -> String {
    let systems = columns(outcomes);
    let mut out = String::from("| workload |");
    for s in &systems {
        out.push_str(&format!(" {} |", s.name()));
    }
    out.push_str("\n|---|");
    out.push_str(&"---:|".repeat(systems.len()));
    out.push('\n');
    for w in Workload::ALL {
        let row: Vec<&Outcome> = outcomes.iter().filter(|o| o.workload == w).collect();
        if row.is_empty() {
            continue;
        }
        let rayon = row
            .iter()
            .find(|o| o.system == System::RayonJoin)
            .and_then(|o| o.median_ms());
        out.push_str(&format!("| {} |", w.title()));
        for s in &systems {
            let cell = match row.iter().find(|o| o.system == *s) {
                None => "–".to_owned(),
                Some(o) => match (o.median_ms(), rayon) {
                    // rayon join's own ratio would always read 1.00.
                    (Some(m), Some(_)) if o.system == System::RayonJoin => ms(m),
                    (Some(m), Some(r)) => format!("{} ({})", ms(m), format::ratio(m / r)),
                    (Some(m), None) => ms(m),
                    (None, _) => o.status(limit),
                },
            };
            out.push_str(&format!(" {cell} |"));
        }
        out.push('\n');
    }
    out
}

/// The summary's section: `rt::join` against rayon's and chili's joins
/// on each workload.
pub fn summary(outcomes: &[Outcome]) -> Section {
    let peers = [System::RayonJoin, System::Chili];
    let mut section = Section::new(
        "forkjoin",
        format!(
            "fork-join: {} vs {}",
            System::RtJoin.name(),
            peers.map(System::name).join(", ")
        ),
    );
    let measured = |w: Workload, s: System| {
        let o = outcomes.iter().find(|o| o.workload == w && o.system == s)?;
        o.stop.is_none().then_some(())?;
        let ms: Vec<f64> = o.rounds.iter().map(|d| d.as_secs_f64() * 1e3).collect();
        Measured::of_rounds(&ms)
    };
    for w in Workload::ALL {
        if !outcomes.iter().any(|o| o.workload == w) {
            continue;
        }
        section.push(Line::new(
            w.title(),
            Unit::Millis,
            measured(w, System::RtJoin),
            peers.map(|s| (s.name(), measured(w, s))),
        ));
    }
    section
}

/// Every round of every case, in ms, in the order they ran.
pub fn rounds(outcomes: &[Outcome], limit: Duration) -> String {
    let mut out = String::from("| workload | system | rounds (ms) |\n|---|---|---|\n");
    for o in outcomes {
        let mut cell: Vec<String> = o.rounds.iter().map(|d| ms(d.as_secs_f64() * 1e3)).collect();
        if o.stop.is_some() {
            cell.push(o.status(limit));
        }
        out.push_str(&format!(
            "| {} | {} | {} |\n",
            o.workload.id(),
            o.system.name(),
            cell.join(", ")
        ));
    }
    out
}
