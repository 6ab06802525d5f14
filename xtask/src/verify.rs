//! `cargo xtask loom | miri | tsan`: the model checker and the two sanitizers,
//! each in its own target directory so that its flags never invalidate the
//! normal build (or each other's).
//!
//! miri and ThreadSanitizer need the pinned nightly toolchain ([`NIGHTLY`])
//! with the `miri` and `rust-src` components. They are installed with rustup when missing; when
//! that is impossible the command fails and says why, so a CI run without
//! them can never pass by skipping the checks.

use std::path::PathBuf;
use std::process::{Command, Stdio};

use crate::steps::{self, Step};

/// The crates whose unit tests contain the loom models (`src/loom_*.rs`).
const LOOM_CRATES: &[&str] = &["rt-handle", "rt-core", "rt-burst", "rt-elastic", "rt-dag"];
/// The crate whose unit tests run under miri with its leak checker on: it
/// owns every task allocation, so a leaked result or closure shows here.
const MIRI_LEAK_CHECKED_CRATE: &str = "rt-handle";
/// The crates built on crossbeam-deque, whose unit tests run under miri with
/// leaks ignored (see [`miri_flags`]).
const MIRI_UNIT_CRATES: &[&str] = &["rt-queue", "rt-core"];
/// Small integration tests of `rt-core` that also run under miri (their
/// sizes shrink under `cfg(miri)`): shutdown and cancellation (a token's
/// cancel finishing tasks whose stale entries a worker takes, and the
/// cells it frees), and the fork-join surface, whose scoped tasks hold raw
/// pointers into the frames of the code that waits for them.
const MIRI_INTEGRATION_TESTS: &[&str] = &[
    "shutdown",
    "cancellation",
    "a_cancelled_task_shows_as_cancelled_at_once",
    "bad_input",
    "join",
    "scope",
    "fork_join",
];
/// rt-par's tests that run under miri (with its unit tests), their sizes
/// shrunk under `cfg(miri)`: every unsafe path of the crate under panics,
/// bad comparisons and early stops (the sorts, the collecting consumer,
/// the `Vec`, array and drain producers), on a runtime of two workers.
const MIRI_PAR_TESTS: &[&str] = &[
    "sort_panic_safety",
    "sort_bad_comparators",
    "collect_panic_safety",
    "drain_panic_safety",
];
/// rt-dag's test of the closures and pointers whose lifetimes it erases
/// (a scoped graph's nodes, a task group's bodies, a pipeline's stages, the
/// run's executor): each used only while what it borrows lives.
const MIRI_DAG_TEST: &str = "lifetimes_under_miri";
/// The crates whose unit and integration tests run under ThreadSanitizer.
/// Their tests shrink their sizes under `cfg(rt_sanitized)`, which the run
/// sets, rather than being skipped.
const TSAN_CRATES: &[&str] = &["rt-handle", "rt-core", "rt-elastic", "rt-timer", "rt-dag"];
/// The toolchain miri and the sanitizers need: a nightly pinned by date, so
/// that every run checks with the same compiler and miri whatever nightly is
/// current (a newer one can reject flags or code the pinned one accepts).
/// Move it forward on purpose, in its own commit.
const NIGHTLY: &str = "nightly-2026-05-20";

/// `cargo xtask loom`: every loom model.
pub fn loom() -> Result<(), String> {
    steps::run_all(loom_steps())
}

/// The loom models, in the `loom` profile (optimized, since loom runs each
/// model thousands of times; debug assertions on, so that the protocols'
/// own `debug_assert!`s are checked in every interleaving too).
pub fn loom_steps() -> Vec<Step> {
    let mut cmd = cargo_in("loom", None);
    cmd.env("RUSTFLAGS", "--cfg loom")
        .args(["test", "--profile", "loom", "--lib"])
        .args(packages(LOOM_CRATES))
        .args(["loom_", "--", "--nocapture"]);
    vec![Step::new("loom models", cmd)]
}

/// `cargo xtask miri`: the unit tests of the core crates, a few small
/// integration tests of rt-core, and rt-par's unit and panic-safety tests,
/// under miri on nightly.
pub fn miri() -> Result<(), String> {
    ensure_nightly_components(&["miri", "rust-src"])?;
    steps::run_all(miri_steps())
}

/// The runs of [`miri`], once its toolchain is there.
pub fn miri_steps() -> Vec<Step> {
    let mut handles = cargo_in("miri", Some(NIGHTLY));
    handles.env("MIRIFLAGS", miri_flags(LeakCheck::On)).args([
        "miri",
        "test",
        "--lib",
        "-p",
        MIRI_LEAK_CHECKED_CRATE,
    ]);

    let mut units = cargo_in("miri", Some(NIGHTLY));
    units
        .env("MIRIFLAGS", miri_flags(LeakCheck::Off))
        .args(["miri", "test", "--lib"])
        .args(packages(MIRI_UNIT_CRATES));

    let mut integration = cargo_in("miri", Some(NIGHTLY));
    integration
        .env("MIRIFLAGS", miri_flags(LeakCheck::Off))
        .args(["miri", "test", "-p", "rt-core"]);
    for test in MIRI_INTEGRATION_TESTS {
        integration.args(["--test", test]);
    }

    let mut par = cargo_in("miri", Some(NIGHTLY));
    par.env("MIRIFLAGS", miri_flags(LeakCheck::Off))
        .args(["miri", "test", "-p", "rt-par", "--lib"]);
    for test in MIRI_PAR_TESTS {
        par.args(["--test", test]);
    }
    let mut dag = cargo_in("miri", Some(NIGHTLY));
    dag.env("MIRIFLAGS", miri_flags(LeakCheck::Off)).args([
        "miri",
        "test",
        "-p",
        "rt-dag",
        "--test",
        MIRI_DAG_TEST,
    ]);
    vec![
        Step::new("miri: rt-handle unit tests (leak-checked)", handles),
        Step::new("miri: rt-queue and rt-core unit tests", units),
        Step::new("miri: rt-core integration tests", integration),
        Step::new("miri: rt-par unit tests and panic-safety tests", par),
        Step::new("miri: rt-dag's erased lifetimes", dag),
    ]
}

/// What `cargo xtask ci` runs after its other steps: the loom models and
/// ThreadSanitizer in one lane, miri in another beside it (miri
/// interprets on one thread, leaving a core to the other lane). The
/// lanes' output is kept in `target/ci-logs` and printed when both end.
pub fn models_and_sanitizers() -> Result<(), String> {
    ensure_nightly_components(&["miri", "rust-src"])?;
    let mut loom_and_tsan = loom_steps();
    loom_and_tsan.extend(tsan_steps()?);
    steps::run_lanes(
        &target_dir().join("ci-logs"),
        vec![("loom and tsan", loom_and_tsan), ("miri", miri_steps())],
    )
}

/// Whether miri reports memory still allocated when the program ends.
#[derive(PartialEq)]
enum LeakCheck {
    On,
    /// For code on crossbeam-deque: crossbeam-epoch's global collector is a
    /// `static` that is never dropped, and it reaches its per-thread records
    /// and garbage bags only through pointers with tag bits packed into
    /// integers, which miri's leak checker cannot follow; so every test that
    /// touches a deque would "leak" a few hundred bytes that are in fact
    /// reachable. crossbeam's own CI ignores leaks for the same reason.
    Off,
}

/// The flags every miri run gets.
fn miri_flags(leaks: LeakCheck) -> String {
    // Tree Borrows, not the default Stacked Borrows: crossbeam-epoch (under
    // crossbeam-deque) walks its intrusive list in a way Stacked Borrows
    // rejects and Tree Borrows accepts; crossbeam's own CI runs miri with
    // Tree Borrows for that reason (crossbeam issue #545, PR #996). Our own
    // unsafe code is still checked for aliasing, under Tree Borrows' rules.
    //
    // Permissive provenance: crossbeam-epoch tags pointers with integer
    // casts; miri supports that, but warns unless told the program relies on
    // it. Every pointer our code creates comes from a reference or a box.
    let mut flags = "-Zmiri-tree-borrows -Zmiri-permissive-provenance".to_owned();
    if leaks == LeakCheck::Off {
        flags.push_str(" -Zmiri-ignore-leaks");
    }
    flags
}

/// `cargo xtask tsan`: the unit and integration tests of the handle and
/// runtime crates, built with ThreadSanitizer (std rebuilt with it too, so its
/// atomics and locks are instrumented).
pub fn tsan() -> Result<(), String> {
    ensure_nightly_components(&["rust-src"])?;
    steps::run_all(tsan_steps()?)
}

/// The run of [`tsan`], once its toolchain is there; fails on a host
/// ThreadSanitizer does not support.
pub fn tsan_steps() -> Result<Vec<Step>, String> {
    let target = host_triple()?;
    if !(target.starts_with("x86_64-") || target.starts_with("aarch64-"))
        || !(target.contains("linux") || target.contains("apple"))
    {
        return Err(format!(
            "ThreadSanitizer is not supported on `{target}`: run `cargo xtask tsan` \
             on x86_64/aarch64 Linux or macOS"
        ));
    }
    let mut cmd = cargo_in("tsan", Some(NIGHTLY));
    // Its std is rebuilt with the sanitizer, which an incremental cache
    // would double on disk for no gain in a build that runs once.
    cmd.env("RUSTFLAGS", "-Zsanitizer=thread --cfg rt_sanitized")
        .env("TSAN_OPTIONS", tsan_options())
        .env("CARGO_INCREMENTAL", "0")
        .args(["test", "-Zbuild-std", "--target", &target, "--tests"])
        .args(packages(TSAN_CRATES));
    Ok(vec![Step::new(
        "tsan: unit and integration tests of rt-handle, rt-core, rt-elastic, rt-timer, rt-dag",
        cmd,
    )])
}

/// Any report fails the run at once; no suppressions are used.
fn tsan_options() -> String {
    "halt_on_error=1 second_deadlock_stack=1".to_owned()
}

fn packages<'a>(crates: &[&'a str]) -> Vec<&'a str> {
    crates.iter().flat_map(|c| ["-p", c]).collect()
}

/// A cargo command (from `toolchain` through rustup, or the cargo running
/// xtask) building into `target/<name>`, with no inherited flags.
pub fn cargo_in(name: &str, toolchain: Option<&str>) -> Command {
    let mut cmd = match toolchain {
        Some(toolchain) => {
            let mut cmd = Command::new("rustup");
            cmd.args(["run", toolchain, "cargo"]);
            cmd
        }
        None => Command::new(std::env::var("CARGO").unwrap_or_else(|_| "cargo".into())),
    };
    cmd.env("CARGO_TARGET_DIR", target_dir().join(name))
        .env_remove("CARGO_ENCODED_RUSTFLAGS")
        .env_remove("RUSTFLAGS")
        .env_remove("RUSTDOCFLAGS")
        .env_remove("MIRIFLAGS");
    if toolchain.is_some() {
        // The cargo that runs xtask exports its own paths; the nightly
        // cargo must pick its own rustc and cargo instead.
        cmd.env_remove("CARGO")
            .env_remove("RUSTC")
            .env_remove("RUSTUP_TOOLCHAIN");
    }
    cmd
}

/// The workspace's target directory (or `$CARGO_TARGET_DIR`).
pub fn target_dir() -> PathBuf {
    match std::env::var_os("CARGO_TARGET_DIR") {
        Some(dir) => PathBuf::from(dir),
        None => workspace_root().join("target"),
    }
}

pub fn workspace_root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("xtask lives in the workspace root")
        .to_path_buf()
}

/// Makes sure rustup, the nightly toolchain and `components` are there,
/// installing what is missing; fails with a message naming what could not
/// be installed.
fn ensure_nightly_components(components: &[&str]) -> Result<(), String> {
    let toolchains = capture("rustup", &["toolchain", "list"]).map_err(|e| {
        format!(
            "rustup is not available ({e}); miri and ThreadSanitizer need rustup \
             with a nightly toolchain (https://rustup.rs)"
        )
    })?;
    if !toolchains.lines().any(|l| l.starts_with(NIGHTLY)) {
        println!("xtask: the {NIGHTLY} toolchain is missing; installing it with rustup");
        run_showing(
            "rustup",
            &["toolchain", "install", NIGHTLY, "--profile", "minimal"],
        )
        .map_err(|e| {
            format!("the {NIGHTLY} toolchain is not installed and could not be installed: {e}")
        })?;
    }
    let installed = capture(
        "rustup",
        &["component", "list", "--installed", "--toolchain", NIGHTLY],
    )
    .map_err(|e| format!("could not list the {NIGHTLY} components: {e}"))?;
    let missing: Vec<&str> = components
        .iter()
        .copied()
        .filter(|c| !installed.lines().any(|l| l.starts_with(c)))
        .collect();
    if !missing.is_empty() {
        println!(
            "xtask: installing the {NIGHTLY} component(s) {} with rustup",
            missing.join(", ")
        );
        let mut args = vec!["component", "add", "--toolchain", NIGHTLY];
        args.extend(&missing);
        run_showing("rustup", &args).map_err(|e| {
            format!(
                "the {NIGHTLY} component(s) {} are missing and could not be installed \
                 (`rustup component add --toolchain {NIGHTLY} {}`): {e}",
                missing.join(", "),
                missing.join(" ")
            )
        })?;
    }
    Ok(())
}

/// The host's target triple, as the nightly compiler reports it.
fn host_triple() -> Result<String, String> {
    let verbose = capture("rustup", &["run", NIGHTLY, "rustc", "-vV"])
        .map_err(|e| format!("could not run the {NIGHTLY} rustc: {e}"))?;
    verbose
        .lines()
        .find_map(|l| l.strip_prefix("host: "))
        .map(str::to_owned)
        .ok_or_else(|| "`rustc -vV` did not name the host target".to_owned())
}

/// Runs a command and returns its standard output; an error if it cannot
/// start or fails.
fn capture(program: &str, args: &[&str]) -> Result<String, String> {
    let output = Command::new(program)
        .args(args)
        .env_remove("RUSTUP_TOOLCHAIN")
        .stderr(Stdio::piped())
        .output()
        .map_err(|e| format!("`{program}` could not start: {e}"))?;
    if output.status.success() {
        Ok(String::from_utf8_lossy(&output.stdout).into_owned())
    } else {
        Err(format!(
            "`{program} {}` failed: {}",
            args.join(" "),
            String::from_utf8_lossy(&output.stderr).trim()
        ))
    }
}

/// Runs an installation command with its progress shown; an error if it
/// cannot start or fails.
fn run_showing(program: &str, args: &[&str]) -> Result<(), String> {
    let status = Command::new(program)
        .args(args)
        .env_remove("RUSTUP_TOOLCHAIN")
        .status()
        .map_err(|e| format!("`{program}` could not start: {e}"))?;
    if status.success() {
        Ok(())
    } else {
        Err(format!("`{program} {}` failed ({status})", args.join(" ")))
    }
}
