//! Which rayon-core this binary runs rayon code on, and rayon's global
//! pool.
//!
//! The build that patches rt's rayon-core in turns the feature `rt` on;
//! the parent checks that each child says what its build should be, and
//! that in the patched build rayon's work really runs on rt's workers.

/// The workers of rayon's global pool in every case (the machine has 2
/// CPUs).
pub const WORKERS: usize = 2;

/// Stack size of the global pool's threads, as in the fork-join benchmark
/// (`benches/forkjoin/runner.rs`): UTS T3 is 1,572 levels deep, and a
/// worker that waits in a join may run other tasks on top of its stack.
const STACK: usize = 256 << 20;

/// The rayon-core this binary was built with: `rt` or `rayon`.
pub fn name() -> &'static str {
    if cfg!(feature = "rt") {
        "rt"
    } else {
        "rayon"
    }
}

/// Builds rayon's global pool: [`WORKERS`] threads, big stacks.
pub fn global_pool() {
    rayon::ThreadPoolBuilder::new()
        .num_threads(WORKERS)
        .stack_size(STACK)
        .build_global()
        .expect("build rayon's global pool");
}

/// Whether rayon's work runs on a worker of an rt runtime: true in the
/// patched build only (rayon's own threads are no rt workers).
pub fn on_rt_worker() -> bool {
    rayon::scope(|_| rt::current_thread_index().is_some())
}

/// Checks a case process's ready line (`ready rayon-core=NAME
/// on-rt-worker=BOOL`, see `serve`) against the build it should come
/// from; the error says what is wrong.
pub fn check_ready(line: &str, expected: &str) -> Result<(), String> {
    let field = |key: &str| {
        line.split_whitespace()
            .find_map(|w| w.strip_prefix(key)?.strip_prefix('='))
    };
    let core = field("rayon-core").unwrap_or("?");
    let on_rt = field("on-rt-worker") == Some("true");
    if core != expected {
        Err(format!("built with rayon-core={core}, not {expected}"))
    } else if on_rt != (expected == "rt") {
        Err(format!(
            "rayon's work {} on rt's workers",
            if on_rt { "runs" } else { "does not run" }
        ))
    } else {
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::check_ready;

    #[test]
    fn a_child_must_run_on_the_rayon_core_of_its_build() {
        let real = "ready rayon-core=rayon on-rt-worker=false";
        let rt = "ready rayon-core=rt on-rt-worker=true";
        assert_eq!(check_ready(real, "rayon"), Ok(()));
        assert_eq!(check_ready(rt, "rt"), Ok(()));
        assert!(check_ready(real, "rt").is_err());
        assert!(check_ready(rt, "rayon").is_err());
        // Built with the feature but not running on rt's workers: the patch
        // did not take.
        let unpatched = "ready rayon-core=rt on-rt-worker=false";
        assert!(check_ready(unpatched, "rt")
            .unwrap_err()
            .contains("does not run"));
    }
}
