//! The parent's side of a case process: this binary re-run with
//! `--case WORKLOAD:SYSTEM --rounds N --step`, which prints `ready` once its
//! pool is up and a warm-up round is done, then runs one round per line read
//! on its standard input and prints `round I NANOS` after each. Every wait
//! has a time limit; past it the process is killed, so a case that hangs
//! (a deadlocked join, say) costs one limit and is reported as timed out.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::thread;
use std::time::Duration;

/// Why a case produced no more rounds.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Stop {
    /// No answer within the limit; the process was killed.
    TimedOut,
    /// The process ended without an answer (a failed check panics): its
    /// exit status.
    Failed(String),
}

/// A running case process.
pub struct CaseProcess {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
}

impl CaseProcess {
    /// Starts `--case case` and waits (at most `limit`) for its `ready`.
    pub fn start(
        case: &str,
        rounds: usize,
        workers: usize,
        limit: Duration,
    ) -> Result<CaseProcess, Stop> {
        let exe = std::env::current_exe().expect("the benchmark's own path");
        let mut child = Command::new(exe)
            .args(["--case", case, "--step"])
            .args(["--rounds", &rounds.to_string()])
            .args(["--workers", &workers.to_string()])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("start a case process");
        let stdin = child.stdin.take().expect("piped stdin");
        let stdout = child.stdout.take().expect("piped stdout");
        let (tx, lines) = mpsc::channel();
        thread::spawn(move || {
            for line in BufReader::new(stdout).lines().map_while(Result::ok) {
                if tx.send(line).is_err() {
                    return;
                }
            }
        });
        let mut process = CaseProcess {
            child,
            stdin,
            lines,
        };
        process.expect("ready", limit)?;
        Ok(process)
    }

    /// Runs one round; returns its time as the process measured it.
    pub fn round(&mut self, limit: Duration) -> Result<Duration, Stop> {
        if writeln!(self.stdin, "go")
            .and_then(|_| self.stdin.flush())
            .is_err()
        {
            return Err(self.failed());
        }
        let line = self.expect("round", limit)?;
        let nanos = line
            .split_whitespace()
            .nth(2)
            .and_then(|n| n.parse().ok())
            .unwrap_or_else(|| panic!("malformed line from a case process: `{line}`"));
        Ok(Duration::from_nanos(nanos))
    }

    /// The next line that starts with `word`, within `limit`.
    fn expect(&mut self, word: &str, limit: Duration) -> Result<String, Stop> {
        loop {
            match self.lines.recv_timeout(limit) {
                Ok(line) if line.starts_with(word) => return Ok(line),
                Ok(_) => {} // anything else the case prints
                Err(RecvTimeoutError::Timeout) => {
                    self.kill();
                    return Err(Stop::TimedOut);
                }
                Err(RecvTimeoutError::Disconnected) => return Err(self.failed()),
            }
        }
    }

    fn failed(&mut self) -> Stop {
        match self.child.wait() {
            Ok(status) => Stop::Failed(status.to_string()),
            Err(e) => Stop::Failed(e.to_string()),
        }
    }

    fn kill(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Drop for CaseProcess {
    fn drop(&mut self) {
        self.kill();
    }
}
