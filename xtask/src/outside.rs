//! The packages outside the workspace, which `cargo xtask ci` checks as it
//! checks the workspace's: rt's rayon-core (`crates/rt-rayon-core`, named
//! `rayon-core`) and the benchmark of rayon code on both rayon-cores
//! (`benches/rayon`). Each is a workspace of its own, because a package
//! named `rayon-core` with `links = "rayon-core"` cannot share a dependency
//! graph with the real rayon-core that the workspace's benchmarks use.
//! They build in the root's target directory, so that what they share with
//! the workspace (rt-core and the rest) is built once.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

use crate::steps::Step;
use crate::verify::{target_dir, workspace_root};

/// rt's rayon-core.
pub const RAYON_CORE: &str = "crates/rt-rayon-core/Cargo.toml";
/// The benchmark of rayon code on real rayon and on rt.
const RAYON_BENCH: &str = "benches/rayon/Cargo.toml";

/// `cargo <subcommand> --manifest-path <manifest> <args>`, in the root's
/// target directory.
fn cargo_for(manifest: &str, subcommand: &str, args: &[&str]) -> Command {
    let mut cmd = Command::new(std::env::var("CARGO").unwrap_or_else(|_| "cargo".into()));
    cmd.arg(subcommand)
        .arg("--manifest-path")
        .arg(workspace_root().join(manifest))
        .args(args)
        .env("CARGO_TARGET_DIR", target_dir());
    cmd
}

/// `crates/rt-rayon-core` as an absolute path without symbolic links: the
/// form `cargo tree` prints a path dependency's source in.
pub fn rt_rayon_core() -> Result<PathBuf, String> {
    let path = workspace_root().join("crates/rt-rayon-core");
    fs::canonicalize(&path).map_err(|e| format!("{}: {e}", path.display()))
}

/// The patch that puts the rayon-core at `path` in a build, as the value of
/// cargo's `--config`: rayon-core patched to it, the copied manifests left
/// as they are.
pub fn rayon_core_patch(path: &Path) -> String {
    format!(
        "patch.crates-io.rayon-core.path={}",
        toml_string(&path.to_string_lossy())
    )
}

/// `text` as a TOML string: between quotes, its quotes and backslashes
/// escaped.
pub fn toml_string(text: &str) -> String {
    format!("\"{}\"", text.replace('\\', "\\\\").replace('"', "\\\""))
}

/// Formatting, clippy with warnings denied over every target, and (for rt's
/// rayon-core) every test and doc test.
pub fn steps() -> Vec<Step> {
    let mut steps = Vec::new();
    for manifest in [RAYON_CORE, RAYON_BENCH] {
        let fmt = cargo_for(manifest, "fmt", &["--check"]);
        steps.push(Step::new(format!("format of {manifest}"), fmt));
    }
    steps.push(Step::new(
        format!("clippy of {RAYON_CORE}"),
        cargo_for(
            RAYON_CORE,
            "clippy",
            &["--all-targets", "--", "-D", "warnings"],
        ),
    ));
    steps.push(Step::new(
        format!("tests of {RAYON_CORE} (rayon-core 1.13's own, ported)"),
        cargo_for(RAYON_CORE, "test", &[]),
    ));
    // The benchmark's two builds, rt's rayon-core patched in with the `rt`
    // feature and the real one's, each in a target directory of its own, as
    // `cargo xtask bench` builds them.
    let patch = rayon_core_patch(&workspace_root().join("crates/rt-rayon-core"));
    let mut on_rt = cargo_for(
        RAYON_BENCH,
        "clippy",
        &[
            "--all-targets",
            "--features",
            "rt",
            "--config",
            &patch,
            "--",
            "-D",
            "warnings",
        ],
    );
    on_rt.env("CARGO_TARGET_DIR", target_dir().join("bench-rayon/rt"));
    steps.push(Step::new(
        format!("clippy of {RAYON_BENCH}, rt's rayon-core"),
        on_rt,
    ));
    // The real rayon-core's last: cargo rewrites the package's lock file
    // for each build, and the one kept in the repository is the real one's.
    let mut real = cargo_for(
        RAYON_BENCH,
        "clippy",
        &["--all-targets", "--", "-D", "warnings"],
    );
    real.env("CARGO_TARGET_DIR", target_dir().join("bench-rayon/real"));
    steps.push(Step::new(
        format!("clippy of {RAYON_BENCH}, real rayon-core"),
        real,
    ));
    steps
}
