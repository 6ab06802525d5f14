//! `cargo xtask soak [--seconds N]`: the long-running soak test of the
//! runtime (`crates/rt-core/examples/soak.rs`), built in release mode.
//!
//! The soak is an example of `rt-core` rather than part of xtask, so xtask
//! stays quick to compile and depends on nothing in the workspace.

use std::process::Command;

use crate::steps;

/// Seconds the soak runs when `--seconds` is not given.
const DEFAULT_SECONDS: u64 = 60;

/// Runs the soak for the requested time; fails if it finds a lost task, a
/// wrong result or growing memory (the example exits non-zero).
pub fn soak(args: &[String]) -> Result<(), String> {
    let seconds = parse_seconds(args)?;
    let mut cmd = Command::new(std::env::var("CARGO").unwrap_or_else(|_| "cargo".into()));
    cmd.args([
        "run",
        "--release",
        "--quiet",
        "-p",
        "rt-core",
        "--example",
        "soak",
        "--",
    ])
    .args(["--seconds", &seconds.to_string()]);
    steps::run(&format!("soak ({seconds} s)"), cmd)
}

fn parse_seconds(args: &[String]) -> Result<u64, String> {
    match args {
        [] => Ok(DEFAULT_SECONDS),
        [flag, n] if flag == "--seconds" => match n.parse::<u64>() {
            Ok(0) | Err(_) => Err(format!(
                "`--seconds` takes a positive whole number, not `{n}`"
            )),
            Ok(s) => Ok(s),
        },
        _ => Err("usage: cargo xtask soak [--seconds N]".to_owned()),
    }
}
