//! Part A's report: per workload the median ms of real rayon and of rayon
//! on rt, the ratio of the medians (the target: at most 1.05) and of the
//! fastest rounds; every round; and the summary's section.

use std::time::Duration;

use rt_bench_report::cli;
use rt_bench_report::format::{self, Unit};
use rt_bench_report::summary::{Line, Measured, Section};

use super::Workload;
use crate::backend::WORKERS;
use crate::interleave::{median, Outcome};

/// The most rayon on rt may take, as a multiple of real rayon's time.
const TARGET: f64 = 1.05;

/// What part A measured: per workload, real rayon's outcome then rt's.
pub struct Report<'a> {
    pub workloads: &'a [Workload],
    /// Two per workload, in its order: real rayon, then rayon on rt.
    pub outcomes: &'a [Outcome],
    pub rounds: usize,
    pub limit: Duration,
    pub took: Duration,
}

impl Report<'_> {
    /// Real rayon's and rt's outcomes on the `i`th workload.
    fn pair(&self, i: usize) -> (&Outcome, &Outcome) {
        (&self.outcomes[2 * i], &self.outcomes[2 * i + 1])
    }

    /// Every round's time of `o` in ms, if all its rounds finished.
    fn ms(o: &Outcome) -> Option<Vec<f64>> {
        o.complete()
            .then(|| o.field(0).into_iter().map(|ns| ns / 1e6).collect())
    }

    pub fn markdown(&self) -> String {
        let mut table = String::from(
            "| workload | real rayon (ms) | rayon on rt (ms) | rt ÷ real | \
             rt ÷ real, fastest rounds |\n|---|---:|---:|---:|---:|\n",
        );
        let (mut compared, mut met) = (0, 0);
        for (i, w) in self.workloads.iter().enumerate() {
            let (real, rt) = self.pair(i);
            let cell = |o: &Outcome| {
                Self::ms(o)
                    .and_then(|v| median(&v))
                    .map_or_else(|| o.status(self.limit), format::number)
            };
            let (ratio, fastest) = match (Self::ms(real), Self::ms(rt)) {
                (Some(a), Some(b)) => {
                    let min = |v: &[f64]| v.iter().copied().fold(f64::INFINITY, f64::min);
                    let r = median(&b).unwrap_or(f64::NAN) / median(&a).unwrap_or(f64::NAN);
                    compared += 1;
                    met += usize::from(r <= TARGET);
                    (format::ratio(r), format::ratio(min(&b) / min(&a)))
                }
                _ => ("—".to_owned(), "—".to_owned()),
            };
            table.push_str(&format!(
                "| {} | {} | {} | {ratio} | {fastest} |\n",
                w.title(),
                cell(real),
                cell(rt)
            ));
        }
        format!(
            "## rayon code on rt: real rayon-core against rt's, same program\n\n\
             Machine: {} ({} CPUs). `benches/rayon` built twice: with the real rayon-core \
             1.13.0 and with rt's (`crates/rt-rayon-core`, patched in); rayon 1.12.0 in \
             both, its global pool of {WORKERS} workers, each round run inside it. Each \
             case (workload × build) in its own process, one untimed warm-up round, then \
             {} rounds interleaved across cases in a shuffled order; a round over {:.0} s \
             is killed and reported as timed out. Total time {:.0} s.\n\n\
             Median ms per round; rt ÷ real below 1: rayon on rt is faster. The target: \
             rt ÷ real at most {TARGET:.2}; met on {met} of {compared} workloads measured \
             on both.\n\n{table}\n\
             Checked each round: UTS node, leaf and depth counts against the published \
             ones, fib(27) = 196,418, quicksort's order and checksum, skynet's sum \
             499,999,500,000, nqueens(12) = 14,200 solutions, the sorts' outputs, \
             Mandelbrot's rows, the word counts, the n-body step and the collected items \
             against a sequential run, `find_first`'s index.\n\n\
             ### Every round (ms, in the order run)\n\n{}",
            cli::cpu_model(),
            std::thread::available_parallelism().map_or(0, |n| n.get()),
            self.rounds,
            self.limit.as_secs_f64(),
            self.took.as_secs_f64(),
            self.rounds_table(),
        )
    }

    fn rounds_table(&self) -> String {
        let mut out = String::from("| workload | rayon-core | rounds (ms) |\n|---|---|---|\n");
        for (i, w) in self.workloads.iter().enumerate() {
            let (real, rt) = self.pair(i);
            for (name, o) in [("real", real), ("rt", rt)] {
                let mut cells: Vec<String> = o
                    .field(0)
                    .iter()
                    .map(|ns| format::number(ns / 1e6))
                    .collect();
                if o.stop.is_some() {
                    cells.push(o.status(self.limit));
                }
                out.push_str(&format!("| {} | {name} | {} |\n", w.id(), cells.join(", ")));
            }
        }
        out
    }

    /// The summary's section: rayon on rt against real rayon.
    pub fn summary(&self) -> Section {
        let mut section = Section::new(
            "rayon_on_rt",
            "rayon code on rt: rayon on rt's rayon-core vs the real one (2 workers)",
        );
        for (i, w) in self.workloads.iter().enumerate() {
            let (real, rt) = self.pair(i);
            let measured = |o: &Outcome| Measured::of_rounds(&Self::ms(o)?);
            section.push(Line::new(
                w.short(),
                Unit::Millis,
                measured(rt),
                [("real rayon", measured(real))],
            ));
        }
        section
    }
}
