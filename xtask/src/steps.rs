//! Running named steps of a command and reporting how they went: one at a
//! time with their output passed through ([`run`]), or in lanes side by
//! side with each lane's output kept in a log and shown when all have
//! ended ([`run_lanes`]).

use std::fs::File;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::thread;
use std::time::Instant;

/// A named command, to run as a step.
pub struct Step {
    name: String,
    cmd: Command,
}

impl Step {
    /// The step `name`, which runs `cmd`.
    pub fn new(name: impl Into<String>, cmd: Command) -> Self {
        Self {
            name: name.into(),
            cmd,
        }
    }
}

/// Runs `cmd` with its output passed through, after a heading; fails with a
/// message naming the step if it cannot start or exits unsuccessfully.
pub fn run(name: &str, cmd: Command) -> Result<(), String> {
    let description = describe(&cmd);
    run_described(name, &description, cmd)
}

/// Runs `steps` one after another with their output passed through,
/// stopping at the first that fails.
pub fn run_all(steps: Vec<Step>) -> Result<(), String> {
    steps.into_iter().try_for_each(|s| run(&s.name, s.cmd))
}

/// [`run`], with the heading saying `description` instead of the whole
/// command line.
pub fn run_described(name: &str, description: &str, mut cmd: Command) -> Result<(), String> {
    println!("\n==> {name}: {description}");
    let started = Instant::now();
    let status = cmd
        .status()
        .map_err(|e| format!("step `{name}` could not start: {e}"))?;
    if status.success() {
        println!("==> {name}: ok in {:.1?}", started.elapsed());
        Ok(())
    } else {
        Err(format!("step `{name}` failed ({status})"))
    }
}

/// Runs each lane (a list of steps, in order, stopping at the first that
/// fails) on a thread of its own, all lanes at once: for steps that each
/// leave a core idle (miri interprets on one thread) on a machine with
/// few. Each lane's output goes to `logs/<lane>.log`, printed when every
/// lane has ended, lane by lane; fails naming every step that failed.
pub fn run_lanes(logs: &Path, lanes: Vec<(&str, Vec<Step>)>) -> Result<(), String> {
    std::fs::create_dir_all(logs)
        .map_err(|e| format!("could not create {}: {e}", logs.display()))?;
    let names: Vec<&str> = lanes.iter().map(|(name, _)| *name).collect();
    println!(
        "\n==> side by side: {}; each lane's output follows when all have ended",
        names.join(" | ")
    );
    let started = Instant::now();
    let ended: Vec<(PathBuf, Result<(), String>)> = thread::scope(|scope| {
        let running: Vec<_> = lanes
            .into_iter()
            .map(|(name, steps)| {
                let log = logs.join(format!("{}.log", name.replace(' ', "-")));
                scope.spawn(move || {
                    let result = run_lane(name, &log, steps);
                    (log, result)
                })
            })
            .collect();
        running
            .into_iter()
            .map(|lane| lane.join().expect("a lane's thread does not panic"))
            .collect()
    });
    let mut failed = Vec::new();
    for (log, result) in ended {
        println!("\n==> output of {}", log.display());
        match std::fs::read_to_string(&log) {
            Ok(text) => print!("{text}"),
            Err(e) => println!("(could not read it: {e})"),
        }
        if let Err(e) = result {
            failed.push(e);
        }
    }
    println!(
        "\n==> side by side: {} ended in {:.1?}",
        names.join(" | "),
        started.elapsed()
    );
    if failed.is_empty() {
        Ok(())
    } else {
        Err(failed.join("; "))
    }
}

/// The steps of one lane, in order, their headings and output in `log`;
/// a line on the terminal as each step starts and ends, so that a long
/// run shows it is alive.
fn run_lane(lane: &str, log: &Path, steps: Vec<Step>) -> Result<(), String> {
    use std::io::Write;
    let mut out =
        File::create(log).map_err(|e| format!("could not create {}: {e}", log.display()))?;
    for Step { name, mut cmd } in steps {
        let _ = writeln!(out, "\n==> {name}: {}", describe(&cmd));
        println!("    [{lane}] {name}: started");
        let started = Instant::now();
        let into_log = || {
            out.try_clone()
                .map_err(|e| format!("could not write {}: {e}", log.display()))
        };
        cmd.stdout(Stdio::from(into_log()?))
            .stderr(Stdio::from(into_log()?));
        let status = cmd
            .status()
            .map_err(|e| format!("step `{name}` could not start: {e}"))?;
        if !status.success() {
            println!("    [{lane}] {name}: FAILED ({status})");
            return Err(format!("step `{name}` failed ({status})"));
        }
        let _ = writeln!(out, "==> {name}: ok in {:.1?}", started.elapsed());
        println!("    [{lane}] {name}: ok in {:.1?}", started.elapsed());
    }
    Ok(())
}

/// The command as one would type it: the program by its file name (not
/// the full path `$CARGO` holds), then the arguments.
fn describe(cmd: &Command) -> String {
    let program = std::path::Path::new(cmd.get_program());
    let mut text = program
        .file_name()
        .unwrap_or(program.as_os_str())
        .to_string_lossy()
        .into_owned();
    for arg in cmd.get_args() {
        text.push(' ');
        text.push_str(&arg.to_string_lossy());
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sh(script: &str) -> Command {
        let mut cmd = Command::new("sh");
        cmd.args(["-c", script]);
        cmd
    }

    #[test]
    fn lanes_run_side_by_side_keep_each_output_and_name_the_step_that_failed() {
        let logs = std::env::temp_dir().join(format!("xtask-lanes-{}", std::process::id()));
        let result = run_lanes(
            &logs,
            vec![
                (
                    "first lane",
                    vec![
                        Step::new("says hello", sh("echo hello")),
                        Step::new("fails", sh("echo oops >&2; exit 3")),
                        Step::new("never runs", sh("echo unreachable")),
                    ],
                ),
                ("second lane", vec![Step::new("says bye", sh("echo bye"))]),
            ],
        );
        let error = result.expect_err("a step failed");
        assert!(error.contains("`fails`"), "{error}");
        let first = std::fs::read_to_string(logs.join("first-lane.log")).unwrap();
        assert!(first.contains("hello") && first.contains("oops"), "{first}");
        assert!(!first.contains("unreachable"), "{first}");
        let second = std::fs::read_to_string(logs.join("second-lane.log")).unwrap();
        assert!(
            second.contains("bye") && second.contains("says bye: ok"),
            "{second}"
        );
        std::fs::remove_dir_all(&logs).unwrap();
    }
}
