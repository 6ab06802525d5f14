//! The global runtime started on first use takes its worker count from
//! `RAYON_NUM_THREADS` when that holds a positive number, and one worker
//! per available CPU otherwise; `build_global` still decides when it comes
//! first, and runtimes built explicitly ignore the variable. The global
//! runtime exists once per process, so each case runs this test binary
//! again as a child process with the variable set.

mod support;

use std::process::Command;

use rt_core::Runtime;
use support::without_hanging;

/// The variable that makes the child test below report, and how.
const CHILD: &str = "RT_GLOBAL_THREADS_CHILD";
/// What the child prints before the count.
const REPORT: &str = "global-runtime-threads=";

/// In a child process only: starts the global runtime as `CHILD` says and
/// prints its worker count (`configured`: after a `build_global` of one
/// worker; `explicit`: the count of a runtime built with the defaults
/// instead).
#[test]
fn child_reports_the_global_runtime_s_worker_count() {
    let Some(mode) = std::env::var_os(CHILD) else {
        return; // only the scenario of the tests below, in their own process
    };
    without_hanging(move || {
        let threads = match mode.to_str().unwrap() {
            "first-use" => {
                let threads = rt_core::current_num_threads();
                assert_eq!(Runtime::global().threads(), threads);
                assert_eq!(rt_core::broadcast(|ctx| ctx.index()).len(), threads);
                threads
            }
            "configured" => {
                Runtime::builder().threads(1).build_global().unwrap();
                rt_core::current_num_threads()
            }
            "explicit" => Runtime::builder().build().unwrap().threads(),
            other => panic!("unknown mode {other}"),
        };
        println!("{REPORT}{threads}");
    });
}

/// Runs the child test with `RAYON_NUM_THREADS` set to `value` (unset for
/// `None`) in `mode`; returns the count it reported.
fn count_in_a_child(mode: &str, value: Option<&str>) -> usize {
    let mut child = Command::new(std::env::current_exe().unwrap());
    child
        .args([
            "--exact",
            "child_reports_the_global_runtime_s_worker_count",
            "--nocapture",
            "--test-threads",
            "1",
        ])
        .env(CHILD, mode);
    match value {
        Some(value) => child.env("RAYON_NUM_THREADS", value),
        None => child.env_remove("RAYON_NUM_THREADS"),
    };
    let output = child.output().unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(output.status.success(), "the child failed: {output:?}");
    // The report may follow the test's name on the same line.
    let (_, after) = stdout
        .split_once(REPORT)
        .unwrap_or_else(|| panic!("no report in {stdout:?}"));
    after.lines().next().unwrap().trim().parse().unwrap()
}

/// One worker per available CPU: the count without the variable.
fn available() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

#[test]
fn a_positive_count_in_the_variable_sets_the_global_runtime_s_workers() {
    without_hanging(|| {
        let more = available() + 1; // not what the machine would give
        assert_eq!(count_in_a_child("first-use", Some(&more.to_string())), more);
        assert_eq!(count_in_a_child("first-use", Some("1")), 1);
        assert_eq!(count_in_a_child("first-use", Some(" 3 ")), 3, "trimmed");
    });
}

#[test]
fn without_a_positive_count_the_global_runtime_has_a_worker_per_available_cpu() {
    without_hanging(|| {
        for value in [None, Some("0"), Some("-2"), Some("many"), Some("")] {
            assert_eq!(
                count_in_a_child("first-use", value),
                available(),
                "RAYON_NUM_THREADS={value:?}"
            );
        }
    });
}

#[test]
fn build_global_before_the_first_use_wins_over_the_variable() {
    without_hanging(|| {
        assert_eq!(count_in_a_child("configured", Some("3")), 1);
    });
}

#[test]
fn a_runtime_built_explicitly_ignores_the_variable() {
    without_hanging(|| {
        let more = (available() + 1).to_string();
        assert_eq!(count_in_a_child("explicit", Some(&more)), available());
    });
}
