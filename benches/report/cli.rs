//! Command-line plumbing shared by the benchmark binaries.

use std::path::{Path, PathBuf};
use std::str::FromStr;

/// Where reports go: `$CARGO_TARGET_DIR/bench`, else the workspace's
/// `target/bench` (not the working directory's: `cargo bench` runs a
/// benchmark in its package's folder, `benches/`).
pub fn default_out_dir() -> PathBuf {
    std::env::var_os("CARGO_TARGET_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| {
            // This package sits in `benches/report/` of the workspace.
            Path::new(env!("CARGO_MANIFEST_DIR"))
                .ancestors()
                .nth(2)
                .expect("the report package sits in the workspace's benches/")
                .join("target")
        })
        .join("bench")
}

/// The next argument, parsed; panics with `usage` (say `--rounds N`) when
/// it is missing or malformed.
pub fn value<T: FromStr>(args: &mut impl Iterator<Item = String>, usage: &str) -> T {
    args.next()
        .and_then(|v| v.parse().ok())
        .unwrap_or_else(|| panic!("usage: {usage}"))
}

/// The CPU's model name, for the reports' headers.
pub fn cpu_model() -> String {
    std::fs::read_to_string("/proc/cpuinfo")
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("model name"))
                .and_then(|l| l.split(':').nth(1))
                .map(|m| m.trim().to_owned())
        })
        .unwrap_or_else(|| "unknown CPU".into())
}

/// Prints `report`, and writes it to `out/file` (saying where), creating
/// `out` if needed; a report that cannot be written is only printed.
pub fn write_report(out: &Path, file: &str, report: &str) {
    print!("{report}");
    let path = out.join(file);
    match std::fs::create_dir_all(out).and_then(|()| std::fs::write(&path, report)) {
        Ok(()) => println!("\nwrote {}", path.display()),
        Err(error) => eprintln!("could not write {}: {error}", path.display()),
    }
}

/// Shows `text` on the terminal's current line (on standard error),
/// in place of what the last call showed, cut to fit a 100-column
/// terminal; `progress("")` clears the line. Nothing when standard error
/// is not a terminal (a log file would collect every line).
pub fn progress(text: &str) {
    use std::io::IsTerminal;
    if !std::io::stderr().is_terminal() {
        return;
    }
    const WIDTH: usize = 99;
    let shown: String = text.chars().take(WIDTH).collect();
    eprint!("\r{shown:<WIDTH$}\r");
    let _ = std::io::Write::flush(&mut std::io::stderr());
}

/// Shuffles `order` with a small xorshift generator (its state in
/// `state`), so that each round runs the systems in a different order.
pub fn shuffle(order: &mut [usize], state: &mut u64) {
    for i in (1..order.len()).rev() {
        *state ^= *state << 13;
        *state ^= *state >> 7;
        *state ^= *state << 17;
        order.swap(i, (*state % (i as u64 + 1)) as usize);
    }
}
