//! The per-task cost on a worker, for `valgrind --tool=callgrind`: submits
//! 20,000 empty tasks from the main thread to a 1-worker runtime and waits
//! for them. The worker thread's instruction count ÷ 20,000 is the figure
//! `docs/BENCHMARKS.md` quotes (it repeats to the instruction, unlike a
//! wall-clock time).
//!
//! ```text
//! cargo build --release -p rt-core --example per_task_cost
//! valgrind --tool=callgrind --separate-threads=yes \
//!     target/release/examples/per_task_cost execute   # or: spawn
//! ```
//!
//! `execute` submits tasks without a handle; `spawn` drops each handle at
//! once.

const TASKS: usize = 20_000;

fn main() {
    let mode = std::env::args().nth(1).unwrap_or_else(|| "execute".into());
    let rt = rt_core::Runtime::new(1).expect("a 1-worker runtime");
    for _ in 0..TASKS {
        let task = || {};
        match mode.as_str() {
            "spawn" => drop(rt.spawn(task)),
            _ => rt.execute(task).expect("the runtime accepts tasks"),
        }
    }
    rt.shutdown();
    assert_eq!(rt.metrics().completed, TASKS as u64);
}
