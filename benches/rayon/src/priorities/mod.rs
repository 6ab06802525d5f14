//! Part B, rayon code with priorities: interactive rayon jobs (a
//! `par_iter` of about 1 ms of work each, one every 4 ms, open loop) while
//! a batch of rayon work (a loop of `par_iter`s) runs, on 2 CPUs. Four
//! setups, each in its own process, their rounds interleaved:
//!
//! 0. the jobs alone, on rayon's global pool of 2 workers (the floor);
//! 1. one pool: the jobs and the batch on rayon's global pool;
//! 2. two pools sized as Lighthouse sizes them (`pools.rs`), the jobs in
//!    the high-priority one, the batch in the low-priority one;
//! 3. rt (the patched build): rayon's global pool is rt's, the batch runs
//!    at `Background`, the jobs at `High`.
//!
//! Per setup: the jobs' latency (p50, p99, largest; medians over rounds)
//! and the batch's throughput (items per second). The targets for rt:
//! p99 at most 2× the jobs-alone p99 and at most the two pools' p99, and a
//! batch throughput at least the two pools'.

mod pools;
mod report;
mod round;
mod work;

use std::time::{Duration, Instant};

use crate::case::Case;
use crate::interleave::{self, Failures, Plan, Spec};
use crate::options::Options;

/// A setup of part B.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Setup {
    Alone,
    OnePool,
    TwoPools,
    Rt,
}

impl Setup {
    pub const ALL: [Setup; 4] = [Setup::Alone, Setup::OnePool, Setup::TwoPools, Setup::Rt];

    /// The name in a case id (`b:ID`).
    pub fn id(self) -> &'static str {
        match self {
            Setup::Alone => "alone",
            Setup::OnePool => "one-pool",
            Setup::TwoPools => "two-pools",
            Setup::Rt => "rt",
        }
    }

    /// The row title in the report.
    pub fn title(self) -> String {
        match self {
            Setup::Alone => "0. jobs alone, one rayon pool (no batch)".to_owned(),
            Setup::OnePool => "1. one rayon pool, jobs and batch".to_owned(),
            Setup::TwoPools => {
                let (high, low) = pools::two_pool_sizes();
                format!("2. two rayon pools: jobs in high ({high}), batch in low ({low})")
            }
            Setup::Rt => "3. rt: jobs at High, batch at Background".to_owned(),
        }
    }

    /// The build it runs in.
    fn backend(self) -> &'static str {
        match self {
            Setup::Rt => "rt",
            _ => "rayon",
        }
    }

    fn batch(self) -> bool {
        self != Setup::Alone
    }
}

/// A setup prepared in its process.
struct Prepared {
    setup: Setup,
    pools: pools::Pools,
    expected: work::Expected,
    length: Duration,
}

/// Prepares the case of setup `id`, with rounds of `seconds`.
pub fn case(id: &str, seconds: f64) -> Box<dyn Case> {
    let setup = Setup::ALL
        .into_iter()
        .find(|s| s.id() == id)
        .unwrap_or_else(|| panic!("unknown part-B setup `{id}`"));
    Box::new(Prepared {
        setup,
        pools: pools::Pools::new(setup),
        expected: work::Expected::new(),
        length: Duration::from_secs_f64(seconds),
    })
}

impl Case for Prepared {
    /// A short round.
    fn warm_up(&mut self) {
        let length = self.length.min(Duration::from_millis(500));
        round::run(&self.pools, self.setup.batch(), length, &self.expected);
    }

    fn round(&mut self) -> String {
        round::run(&self.pools, self.setup.batch(), self.length, &self.expected).figures()
    }

    /// Checked where the jobs run (the two-pool setup has no global pool).
    fn on_rt_worker(&self) -> bool {
        self.pools.interactive(crate::backend::on_rt_worker)
    }
}

/// Runs part B: the four setups, interleaved; prints the report and
/// writes it with its summary.
pub fn run(opts: &Options) -> Failures {
    let started = Instant::now();
    let own = std::env::current_exe().expect("this program's path");
    let specs: Vec<Spec> = Setup::ALL
        .into_iter()
        .map(|setup| Spec {
            case: format!("b:{}", setup.id()),
            backend: setup.backend(),
            exe: match setup.backend() {
                "rt" => opts.rt_exe.clone(),
                _ => Some(own.clone()),
            },
            args: vec![
                "--rounds".into(),
                opts.rounds_b.to_string(),
                "--seconds".into(),
                opts.seconds.to_string(),
            ],
        })
        .collect();
    let (job_cost, item_cost) = work::costs();
    let plan = Plan {
        rounds: opts.rounds_b,
        start_limit: opts.timeout * 2,
        round_limit: opts.timeout + Duration::from_secs_f64(opts.seconds),
        pause: Duration::from_millis(100),
    };
    let outcomes = interleave::run(&specs, &plan);
    let report = report::Report {
        outcomes: &outcomes,
        rounds: opts.rounds_b,
        seconds: opts.seconds,
        job_cost,
        item_cost,
        limit: plan.round_limit,
        took: started.elapsed(),
    };
    rt_bench_report::cli::write_report(&opts.out, "rayon_priorities.md", &report.markdown());
    report.summary().write(&opts.out);
    Failures::of(&specs, &outcomes)
}
