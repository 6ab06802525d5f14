//! `cargo xtask bench`'s section on rayon code on rt (`benches/rayon`,
//! package `rt-rayon-bench`): the same program built twice, once with the
//! published rayon-core and once with rt's (`crates/rt-rayon-core`)
//! patched in, then run as one benchmark whose cases run in both builds
//! side by side. `cargo xtask bench --rayon [--full] [--rounds N] [--part
//! a|b] [--filter TEXT]` builds and runs this section alone.
//!
//! The two rayon-cores share a name and a `links` key, so they cannot be in
//! one dependency graph: `benches/rayon` is a workspace of its own, built
//! in release mode into two target directories (`target/bench-rayon/real`
//! and `target/bench-rayon/rt`) so that neither build undoes the other's.
//! The patched build takes the patch on cargo's command line (`--config
//! 'patch.crates-io.rayon-core.path="…"'`) and the package's feature `rt`;
//! before either build, `cargo tree` must show its rayon-core coming from
//! where it should (cargo only warns when a patch goes unused). The patched
//! build runs first and the plain one last, so that `benches/rayon/
//! Cargo.lock`, which cargo rewrites for each, ends as the plain build's.
//!
//! When the patched build cannot be made (rt's rayon-core does not build,
//! or `cargo tree` shows the patch unused), that is reported, not fatal:
//! the section runs with real rayon alone and its tables say "not built";
//! the patched build's output is in `target/bench/logs/rayon-rt-build.txt`.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Instant;

use crate::{bench_summary, cargo, outside, steps, verify};

/// The files the section writes under `target/bench/`.
pub const WRITES: &[&str] = &["rayon_on_rt.md", "rayon_priorities.md"];

/// Its summary sections (`target/bench/summary/<name>.tsv`).
pub const SUMMARIES: &[&str] = &["rayon_on_rt", "rayon_priorities"];

/// The binaries of the two builds; `rt` is `None` when the patched build
/// failed.
pub struct Built {
    real: PathBuf,
    rt: Option<PathBuf>,
}

/// `benches/rayon`'s manifest.
fn manifest() -> PathBuf {
    verify::workspace_root().join("benches/rayon/Cargo.toml")
}

/// A cargo command on `benches/rayon`, for the patched build if `patch`
/// is rt's rayon-core's path.
fn package_cargo(subcommand: &str, patch: Option<&Path>) -> Command {
    let manifest = manifest();
    let mut cmd = cargo(&[subcommand, "--manifest-path"]);
    cmd.arg(manifest);
    if let Some(path) = patch {
        cmd.args(["--features", "rt", "--config"])
            .arg(outside::rayon_core_patch(path));
    }
    cmd
}

/// The build's target directory.
fn target_dir(build: &str) -> PathBuf {
    verify::target_dir().join("bench-rayon").join(build)
}

/// Checks with `cargo tree` that rayon-core comes from `patch` (or from the
/// registry, with no patch).
fn check_rayon_core(patch: Option<&Path>) -> Result<(), String> {
    let mut tree = package_cargo("tree", patch);
    tree.args([
        "--invert",
        "rayon-core",
        "--prefix",
        "none",
        "--edges",
        "normal",
    ]);
    let output = tree
        .stderr(Stdio::inherit())
        .output()
        .map_err(|e| format!("could not run cargo tree: {e}"))?;
    let text = String::from_utf8_lossy(&output.stdout);
    let line = text.lines().next().unwrap_or("").trim();
    let expected = match patch {
        Some(path) => format!("rayon-core v1.13.0 ({})", path.display()),
        None => "rayon-core v1.13.0".to_owned(),
    };
    if output.status.success() && line == expected {
        Ok(())
    } else {
        Err(format!(
            "benches/rayon: cargo tree shows `{line}` for rayon-core, not `{expected}`"
        ))
    }
}

/// Builds `benches/rayon` twice: with rt's rayon-core (a failure is
/// reported, not fatal), then with the real one (a failure is fatal).
pub fn build() -> Result<Built, String> {
    let rt = build_rt()
        .map_err(|why| {
            println!("==> {why}: the rayon section runs on real rayon alone");
        })
        .ok();
    check_rayon_core(None)?;
    let mut real_build = package_cargo("build", None);
    real_build
        .args(["--release", "--target-dir"])
        .arg(target_dir("real"));
    steps::run_described(
        "build benches/rayon with the real rayon-core",
        "cargo build --release",
        real_build,
    )?;
    Ok(Built {
        real: binary("real"),
        rt,
    })
}

/// The patched build, its output in `logs/rayon-rt-build.txt`; returns its
/// binary, or why there is none.
fn build_rt() -> Result<PathBuf, String> {
    let patch = outside::rt_rayon_core()?;
    check_rayon_core(Some(&patch))?;
    let logs = verify::target_dir().join("bench/logs");
    fs::create_dir_all(&logs).map_err(|e| format!("could not create {}: {e}", logs.display()))?;
    let log = logs.join("rayon-rt-build.txt");
    println!(
        "\n==> build benches/rayon with rt's rayon-core: cargo build --release --features rt, \
         patched (output in {})",
        log.display()
    );
    let started = Instant::now();
    let file = fs::File::create(&log).map_err(|e| format!("{}: {e}", log.display()))?;
    let mut cmd = package_cargo("build", Some(&patch));
    cmd.args(["--release", "--target-dir"])
        .arg(target_dir("rt"))
        .stdout(file.try_clone().map_err(|e| e.to_string())?)
        .stderr(file);
    let status = cmd
        .status()
        .map_err(|e| format!("could not run cargo build: {e}"))?;
    if !status.success() {
        return Err(format!(
            "rt's rayon-core does not build (see {})",
            log.display()
        ));
    }
    println!("==> ok in {:.1?}", started.elapsed());
    Ok(binary("rt"))
}

/// The benchmark's binary in a build's target directory.
fn binary(build: &str) -> PathBuf {
    target_dir(build).join("release/rt-rayon-bench")
}

/// Runs the section (the real build's binary, the parent of every case),
/// its output in `logs/rayon.txt`; `args` go to the benchmark (none: its
/// quick mode). Cases of the patched build that fail are reported in its
/// tables, not fatal; a failure of real rayon's is.
pub fn run(built: &Built, out: &Path, logs: &Path, args: &[String]) -> Result<(), String> {
    let mut cmd = Command::new(&built.real);
    cmd.arg("--out").arg(out);
    if let Some(rt) = &built.rt {
        cmd.arg("--rt-exe").arg(rt);
    }
    cmd.args(args);
    fs::create_dir_all(logs).map_err(|e| format!("could not create {}: {e}", logs.display()))?;
    let log = logs.join("rayon.txt");
    let file = fs::File::create(&log).map_err(|e| format!("{}: {e}", log.display()))?;
    cmd.stdout(file);
    println!(
        "\n==> rayon code on real rayon and on rt (output in {})",
        log.display()
    );
    let started = Instant::now();
    let status = cmd
        .status()
        .map_err(|e| format!("could not start {}: {e}", built.real.display()))?;
    match status.code() {
        Some(0) => {
            println!("==> ok in {:.1?}", started.elapsed());
            Ok(())
        }
        Some(2) => {
            println!(
                "==> rt's cases failed or timed out (see {}); the others ran",
                log.display()
            );
            Ok(())
        }
        _ => Err(format!(
            "the rayon benchmark failed ({status}); its output: {}",
            log.display()
        )),
    }
}

/// `cargo xtask bench --rayon …`: this section alone, then its summary.
pub fn standalone(args: &[String]) -> Result<(), String> {
    let out = verify::target_dir().join("bench");
    let logs = out.join("logs");
    let built = build()?;
    let rest: Vec<String> = args.iter().filter(|a| *a != "--rayon").cloned().collect();
    run(&built, &out, &logs, &rest)?;
    let mut sections = Vec::new();
    for name in SUMMARIES {
        let path = out.join("summary").join(format!("{name}.tsv"));
        match fs::read_to_string(&path) {
            Ok(text) => sections.push(bench_summary::parse(&text)?),
            Err(e) => println!("(no summary from {name}: {e})"),
        }
    }
    println!("\n{}", bench_summary::render(&sections, 100));
    println!(
        "Full tables: {}",
        WRITES
            .iter()
            .map(|f| out.join(f).display().to_string())
            .collect::<Vec<_>>()
            .join(", ")
    );
    Ok(())
}
