//! `cargo xtask rayon-compat [--real] [--only CRATE]`: test suites written
//! by others, run on `crates/rt-rayon-core` patched in for rayon-core.
//!
//! `crates/rt-rayon-core` is a drop-in replacement for rayon-core 1.13.0:
//! a user switches to it with `[patch.crates-io] rayon-core = { path = ... }`.
//! This command checks that claim against code nobody here wrote, pinned
//! to exact published versions:
//!
//! * rayon 1.12.0's own unit tests and `tests/` directory;
//! * rayon-core 1.13.0's `tests/` directory (public API only), built as the
//!   test targets of a generated package that depends on rayon-core;
//! * the unit and integration tests of crates built on rayon, with their
//!   rayon feature on ([`DEPENDENTS`]).
//!
//! Each crate's source comes from the registry through cargo itself (a
//! generated package depending on every pinned version, then `cargo
//! metadata` for where cargo unpacked them) and is copied once into a work
//! directory under `target/rayon-compat/`, one per mode, made a workspace of
//! its own. The copy's `Cargo.toml` keeps its dependencies as published: the
//! patch is given on cargo's command line (`--config patch.crates-io...`).
//! Before any test is built, `cargo tree` must show rayon-core coming from
//! our path (cargo only warns when a patch goes unused) and rayon at 1.12.0,
//! or the suite fails without running.
//!
//! With `--real` every suite runs on the published rayon-core 1.13.0
//! instead, unpatched: a test that fails there fails upstream too, and goes
//! in [`SKIP`] with that reason, instead of counting against the
//! replacement.
//!
//! The copies leave out the `Cargo.lock` they were published with: cargo
//! chooses the versions of everything not pinned here, the same across the
//! suites where their requirements allow, so that the suites share most of
//! their builds (a published lock file pins what its crate's day had, and
//! every suite would build its own crossbeam, rayon and rayon-core). Each
//! work directory keeps the lock file of its first run, and the builds are
//! not `--locked`. All suites build into one target directory,
//! `target/rayon-compat/target`, so that a second run rebuilds only what
//! changed, whichever the mode.

use std::fmt::Write as _;
use std::fs;
use std::io::{BufRead, BufReader, Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, ExitStatus, Stdio};
use std::sync::mpsc::{self, RecvTimeoutError};
use std::thread;
use std::time::{Duration, Instant};

use crate::{cargo, outside, verify};

/// A published crate at an exact version.
struct Pinned {
    name: &'static str,
    version: &'static str,
}

impl Pinned {
    /// `name-version`: the directory cargo unpacks it into, and ours.
    fn dir_name(&self) -> String {
        format!("{}-{}", self.name, self.version)
    }
}

/// The rayon whose tests run, and which the dependents are pinned to.
const RAYON: Pinned = Pinned {
    name: "rayon",
    version: "1.12.0",
};

/// The rayon-core that `crates/rt-rayon-core` replaces: the one `--real`
/// runs on, and whose `tests/` run in both modes.
const RAYON_CORE: Pinned = Pinned {
    name: "rayon-core",
    version: "1.13.0",
};

/// A published crate built on rayon, whose tests run with `features` on.
struct Dependent {
    krate: Pinned,
    features: &'static str,
}

/// The crates built on rayon whose tests run. Each is the newest release
/// (at the time of writing) whose published package carries tests that
/// build from it, and pass against the real rayon-core on rustc 1.95.
const DEPENDENTS: &[Dependent] = &[
    // Parallel iterators and sorts over maps and sets (unit tests in
    // `src/rayon/`).
    Dependent {
        krate: Pinned {
            name: "indexmap",
            version: "2.14.2",
        },
        features: "rayon",
    },
    // Parallel iterators over the raw table (`tests/rayon.rs` and unit
    // tests in `src/external_trait_impls/rayon/`).
    Dependent {
        krate: Pinned {
            name: "hashbrown",
            version: "0.17.2",
        },
        features: "rayon",
    },
    // Parallel `Zip`, `azip!` and axis iterators (`tests/par_*.rs`). Not
    // 0.17, whose published package carries no `tests/`, nor 0.16, whose
    // `tests/oper.rs` uses `ndarray-gen`, a path dev-dependency that its
    // package leaves out.
    Dependent {
        krate: Pinned {
            name: "ndarray",
            version: "0.15.6",
        },
        features: "rayon",
    },
    // Not blake3 (whose `rayon` feature calls rayon-core's `join`
    // directly): its unit tests use `reference_impl`, a path
    // dev-dependency that its published package leaves out, so they do not
    // build from the registry's source.
];

/// Tests that cannot pass on a replacement for reasons other than
/// behaviour (a test of rayon's internals, say), or that fail on the real
/// rayon-core too: (crate, test name as libtest prints it, reason). Each is
/// passed to that crate's test binaries as `--skip NAME --exact`.
const SKIP: &[(&str, &str, &str)] = &[];

/// How long the tests of one suite may run before they are taken for hung
/// (a deadlock in the rayon-core under test, say) and killed: the slowest
/// suite, rayon's, takes under a minute on the real rayon-core on 2 cores.
const TEST_TIME_LIMIT: Duration = Duration::from_secs(10 * 60);

/// The dev-dependencies of rayon-core 1.13.0 that its `tests/` use, as its
/// `Cargo.toml` declares them (`crossbeam-utils` is a normal dependency
/// there, used by `tests/scoped_threadpool.rs`).
const RAYON_CORE_TEST_DEPENDENCIES: &str = "\
rand = \"0.9\"
rand_xorshift = \"0.4\"
scoped-tls = \"1.0\"
crossbeam-utils = \"0.8\"
libc = \"0.2\"
";

/// Which rayon-core the suites build against.
enum Mode {
    /// The published rayon-core 1.13.0, unpatched (`--real`).
    Real,
    /// Ours, patched in from this (absolute) path.
    Patched(PathBuf),
}

impl Mode {
    /// The work directory of this mode's copies, under
    /// `target/rayon-compat/`.
    fn dir_name(&self) -> &'static str {
        match self {
            Mode::Real => "real",
            Mode::Patched(_) => "patched",
        }
    }

    /// Which rayon-core, for the headings.
    fn describe(&self) -> String {
        match self {
            Mode::Real => format!("the published rayon-core {}", RAYON_CORE.version),
            Mode::Patched(path) => format!("rayon-core patched to {}", path.display()),
        }
    }

    /// The `--config` options every cargo command of a suite takes.
    fn config(&self) -> Vec<String> {
        let mut settings = vec![
            // Line tables only, as in the root workspace: backtraces keep
            // file and line numbers, and the test binaries link faster.
            "profile.dev.debug=\"line-tables-only\"".to_owned(),
            // The newest versions, whatever the `rust-version` of the crate
            // under test (for an old one cargo picks old versions where it
            // can): the suites then resolve alike, and share the builds of
            // what they have in common, the rayon-core under test among
            // them.
            "resolver.incompatible-rust-versions=\"allow\"".to_owned(),
        ];
        if let Mode::Patched(path) = self {
            settings.push(outside::rayon_core_patch(path));
        }
        settings
            .into_iter()
            .flat_map(|setting| ["--config".to_owned(), setting])
            .collect()
    }

    /// The line `cargo tree --prefix none` must print for rayon-core: no
    /// source for the registry's, the path for ours.
    fn expected_rayon_core(&self) -> String {
        let package = format!("{} v{}", RAYON_CORE.name, RAYON_CORE.version);
        match self {
            Mode::Real => package,
            Mode::Patched(path) => format!("{package} ({})", path.display()),
        }
    }
}

/// One crate's tests, ready to run in `dir`.
struct Suite {
    /// The crate whose tests these are, as [`SKIP`] names it.
    krate: &'static str,
    /// The heading of its lines in the report: the crate and its version.
    title: String,
    /// The package directory cargo runs in.
    dir: PathBuf,
    /// `--features`, if any.
    features: Option<&'static str>,
    /// Which targets' tests run: never doc tests (each would be a binary
    /// of its own to build) nor benchmarks.
    targets: &'static [&'static str],
}

impl Suite {
    /// `--features` and its list, if the suite has features to turn on.
    fn feature_args(&self) -> Vec<&'static str> {
        match self.features {
            Some(features) => vec!["--features", features],
            None => vec![],
        }
    }
}

/// The command's options.
struct Options {
    mode: Mode,
    /// Runs only the suite of this crate.
    only: Option<String>,
}

/// Runs every suite, prints the counts and times of each, and fails if any
/// suite did not resolve as it must, did not build, or had a test fail.
pub fn rayon_compat(args: &[String]) -> Result<(), String> {
    let started = Instant::now();
    let options = parse_options(args)?;
    let root = verify::target_dir().join("rayon-compat");
    let target = root.join("target");
    println!("xtask rayon-compat: on {}", options.mode.describe());

    let mut fetching = Duration::ZERO;
    let sources = timed("fetch the pinned sources", &mut fetching, || {
        fetch_sources(&root.join("sources"))
    })?;
    let suites = prepare_suites(&sources, &root.join(options.mode.dir_name()))?;
    let reports: Vec<Report> = suites
        .iter()
        .filter(|s| options.only.as_deref().is_none_or(|only| only == s.krate))
        .map(|suite| run_suite(suite, &options.mode, &target))
        .collect();
    print_summary(&options.mode, &reports, fetching, started.elapsed());
    let failed: Vec<&str> = reports
        .iter()
        .filter(|r| r.problem.is_some())
        .map(|r| r.title.as_str())
        .collect();
    if failed.is_empty() {
        Ok(())
    } else {
        Err(format!("rayon-compat failed: {}", failed.join(", ")))
    }
}

fn parse_options(args: &[String]) -> Result<Options, String> {
    let usage = "usage: cargo xtask rayon-compat [--real] [--only CRATE]";
    let (mut real, mut only) = (false, None);
    let mut args = args.iter();
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--real" => real = true,
            "--only" => only = Some(args.next().ok_or(usage)?.clone()),
            _ => return Err(usage.to_owned()),
        }
    }
    let crates = [RAYON.name, RAYON_CORE.name]
        .into_iter()
        .chain(DEPENDENTS.iter().map(|d| d.krate.name));
    if let Some(only) = only.as_deref().filter(|o| !crates.clone().any(|c| c == *o)) {
        let crates: Vec<&str> = crates.collect();
        return Err(format!(
            "no suite `{only}`: `--only` takes one of {}",
            crates.join(", ")
        ));
    }
    let mode = if real {
        Mode::Real
    } else {
        Mode::Patched(outside::rt_rayon_core()?)
    };
    Ok(Options { mode, only })
}

/// Runs `phase` under a heading, and says how it ended and how long it
/// took, which it also stores in `time`.
fn timed<T>(
    heading: &str,
    time: &mut Duration,
    phase: impl FnOnce() -> Result<T, String>,
) -> Result<T, String> {
    println!("\n==> {heading}");
    let started = Instant::now();
    let result = phase();
    *time = started.elapsed();
    match &result {
        Ok(_) => println!("==> {heading}: ok in {time:.1?}"),
        Err(e) => println!("==> {heading}: FAILED in {time:.1?}: {e}"),
    }
    result
}

/// Has cargo download every pinned crate, into its registry cache, through
/// a generated package in `dir` that depends on each at its exact version;
/// returns where cargo unpacked each, by crate name.
fn fetch_sources(dir: &Path) -> Result<Vec<(&'static str, PathBuf)>, String> {
    let pinned: Vec<&Pinned> = [&RAYON, &RAYON_CORE]
        .into_iter()
        .chain(DEPENDENTS.iter().map(|d| &d.krate))
        .collect();
    let mut manifest = String::from(
        "# Generated by `cargo xtask rayon-compat`: only its dependencies matter,\n\
         # the sources cargo downloads for them.\n\
         [package]\nname = \"rayon-compat-sources\"\nversion = \"0.0.0\"\n\
         edition = \"2021\"\npublish = false\n\n[lib]\npath = \"lib.rs\"\n\n[dependencies]\n",
    );
    for krate in &pinned {
        let _ = writeln!(manifest, "{} = \"={}\"", krate.name, krate.version);
    }
    // Its own workspace: it lies under the root workspace's directory.
    manifest.push_str("\n[workspace]\n");
    write_if_changed(&dir.join("Cargo.toml"), &manifest)?;
    write_if_changed(&dir.join("lib.rs"), "")?;

    let mut metadata = cargo(&["metadata", "--format-version", "1"]);
    metadata.current_dir(dir).stderr(Stdio::inherit());
    let json = output_of(metadata, "cargo metadata")?;
    pinned
        .into_iter()
        .map(|krate| {
            let manifest = manifest_path(&json, &krate.dir_name())
                .ok_or(format!("cargo metadata did not list {}", krate.dir_name()))?;
            let source = Path::new(manifest)
                .parent()
                .expect("a manifest path ends with Cargo.toml");
            Ok((krate.name, source.to_path_buf()))
        })
        .collect()
}

/// The path of `<dir_name>/Cargo.toml` in `cargo metadata`'s JSON: the
/// `manifest_path` that ends that way (a registry package's directory is
/// named after it and its version, and a path of plain characters needs no
/// escaping in JSON).
fn manifest_path<'a>(json: &'a str, dir_name: &str) -> Option<&'a str> {
    let ending = format!("/{dir_name}/Cargo.toml");
    json.split("\"manifest_path\":\"")
        .skip(1)
        .filter_map(|rest| rest.split('"').next())
        .find(|path| path.ends_with(&ending))
}

/// The suites, in the order they run, in the work directory `work`: the
/// registry sources copied there (once), and the package of rayon-core's
/// tests generated there.
fn prepare_suites(sources: &[(&str, PathBuf)], work: &Path) -> Result<Vec<Suite>, String> {
    let source = |name: &str| {
        sources
            .iter()
            .find(|(n, _)| *n == name)
            .map(|(_, path)| path.as_path())
            .expect("every pinned crate was fetched")
    };
    let mut suites = vec![Suite {
        krate: RAYON.name,
        title: format!("rayon {}", RAYON.version),
        dir: copy_package(source(RAYON.name), &work.join(RAYON.dir_name()))?,
        features: None,
        targets: &["--lib", "--tests"],
    }];
    suites.push(Suite {
        krate: RAYON_CORE.name,
        title: format!("rayon-core {} tests/", RAYON_CORE.version),
        dir: rayon_core_tests_package(source(RAYON_CORE.name), &work.join("rayon-core-tests"))?,
        features: None,
        targets: &["--tests"],
    });
    for dependent in DEPENDENTS {
        let krate = &dependent.krate;
        suites.push(Suite {
            krate: krate.name,
            title: format!("{} {}", krate.name, krate.version),
            dir: copy_package(source(krate.name), &work.join(krate.dir_name()))?,
            features: Some(dependent.features),
            targets: &["--lib", "--tests"],
        });
    }
    Ok(suites)
}

/// Copies the package at `source` to `dest` unless an earlier run did, as a
/// workspace of its own and without its lock file; returns `dest`. The
/// copy is made beside `dest` and renamed into place, so that an
/// interrupted run leaves no half copy; it is never refreshed, so its files
/// keep their times and cargo does not rebuild them (a registry package of
/// a given version never changes).
fn copy_package(source: &Path, dest: &Path) -> Result<PathBuf, String> {
    if dest.exists() {
        return Ok(dest.to_path_buf());
    }
    let mut partial = dest.as_os_str().to_owned();
    partial.push(".partial");
    let partial = PathBuf::from(partial);
    if partial.exists() {
        fs::remove_dir_all(&partial).map_err(|e| format!("{}: {e}", partial.display()))?;
    }
    copy_tree(source, &partial)?;
    let lock = partial.join("Cargo.lock");
    if lock.exists() {
        fs::remove_file(&lock).map_err(|e| format!("{}: {e}", lock.display()))?;
    }
    // Under the root workspace's directory, the copy would otherwise be
    // taken for one of its members (and refused, since it is not listed).
    let manifest = partial.join("Cargo.toml");
    let text = read(&manifest)?;
    if !text.lines().any(|l| l.trim() == "[workspace]") {
        write(&manifest, &format!("{text}\n[workspace]\n"))?;
    }
    fs::rename(&partial, dest).map_err(|e| format!("{}: {e}", dest.display()))?;
    Ok(dest.to_path_buf())
}

fn copy_tree(from: &Path, to: &Path) -> Result<(), String> {
    fs::create_dir_all(to).map_err(|e| format!("{}: {e}", to.display()))?;
    let entries = fs::read_dir(from).map_err(|e| format!("{}: {e}", from.display()))?;
    for entry in entries {
        let entry = entry.map_err(|e| format!("{}: {e}", from.display()))?;
        let (from, to) = (entry.path(), to.join(entry.file_name()));
        if entry.file_type().is_ok_and(|t| t.is_dir()) {
            copy_tree(&from, &to)?;
        } else {
            fs::copy(&from, &to).map_err(|e| format!("{}: {e}", from.display()))?;
        }
    }
    Ok(())
}

/// Generates, in `dir`, a package whose test targets are the files of
/// rayon-core's `tests/` (in the registry's copy at `source`), named as
/// rayon-core names them, and which depends on rayon-core at its exact
/// version, so that the patch replaces it; returns `dir`.
fn rayon_core_tests_package(source: &Path, dir: &Path) -> Result<PathBuf, String> {
    let tests = source.join("tests");
    let mut files: Vec<PathBuf> = fs::read_dir(&tests)
        .map_err(|e| format!("{}: {e}", tests.display()))?
        .filter_map(|entry| entry.ok().map(|e| e.path()))
        .filter(|path| path.extension().is_some_and(|x| x == "rs"))
        .collect();
    files.sort();
    let mut manifest = format!(
        "# Generated by `cargo xtask rayon-compat`: the tests of rayon-core {version}\n\
         # (its tests/ directory), built against the rayon-core of the run's mode.\n\
         [package]\nname = \"rayon-core-tests\"\nversion = \"0.0.0\"\nedition = \"2021\"\n\
         publish = false\n\n[lib]\npath = \"lib.rs\"\ntest = false\ndoctest = false\n\n\
         [dependencies]\nrayon-core = \"={version}\"\n\n[dev-dependencies]\n\
         {RAYON_CORE_TEST_DEPENDENCIES}",
        version = RAYON_CORE.version,
    );
    for file in &files {
        let name = file.file_stem().expect("a file name").to_string_lossy();
        let path = outside::toml_string(&file.to_string_lossy());
        let _ = write!(manifest, "\n[[test]]\nname = \"{name}\"\npath = {path}\n");
    }
    manifest.push_str("\n[workspace]\n");
    write_if_changed(&dir.join("Cargo.toml"), &manifest)?;
    write_if_changed(&dir.join("lib.rs"), "")?;
    Ok(dir.to_path_buf())
}

/// How one suite went.
struct Report {
    title: String,
    tally: Tally,
    /// Why it failed: the resolution, the build, failed tests, or a test
    /// binary that ended without its result line.
    problem: Option<String>,
    /// How long resolving (and checking the versions), building the tests
    /// and running them took.
    times: [Duration; 3],
}

/// Resolves the suite's dependencies and checks them, builds its tests,
/// then runs them; each phase under a heading with its time. A phase that
/// fails ends the suite, and its report says why.
fn run_suite(suite: &Suite, mode: &Mode, target: &Path) -> Report {
    let mut tally = Tally::default();
    let [mut resolving, mut building, mut testing] = [Duration::ZERO; 3];
    let title = &suite.title;
    let result = timed(&format!("{title}: resolve"), &mut resolving, || {
        resolve(suite, mode)
    })
    .and_then(|()| {
        timed(&format!("{title}: build"), &mut building, || {
            build(suite, mode, target)
        })
    })
    .and_then(|()| {
        timed(&format!("{title}: test"), &mut testing, || {
            run_tests(suite, mode, target, &mut tally)
        })
    });
    Report {
        title: title.clone(),
        tally,
        problem: result.err(),
        times: [resolving, building, testing],
    }
}

/// Resolves the suite's dependencies, pins rayon (where it is a dependency)
/// to [`RAYON`] and, on the real one, rayon-core to [`RAYON_CORE`]; then
/// checks with `cargo tree` that they resolved so, and that the patch, if
/// any, was used.
fn resolve(suite: &Suite, mode: &Mode) -> Result<(), String> {
    let mut tree = dependency_tree(suite, mode)?;
    if let Some(rayon) = package_line(&tree, RAYON.name).filter(|l| !is_at(l, &RAYON)) {
        println!(
            "    pinning rayon to {} (it resolved to `{rayon}`)",
            RAYON.version
        );
        pin(suite, mode, &RAYON)?;
        tree = dependency_tree(suite, mode)?;
    }
    // Only on the real one: pinning ours to a version would swap it for
    // the registry's.
    let expected = mode.expected_rayon_core();
    let core = package_line(&tree, RAYON_CORE.name);
    if let Some(core) = core.filter(|l| matches!(mode, Mode::Real) && *l != expected) {
        println!(
            "    pinning rayon-core to {} (it resolved to `{core}`)",
            RAYON_CORE.version
        );
        pin(suite, mode, &RAYON_CORE)?;
        tree = dependency_tree(suite, mode)?;
    }
    check_resolved(&tree, mode)
}

/// Checks that `tree` has rayon-core from where the mode says (our path
/// when patched: cargo only warns when a patch goes unused) and rayon, if
/// any, at [`RAYON`]'s version; prints both.
fn check_resolved(tree: &str, mode: &Mode) -> Result<(), String> {
    let expected = mode.expected_rayon_core();
    let core = package_line(tree, RAYON_CORE.name).unwrap_or("no rayon-core at all");
    if core != expected {
        let unused = match mode {
            Mode::Patched(_) => ": the patch was NOT used",
            Mode::Real => "",
        };
        return Err(format!("rayon-core is `{core}`, not `{expected}`{unused}"));
    }
    println!("    {core}");
    if let Some(rayon) = package_line(tree, RAYON.name) {
        if !is_at(rayon, &RAYON) {
            return Err(format!("rayon is `{rayon}`, not {}", RAYON.version));
        }
        println!("    {rayon}");
    }
    Ok(())
}

/// Every package of the suite's dependency graph (normal, build and dev
/// edges), one a line, as `name vX.Y.Z`, followed by its source in
/// parentheses when it is not crates.io.
fn dependency_tree(suite: &Suite, mode: &Mode) -> Result<String, String> {
    let mut tree = suite_cargo(suite, mode, "tree");
    tree.args(suite.feature_args())
        .args(["--prefix", "none"])
        .stderr(Stdio::inherit());
    output_of(tree, "resolving the dependencies (cargo tree)")
}

/// `cargo update NAME --precise VERSION`, in the suite's directory.
fn pin(suite: &Suite, mode: &Mode, krate: &Pinned) -> Result<(), String> {
    let mut update = suite_cargo(suite, mode, "update");
    update.args([krate.name, "--precise", krate.version]);
    succeeds(update, &format!("cargo update {} --precise", krate.name))
}

/// The line of `tree` for the package `name`, without the ` (*)` that
/// marks a repeat.
fn package_line<'a>(tree: &'a str, name: &str) -> Option<&'a str> {
    tree.lines()
        .find(|line| line.split(' ').next() == Some(name))
        .map(|line| line.trim_end().trim_end_matches(" (*)"))
}

/// Whether a line of `cargo tree` is the package at `krate`'s version.
fn is_at(line: &str, krate: &Pinned) -> bool {
    line.split(' ').nth(1) == Some(&format!("v{}", krate.version))
}

/// `cargo test --no-run`: a build failure is told apart from a test's.
fn build(suite: &Suite, mode: &Mode, target: &Path) -> Result<(), String> {
    let mut build = test_command(suite, mode, target);
    build.arg("--no-run");
    succeeds(build, "cargo test --no-run")
}

/// Runs the suite's tests, every test binary even after one fails, with
/// the [`SKIP`] entries of its crate skipped; their output passes through
/// and is counted in `tally`.
fn run_tests(suite: &Suite, mode: &Mode, target: &Path, tally: &mut Tally) -> Result<(), String> {
    let mut test = test_command(suite, mode, target);
    test.arg("--no-fail-fast");
    let skips: Vec<_> = SKIP.iter().filter(|(k, ..)| *k == suite.krate).collect();
    if !skips.is_empty() {
        test.args(["--", "--exact"]);
        for (_, name, reason) in &skips {
            println!("    skipping {name}: {reason}");
            test.args(["--skip", name]);
        }
    }
    let (status, killed);
    (status, *tally, killed) = run_counting(test)?;
    if tally.skipped < skips.len() as u64 {
        println!(
            "    warning: {} of the {} skip entries matched no test",
            skips.len() as u64 - tally.skipped,
            skips.len()
        );
    }
    let crashed = tally.binaries.saturating_sub(tally.results);
    if killed {
        Err(format!(
            "still running after {} min, killed (a hang? libtest names the tests \
             running for over 60 seconds above)",
            TEST_TIME_LIMIT.as_secs() / 60
        ))
    } else if crashed > 0 {
        Err(format!(
            "{crashed} test binaries ended without a result (crashed?)"
        ))
    } else if tally.failed > 0 {
        Err(format!("{} tests failed", tally.failed))
    } else if !status.success() {
        Err(format!("cargo test failed ({status}) with no test failing"))
    } else {
        Ok(())
    }
}

/// Runs `cmd` with its output passed through line by line, counting the
/// test binaries cargo starts and libtest's results; kills it, and the
/// test binaries it started, if it runs past [`TEST_TIME_LIMIT`]. Returns
/// its exit status, the counts, and whether it was killed.
fn run_counting(mut cmd: Command) -> Result<(ExitStatus, Tally, bool), String> {
    // In a process group of its own, which the test binaries join: killed
    // together, none is left holding the pipes open.
    #[cfg(unix)]
    std::os::unix::process::CommandExt::process_group(&mut cmd, 0);
    let mut child = cmd
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| format!("cargo test: {e}"))?;
    let group = child.id();
    let stdout = child.stdout.take().expect("stdout is piped");
    let stderr = child.stderr.take().expect("stderr is piped");
    let (ended, ended_rx) = mpsc::channel::<()>();
    let (tally, killed) = thread::scope(|scope| {
        let watchdog = scope.spawn(move || {
            let hung = ended_rx.recv_timeout(TEST_TIME_LIMIT) == Err(RecvTimeoutError::Timeout);
            if hung {
                kill_group(group);
            }
            hung
        });
        let out = scope.spawn(|| echo_counting(stdout, std::io::stdout()));
        let err = echo_counting(stderr, std::io::stderr());
        let tally = out.join().expect("the reader does not panic").add(err);
        // Every process has closed the pipes: the watchdog can stop.
        drop(ended);
        (tally, watchdog.join().expect("the watchdog does not panic"))
    });
    let status = child.wait().map_err(|e| format!("cargo test: {e}"))?;
    Ok((status, tally, killed))
}

/// Kills every process of the process group `group` (`kill -KILL -GROUP`).
fn kill_group(group: u32) {
    let killed = Command::new("kill")
        .args(["-KILL", "--", &format!("-{group}")])
        .status();
    if !killed.is_ok_and(|s| s.success()) {
        eprintln!("xtask: could not kill the hung tests (process group {group})");
    }
}

/// Copies `from` to `to` line by line, counting each line.
fn echo_counting(from: impl Read, mut to: impl Write) -> Tally {
    let mut tally = Tally::default();
    let mut reader = BufReader::new(from);
    let mut line = Vec::new();
    while reader.read_until(b'\n', &mut line).is_ok_and(|n| n > 0) {
        let _ = to.write_all(&line);
        tally.count(&String::from_utf8_lossy(&line));
        line.clear();
    }
    tally
}

/// What `cargo test` reported: the test binaries it started, the results
/// they printed, and the tests counted in those results.
#[derive(Clone, Copy, Default, Debug, PartialEq)]
struct Tally {
    passed: u64,
    failed: u64,
    ignored: u64,
    /// Filtered out: the `--skip` entries of [`SKIP`].
    skipped: u64,
    /// `Running ...` lines of cargo, one per test binary.
    binaries: u64,
    /// `test result: ...` lines of libtest, one per binary that ended.
    results: u64,
}

impl Tally {
    /// Counts one line of output: cargo starting a test binary
    /// (`     Running unittests src/lib.rs (...)`) or the line that ends its
    /// output (`test result: ok. 3 passed; 0 failed; 1 ignored; 0 measured;
    /// 2 filtered out; finished in 0.01s`).
    fn count(&mut self, line: &str) {
        let line = line.trim();
        if line.starts_with("Running ") {
            self.binaries += 1;
        }
        let Some(result) = line.strip_prefix("test result: ") else {
            return;
        };
        self.results += 1;
        let words: Vec<&str> = result.split_whitespace().collect();
        for pair in words.windows(2) {
            let Ok(n) = pair[0].parse::<u64>() else {
                continue;
            };
            match pair[1].trim_end_matches(';') {
                "passed" => self.passed += n,
                "failed" => self.failed += n,
                "ignored" => self.ignored += n,
                "filtered" => self.skipped += n,
                _ => {}
            }
        }
    }

    fn add(self, other: Tally) -> Tally {
        Tally {
            passed: self.passed + other.passed,
            failed: self.failed + other.failed,
            ignored: self.ignored + other.ignored,
            skipped: self.skipped + other.skipped,
            binaries: self.binaries + other.binaries,
            results: self.results + other.results,
        }
    }
}

/// `cargo <subcommand>` in the suite's directory, with the mode's
/// configuration.
fn suite_cargo(suite: &Suite, mode: &Mode, subcommand: &str) -> Command {
    let mut cmd = cargo(&[subcommand]);
    cmd.current_dir(&suite.dir).args(mode.config());
    cmd
}

/// `cargo test` of the suite's targets with its features, into the shared
/// target directory `target`.
fn test_command(suite: &Suite, mode: &Mode, target: &Path) -> Command {
    let mut cmd = suite_cargo(suite, mode, "test");
    cmd.arg("--target-dir")
        .arg(target)
        .args(suite.feature_args())
        .args(suite.targets);
    cmd
}

/// A line per suite with its counts and the time of each phase, then the
/// time of fetching, the whole run's and, alone on the last line, the
/// totals.
fn print_summary(mode: &Mode, reports: &[Report], fetching: Duration, elapsed: Duration) {
    println!("\n==> rayon-compat on {}", mode.describe());
    println!(
        "{:<26} {:>7} {:>7} {:>8} {:>8} {:>9} {:>9} {:>9}",
        "suite", "passed", "failed", "ignored", "skipped", "resolve", "build", "test"
    );
    let mut total = Tally::default();
    for report in reports {
        let t = &report.tally;
        let [resolve, build, test] = report.times.map(|d| format!("{:.1}s", d.as_secs_f64()));
        println!(
            "{:<26} {:>7} {:>7} {:>8} {:>8} {resolve:>9} {build:>9} {test:>9}",
            report.title, t.passed, t.failed, t.ignored, t.skipped
        );
        if let Some(problem) = &report.problem {
            println!("    FAILED: {problem}");
        }
        total = total.add(report.tally);
    }
    println!(
        "fetching the sources: {:.1}s; wall time of the whole run: {:.1}s",
        fetching.as_secs_f64(),
        elapsed.as_secs_f64()
    );
    println!(
        "rayon-compat: {} passed, {} failed, {} ignored upstream, {} skipped here",
        total.passed, total.failed, total.ignored, total.skipped
    );
}

/// Runs `cmd` with its output passed through; fails naming `what` if it
/// cannot start or exits unsuccessfully.
fn succeeds(mut cmd: Command, what: &str) -> Result<(), String> {
    let status = cmd.status().map_err(|e| format!("{what}: {e}"))?;
    if status.success() {
        Ok(())
    } else {
        Err(format!("{what} failed ({status})"))
    }
}

/// Runs `cmd` and returns its standard output; fails naming `what` if it
/// cannot start or exits unsuccessfully.
fn output_of(mut cmd: Command, what: &str) -> Result<String, String> {
    let output = cmd.output().map_err(|e| format!("{what}: {e}"))?;
    if output.status.success() {
        Ok(String::from_utf8_lossy(&output.stdout).into_owned())
    } else {
        Err(format!("{what} failed ({})", output.status))
    }
}

/// Writes `text` to `path` unless it already holds it: a generated file
/// keeps its time, and cargo does not rebuild what depends on it.
fn write_if_changed(path: &Path, text: &str) -> Result<(), String> {
    if fs::read_to_string(path).is_ok_and(|old| old == text) {
        return Ok(());
    }
    if let Some(dir) = path.parent() {
        fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    }
    write(path, text)
}

fn read(path: &Path) -> Result<String, String> {
    fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))
}

fn write(path: &Path, text: &str) -> Result<(), String> {
    fs::write(path, text).map_err(|e| format!("{}: {e}", path.display()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn libtest_results_and_cargo_binaries_are_counted() {
        let mut tally = Tally::default();
        for line in [
            "     Running unittests src/lib.rs (target/debug/deps/rayon-0a1b)\n",
            "test result: ok. 3 passed; 0 failed; 1 ignored; 0 measured; 2 filtered out; \
             finished in 0.01s\n",
            "     Running tests/chars.rs (target/debug/deps/chars-2c3d)\n",
            "test result: FAILED. 4 passed; 5 failed; 0 ignored; 0 measured; 0 filtered out; \
             finished in 1.20s\n",
            "test iter::test::it_works ... ok\n",
        ] {
            tally.count(line);
        }
        let expected = Tally {
            passed: 7,
            failed: 5,
            ignored: 1,
            skipped: 2,
            binaries: 2,
            results: 2,
        };
        assert_eq!(tally, expected);
    }

    #[test]
    fn the_manifest_path_is_found_by_its_directory() {
        let json = r#"{"packages":[{"name":"rayon-core","manifest_path":"/r/src/rayon-core-1.13.0/Cargo.toml"},{"name":"rayon","manifest_path":"/r/src/rayon-1.12.0/Cargo.toml"}]}"#;
        assert_eq!(
            manifest_path(json, "rayon-1.12.0"),
            Some("/r/src/rayon-1.12.0/Cargo.toml")
        );
        assert_eq!(
            manifest_path(json, "rayon-core-1.13.0"),
            Some("/r/src/rayon-core-1.13.0/Cargo.toml")
        );
        assert_eq!(manifest_path(json, "ayon-1.12.0"), None);
    }

    #[test]
    fn a_package_is_found_in_the_tree_with_its_source() {
        let tree = "rayon v1.12.0 (/w/rayon-1.12.0)\neither v1.15.0\n\
                    rayon-core v1.13.0 (/w/crates/rt-rayon-core)\ncrossbeam-deque v0.8.6\n\
                    rayon-core v1.13.0 (/w/crates/rt-rayon-core) (*)\n";
        assert_eq!(
            package_line(tree, "rayon-core"),
            Some("rayon-core v1.13.0 (/w/crates/rt-rayon-core)")
        );
        assert_eq!(
            package_line(tree, "rayon"),
            Some("rayon v1.12.0 (/w/rayon-1.12.0)")
        );
        assert_eq!(package_line(tree, "rand"), None);
    }
}
