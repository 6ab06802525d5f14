//! Running cases side by side: each in its own process of the build it
//! measures, started one by one (each warms up alone), then one round of
//! each per round of the benchmark, in a shuffled order, with a pause
//! after each so that the pool that ran goes back to sleep.

use std::path::PathBuf;
use std::thread;
use std::time::Duration;

use rt_bench_report::cli;

use crate::backend;
use crate::process::{CaseProcess, Stop};

/// A case to run: its id (`a:fib`), the build it runs in and that build's
/// binary (`None`: not built), and its extra arguments.
pub struct Spec {
    pub case: String,
    /// `rayon` or `rt`: what the process must say it runs on.
    pub backend: &'static str,
    pub exe: Option<PathBuf>,
    pub args: Vec<String>,
}

/// What a case gave: the figures of each round it finished, in order, and
/// why it stopped early, if it did.
pub struct Outcome {
    pub rounds: Vec<String>,
    pub stop: Option<Stop>,
}

/// How many rounds, and the time limits.
pub struct Plan {
    pub rounds: usize,
    /// For a start-up: preparing the case (inputs, a sequential reference)
    /// and its warm-up round.
    pub start_limit: Duration,
    /// For a round.
    pub round_limit: Duration,
    /// After each round.
    pub pause: Duration,
}

/// Runs every case of `specs` for `plan.rounds` rounds; the outcomes are
/// in the order of `specs`.
pub fn run(specs: &[Spec], plan: &Plan) -> Vec<Outcome> {
    let mut outcomes: Vec<Outcome> = specs
        .iter()
        .map(|_| Outcome {
            rounds: Vec::new(),
            stop: None,
        })
        .collect();
    let mut processes: Vec<Option<CaseProcess>> = Vec::new();
    for (i, (spec, outcome)) in specs.iter().zip(&mut outcomes).enumerate() {
        cli::progress(&format!(
            "[start {}/{}] {} on {}",
            i + 1,
            specs.len(),
            spec.case,
            spec.backend
        ));
        processes.push(start(spec, plan.start_limit).map_or_else(
            |stop| {
                outcome.stop = Some(stop);
                None
            },
            Some,
        ));
    }
    let mut order: Vec<usize> = (0..specs.len()).collect();
    let mut rng = 0x9E37_79B9_7F4A_7C15u64;
    for round in 0..plan.rounds {
        cli::shuffle(&mut order, &mut rng);
        for &i in &order {
            let Some(process) = processes[i].as_mut() else {
                continue;
            };
            cli::progress(&format!(
                "[round {}/{}] {} on {}",
                round + 1,
                plan.rounds,
                specs[i].case,
                specs[i].backend
            ));
            match process.round(plan.round_limit) {
                Ok(figures) => outcomes[i].rounds.push(figures),
                Err(stop) => {
                    outcomes[i].stop = Some(stop);
                    processes[i] = None;
                }
            }
            thread::sleep(plan.pause);
        }
    }
    cli::progress("");
    outcomes
}

/// Starts a case's process (within `limit`) and checks what it says it
/// runs on.
fn start(spec: &Spec, limit: Duration) -> Result<CaseProcess, Stop> {
    let exe = spec.exe.as_ref().ok_or(Stop::NotBuilt)?;
    let (process, ready) = CaseProcess::start(exe, &spec.case, &spec.args, limit)?;
    backend::check_ready(&ready, spec.backend).map_err(Stop::Failed)?;
    Ok(process)
}

/// The cases that failed (a wrong result, a crash) or timed out, by build:
/// the parent exits with status 1 if one of real rayon's did (the
/// benchmark is wrong), 2 if only rt's did (rt's rayon-core is), else 0.
#[derive(Default)]
pub struct Failures {
    real: Vec<String>,
    rt: Vec<String>,
}

impl Failures {
    /// The failures among `outcomes` of `specs`.
    pub fn of(specs: &[Spec], outcomes: &[Outcome]) -> Failures {
        let mut failures = Failures::default();
        for (spec, outcome) in specs.iter().zip(outcomes) {
            if matches!(outcome.stop, Some(Stop::Failed(_) | Stop::TimedOut)) {
                let name = format!("{} on {}", spec.case, spec.backend);
                match spec.backend {
                    "rt" => failures.rt.push(name),
                    _ => failures.real.push(name),
                }
            }
        }
        failures
    }

    /// Adds `other`'s failures.
    pub fn add(&mut self, other: Failures) {
        self.real.extend(other.real);
        self.rt.extend(other.rt);
    }

    /// Exits with the status that says what failed (nothing: returns).
    pub fn exit(self) {
        let all: Vec<String> = self.real.iter().chain(&self.rt).cloned().collect();
        if all.is_empty() {
            return;
        }
        eprintln!(
            "rt-rayon-bench: cases failed or timed out: {}",
            all.join(", ")
        );
        std::process::exit(if self.real.is_empty() { 2 } else { 1 });
    }
}

impl Outcome {
    /// Field `index` of every finished round's figures, as numbers.
    pub fn field(&self, index: usize) -> Vec<f64> {
        self.rounds
            .iter()
            .map(|r| {
                r.split_whitespace()
                    .nth(index)
                    .and_then(|f| f.parse().ok())
                    .unwrap_or_else(|| panic!("malformed figures from a case: `{r}`"))
            })
            .collect()
    }

    /// Whether every round finished.
    pub fn complete(&self) -> bool {
        self.stop.is_none() && !self.rounds.is_empty()
    }

    /// Why the case has no figure, for a table's cell (empty if it has
    /// one); `limit` is a round's time limit.
    pub fn status(&self, limit: Duration) -> String {
        match &self.stop {
            None => String::new(),
            Some(Stop::NotBuilt) => "not built".to_owned(),
            Some(Stop::TimedOut) if self.rounds.is_empty() => "timed out (start-up)".to_owned(),
            Some(Stop::TimedOut) => format!(
                "timed out (round {} > {:.0} s)",
                self.rounds.len() + 1,
                limit.as_secs_f64()
            ),
            Some(Stop::Failed(why)) => format!("**FAILED** ({why})"),
        }
    }
}

/// The median of `values` (`None` if there are none).
pub fn median(values: &[f64]) -> Option<f64> {
    rt_bench_report::summary::Measured::of_rounds(values).map(|m| m.median)
}
