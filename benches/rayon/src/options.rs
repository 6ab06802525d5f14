//! The command line, for the parent and for a case process.

use std::path::PathBuf;
use std::time::Duration;

use rt_bench_report::cli;

/// Which part of the benchmark the parent runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Part {
    /// Rayon code on rt against real rayon.
    A,
    /// Rayon code with priorities.
    B,
    /// Both, A first.
    Both,
}

/// Every option; a case process reads `case`, `step`, `rounds_*` and
/// `seconds`.
pub struct Options {
    pub part: Part,
    /// Timed rounds of each part-A case.
    pub rounds_a: usize,
    /// Timed rounds of each part-B setup.
    pub rounds_b: usize,
    /// Length of a part-B round.
    pub seconds: f64,
    /// Part-A workloads whose id contains this.
    pub filter: Option<String>,
    /// A round's limit beyond its expected length.
    pub timeout: Duration,
    pub out: PathBuf,
    /// The patched build's binary.
    pub rt_exe: Option<PathBuf>,
    /// Run this case (`a:WORKLOAD` or `b:SETUP`) in this process.
    pub case: Option<String>,
    /// With `case`: wait for a line on stdin before each round.
    pub step: bool,
}

pub fn parse() -> Options {
    let mut opts = Options {
        part: Part::Both,
        rounds_a: 5,
        rounds_b: 3,
        seconds: 3.0,
        filter: None,
        timeout: Duration::from_secs(30),
        out: cli::default_out_dir(),
        rt_exe: None,
        case: None,
        step: false,
    };
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--quick" | "--bench" => {} // quick is the default
            "--full" => {
                (opts.rounds_a, opts.rounds_b, opts.seconds) = (15, 7, 5.0);
            }
            "--rounds" => {
                let n: usize = cli::value(&mut args, "--rounds N");
                (opts.rounds_a, opts.rounds_b) = (n, n);
            }
            "--seconds" => opts.seconds = cli::value(&mut args, "--seconds S"),
            "--part" => {
                opts.part = match args.next().as_deref() {
                    Some("a" | "A") => Part::A,
                    Some("b" | "B") => Part::B,
                    _ => panic!("usage: --part a|b"),
                }
            }
            "--filter" => opts.filter = args.next(),
            "--timeout" => {
                let s: f64 = cli::value(&mut args, "--timeout SECONDS");
                opts.timeout = Duration::from_secs_f64(s);
            }
            "--out" => opts.out = args.next().expect("--out DIR").into(),
            "--rt-exe" => opts.rt_exe = Some(args.next().expect("--rt-exe PATH").into()),
            "--case" => opts.case = args.next(),
            "--step" => opts.step = true,
            other => panic!("unknown option `{other}`"),
        }
    }
    assert!(
        opts.rounds_a > 0 && opts.rounds_b > 0,
        "--rounds must be at least 1"
    );
    assert!(opts.seconds > 0.0, "--seconds must be positive");
    opts
}
