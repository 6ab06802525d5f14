//! The parent's side of a case process: a benchmark binary (this one, or
//! another build, as `benches/rayon` runs its two) started with `--case
//! CASE --step` and its other arguments, which prints `ready …` once its
//! pool is up and a warm-up round is done, then, for each line it reads on
//! its standard input, runs one round and prints `round I FIGURES…`. Every
//! wait has a time limit; past it the child is killed, so a case that hangs
//! (a deadlocked join, say) costs one limit and is reported as timed out.
//! Shared by `forkjoin.rs` and `benches/rayon` (a `#[path]` include).

use std::io::{BufRead, BufReader, Write};
use std::path::Path;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::thread;
use std::time::Duration;

/// Why a case produced no more rounds.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Stop {
    /// Its build does not exist (the patched build failed or was not run):
    /// only `benches/rayon`, which runs two builds, meets it.
    #[allow(dead_code)]
    NotBuilt,
    /// No answer within the limit; the process was killed.
    TimedOut,
    /// The process ended without an answer (a failed check panics), or
    /// said something wrong: what happened.
    Failed(String),
}

/// A running case process.
pub struct CaseProcess {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
}

impl CaseProcess {
    /// Starts `exe --case case --step args…` and waits (at most `limit`)
    /// for its `ready` line, which it returns.
    pub fn start(
        exe: &Path,
        case: &str,
        args: &[String],
        limit: Duration,
    ) -> Result<(CaseProcess, String), Stop> {
        let mut child = Command::new(exe)
            .args(["--case", case, "--step"])
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .map_err(|e| Stop::Failed(format!("could not start {}: {e}", exe.display())))?;
        let stdin = child.stdin.take().expect("piped stdin");
        let stdout = child.stdout.take().expect("piped stdout");
        // A reader thread hands the lines over, so that waiting for one
        // can time out.
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
        let ready = process.expect("ready", limit)?;
        Ok((process, ready))
    }

    /// Runs one round; returns what the child printed after `round I`.
    pub fn round(&mut self, limit: Duration) -> Result<String, Stop> {
        if writeln!(self.stdin, "go")
            .and_then(|_| self.stdin.flush())
            .is_err()
        {
            return Err(self.failed());
        }
        let line = self.expect("round", limit)?;
        let figures: Vec<&str> = line.split_whitespace().skip(2).collect();
        Ok(figures.join(" "))
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
