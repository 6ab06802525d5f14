//! Running one named step of a command and reporting how it went.

use std::process::Command;
use std::time::Instant;

/// Runs `cmd` with its output passed through, after a heading; fails with a
/// message naming the step if it cannot start or exits unsuccessfully.
pub fn run(name: &str, cmd: Command) -> Result<(), String> {
    let description = describe(&cmd);
    run_described(name, &description, cmd)
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
