//! Part B's report: per setup the interactive jobs' latency and the
//! batch's throughput (medians over rounds), whether rt meets its targets,
//! every round, and the summary's section.

use std::time::Duration;

use rt_bench_report::cli;
use rt_bench_report::format::{self, Unit};
use rt_bench_report::summary::{Line, Measured, Section};

use super::round::{field, PERIOD};
use super::work::{CALL_ITEMS, JOB_ITEMS};
use super::Setup;
use crate::backend::WORKERS;
use crate::interleave::{median, Outcome};

/// What part B measured: one outcome per setup, in `Setup::ALL`'s order.
pub struct Report<'a> {
    pub outcomes: &'a [Outcome],
    pub rounds: usize,
    pub seconds: f64,
    /// An interactive job's and a batch item's work on one thread.
    pub job_cost: Duration,
    pub item_cost: Duration,
    pub limit: Duration,
    pub took: Duration,
}

impl Report<'_> {
    fn outcome(&self, setup: Setup) -> &Outcome {
        let i = Setup::ALL
            .iter()
            .position(|&s| s == setup)
            .expect("a setup");
        &self.outcomes[i]
    }

    /// Field `index` of each round of `setup`, if all its rounds finished.
    fn rounds_of(&self, setup: Setup, index: usize) -> Option<Vec<f64>> {
        let o = self.outcome(setup);
        o.complete().then(|| o.field(index))
    }

    /// A latency field's rounds in µs.
    fn micros(&self, setup: Setup, index: usize) -> Option<Vec<f64>> {
        Some(
            self.rounds_of(setup, index)?
                .into_iter()
                .map(|ns| ns / 1e3)
                .collect(),
        )
    }

    /// The batch's throughput in each round, items per second.
    fn throughput(&self, setup: Setup) -> Option<Vec<f64>> {
        let units = self.rounds_of(setup, field::UNITS)?;
        let ns = self.rounds_of(setup, field::BATCH_NS)?;
        Some(units.iter().zip(&ns).map(|(u, t)| u / t * 1e9).collect())
    }

    /// The batch's wall time per item in each round, ns.
    fn per_item(&self, setup: Setup) -> Option<Vec<f64>> {
        Some(self.throughput(setup)?.iter().map(|t| 1e9 / t).collect())
    }

    fn p99(&self, setup: Setup) -> Option<f64> {
        median(&self.micros(setup, field::P99)?)
    }

    fn table(&self) -> String {
        let mut out = String::from(
            "| setup | jobs (rounds × each) | p50 (ms) | p99 (ms) | largest (ms) | \
             batch (items/s) | batch, CPUs' worth |\n|---|---:|---:|---:|---:|---:|---:|\n",
        );
        for setup in Setup::ALL {
            let o = self.outcome(setup);
            if !o.complete() {
                out.push_str(&format!(
                    "| {} | {} | | | | | |\n",
                    setup.title(),
                    o.status(self.limit)
                ));
                continue;
            }
            let ms =
                |index| format::number(median(&self.micros(setup, index).unwrap()).unwrap() / 1e3);
            let jobs = o.field(field::JOBS);
            let largest = o.field(field::MAX).into_iter().fold(0.0, f64::max) / 1e6;
            let (batch, cpus) = match self.throughput(setup).as_deref().and_then(median) {
                Some(t) if setup.batch() => (
                    format!("{t:.0}"),
                    format::number(t * self.item_cost.as_secs_f64()),
                ),
                _ => ("–".to_owned(), "–".to_owned()),
            };
            out.push_str(&format!(
                "| {} | {} × {} | {} | {} | {} | {batch} | {cpus} |\n",
                setup.title(),
                jobs.len(),
                median(&jobs).unwrap_or(0.0),
                ms(field::P50),
                ms(field::P99),
                format::number(largest),
            ));
        }
        out
    }

    /// Whether rt meets each target, worded.
    fn targets(&self) -> String {
        let verdict = |rt: Option<f64>, bound: Option<f64>, at_most: bool| match (rt, bound) {
            (Some(rt), Some(bound)) if (rt <= bound) == at_most => {
                format!(
                    "met ({} against {})",
                    format::number(rt),
                    format::number(bound)
                )
            }
            (Some(rt), Some(bound)) => format!(
                "**not met** ({} against {})",
                format::number(rt),
                format::number(bound)
            ),
            _ => "not measured".to_owned(),
        };
        let rt_p99 = self.p99(Setup::Rt).map(|us| us / 1e3);
        let alone = self.p99(Setup::Alone).map(|us| 2.0 * us / 1e3);
        let two_p99 = self.p99(Setup::TwoPools).map(|us| us / 1e3);
        let batch = |s| self.throughput(s).as_deref().and_then(median);
        format!(
            "Targets for rt (medians over rounds):\n\n\
             * interactive p99 at most 2 × the jobs-alone p99 (ms): {}\n\
             * interactive p99 at most the two pools' (ms): {}\n\
             * batch throughput at least the two pools' (items/s): {}\n",
            verdict(rt_p99, alone, true),
            verdict(rt_p99, two_p99, true),
            verdict(batch(Setup::Rt), batch(Setup::TwoPools), false),
        )
    }

    pub fn markdown(&self) -> String {
        format!(
            "## rayon code with priorities: interactive jobs during a batch\n\n\
             Machine: {} ({} CPUs). Interactive jobs: a `par_iter` map-sum of {} items, \
             {} of work on one thread, one arriving every {} ms (open loop, dealt in turn \
             to 4 client threads; a job's latency runs from its arrival time to its \
             completion). The batch: `par_iter` map-sums of {} items of {} each, one \
             after another on a thread of their own. Each round {} s; each setup in its \
             own process, a 0.5 s warm-up round, then {} rounds interleaved across setups \
             in a shuffled order. rayon 1.12.0; setups 0-2 on the real rayon-core, 3 on \
             rt's ({WORKERS} workers). Total time {:.0} s.\n\n\
             Medians over rounds of each round's percentile; largest: over all rounds. \
             CPUs' worth: the batch's items per second × an item's time on one thread.\n\n\
             {}\n{}\n\
             ### Every round (p50 / p99 ms, batch items/s)\n\n{}",
            cli::cpu_model(),
            std::thread::available_parallelism().map_or(0, |n| n.get()),
            format::count(JOB_ITEMS as usize),
            format::figure(self.job_cost.as_secs_f64() * 1e3, Unit::Millis),
            PERIOD.as_millis(),
            format::count(CALL_ITEMS as usize),
            format::figure(self.item_cost.as_secs_f64() * 1e6, Unit::Micros),
            self.seconds,
            self.rounds,
            self.took.as_secs_f64(),
            self.table(),
            self.targets(),
            self.rounds_table(),
        )
    }

    fn rounds_table(&self) -> String {
        let mut out = String::from("| setup | rounds |\n|---|---|\n");
        for setup in Setup::ALL {
            let o = self.outcome(setup);
            let p50 = o.field(field::P50);
            let p99 = o.field(field::P99);
            let units = o.field(field::UNITS);
            let ns = o.field(field::BATCH_NS);
            let mut cells: Vec<String> = (0..p50.len())
                .map(|i| {
                    let batch = if setup.batch() {
                        format!(", {:.0}/s", units[i] / ns[i] * 1e9)
                    } else {
                        String::new()
                    };
                    format!(
                        "{} / {}{batch}",
                        format::number(p50[i] / 1e6),
                        format::number(p99[i] / 1e6)
                    )
                })
                .collect();
            if o.stop.is_some() {
                cells.push(o.status(self.limit));
            }
            out.push_str(&format!("| {} | {} |\n", setup.id(), cells.join("; ")));
        }
        out
    }

    /// The summary's section: rt's p99 against the jobs alone and the two
    /// pools, and its batch's time per item against the two pools'.
    pub fn summary(&self) -> Section {
        let mut section = Section::new(
            "rayon_priorities",
            "rayon code with priorities: rt (High jobs, Background batch) vs real rayon",
        );
        let measured = |v: Option<Vec<f64>>| Measured::of_rounds(&v?);
        let p99 = |s| measured(self.micros(s, field::P99));
        section.push(Line::new(
            "interactive p99 (aim: ≤ 1)",
            Unit::Micros,
            p99(Setup::Rt),
            [("two rayon pools", p99(Setup::TwoPools))],
        ));
        section.push(Line::new(
            "interactive p99 (aim: ≤ 2)",
            Unit::Micros,
            p99(Setup::Rt),
            [("jobs alone", p99(Setup::Alone))],
        ));
        section.push(Line::new(
            "batch, time per item (aim: ≤ 1)",
            Unit::NanosPerTask,
            measured(self.per_item(Setup::Rt)),
            [("two rayon pools", measured(self.per_item(Setup::TwoPools)))],
        ));
        section
    }
}
