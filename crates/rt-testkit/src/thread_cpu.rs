//! CPU time of a pool's threads, to check that idle workers really sleep.

/// Total CPU time, in nanoseconds, of this process's threads whose name
/// starts with `prefix`, from `/proc/self/task/*/schedstat` (Linux only).
pub fn cpu_ns_of_threads(prefix: &str) -> u64 {
    let mut total = 0;
    for task in std::fs::read_dir("/proc/self/task").unwrap().flatten() {
        let comm = std::fs::read_to_string(task.path().join("comm")).unwrap_or_default();
        if !comm.trim_end().starts_with(prefix) {
            continue;
        }
        // A thread may exit between the listing and this read: it counts 0.
        let Ok(stat) = std::fs::read_to_string(task.path().join("schedstat")) else {
            continue;
        };
        total += stat
            .split_whitespace()
            .next()
            .and_then(|ns| ns.parse::<u64>().ok())
            .expect("schedstat starts with the CPU time in ns");
    }
    total
}
